"""J per category, answerable (1-4) and overall (1-5), each with its own n, the failed judgements apart, and
the exact 95% bootstrap interval over conversations: checked against hand arithmetic and against a
brute-force enumeration of every ordered resample of the conversations."""

from __future__ import annotations

import itertools

import pytest
from judged_files import cell, stats, verdict, write

from locomo_repro.judge.__main__ import main

# Three conversations: a (single hop 1 and 0, adversarial 1), b (multi hop 1, adversarial 0),
# c (temporal graded 0.5, a failed single hop, adversarial 1).
VERDICTS = [
    verdict("a", 0, 4, 1.0), verdict("a", 1, 4, 0.0), verdict("a", 2, 5, 1.0),
    verdict("b", 0, 1, 1.0), verdict("b", 1, 5, 0.0),
    verdict("c", 0, 2, 0.5), verdict("c", 1, 4, None), verdict("c", 2, 5, 1.0),
]


def brute_force(sums: dict[str, float], counts: dict[str, int]) -> tuple[float, float]:
    """Every ordered draw of len(sums) conversations with replacement, its J; the first value (ascending) at
    which the running count of draws reaches 2.5% and 97.5% of them."""
    names = list(sums)
    values = sorted(sum(sums[c] for c in draw) / sum(counts[c] for c in draw)
                    for draw in itertools.product(names, repeat=len(names)) if sum(counts[c] for c in draw))
    pick = [next(v for i, v in enumerate(values, start=1) if i >= q * len(values)) for q in (0.025, 0.975)]
    return pick[0], pick[1]


@pytest.fixture
def table(tmp_path, capsys):
    return stats(capsys, main, str(write(tmp_path / "j.json", VERDICTS)))


def test_answerable_and_overall_each_state_their_denominator_and_leave_failed_judgements_apart(table):
    answerable = cell(table, "J", "answerable")
    assert (answerable["n"], answerable["failed"]) == (4, 1)
    assert answerable["value"] == pytest.approx((1 + 0 + 1 + 0.5) / 4)
    overall = cell(table, "J", "overall")
    assert (overall["n"], overall["failed"]) == (7, 1)
    assert overall["value"] == pytest.approx((1 + 0 + 1 + 1 + 0 + 0.5 + 1) / 7)
    adversarial = cell(table, "J", "adversarial")
    assert (adversarial["n"], adversarial["value"]) == (3, pytest.approx(2 / 3))
    single = cell(table, "J", "single hop")
    assert (single["n"], single["failed"], single["value"]) == (2, 1, 0.5)


def test_the_interval_is_every_resample_of_the_conversations_enumerated(table):
    # answerable: a holds 1 of 2, b 1 of 1, c 0.5 of 1; the lowest resample is all a or all c, the highest all b
    assert brute_force({"a": 1, "b": 1, "c": 0.5}, {"a": 2, "b": 1, "c": 1}) == (0.5, 1.0)
    answerable = cell(table, "J", "answerable")
    assert (answerable["low"], answerable["high"]) == (0.5, 1.0)
    # overall: a 2 of 3, b 1 of 2, c 1.5 of 2
    low, high = brute_force({"a": 2, "b": 1, "c": 1.5}, {"a": 3, "b": 2, "c": 2})
    assert (low, high) == (0.5, 0.75)
    overall = cell(table, "J", "overall")
    assert (overall["low"], overall["high"]) == pytest.approx((low, high))


def test_a_row_of_one_conversation_has_no_interval(table):
    temporal = cell(table, "J", "temporal")  # only c holds a temporal question
    assert (temporal["value"], temporal["low"], temporal["high"]) == (0.5, None, None)


def test_past_the_extremes_the_interval_is_the_enumerations_percentiles(tmp_path, capsys):
    # four conversations of unequal sizes: 256 ordered draws, the 2.5% point the 7th value, the 97.5% the 250th
    scores = {"a": [1.0, 0.0, 0.0], "b": [1.0, 1.0], "c": [0.0, 0.5, 1.0, 1.0], "d": [0.0]}
    made = [verdict(c, i, 4, s) for c, marks in scores.items() for i, s in enumerate(marks)]
    table = stats(capsys, main, str(write(tmp_path / "four.json", made)))
    low, high = brute_force({c: sum(m) for c, m in scores.items()}, {c: len(m) for c, m in scores.items()})
    got = cell(table, "J", "single hop")
    assert got["value"] == pytest.approx(5.5 / 10)
    assert (got["low"], got["high"]) == pytest.approx((low, high))
    assert 0 < low < 5.5 / 10 < high < 1
