"""Every number the published README states, measured with the kit.

``claims.yaml`` (repository root) lists each numeric claim of the
publication (hanzoai/semantic ``bench/locomo/README.md``): where it stands,
what it measures, the value as printed, its precision and its status.  The
tests (``tests/test_claims.py``) and the command line share this package:

    locomo-repro claims [--manifest claims.yaml] [--markdown PATH]

prints the count of claims per status and every claim that is not simply
reproduced, with the published and the measured value.

Its modules, by concern:

* ``numbers`` — numbers in the publication's text, and what a word for a fraction names;
* ``manifest`` — claims.yaml's schema, read and checked (``load``);
* ``agree`` — whether a measurement agrees with a claim at its printed precision;
* ``runs`` — a claim's run: the benchmark's flags, read into the settings a run is made with;
* ``lab`` — the builds, runs, predictions, reach and timings the claims measure, each made once, in worker processes;
* ``expr`` and ``measures`` — what each kind of claim measures, registered where it is defined;
* ``report`` — verdicts, the summary table and the command line.

Statuses: ``reproduced`` (measured equals published at the printed
precision), ``refuted`` (it does not; the entry records what the kit
measures), ``refuted-by-reconstruction`` (as refuted, measured with an
experiment the publication removed and the kit rebuilt from its description:
``-arms hops``, ``-coref``, ``timewords``), ``reported`` (a figure of the
author's machine, such as a timing: the kit measures its own and reports it
beside the published one; nothing about its size is asserted) and
``unverifiable`` (no definition or code to measure it with).

Precision is the printed step (``0.001``, ``1``), ``exact`` for text and flags,
or ``fraction`` for a word naming a fraction (half, quarter, fifth).  A word for
a fraction agrees with a measurement when that fraction is the simple fraction
nearest to it — the fractions with denominators 1 to 5 (0, 1/5, 1/4, 1/3, 2/5,
1/2, ...) — that is, when the measurement lies strictly within half the gap to
each neighbouring simple fraction: "quarter" takes 0.225 to 0.2917 (exclusive),
"half" 0.45 to 0.55, "fifth" 0.1 to 0.225.

A claim that needs something not on this machine (the official
``evaluation.py``) is skipped, naming what is missing; it is never measured
another way.
"""

from __future__ import annotations

from .agree import FRACTION, agrees, expected, show
from .lab import Lab, NotAtHand, check_table
from .manifest import REFUTING, STATUSES, Claim, Manifest, ManifestError, NotClaim, default_path, load, validate
from .measures import KINDS, ROWS, Unverifiable, kind, measure, runs
from .numbers import FRACTION_WORDS, NUMBER_WORDS, SIMPLE_FRACTIONS, figure, names_fraction, numbers, split_documents, split_sections
from .report import Verdict, main, measured, summary, verdict
from .runs import Run, parse_run

__all__ = [
    "FRACTION", "agrees", "expected", "show",
    "Lab", "NotAtHand", "check_table",
    "REFUTING", "STATUSES", "Claim", "Manifest", "ManifestError", "NotClaim", "default_path", "load", "validate",
    "KINDS", "ROWS", "Unverifiable", "kind", "measure", "runs",
    "FRACTION_WORDS", "NUMBER_WORDS", "SIMPLE_FRACTIONS", "figure", "names_fraction", "numbers", "split_documents", "split_sections",
    "Verdict", "main", "measured", "summary", "verdict",
    "Run", "parse_run",
]
