"""Between two verdict sets over the same replies: agreement, Cohen's kappa and the paired bootstrap
interval of their J difference, against hand arithmetic; a question whose replies differ is not paired."""

from __future__ import annotations

import pytest
from judged_files import cell, stats, verdict, write

from locomo_repro.judge.__main__ import main

FIRST = [1.0, 1.0, 0.0, 0.0, 1.0, 0.0]
SECOND = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]


def questions(scores: list[float], arm: str, odd_reply: str) -> list:
    """Questions 0-2 in conversation a, 3-5 in b, and a seventh whose reply the two files do not share."""
    made = [verdict("a" if i < 3 else "b", i % 3, 4, s, arm=arm, reply=f"reply {i}") for i, s in enumerate(scores)]
    return [*made, verdict("b", 3, 4, 1.0, arm=arm, reply=odd_reply)]


@pytest.fixture
def table(tmp_path, capsys):
    one = write(tmp_path / "one.json", questions(FIRST, "judge-a", "one reply"))
    two = write(tmp_path / "two.json", questions(SECOND, "judge-b", "another reply"))
    return stats(capsys, main, str(one), str(two))


def test_agreement_is_the_share_of_equal_verdicts(table):
    got = cell(table, "agreement", "overall")
    assert (got["n"], got["value"]) == (6, pytest.approx(5 / 6))
    assert got["arm"] == "judge-b vs one.json judge-a"


def test_cohens_kappa_by_hand(table):
    p_o = 5 / 6
    p_e = (3 / 6) * (2 / 6) + (3 / 6) * (4 / 6)  # correct, then wrong
    assert cell(table, "cohen kappa", "overall")["value"] == pytest.approx((p_o - p_e) / (1 - p_e))
    assert (p_o - p_e) / (1 - p_e) == pytest.approx(2 / 3)


def test_the_j_difference_has_the_paired_interval_over_conversations(table):
    got = cell(table, "J difference", "overall")
    # second minus first: a differs by -1 over 3 questions, b by 0 over 3; the four draws (a,a) -1/3,
    # (a,b) and (b,a) -1/6, (b,b) 0: the 2.5% point is the first, the 97.5% point the last
    assert got["value"] == pytest.approx(-1 / 6)
    assert (got["low"], got["high"]) == pytest.approx((-1 / 3, 0.0))


def test_files_over_other_replies_are_not_paired(tmp_path, capsys):
    one = write(tmp_path / "one.json", [verdict("a", 0, 4, 1.0, reply="this")])
    two = write(tmp_path / "two.json", [verdict("a", 0, 4, 1.0, reply="that")])
    table = stats(capsys, main, str(one), str(two))
    assert not [r for r in table["rows"] if r["figure"] in ("agreement", "cohen kappa", "J difference")]
