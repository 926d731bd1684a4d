"""``python -m locomo_repro.stems [FILE…]``: remake the stem table the kit ships (``text/stems.tsv``).

Its words are every word the published commands stem over the dataset
(``-data``'s default: LOCOMO_DATA, else the cached copy), each arm set run
once in this process with the memo started empty, and the words of each FILE
(its first column, one a line: the Makefile gives ``golden/stems.tsv``, which
adds the classic Porter test words).  The stems are the installed NLTK's.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from pathlib import Path

from . import cli
from .entry import finish
from .text import reduce, stems

PROG = "python -m locomo_repro.stems"
#: The published commands' arm sets and ablations, each run once.
RUNS: tuple[tuple[str, ...], ...] = ((), ("-arms", "walk"), ("-arms", "factor"), ("-arms", "read"),
                                     ("-arms", "hops"), ("-coref",))


def main(argv: Sequence[str] | None = None) -> int:
    files = sys.argv[1:] if argv is None else list(argv)
    given: list[str] = []
    for file in files:
        try:
            given += (line.split("\t")[0] for line in Path(file).read_text(encoding="utf-8").split("\n") if line)
        except (OSError, UnicodeDecodeError) as err:
            print(f"{PROG}: {file}: {getattr(err, 'strerror', None) or err}", file=sys.stderr)
            return 2
    reduce.load_stems()
    reduce._STEM.clear()  # the shipped table taken and dropped: every word below is NLTK's
    for flags in RUNS:
        cli.run(cli.parser().parse_args(["-jobs", "1", "-quiet", *flags]), io.StringIO())
    sys.stdout.write(stems.table([*reduce._STEM, *given]))
    return 0


if __name__ == "__main__":
    finish(main, PROG)
