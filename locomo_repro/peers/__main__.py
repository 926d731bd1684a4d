"""Command line: ``locomo-repro peers import|fetch|table|check`` (``locomo-repro import`` is the same import).

    locomo-repro peers fetch [--dir DIR]     # the pinned public files, into the cache; prints the folder
    locomo-repro peers table peers.json      # the arms side by side, like with like, paired intervals
    locomo-repro peers check [--dir DIR]     # the published tables, judged cell by cell and as tables

    locomo-repro peers import --arm memobase=memobase_eval.json --arm zep=zep_locomo_responses.json \\
        --arm backboard='backboard/*.json' -out peers.json [--refined-out peers_{arm}.jsonl] [--format F]

One line per system on stderr (matched, categories absent, what the file lacks); the written paths on
stdout.  Bad input is one line naming the file and exit status 2; nothing is written then.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from ..data import jsonio
from ..go import flags
from ..data.atomic import unwritable_all, write_files
from ..data.dataset import DatasetError, load
from ..go.json import dumps
from ..data.audit import AuditError
from ..score import ceiling, key as answer_key
from ..score.predictions import PredictionsError
from ..score.predictions import read as read_predictions
from ..score import convert
from ..score.formats import FORMATS, PeersError, read
from . import fetch, manifest, published, table

PROG = "locomo-repro peers"


class _Parser(flags.Parser):
    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise PeersError(f"{self.prog}: {message}")


def _arm(text: str) -> tuple[str, str]:
    name, eq, path = text.partition("=")
    if not eq or not name or not path or not name.replace("_", "").replace("-", "").isalnum():
        raise argparse.ArgumentTypeError(f"--arm takes NAME=PATH with a name of letters, digits, - or _, got {text!r}")
    return name, path


def parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The flags of ``prog`` (``locomo-repro peers``; ``locomo-repro`` itself for ``locomo-repro import`` and
    ``table``, so that each subcommand's help and errors say the name it was called by)."""
    p = _Parser(prog=prog, description="Other systems' published LoCoMo answers: import them, fetch them.")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    i = commands.add_parser("import", help="match systems' answer files to locomo10; write one official-shape file")
    i.add_argument("--arm", action="append", required=True, type=_arm, metavar="NAME=PATH",
                   help="one system: its file, a folder or glob (backboard), or zep's RESPONSES,GRADES")
    i.add_argument("--format", choices=FORMATS, help="force the format of every --arm (default: detected)")
    i.add_argument("-out", "--out", required=True, metavar="FILE", help="predictions in the official shape")
    i.add_argument("--refined-out", metavar="FILE",
                   help="also LoCoMo-Refined predictions JSONL ({arm} in the name when there are several arms)")
    i.add_argument("--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    i.set_defaults(prog=i.prog)
    f = commands.add_parser("fetch", help="download the peers' published files at pinned commits (sha256-checked)")
    f.add_argument("--dir", metavar="DIR", help=f"where to keep them (default: the cache, {fetch.cache_dir()})")
    t = commands.add_parser("table", help="arms side by side: official, mem0 and Refined F1/BLEU-1, judge; "
                                          "paired bootstrap differences")
    t.add_argument("file", metavar="FILE", help="predictions in the official shape (as import writes them)")
    c = commands.add_parser("check", help="the tables the peers publish (peers.yaml), each cell recomputed from its "
                                          "system's file, and each table judged as a table; exit 1 on a disagreement")
    c.add_argument("--dir", metavar="DIR", help=f"the peers' files (default: ${fetch.ENV}, else the cache)")
    c.add_argument("--manifest", metavar="PATH", help="peers.yaml (default: the kit's own)")
    c.add_argument("--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    answer_key.flag(c)
    answer_key.flag(t)
    t.add_argument("--data", metavar="PATH", help="the dataset, with -key audited (default: LOCOMO_DATA, else the cache)")
    t.add_argument("--judged", metavar="FILE", help="a judged file of the same replies (judge run's): one judge's J for "
                                                    "every arm beside the file's own, and their agreement")
    return p


def run_check(args: argparse.Namespace) -> int:
    """Print every published table judged as a table, then every cell; exit 1 when one disagrees with peers.yaml."""
    peers = manifest.load(Path(args.manifest) if args.manifest else manifest.default_path())
    folder = Path(args.dir) if args.dir else fetch.root()
    if not folder.is_dir():
        raise PeersError(f"{folder}: no peers' files there (locomo-repro peers fetch, or set {fetch.ENV})")
    samples = load(args.data)
    ceilings = None
    if args.key != answer_key.OFFICIAL:
        graded = answer_key.load(args.key)
        ceilings = ceiling.by_category(graded, graded.samples(samples))
    text, ok = published.render(peers, manifest.measure(peers, folder, samples), ceilings)
    sys.stdout.write(text)
    return 0 if ok else 1


def run_table(args: argparse.Namespace) -> int:
    """Print the side-by-side table of one predictions file."""
    from ..judge import files as judged_files
    from ..judge.verdicts import JudgedError

    try:
        predictions = answer_key.keyed(args.key, read_predictions(args.file), args.data)[0]
        made = judged_files.read(args.judged, lambda: load(args.data)).verdicts if args.judged else None
        sys.stdout.write(table.render(predictions, made, args.judged or ""))
    except (PredictionsError, JudgedError) as err:
        raise PeersError(str(err)) from None
    return 0


def run_fetch(args: argparse.Namespace) -> int:
    """Fetch what is missing and print the folder (``LOCOMO_PEERS=<it>`` points the tests and the manifest at it)."""
    print(fetch.fetch(Path(args.dir) if args.dir else None))
    return 0


def run_import(args: argparse.Namespace) -> int:
    names = [name for name, _ in args.arm]
    if len(set(names)) != len(names):
        raise PeersError(f"{args.prog}: arm names repeat: {', '.join(names)}")
    if args.refined_out and len(names) > 1 and "{arm}" not in args.refined_out:
        raise PeersError(f"{args.prog}: --refined-out {args.refined_out}: several arms need {{arm}} in the name")
    outputs = [("-out", args.out)]
    if args.refined_out:
        outputs += [("--refined-out", args.refined_out.replace("{arm}", name)) for name in names]
    inputs = [*(("--arm", path) for _, path in args.arm), ("--data", args.data or os.environ.get("LOCOMO_DATA"))]
    if problem := unwritable_all(outputs, inputs):  # before any work; never over an input
        raise PeersError(f"{args.prog}: {problem}")
    samples = load(args.data)
    matched = [convert.match(name, read(name, path, args.format), samples) for name, path in args.arm]
    for m in matched:
        print(convert.summary(m, samples), file=sys.stderr)
    out = convert.predictions(matched, samples)
    kept = sum(len(s["qa"]) for s in out)
    dropped = {m.name: len(m.replies) - kept for m in matched if len(m.replies) > kept}
    if dropped:
        print(f"questions not answered by every arm, left out: "
              f"{', '.join(f'{k} {n}' for k, n in dropped.items())}", file=sys.stderr)
    files = {Path(args.out): dumps(out).encode()}
    if args.refined_out:
        for m in matched:
            lines = [jsonio.dumps(r, ensure_ascii=False) + "\n" for r in convert.refined_records(m, samples)]
            files[Path(args.refined_out.replace("{arm}", m.name))] = "".join(lines).encode()
    write_files(files.items())  # all or none
    for path in files:
        print(path)
    return 0


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """``prog COMMAND ...`` (see :func:`parser`): one line and exit status 2 on bad input."""
    try:
        args = parser(prog).parse_args(argv)
        return {"import": run_import, "fetch": run_fetch, "table": run_table, "check": run_check}[args.command](args)
    except (PeersError, DatasetError, AuditError) as err:
        print(err, file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
