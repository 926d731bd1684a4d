"""``python -m locomo_repro.stems``: remake the stem table the kit ships (``text/stems.tsv``).

Its words are every word the published commands stem over the dataset
(LOCOMO_DATA, else the cached copy), each arm set run once in this process
with the memo started empty, and the words of ``golden/stems.tsv``
(``score.golden.stem_words``: the corpus's normalised words and the classic
Porter test words).  The stems are the installed NLTK's.
"""

from __future__ import annotations

import io
import json
import sys

from . import cli
from .data.dataset import DatasetError, resolve
from .entry import finish
from .score.golden import stem_words
from .text import reduce, stems

PROG = "python -m locomo_repro.stems"
#: The published commands' arm sets and ablations, each run once.
RUNS: tuple[tuple[str, ...], ...] = ((), ("-arms", "walk"), ("-arms", "factor"), ("-arms", "read"),
                                     ("-arms", "hops"), ("-coref",))


def main() -> int:
    try:
        golden = stem_words(json.loads(resolve().read_bytes()), reduce.normalise)
        reduce.load_stems()
        reduce._STEM.clear()  # the shipped table taken and dropped: every word below is NLTK's
        for flags in RUNS:
            cli.run(cli.parser().parse_args(["-jobs", "1", "-quiet", *flags]), io.StringIO())
    except DatasetError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    sys.stdout.write(stems.table([*reduce._STEM, *golden]))
    return 0


if __name__ == "__main__":
    finish(main, PROG)
