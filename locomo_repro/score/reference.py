"""The reference's outputs as the kit keeps them: tables verbatim, the rest as quote-free digests.

The reference is hanzoai/semantic ``bench/locomo`` (snapshot 0c787e9f), built with go 1.27.3 and run on
locomo10.json (sha256 79fa87e9…).  Its outputs are the kit's evidence that its Python is the published
Go system, so the kit carries them in ``golden/reference/``:

* every output that quotes nothing of the dataset (the tables) byte for byte, under its own name;
* the three predictions files and ``-show 5``, which quote questions, answers and replies, as digests
  (``<name>.digest.tsv``): a predictions file has one row per question and arm — the sha256 prefix of
  the reply, of the context ids and the confidence exactly as written — under a first line holding the
  whole file's sha256; ``-show`` output has one row per paragraph, named by its category and question.

``FILES`` is the one table of what the reference ran: each file's ``go run ./bench/locomo`` flags, which
are also the kit's.  ``build`` rebuilds ``golden/reference/`` from a folder of the reference's outputs::

    python -m locomo_repro.score.reference DIR --out golden/reference     (make reference-golden REF=DIR)
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ..go import flags
from ..data.dataset import write_atomic
from ..data.records import record


@record
class Output:
    """One output of the reference: its file, the flags it was run with, and how the kit keeps it."""

    name: str
    flags: tuple[str, ...]
    kept: str  # "verbatim", "answers" (a predictions file's digest) or "show" (a -show output's digest)
    command: str = ""  # how it was made when it is not ``go run ./bench/locomo FLAGS``

    @property
    def golden(self) -> str:
        """Its file name in ``golden/reference/``."""
        return self.name if self.kept == "verbatim" else f"{self.name}.digest.tsv"


def _runs(name: str, *flags: str, kept: str = "verbatim") -> Output:
    return Output(name, tuple(flags), kept)


#: Every output of the reference the kit compares itself with, in the order of the reference's table.
FILES: tuple[Output, ...] = (
    _runs("default.txt"),
    _runs("default-blind.txt", "-blind"),
    _runs("arms-factor.txt", "-arms", "factor"),
    _runs("arms-walk.txt", "-arms", "walk"),
    _runs("arms-walk-blind.txt", "-arms", "walk", "-blind"),
    _runs("arms-read.txt", "-arms", "read"),
    _runs("k2000-floor0.txt", "-k", "2000", "-floor", "0"),
    _runs("k20-parts4-band0.5.txt", "-k", "20", "-parts", "4", "-band", "0.5"),
    _runs("sweep-floor.txt", "-sweep", "floor"),
    _runs("sweep-span.txt", "-sweep", "span"),
    _runs("sweep-band.txt", "-sweep", "band"),
    _runs("sweep-parts.txt", "-sweep", "parts"),
    _runs("show5.txt", "-show", "5", kept="show"),
    _runs("out-answers.txt", "-out", "answers.json"),
    _runs("answers.json", "-out", "answers.json", kept="answers"),
    _runs("out-answers-walk.txt", "-arms", "walk", "-out", "answers-walk.json"),
    _runs("answers-walk.json", "-arms", "walk", "-out", "answers-walk.json", kept="answers"),
    _runs("out-answers-factor.txt", "-arms", "factor", "-out", "answers-factor.json"),
    _runs("answers-factor.json", "-arms", "factor", "-out", "answers-factor.json", kept="answers"),
    *(
        Output(f"stats-{a}.txt", ("-stats", f"{a}.json"), "verbatim")
        for a in ("answers", "answers-walk", "answers-factor")
    ),
    *(
        Output(f"official-score-{a}.txt", (), "verbatim",
               f"the official evaluation.py scoring {a}.json (make check; its per-conversation lines removed)")
        for a in ("answers", "answers-walk", "answers-factor")
    ),
    Output("extra-reach-all10-and-graph-gather.txt", (), "verbatim",
           "a test-only harness: kg.Walk reach at one and two hops over all ten conversations, "
           "and the graph arm read with Gather"),
    Output("extra-no-derived-facts.txt", (), "verbatim", "the default run with the reasoning engine given no rules"),
)


class ReferenceError(Exception):
    """A folder of reference outputs that cannot be read as such (one-line message)."""


def _sha(data: bytes, n: int = 16) -> str:
    return hashlib.sha256(data).hexdigest()[:n]


def answers_digest(raw: bytes) -> str:
    """The digest of a predictions file: ``sha256 <whole file>``, then per question and arm
    ``sample_id, qa index, arm, reply sha, context sha, confidence as written`` (tab-separated).

    The reply's digest is over its UTF-8 bytes, the context's over its ids joined by newlines; the
    confidence is the number's text as the file writes it, so a last-bit difference shows.
    """
    items = json.loads(raw, parse_float=str, parse_int=str)
    lines = [f"sha256\t{hashlib.sha256(raw).hexdigest()}"]
    for sample in items:
        for i, q in enumerate(sample["qa"]):
            for arm in sorted(k.removesuffix("_prediction") for k in q if k.endswith("_prediction")):
                context = "\n".join(q.get(f"{arm}_prediction_context") or [])
                lines.append("\t".join((
                    sample["sample_id"], str(i), arm,
                    _sha(q[f"{arm}_prediction"].encode()), _sha(context.encode()),
                    str(q.get(f"{arm}_prediction_confidence")),
                )))
    return "\n".join(lines) + "\n"


def show_digest(text: str) -> str:
    """The digest of ``-show`` output: ``sha256 <whole text>``, then one row per paragraph (blank-line
    separated): its name — ``head`` before the first category, ``<category> heading``, ``<category> Q<i>`` —
    and the sha256 prefix of its text."""
    lines = [f"sha256\t{hashlib.sha256(text.encode()).hexdigest()}"]
    category, asked = "", 0
    for n, paragraph in enumerate(text.split("\n\n")):
        if paragraph.startswith("== "):
            category, asked = paragraph.strip("= \n"), 0
            name = f"{category} heading"
        elif category and paragraph.lstrip("\n").startswith("  Q "):
            asked += 1
            name = f"{category} Q{asked}"
        else:
            name = f"paragraph {n}"
        lines.append(f"{name}\t{_sha(paragraph.encode())}")
    return "\n".join(lines) + "\n"


def first_difference(mine: str, theirs: str) -> str | None:
    """Where two digests first disagree, named by their rows' keys (None when they are equal)."""
    if mine == theirs:
        return None
    a, b = mine.splitlines(), theirs.splitlines()
    for x, y in zip(a[1:], b[1:]):
        if x != y:
            return f"first difference: mine {x!r}, the reference's {y!r}"
    if len(a) != len(b):
        return f"{len(a) - 1} rows against the reference's {len(b) - 1}"
    return "every row agrees; the bytes differ elsewhere (the dataset's fields or the layout)"


def kept(output: Output, data: bytes) -> bytes:
    """What ``golden/reference/`` holds for one output of the reference."""
    if output.kept == "answers":
        return answers_digest(data).encode()
    if output.kept == "show":
        return show_digest(data.decode()).encode()
    return data


def build(source: Path, out: Path) -> list[Path]:
    """Write ``golden/reference/``'s files from a folder of the reference's outputs; every file is read
    before any is written."""
    made: dict[Path, bytes] = {}
    for output in FILES:
        try:
            data = (source / output.name).read_bytes()
            made[out / output.golden] = kept(output, data)
        except OSError as err:
            raise ReferenceError(f"{source / output.name}: {err.strerror or err}") from None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise ReferenceError(f"{source / output.name}: not a predictions file of the reference") from None
    out.mkdir(parents=True, exist_ok=True)
    for path, data in made.items():
        write_atomic(path, data)
    return list(made)


def main(argv: Sequence[str] | None = None) -> int:
    p = flags.Parser(prog="python -m locomo_repro.score.reference",
                                description="Rebuild golden/reference/ from a folder of the reference's outputs.")
    p.add_argument("source", type=Path, metavar="DIR", help="the reference's outputs (default.txt, answers.json, …)")
    p.add_argument("--out", type=Path, default=Path("golden/reference"), help="where to write (default golden/reference)")
    args = p.parse(argv)
    try:
        written = build(args.source, args.out)
    except ReferenceError as err:
        print(f"reference: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"reference: {err.filename or args.out}: {err.strerror or err}", file=sys.stderr)
        return 2
    print(f"reference: {len(written)} files written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
