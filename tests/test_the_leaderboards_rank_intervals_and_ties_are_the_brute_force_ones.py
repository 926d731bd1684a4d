"""The leaderboard's rank intervals and tie marks against a brute-force computation: every ordered resample of
the conversations (nⁿ of them, each weight 1) enumerated, each row's answerable F1 in it taken exactly (with
fractions), its rank 1 + the rows above it, and the 2.5% and 97.5% quantiles taken as ``stats.quantile``
defines them (the first value at which the running count reaches q × nⁿ).  The kit enumerates multisets,
weighted by their multinomial counts, in floats: the two must agree, rank for rank and bound for bound."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from locomo_repro.peers.leaderboard import Row, placed, rank_intervals

TAIL = Fraction(1, 40)


def quantiles(values: list[Fraction], q: Fraction) -> Fraction:
    ordered = sorted(values)
    return ordered[next(i for i in range(len(ordered)) if i + 1 >= q * len(ordered))]


def resamples(n: int):
    return itertools.product(range(n), repeat=n)


def row(name: str, marks: dict[tuple[str, int], float], whole: bool = True) -> Row:
    """A row of answerable grades by question; ``whole`` False keeps only each conversation's sums (a
    results file)."""
    sums: dict[str, tuple[int, float]] = {}
    for (sample, _), mark in marks.items():
        n, total = sums.get(sample, (0, 0.0))
        sums[sample] = (n + 1, total + mark)
    return Row(name, "file", name, n=len(marks), f1=sum(marks.values()) / len(marks),
               marks=dict(marks) if whole else None, sums=sums)


def ratio(draw, totals, sizes) -> Fraction | None:
    size = sum(sizes[c] for c in draw)
    return None if size == 0 else sum(totals[c] for c in draw) / size


def brute_ranks(rows: list[Row], conversations: list[str]) -> list[tuple[int, int]]:
    n = len(conversations)
    each = [([Fraction(r.sums.get(s, (0, 0.0))[1]) for s in conversations],
             [r.sums.get(s, (0, 0.0))[0] for s in conversations]) for r in rows]
    ranks: list[list[Fraction]] = [[] for _ in rows]
    for draw in resamples(n):
        got = [ratio(draw, *e) for e in each]
        for i, mine in enumerate(got):
            if mine is not None:
                ranks[i].append(Fraction(1 + sum(g is not None and g > mine for g in got)))
    return [(int(quantiles(r, TAIL)), int(quantiles(r, 1 - TAIL))) for r in ranks]


def brute_difference(one: Row, two: Row, conversations: list[str]) -> tuple[float | None, float | None]:
    """The interval of one's grades minus two's, question by question, or by each conversation's sums when one
    of them keeps only sums and the two hold as many questions in every conversation; (None, None) otherwise."""
    at = {s: i for i, s in enumerate(conversations)}
    diff, size = [Fraction(0)] * len(at), [0] * len(at)
    if one.marks is not None and two.marks is not None:
        for q, mark in one.marks.items():
            if q in two.marks:
                diff[at[q[0]]] += Fraction(mark) - Fraction(two.marks[q])
                size[at[q[0]]] += 1
    elif {s: n for s, (n, _) in one.sums.items()} != {s: n for s, (n, _) in two.sums.items()}:
        return None, None
    else:
        for s, (n, total) in one.sums.items():
            diff[at[s]], size[at[s]] = Fraction(total) - Fraction(two.sums[s][1]), n
    values = [v for draw in resamples(len(at)) if (v := ratio(draw, diff, size)) is not None]
    return float(quantiles(values, TAIL)), float(quantiles(values, 1 - TAIL))


def toy(seed: int) -> tuple[list[Row], list[str]]:
    """Rows over four conversations of three answerable questions each: grades in quarters, some rows close
    to others (ties), one answering part of the questions, one a results file (sums only)."""
    rng = random.Random(seed)
    conversations = ["s1", "s2", "s3", "s4"]
    questions = [(s, i) for s in conversations for i in range(3)]
    base = {q: rng.choice([0, 0.25, 0.5, 0.75, 1.0]) for q in questions}
    rows = [row("base", base)]
    for k in range(4):
        near = {q: min(1.0, max(0.0, m + rng.choice([-0.25, 0, 0, 0.25]))) for q, m in base.items()}
        rows.append(row(f"near{k}", near))
    rows.append(row("part", {q: rng.choice([0, 0.5, 1.0]) for q in questions if q[1] != 2}))
    rows.append(row("results", {q: rng.choice([0, 0.25, 1.0]) for q in questions}, whole=False))
    rows.append(row("far", {q: rng.choice([0, 0.25]) for q in questions}))
    return rows, conversations


@pytest.mark.parametrize("seed", range(6))
def test_each_rows_rank_interval_is_the_brute_force_one(seed):
    rows, conversations = toy(seed)
    assert rank_intervals(rows, conversations) == brute_ranks(rows, conversations)


@pytest.mark.parametrize("seed", range(6))
def test_each_adjacent_difference_and_tie_is_the_brute_force_one(seed):
    rows, conversations = toy(seed)
    table = placed(rows, conversations)
    assert [p.row.name for p in table] == [r.name for r in sorted(rows, key=lambda r: (-(r.f1 or 0), r.name))]
    for upper, lower in zip(table, table[1:]):
        low, high = brute_difference(upper.row, lower.row, conversations)
        assert (upper.diff_low, upper.diff_high) == (low, high)
        assert upper.tied == (low is not None and high is not None and low <= 0 <= high)
        assert (upper.group == lower.group) == upper.tied
    assert table[-1].diff is None


def test_the_toys_hold_ties_and_clear_differences():
    """The cases above are not all one kind: over the six seeds some adjacent pairs are tied, some not."""
    tied = [p.tied for seed in range(6) for p in placed(*toy(seed))[:-1]]
    assert any(tied) and not all(tied)
