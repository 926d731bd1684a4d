"""Reading a predictions file back: ``-stats`` of the reference benchmark.

Matches ``Stats`` of hanzoai/semantic ``bench/locomo/stats.go`` (a31a4551),
byte for byte on the reference answers files.  Three reports:

1. constant abstention: what replying "No information available" to every
   question scores, per category;
2. per arm, how well its confidence separates answerable questions
   (categories 1-4) from adversarial ones (category 5), as the ROC AUC
   (Mann-Whitney with mid-ranks), the same for the answered/declined
   decision, and the share declined in each half;
3. for every pair of arms in name order, the paired difference of mean score
   on each half with a 95% percentile bootstrap interval over conversations,
   computed exactly: every multiset of conversations drawn with replacement is
   enumerated once and weighted by its multinomial coefficient (past 12
   conversations, where that is too many, by a seeded Monte Carlo bootstrap:
   not in the reference, which refuses such files).

    locomo-repro stats answers.json
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..go import flags
from ..data.audit import AuditError
from ..data.dataset import ANSWERABLE, CATEGORIES, COGNITIVE, LOCOMO, DatasetError
from ..score.metric import DECLINE, declined, grade
from ..score import key, signature
from ..score.predictions import Answered, Predictions, PredictionsError, gold, parse, read

#: The category asking about what was never said; the others (``ANSWERABLE``) make the other half.
ADVERSARIAL = 5

#: Two-sided tail of the percentile interval (95%).
TAIL = 0.025

#: Most draws the exact bootstrap may enumerate: 12 conversations need
#: 1,352,078; 13 would need 5,200,300.
MAX_DRAWS = 2_000_000

#: Past that, the Monte Carlo bootstrap: this many resamples, drawn by numpy's PCG64 from this seed, so that
#: the same data gives the same interval every run.
RESAMPLES = 10_000
SEED = 0

#: Resamples drawn at once (the draws are the same as all at once; the memory is a block's).
BLOCK = 1_000


# --- Go's float formatting and arithmetic --------------------------------------------


def go_div(a: float, b: float) -> float:
    """IEEE division as Go does it: x/0 is ±Inf, 0/0 is NaN, instead of raising."""
    if b != 0:
        return a / b
    if a == 0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def go_f(value: float, width: int, precision: int, plus: bool = False) -> str:
    """Go's ``%[+]<width>.<precision>f``: Python's for finite values, Go's words for NaN and Inf.

    Go writes ``NaN`` (``+NaN`` under the plus flag) and always signs an
    infinity (``+Inf``, ``-Inf``), right-aligned in the width.
    """
    if math.isnan(value):
        text = "+NaN" if plus else "NaN"
    elif math.isinf(value):
        text = "+Inf" if value > 0 else "-Inf"
    else:
        return format(value, f"{'+' if plus else ''}{width}.{precision}f")
    return text.rjust(width)


# --- the three measures -------------------------------------------------------------


def _answer(question: Answered) -> str:
    """The answer graded against, read as the official scorer reads it: ``answer`` as text (a number as
    ``str`` writes it), else ``adversarial_answer`` (``render`` refuses a question with neither).

    The Go reference reads ``answer`` with a string type assertion, so there a number (the dataset writes six
    answers as JSON integers) or a missing answer grades as "".  Its own files hold a string answer for every
    question (the Go ``-out`` writes them so), where both readings are the same and the report is the
    reference's byte for byte; on any other file this one gives the official cross-check's F1.
    """
    value = question.answer if question.answer is not None else question.adversarial_answer
    return value if isinstance(value, str) else str(value)


def auc(pos: Sequence[float], neg: Sequence[float]) -> float:
    """Area under the ROC curve of ``pos`` against ``neg``: Mann-Whitney with mid-ranked ties.

    For each positive value, its rank among all values is (lo + hi + 1) / 2
    with lo the count of values below it and hi the count at or below it;
    AUC = (Σ ranks − n(n+1)/2) / (n·m).  NaN when either side is empty.
    """
    positives = np.asarray(pos, dtype=np.float64)
    everything = np.sort(np.concatenate([positives, np.asarray(neg, dtype=np.float64)]))
    lo = np.searchsorted(everything, positives, side="left")
    hi = np.searchsorted(everything, positives, side="right")
    # Every rank is a half-integer, so the sum is exact in any order.
    total = float(np.sum((lo + hi + 1) / 2))
    n, m = float(len(positives)), float(len(neg))
    return go_div(total - n * (n + 1) / 2, n * m)


def quiet(spoke: Sequence[float]) -> float:
    """Share of a half the arm declined (``spoke`` is 1 answered, 0 declined)."""
    silent = 0.0
    for answered in spoke:
        silent += 1 - answered
    return go_div(silent, float(len(spoke)))


@lru_cache(maxsize=None)
def _compositions(total: int, parts: int) -> np.ndarray:
    """Every vector of ``parts`` non-negative counts summing to ``total``, in lexicographic order."""
    if parts == 1:
        return np.array([[total]], dtype=np.int8)
    blocks = []
    for first in range(total + 1):
        rest = _compositions(total - first, parts - 1)
        blocks.append(np.column_stack([np.full(len(rest), first, dtype=np.int8), rest]))
    return np.vstack(blocks)


def _amount(count: int) -> str:
    """A count with thousands separators, or from 10^15 on a power of ten it exceeds (a file of a
    thousand conversations would otherwise print a number of 600 digits)."""
    if count < 10**15:
        return f"{count:,}"
    return f"more than 10^{int((count.bit_length() - 1) * math.log10(2))}"


def draw_count(n: int) -> int:
    """How many distinct resamples of n conversations from n there are: C(2n−1, n)."""
    return math.comb(2 * n - 1, n)


@lru_cache(maxsize=8)
def draws(n: int) -> tuple[np.ndarray, np.ndarray]:
    """All count vectors of n draws from n conversations, with their multinomial weights.

    Returns ``(counts, weights)``: counts is (C(2n−1, n), n) in lexicographic
    order, weights[i] = n! / ∏ counts[i]! (how many of the nⁿ ordered samples
    give that multiset), exact integers held as float64.  Read-only, cached.
    """
    if not 1 <= n <= 20:  # n! must fit an int64; far past MAX_DRAWS anyway
        raise ValueError(f"cannot enumerate the draws of {n} conversations")
    counts = _compositions(n, n)
    factorials = np.array([math.factorial(i) for i in range(n + 1)], dtype=np.int64)
    weights = (factorials[n] // np.prod(factorials[counts], axis=1)).astype(np.float64)
    counts.setflags(write=False)
    weights.setflags(write=False)
    return counts, weights


def quantile(values: np.ndarray, weights: np.ndarray, q: float) -> float:
    """First value, in ascending order, at which the cumulative weight reaches q × total.

    Tied values sit together after sorting, so the order among ties (the
    reference's sort is not stable) cannot change which value is returned.
    """
    return quantiles(values, weights, (q,))[0]


def quantiles(values: np.ndarray, weights: np.ndarray, qs: Sequence[float]) -> list[float]:
    """:func:`quantile` at each of ``qs``, the values sorted once."""
    if len(values) == 0:
        return [math.nan for _ in qs]
    order = np.argsort(values, kind="stable")
    # Weights are integers below 2**53: the running sum is exact.
    seen = np.cumsum(weights[order])
    whole = float(np.sum(weights))
    return [float(values[order[min(int(np.searchsorted(seen, q * whole, side="left")), len(order) - 1)]])
            for q in qs]


def resampled(diff: Sequence[float], size: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Every resample's statistic Σ cᵢ·diffᵢ / Σ cᵢ·sizeᵢ, in the order of :func:`draws`, with its weight.

    ``diff[c]`` is conversation c's summed score (or score difference) and ``size[c]`` its question count;
    the sums are accumulated in conversation order as the reference does (so the floats are the same).  A
    resample with no question has NaN for its statistic.  Several measures resampled alike (their ranks over
    the same resamples) are compared position by position.
    """
    counts, weights = draws(len(diff))
    total = np.zeros(len(counts))
    questions = np.zeros(len(counts))
    for i, (d, s) in enumerate(zip(diff, size)):
        column = counts[:, i].astype(np.float64)
        total += column * d
        questions += column * s
    statistic = np.full(len(counts), np.nan)
    kept = questions != 0
    statistic[kept] = total[kept] / questions[kept]
    return statistic, weights


def interval(diff: Sequence[float], size: Sequence[float], p: float = TAIL) -> tuple[float, float, float]:
    """Pooled paired difference Σdiff/Σsize and its exact percentile bootstrap interval.

    ``diff[c]`` is conversation c's summed score difference and ``size[c]`` its
    question count.  Each resample's statistic is Σ cᵢ·diffᵢ / Σ cᵢ·sizeᵢ,
    accumulated in conversation order as the reference does (so the floats are
    the same); resamples with no question are left out.  Returns
    (point, q=p, q=1−p).
    """
    statistic, weight = resampled(diff, size)
    kept = ~np.isnan(statistic)
    statistic, weight = statistic[kept], weight[kept]

    whole, n = 0.0, 0.0
    for d, s in zip(diff, size):
        whole, n = whole + d, n + s
    low, high = quantiles(statistic, weight, (p, 1 - p))
    return go_div(whole, n), low, high


def monte_carlo(diff: Sequence[float], size: Sequence[float], p: float = TAIL, resamples: int = RESAMPLES,
                seed: int = SEED) -> tuple[float, float, float]:
    """:func:`interval`'s point and percentile interval from ``resamples`` resamples drawn at random, seeded
    (numpy's ``default_rng(seed)``: each resample the counts of n draws with replacement from the n
    conversations), for more conversations than the exact bootstrap can enumerate.  Each resample's
    statistic is accumulated in conversation order as the exact one's; resamples with no question are left
    out.  Returns (point, q=p, q=1−p)."""
    n = len(diff)
    rng = np.random.default_rng(seed)
    total = np.zeros(resamples)
    questions = np.zeros(resamples)
    for start in range(0, resamples, BLOCK):  # a block of resamples at a time: memory flat in n
        block = slice(start, min(start + BLOCK, resamples))
        counts = rng.multinomial(n, np.full(n, 1.0 / n), size=block.stop - block.start)
        for i, (d, s) in enumerate(zip(diff, size)):
            column = counts[:, i].astype(np.float64)
            total[block] += column * d
            questions[block] += column * s
    kept = questions != 0
    low, high = quantiles(total[kept] / questions[kept], np.ones(int(kept.sum())), (p, 1 - p))
    whole, asked = 0.0, 0.0
    for d, s in zip(diff, size):
        whole, asked = whole + d, asked + s
    return go_div(whole, asked), low, high


def bootstrap(diff: Sequence[float], size: Sequence[float], p: float = TAIL) -> tuple[float, float, float]:
    """The pooled difference and its 95% percentile bootstrap interval over conversations: exact
    (:func:`interval`) up to 12 conversations, past that the seeded Monte Carlo one (:func:`monte_carlo`)."""
    return interval(diff, size, p) if unenumerable(len(diff)) is None else monte_carlo(diff, size, p)


def method(n: int) -> dict[str, object]:
    """How :func:`bootstrap` takes its intervals over ``n`` conversations: ``method`` (``exact`` or
    ``monte-carlo``), ``resamples`` (every distinct resample, or those drawn) and ``seed`` (None when exact)."""
    if n >= 1 and unenumerable(n) is not None:
        return {"method": "monte-carlo", "resamples": RESAMPLES, "seed": SEED}
    return {"method": "exact", "resamples": draw_count(n) if n else 0, "seed": None}


def signed(n: int) -> tuple[str, str]:
    """The signature field naming :func:`bootstrap`'s method over ``n`` conversations: ``exact-95``, or
    ``monte-carlo-95-10000-seed0`` with its resamples and seed."""
    how = method(n)
    return ("bootstrap", "exact-95" if how["method"] == "exact"
            else f"monte-carlo-95-{how['resamples']}-seed{how['seed']}")


# --- the report -----------------------------------------------------------------------


def _abstention(questions: Sequence[Answered]) -> list[str]:
    count: dict[int, int] = {}
    score: dict[int, float] = {}
    for q in questions:
        count[q.category] = count.get(q.category, 0) + 1
        score[q.category] = score.get(q.category, 0.0) + grade(q.category, DECLINE, _answer(q))

    lines = ["", f'constant abstention, "{DECLINE}" to everything', f"{'category':<14}{'n':>6}  {'F1':>6}"]

    def row(name: str, kinds: Sequence[int]) -> None:
        n, total = 0, 0.0
        for k in kinds:
            n, total = n + count.get(k, 0), total + score.get(k, 0.0)
        f1 = go_f(go_div(total, float(n)), 6, 3) if kinds != (COGNITIVE,) else f"{'-':>6}"  # no gold answer
        lines.append(f"{name:<14}{n:6d}  {f1}")

    for kind, name in CATEGORIES.items():  # the reference's ``Kinds`` order: 4, 1, 2, 3, 5 (then cognitive, if asked)
        if kind in LOCOMO or kind in count:
            row(name, (kind,))
    row("answerable", ANSWERABLE)
    row("overall", (ADVERSARIAL, *ANSWERABLE))
    return lines


def _separation(questions: Sequence[Answered], arms: Sequence[str]) -> list[str]:
    lines = [
        "",
        "answerable against adversarial, area under the ROC curve",
        f"{'arm':<14}{'sure':>8}{'decided':>9}{'quiet 1-4':>11}{'quiet adv':>11}",
    ]
    for arm in arms:
        sure: tuple[list[float], list[float]] = ([], [])
        spoke: tuple[list[float], list[float]] = ([], [])
        for q in questions:
            half = 1 if q.category == ADVERSARIAL else 0
            said = q.predictions[arm]
            sure[half].append(said.confidence)
            spoke[half].append(0.0 if declined(said.reply) else 1.0)
        lines.append(
            f"{arm:<14}{go_f(auc(*sure), 8, 3)}{go_f(auc(*spoke), 9, 3)}"
            f"{go_f(100 * quiet(spoke[0]), 10, 1)}%{go_f(100 * quiet(spoke[1]), 10, 1)}%"
        )
    return lines


#: The two halves of the paired differences, in print order: adversarial first, then answerable.
HALVES: tuple[tuple[str, tuple[int, ...]], ...] = (("adversarial", (ADVERSARIAL,)), ("answerable", ANSWERABLE))


def grades(predictions: Predictions) -> dict[str, list[float]]:
    """Every arm's grade of every question, in file order, as ``-stats`` grades them (see ``_answer``)."""
    return {
        arm: [grade(q.category, q.predictions[arm].reply, _answer(q)) for q in predictions.questions]
        for arm in predictions.arms
    }


def pooled(predictions: Predictions, marks: Sequence[float], kinds: Sequence[int]) -> tuple[float, float, float]:
    """The mean of per-question ``marks`` over the categories ``kinds``, with its exact 95% bootstrap interval.

    ``marks`` follow the file's question order (a grade, or a paired
    difference of grades); each conversation contributes its summed marks and
    its question count to :func:`interval`.  Returns (point, low, high).
    """
    at = {sample: i for i, sample in enumerate(predictions.conversations)}
    total = [0.0] * len(at)
    size = [0.0] * len(at)
    for q, mark in zip(predictions.questions, marks):
        if q.category in kinds:
            total[at[q.sample]] += mark
            size[at[q.sample]] += 1
    return bootstrap(total, size)


def _paired(predictions: Predictions) -> list[str]:
    arms = predictions.arms
    marks = grades(predictions)
    n = len(predictions.conversations)
    drawn = "" if method(n)["method"] == "exact" else f" (Monte Carlo: {RESAMPLES:,} resamples, seed {SEED})"
    lines = [
        "",
        f"paired difference, 95% percentile bootstrap over {n} conversations{drawn}",
        f"{'':<24}" + "".join(f"  {name:>26}" for name, _ in HALVES),
    ]
    for i, one in enumerate(arms):
        for two in arms[i + 1 :]:
            row = f"{one:<10} - {two:<11}"
            diff = [a - b for a, b in zip(marks[one], marks[two])]
            for _, kinds in HALVES:
                got, lo, hi = pooled(predictions, diff, kinds)
                row += f"  {go_f(got, 6, 3, True)} [{go_f(lo, 6, 3, True)}, {go_f(hi, 6, 3, True)}]"
            lines.append(row)
    return lines


def unenumerable(n: int) -> str | None:
    """Why the exact bootstrap cannot be taken over ``n`` conversations (one line), None when it can."""
    if n < 1:
        return "no conversation to resample"
    if draw_count(n) > MAX_DRAWS:
        return f"{n} conversations: the exact bootstrap would enumerate {_amount(draw_count(n))} resamples " \
               f"(at most {MAX_DRAWS:,})"
    return None


def bootstrappable(predictions: Predictions) -> None:
    """Raise PredictionsError (one line) when the file has too many conversations to enumerate every resample."""
    if problem := unenumerable(len(predictions.conversations)):
        raise PredictionsError(f"{predictions.path}: {problem}")


def notes(predictions: Predictions) -> list[str]:
    """Why cells of the report are NaN, empty or not what the official scorer would give, one line each (for
    stderr; the report itself stays the reference's).  None on the reference's own files."""
    questions, arms = predictions.questions, predictions.arms
    out = []
    for name, kinds in (("adversarial (category 5)", (ADVERSARIAL,)), ("answerable (categories 1-4)", ANSWERABLE)):
        if not any(q.category in kinds for q in questions):
            out.append(f"no {name} question in the file: the AUCs and the {name.split()[0]} quiet share and paired "
                       f"column have nothing to compare (NaN)")
    if len(arms) == 1:
        out.append(f"one arm ({arms[0]}): the paired table compares pairs of arms, so it is empty")
    for arm in arms:
        if len({q.predictions[arm].confidence for q in questions}) == 1:
            out.append(f"{arm}: one confidence for every question (a missing confidence reads as 0): "
                       f"its 'sure' AUC cannot separate anything")
    return out


def render(predictions: Predictions) -> str:
    """The whole ``-stats`` report of a read predictions file, as the reference prints it."""
    for q in predictions.questions:
        gold(predictions, q)
    head = f"{predictions.path}: {len(predictions.questions)} questions, {', '.join(predictions.arms)}"
    lines = [head, *_abstention(predictions.questions), *_separation(predictions.questions, predictions.arms)]
    lines += _paired(predictions)
    return "\n".join(lines) + "\n"


def report(path_as_given: str, samples: object) -> str:
    """The ``-stats`` report of decoded predictions JSON; ``path_as_given`` heads it and labels errors."""
    return render(parse(samples, path_as_given))


def parser() -> flags.Parser:
    """This command's flags (the docs' commands are parsed with it)."""
    p = flags.Parser(
        prog="locomo-repro stats",
        usage="%(prog)s [-h] [-key {official,audited}] FILE",
        description="Read a predictions file back: constant abstention, ROC AUCs, exact bootstrap intervals.",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="predictions JSON in the official LoCoMo shape")
    key.flag(p)
    # an unknown flag is reported before a missing file, and either in one line
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro stats FILE``: print the report; a bad file is one line on stderr, exit 2."""
    p = parser()
    args, unknown = p.parse_known_args(argv)
    if unknown or args.file is None:
        problem = f"unrecognized arguments: {' '.join(unknown)}" if unknown else "a predictions FILE is required"
        print(f"{p.prog}: error: {problem}", file=sys.stderr)
        return 2
    try:
        predictions, graded = key.keyed(args.key, read(args.file))
        text = render(predictions)
    except (PredictionsError, AuditError, DatasetError) as err:
        print(err, file=sys.stderr)
        return 2
    sys.stdout.write(text)
    for line in notes(predictions):
        print(f"note: {line}", file=sys.stderr)
    signature.emit(signature.predictions(args.file, signature.KIT, *graded.signed(),
                                         signed(len(predictions.conversations)), sha256=predictions.sha256))
    return 0


if __name__ == "__main__":
    sys.exit(main())


def wilson(p: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed over ``n`` trials (95% by default: z the
    normal's 97.5% quantile): (p + z²/2n ± z √(p(1−p)/n + z²/4n²)) / (1 + z²/n)."""
    if n <= 0:
        raise ValueError(f"a Wilson interval needs trials, got n={n}")
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)
