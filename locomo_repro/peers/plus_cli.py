"""Command line: ``locomo-repro plus fetch|stitch|import|score`` (LoCoMo-Plus as data).

    locomo-repro plus fetch [--dir DIR]          # its pinned files into the cache; prints the folder
    locomo-repro plus stitch -out stitched.json  # the 401 stitched conversations, a dataset the kit runs on
    locomo-repro plus import -out plus.json      # its published run in the official predictions shape
    locomo-repro plus score                      # that run's official F1 per category, cognitive its own row

``--dir`` (default ``LOCOMO_PLUS``, else the cache) holds LoCoMo-Plus's files, ``--data`` the dataset.  Bad
input is one line naming the file and exit status 2; nothing is written then.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from ..data import jsonio
from ..data.atomic import unwritable_all, write_files
from ..data.dataset import ANSWERABLE, CATEGORIES, COGNITIVE, LOCOMO, DatasetError, resolve
from ..go import flags
from ..go.json import dumps
from ..score.metric import grade
from . import fetch, plus, stitch
from ..score.formats import PeersError

PROG = "locomo-repro plus"
#: The reply a run writes for a question it did not answer (``evaluate_qa.py``'s ``call_llm``).
EMPTY = "(empty)"


class _Parser(flags.Parser):
    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise PeersError(f"{self.prog}: {message}")


def parser() -> flags.Parser:
    p = _Parser(prog=PROG, description="LoCoMo-Plus: its cognitive items stitched, its published run imported.")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    f = commands.add_parser("fetch", help="download LoCoMo-Plus's files at pinned commits (sha256-checked)")
    f.add_argument("--dir", metavar="DIR", help=f"where to keep them (default: the cache, {fetch.cache_dir(plus.FOLDER)})")
    for name, text in (("stitch", "the cognitive items stitched into the conversations, as a locomo10 dataset"),
                       ("import", "the published run (unified_predictions.json) in the official predictions shape"),
                       ("score", "the published run's official F1 per category, cognitive its own row")):
        c = commands.add_parser(name, help=text)
        c.add_argument("--dir", metavar="DIR", help=f"LoCoMo-Plus's files (default: ${plus.ENV}, else the cache)")
        c.add_argument("--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
        if name != "score":
            c.add_argument("-out", "--out", required=True, metavar="FILE", help="where to write it")
    return p


def _locomo(data: str | None) -> list[dict]:
    """locomo10 as its JSON holds it (the stitching reads the raw sessions and evidence, as LoCoMo-Plus does)."""
    file = resolve(data)
    try:
        raw = jsonio.load(file)
    except jsonio.InputError as err:
        raise DatasetError(str(err)) from None
    if not isinstance(raw, list) or not raw or not all(isinstance(s, dict) for s in raw):
        raise DatasetError(f"{file}: expected a list of samples")
    return raw


def _base(args) -> Path | None:
    return Path(args.dir) if args.dir else None


def published(args) -> tuple[list[dict], list[plus.Item], list[dict], str]:
    """locomo10, the items the published run answers, its records and its model (the arm's name)."""
    base = _base(args)
    records = plus.records(plus.path(plus.PREDICTIONS, base))
    answered = plus.answered(records, plus.items(plus.path(plus.ITEMS, base)), plus.path(plus.PREDICTIONS, base))
    models = sorted({r["model"] for r in records})
    if len(models) != 1:
        raise PeersError(f"{plus.path(plus.PREDICTIONS, base)}: records of {len(models)} models, not one")
    return _locomo(args.data), answered, records, models[0]


def table(entries: Sequence[dict], arm: str) -> str:
    """Per category (cognitive its own row), answerable and overall (the five with a gold answer): questions,
    the official F1 where a gold answer exists ("-" for cognitive, which has none), and the share of replies
    the run left empty."""
    graded: dict[int, list[tuple[float, bool]]] = {}
    for entry in entries:
        for qa in entry["qa"]:
            reply, answer = qa[f"{arm}_prediction"], qa["answer"]
            score = grade(qa["category"], reply, answer if isinstance(answer, str) else "")
            graded.setdefault(qa["category"], []).append((score, reply.strip() in ("", EMPTY)))
    lines = [f"{arm}", f"{'category':<14}{'n':>6}  {'F1':>6} {'empty':>6}"]
    rows = [(CATEGORIES[k], (k,)) for k in (*LOCOMO, COGNITIVE)] + [("answerable", ANSWERABLE), ("overall", LOCOMO)]
    for name, kinds in rows:
        marks = [m for k in kinds for m in graded.get(k, [])]
        f1 = "-" if kinds == (COGNITIVE,) or not marks else f"{sum(s for s, _ in marks) / len(marks):.3f}"
        empty = f"{100 * sum(e for _, e in marks) / len(marks):5.0f}%" if marks else f"{'-':>6}"
        lines.append(f"{name:<14}{len(marks):6d}  {f1:>6} {empty}")
    return "\n".join(lines) + "\n"


def run(args) -> int:
    if args.command == "fetch":
        print(fetch.fetch(_base(args), files=plus.FILES, env=plus.ENV, folder=plus.FOLDER))
        return 0
    if args.command != "score" and (problem := unwritable_all([("-out", args.out)])):
        raise PeersError(f"{PROG} {args.command}: {problem}")
    if args.command == "stitch":
        base = _base(args)
        items = plus.items(plus.path(plus.ITEMS, base))
        samples = [stitch.sample(s) for s in stitch.stitch_all(items, _locomo(args.data))]
        write_files([(Path(args.out), dumps(samples).encode())])
        print(f"{len(samples)} conversations, one cognitive question each", file=sys.stderr)
        print(args.out)
        return 0
    locomo, answered, records, arm = published(args)
    entries = stitch.imported(locomo, answered, records, arm, str(plus.path(plus.PREDICTIONS, _base(args))))
    if args.command == "score":
        sys.stdout.write(table(entries, arm))
        return 0
    write_files([(Path(args.out), dumps(entries).encode())])
    print(f"{arm}: {len(records)} records, every one the rebuilt unified input's; {len(answered)} cognitive",
          file=sys.stderr)
    print(args.out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(parser().parse_args(argv))
    except (PeersError, DatasetError) as err:
        print(err, file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
