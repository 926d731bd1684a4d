"""What a set of verdicts measures: plain functions over :class:`~.verdicts.Verdict` lists, each naming its
formula.

Terms.  A *question* is one arm's reply to one question (conversation id, question index, arm); its
verdicts are its repeats.  A failed judgement (score None) is left out of every figure and counted apart.  A
question's *score* s is the mean of the scores of its judged repeats (one repeat: the verdict's score); a
question whose every repeat failed has none and is not counted in n.  It is *accepted* when s > 1/2.  A row's
categories are one category, the answerable ones (1-4: 1,540 questions in locomo10), or all five (1,986); J
over a row is Σ s / n over its questions, and its interval the exact 95% percentile bootstrap over
conversations of ``score.stats`` (``stats.interval``: each conversation's Σ s and n, every resample enumerated
and weighted), where there are two to twelve conversations.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..data.categories import ANSWERABLE
from ..score.metric import grade
from ..score.stats import ADVERSARIAL, auc, interval, unenumerable
from .files import NAMES
from .verdicts import Verdict

#: The arms of the leniency probes: answers known wrong, then the gold itself (sensitivity).
WRONG_PROBES = ("probe.wrong-gold", "probe.restated", "probe.empty")
GOLD_PROBE = "probe.gold"

Key = tuple[str, int, str]


def is_probe(arm: str) -> bool:
    """Whether an arm holds a judge's probes (``probe.<kind>``) rather than a system's replies."""
    return arm.startswith("probe.")


@dataclass(frozen=True)
class Figure:
    """One measured value over ``n`` questions (``failed`` judgements apart), with its interval where one is
    taken (None otherwise); ``value`` None when there is nothing to measure."""

    n: int
    failed: int
    value: float | None
    low: float | None = None
    high: float | None = None


def rows(verdicts: Iterable[Verdict]) -> list[tuple[str, tuple[int, ...]]]:
    """The rows a set of verdicts is shown on: each category it holds (the dataset's order, then LoCoMo-Plus's
    cognitive), then answerable (1-4) and overall (1-5)."""
    present = {v.category for v in verdicts}
    out = [(name, (k,)) for k, name in NAMES.items() if k in present]
    return out + [("answerable", ANSWERABLE), ("overall", (*ANSWERABLE, ADVERSARIAL))]


def questions(verdicts: Iterable[Verdict], kinds: Sequence[int] | None = None) -> dict[Key, list[Verdict]]:
    """Every question's verdicts (in categories ``kinds``, all when None), by repeat, in first-seen order; a
    question is one of an arm (conversation id, index, arm)."""
    out: dict[Key, list[Verdict]] = {}
    for v in verdicts:
        if kinds is None or v.category in kinds:
            out.setdefault((v.sample_id, v.qa, v.arm), []).append(v)
    for group in out.values():
        group.sort(key=lambda v: v.repeat)
    return out


def score(group: Sequence[Verdict]) -> float | None:
    """A question's score: the mean of its judged repeats' scores, None when every repeat failed."""
    judged = [v.score for v in group if v.score is not None]
    return sum(judged) / len(judged) if judged else None


def failed(verdicts: Iterable[Verdict]) -> int:
    """How many judgements failed."""
    return sum(v.failed for v in verdicts)


def pooled(marks: dict[Key, float]) -> tuple[float | None, float | None, float | None]:
    """Σ marks / n, and the exact bootstrap interval over conversations of ``stats.interval`` (each
    conversation's Σ marks and count) where there are two to twelve conversations; (None, None, None) when
    there is no mark."""
    if not marks:
        return None, None, None
    total: dict[str, float] = {}
    size: dict[str, float] = {}
    for (sample, *_), mark in marks.items():
        total[sample] = total.get(sample, 0.0) + mark
        size[sample] = size.get(sample, 0.0) + 1
    value = sum(marks.values()) / len(marks)
    if len(total) < 2 or unenumerable(len(total)) is not None:
        return value, None, None
    _, low, high = interval(list(total.values()), list(size.values()))
    return value, low, high


def j(verdicts: Sequence[Verdict], kinds: Sequence[int]) -> Figure:
    """J over the categories ``kinds``: Σ s / n over the questions with a score, with its interval; the
    failed judgements counted apart."""
    mine = [v for v in verdicts if v.category in kinds]
    marks = {k: s for k, group in questions(mine).items() if (s := score(group)) is not None}
    return Figure(len(marks), failed(mine), *pooled(marks))


def of_repeat(verdicts: Sequence[Verdict], kinds: Sequence[int], r: int) -> Figure:
    """J of repeat ``r`` (0, 1, ...): Σ score / n over its judged verdicts in ``kinds``."""
    these = [v for v in verdicts if v.category in kinds and v.repeat == r]
    judged = [v.score for v in these if v.score is not None]
    return Figure(len(judged), failed(these), sum(judged) / len(judged) if judged else None)


def aggregate(verdicts: Sequence[Verdict], kinds: Sequence[int], rule: str) -> Figure:
    """The share of questions accepted under ``rule`` over their judged repeats, each repeat accepting when
    its score is 1: ``majority`` more than half of them, ``unanimous`` all, ``any`` at least one."""
    mine = [v for v in verdicts if v.category in kinds]
    marks = {}
    for key, group in questions(mine).items():
        said = [v.score == 1.0 for v in group if v.score is not None]
        if said:
            yes = sum(said)
            marks[key] = float(yes * 2 > len(said) if rule == "majority" else yes == len(said)
                               if rule == "unanimous" else yes > 0)
    return Figure(len(marks), failed(mine), *pooled(marks))


def flip_rate(verdicts: Sequence[Verdict], kinds: Sequence[int]) -> Figure:
    """The share of questions with two or more judged repeats whose repeats do not all give the same score."""
    mine = [v for v in verdicts if v.category in kinds]
    said = [{v.score for v in g if v.score is not None} for g in questions(mine).values()
            if sum(v.score is not None for v in g) >= 2]
    return Figure(len(said), failed(mine), sum(len(s) > 1 for s in said) / len(said) if said else None)


def fleiss_kappa(verdicts: Sequence[Verdict], kinds: Sequence[int]) -> Figure:
    """Fleiss' kappa of the repeats as raters, over the questions with R >= 2 judged repeats (R the most any
    question has), each distinct score a category: with n_ic the repeats of question i giving score c and N
    questions, P_i = (Σ_c n_ic² − R) / (R(R − 1)), P̄ = Σ P_i / N, p_c = Σ_i n_ic / (N R), P_e = Σ_c p_c²,
    κ = (P̄ − P_e) / (1 − P_e); None when P_e is 1 (every rating the same) or no question qualifies."""
    mine = [v for v in verdicts if v.category in kinds]
    groups = [[v.score for v in g if v.score is not None] for g in questions(mine).values()]
    most = max((len(g) for g in groups), default=0)
    rated = [g for g in groups if len(g) == most] if most >= 2 else []
    if not rated:
        return Figure(0, failed(mine), None)
    values = sorted({s for g in rated for s in g})
    counts = [[g.count(c) for c in values] for g in rated]
    p_bar = sum((sum(n * n for n in row) - most) / (most * (most - 1)) for row in counts) / len(rated)
    p_e = sum((sum(row[c] for row in counts) / (len(rated) * most)) ** 2 for c in range(len(values)))
    return Figure(len(rated), failed(mine), None if p_e == 1 else (p_bar - p_e) / (1 - p_e))


def _scores(verdicts: Sequence[Verdict], kinds: Sequence[int]) -> dict[Key, float]:
    """Each scored question's score, keyed by conversation and index (one arm's verdicts: the two sets compared
    may name their arm differently)."""
    return {(k[0], k[1], ""): s for k, g in questions(verdicts, kinds).items() if (s := score(g)) is not None}


def agreement(one: Sequence[Verdict], two: Sequence[Verdict], kinds: Sequence[int]) -> Figure:
    """The share of the questions both sets scored on which their scores are equal."""
    a, b = _scores(one, kinds), _scores(two, kinds)
    both = [k for k in a if k in b]
    return Figure(len(both), failed(v for v in (*one, *two) if v.category in kinds),
                  sum(a[k] == b[k] for k in both) / len(both) if both else None)


def cohen_kappa(one: Sequence[Verdict], two: Sequence[Verdict], kinds: Sequence[int]) -> Figure:
    """Cohen's kappa of two sets' scores over the questions both scored, each distinct score a category:
    p_o the share of equal scores, p_e = Σ_c (a_c / N)(b_c / N) with a_c, b_c the questions each set gives
    score c, κ = (p_o − p_e) / (1 − p_e); None when p_e is 1."""
    a, b = _scores(one, kinds), _scores(two, kinds)
    both = [k for k in a if k in b]
    lost = failed(v for v in (*one, *two) if v.category in kinds)
    if not both:
        return Figure(0, lost, None)
    p_o = sum(a[k] == b[k] for k in both) / len(both)
    values = {a[k] for k in both} | {b[k] for k in both}
    p_e = sum((sum(a[k] == c for k in both) / len(both)) * (sum(b[k] == c for k in both) / len(both))
              for c in values)
    return Figure(len(both), lost, None if p_e == 1 else (p_o - p_e) / (1 - p_e))


def difference(one: Sequence[Verdict], two: Sequence[Verdict], kinds: Sequence[int]) -> Figure:
    """J of ``one`` minus J of ``two`` over the questions both scored, Σ (s₁ − s₂) / n, with the paired exact
    bootstrap interval over conversations."""
    a, b = _scores(one, kinds), _scores(two, kinds)
    diff = {k: a[k] - b[k] for k in a if k in b}
    return Figure(len(diff), failed(v for v in (*one, *two) if v.category in kinds), *pooled(diff))


@lru_cache(maxsize=1 << 16)  # each figure of each row asks again for the same replies
def official_f1(category: int, reply: str, gold: str) -> float:
    """The official F1 of a reply (``score.metric.grade``: by its category's rule)."""
    return grade(category, reply, gold)


def _f1(verdicts: Sequence[Verdict], kinds: Sequence[int]) -> list[tuple[float, float]]:
    """(official F1, score) of every scored question in ``kinds`` of the official categories (1-5)."""
    out = []
    for group in questions(verdicts, [k for k in kinds if k in (*ANSWERABLE, ADVERSARIAL)]).values():
        if (s := score(group)) is not None:
            first = group[0]
            out.append((official_f1(first.category, first.reply, first.gold), s))
    return out


def f1_auc(verdicts: Sequence[Verdict], kinds: Sequence[int]) -> Figure:
    """ROC AUC of the official F1 (``score.metric.grade`` of the reply against the gold) for the verdict:
    ``stats.auc`` of the F1 of the accepted questions against that of the others (Mann-Whitney, ties
    mid-ranked); None when either side is empty."""
    pairs = _f1(verdicts, kinds)
    yes = [f for f, s in pairs if s > 0.5]
    no = [f for f, s in pairs if s <= 0.5]
    value = auc(yes, no) if yes and no else None
    return Figure(len(pairs), failed(v for v in verdicts if v.category in kinds), value)


def j_at_f1(verdicts: Sequence[Verdict], kinds: Sequence[int], f1: float) -> Figure:
    """J (Σ s / n) of the questions whose reply's official F1 is exactly ``f1`` (0 or 1)."""
    marks = [s for f, s in _f1(verdicts, kinds) if f == f1]
    return Figure(len(marks), 0, sum(marks) / len(marks) if marks else None)


def leniency(by_arm: Mapping[str, Sequence[Verdict]], kinds: Sequence[int]) -> dict[str, Figure]:
    """The acceptance rate (J) of the probes' replies, known to be wrong: each of :data:`WRONG_PROBES` the
    file holds, the three together (Σ s / n over all their questions), and the sensitivity, the acceptance of
    the gold itself (:data:`GOLD_PROBE`)."""
    out = {arm: j(by_arm[arm], kinds) for arm in WRONG_PROBES if arm in by_arm}
    if out:
        out["probes.wrong"] = j([v for arm in WRONG_PROBES for v in by_arm.get(arm, ())], kinds)
    if GOLD_PROBE in by_arm:
        out[GOLD_PROBE] = j(by_arm[GOLD_PROBE], kinds)
    return out


def share_from(verdicts: Sequence[Verdict], kinds: Sequence[int], chosen: set[tuple[str, int]]) -> Figure:
    """The share of J that comes from the ``chosen`` questions (conversation id, index: those whose gold an
    answer key finds wrong): Σ s over the chosen scored questions / Σ s over all scored questions, ``n`` the
    chosen ones scored; None when no score is above 0."""
    mine = [v for v in verdicts if v.category in kinds]
    marks = {k: s for k, group in questions(mine).items() if (s := score(group)) is not None}
    picked = [s for k, s in marks.items() if k[:2] in chosen]
    total = sum(marks.values())
    return Figure(len(picked), failed(mine), sum(picked) / total if total else None)


def known_wrong(verdicts: Sequence[Verdict], key: dict[tuple[str, int], str]) -> list[Verdict]:
    """The verdicts on replies known to be wrong: those on a question of the answer ``key`` (question -> gold
    the wrong answers were written against) whose reply is not that gold (case and spaces aside)."""
    def same(a: str, b: str) -> bool:
        return " ".join(a.casefold().split()) == " ".join(b.casefold().split())
    return [v for v in verdicts if (v.sample_id, v.qa) in key and not same(v.reply, key[(v.sample_id, v.qa)])]
