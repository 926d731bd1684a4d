"""``locomo-repro key [FILE…]``: what the audited answer key changes, and the ceilings it sets.

Per category, answerable and overall (the two denominators: the 1,540 answerable questions locomo-audit
counts, and all 1,986), how many questions each of the audit's error types touches, how many of them are
score-corrupting, and the ceiling a perfect system reaches under the official key when the audited answer
is the right one: the share of questions whose official gold is not wrong (AUDIT_REPORT.md: 1,441 of 1,540,
93.57%; single hop 95.72%, multi hop 90.07%).  With predictions files, per arm the share of its F1 under
the official key that comes from questions whose gold is wrong.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from ..data.audit import CITATION, CORRUPTING, TYPES, AuditError
from ..data.dataset import ANSWERABLE, CATEGORIES, LOCOMO, DatasetError, Sample, load as load_dataset, resolve
from ..go import flags
from . import signature
from .key import AUDITED, Key, found, load
from .predictions import PredictionsError, read
from ..data.records import record

PROG = "locomo-repro key"

#: The table's rows and the categories each adds up, in the run table's order.
ROWS: tuple[tuple[str, tuple[int, ...]], ...] = (
    *((CATEGORIES[kind], (kind,)) for kind in LOCOMO),
    ("answerable", ANSWERABLE),
    ("overall", LOCOMO),
)

#: A column's heading per error type: the type's name in lower case, without ``_ERROR``.
HEADS = {t: t.lower().removesuffix("_error") for t in TYPES}


def ceilings(key: Key, samples: Sequence[Sample]) -> list[tuple[str, int, dict[str, int], int, float]]:
    """Per row: its name, its questions, the questions each error type touches, the score-corrupting ones, and
    the ceiling (the share not corrupted; 1 for a row without questions)."""
    category = {(i, j): q.category for i, s in enumerate(samples) for j, q in enumerate(s.questions)}
    out = []
    for name, kinds in ROWS:
        n = sum(c in kinds for c in category.values())
        touched = {t: sum(e.type == t and category[at] in kinds for at, e in key.errors.items()) for t in TYPES}
        wrong = sum(touched[t] for t in CORRUPTING)
        out.append((name, n, touched, wrong, (n - wrong) / n if n else 1.0))
    return out


def by_category(key: Key, samples: Sequence[Sample]) -> dict[str, float]:
    """The ceilings by category number (``"1"``…``"5"``) and ``overall`` for the answerable questions (the
    denominator published tables of judge accuracy use)."""
    named = {name: c for name, _, _, _, c in ceilings(key, samples)}
    return {**{str(k): named[CATEGORIES[k]] for k in LOCOMO}, "overall": named["answerable"]}


def table(key: Key, samples: Sequence[Sample]) -> str:
    """The ceilings' table, headed by the errors file."""
    rows = ceilings(key, samples)
    corrupting = sum(e.corrupting for e in key.errors.values())
    lines = [f"{key.path}: {len(key.errors)} errors, {corrupting} score-corrupting, "
             f"{len(key.errors) - corrupting} citation-only", ""]
    heads = [HEADS[t] for t in (*CORRUPTING, CITATION)]
    lines.append(f"{'category':<14}{'n':>6}" + "".join(f"  {h:>13}" for h in heads) + f"  {'corrupting':>10}  "
                 f"{'ceiling':>8}")
    for name, n, touched, wrong, ceiling in rows:
        lines.append(f"{name:<14}{n:6d}" + "".join(f"  {touched[t]:13d}" for t in (*CORRUPTING, CITATION))
                     + f"  {wrong:10d}  {100 * ceiling:7.2f}%")
    return "\n".join(lines) + "\n"


@record
class Share:
    """One arm's answerable F1 under the official key and the part of it from questions whose gold is wrong:
    the answerable questions, their mean F1, how many of them have a wrong gold, and the share of the F1's sum
    those give (None where the sum is 0)."""

    n: int
    f1: float
    wrong: int
    share: float | None


def share(marks: Sequence[float], categories: Sequence[int], wrong: Sequence[bool]) -> Share:
    """An arm's :class:`Share` from each question's official score, category and whether its gold is wrong."""
    answerable = [c in ANSWERABLE for c in categories]
    total = sum(m for m, a in zip(marks, answerable) if a)
    from_wrong = sum(m for m, a, w in zip(marks, answerable, wrong) if a and w)
    n = sum(answerable)
    return Share(n, total / n if n else 0.0, sum(w for w, a in zip(wrong, answerable) if a),
                 from_wrong / total if total else None)


def wrong_gold(key: Key, position: int, questions: int) -> list[bool]:
    """Per question of the conversation at ``position`` of the dataset (of ``questions`` questions), whether the
    audit finds its gold wrong (a score-corrupting error: ``key`` the audited key)."""
    return [(position, j) in key.errors and key.errors[position, j].corrupting for j in range(questions)]


#: The heading of the shares' table.
SHARES = "share of each arm's answerable F1 (official key) from questions whose gold is wrong"


def share_table(title: str, arms: Mapping[str, Share]) -> str:
    """The shares' table: a line per arm (in the order given) of its :class:`Share`, under ``title``."""
    lines = [title, f"{'arm':<20}{'n':>6}{'F1':>8}{'wrong':>7}{'share':>8}"]
    for arm, got in arms.items():
        shown = f"{100 * got.share:7.2f}%" if got.share is not None else f"{'-':>8}"
        lines.append(f"{arm:<20}{got.n:6d}{got.f1:8.3f}{got.wrong:7d}{shown}")
    return "\n".join(lines) + "\n"


def shares(key: Key, samples: Sequence[Sample], path: str) -> str:
    """Per arm of a predictions file, graded under the official key: its answerable F1, and the share of it
    that comes from questions whose gold the audit finds wrong."""
    from .stats import grades  # here: a run that keeps -wrong-gold's shares (bench.stream) needs no numpy

    predictions = read(path)
    wrong = [at is not None and at in key.errors and key.errors[at].corrupting
             for at in found(predictions, samples)]
    categories = [q.category for q in predictions.questions]
    return share_table(f"{path}: {SHARES}", {arm: share(marks, categories, wrong)
                                             for arm, marks in grades(predictions).items()})


def parser() -> flags.Parser:
    """This command's flags."""
    p = flags.Parser(prog=PROG, description="The audited answer key: the errors each category holds, the ceilings "
                                            "they set, and per arm of predictions files the share of F1 from "
                                            "questions whose gold is wrong.")
    p.add_argument("files", nargs="*", metavar="FILE", help="predictions JSON in the official LoCoMo shape")
    p.add_argument("-data", "--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro key [FILE...]``: the table on stdout; bad input one line on stderr, exit 2, nothing on stdout."""
    args = parser().parse(argv)
    try:
        key = load(AUDITED)
        samples = key.samples(load_dataset(args.data))
        text = table(key, samples) + "".join("\n" + shares(key, samples, path) for path in args.files)
    except (AuditError, DatasetError, PredictionsError) as err:
        print(err, file=sys.stderr)
        return 2
    sys.stdout.write(text)
    signature.emit(signature.Signature((("data", signature.file_digest(resolve(args.data))), *key.signed())))
    return 0
