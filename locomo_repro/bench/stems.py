"""``locomo-repro stems``: remake the stem table the kit ships (``text/stems.tsv``).

Its words are every word the published commands stem over the dataset
(LOCOMO_DATA, else the cached copy), each arm set run once in this process
with the memo started empty, the default run's under the audited answer key
(its corrected answers and evidence: ``score.key``), and the words of ``golden/stems.tsv``
(``score.golden.stem_words``: the corpus's normalised words and the classic
Porter test words).  The stems are the installed NLTK's.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..data import jsonio
from ..data.audit import AuditError
from ..data.dataset import DatasetError, load_each, resolve
from ..go import flags
from ..read.reader import Options
from ..score.golden import stem_words
from ..score.key import AUDITED, load as load_key
from ..text import reduce, stems
from .stream import Settings, outcomes

PROG = "locomo-repro stems"

#: The published commands' arm sets and ablations, each run once.
RUNS: tuple[Settings, ...] = tuple(Settings(Options(), arm_set=arms, coref=coref) for arms, coref in (
    ("main", False), ("walk", False), ("factor", False), ("read", False), ("hops", False), ("main", True)))


def parser() -> flags.Parser:
    """This command's flags: none but --help."""
    return flags.Parser(prog=PROG, description="Print the stem table the kit ships, remade with the installed NLTK.")


def main(argv: Sequence[str] = ()) -> int:
    parser().parse(argv)
    try:
        golden = stem_words(jsonio.load(resolve()), reduce.normalise)
        reduce.load_stems()
        reduce._STEM.clear()  # the shipped table taken and dropped: every word below is NLTK's
        for settings in RUNS:
            for _ in outcomes(load_each(), settings):
                pass
        for _ in outcomes(load_key(AUDITED).each(load_each()), Settings(Options())):
            pass
    except (DatasetError, jsonio.InputError, AuditError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    sys.stdout.write(stems.table([*reduce._STEM, *golden]))
    return 0
