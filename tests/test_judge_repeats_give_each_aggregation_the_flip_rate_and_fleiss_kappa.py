"""Over repeats: J of each repeat, the mean of the repeats (J), majority, unanimous, any, the flip rate and
Fleiss' kappa, each checked against hand arithmetic on five questions judged three times (one repeat of
one question failed)."""

from __future__ import annotations

import pytest
from judged_files import cell, stats, verdict, write

from locomo_repro.judge.__main__ import main

REPEATS = {  # question -> the scores of repeats 1, 2, 3 (None: a failed judgement)
    ("a", 0): (1.0, 1.0, 1.0),
    ("a", 1): (1.0, 0.0, 1.0),
    ("a", 2): (0.0, 0.0, 0.0),
    ("b", 0): (1.0, 0.0, 0.0),
    ("b", 1): (1.0, None, 0.0),
}


@pytest.fixture
def table(tmp_path, capsys):
    made = [verdict(c, q, 4, s, repeat=r) for (c, q), scores in REPEATS.items() for r, s in enumerate(scores)]
    return stats(capsys, main, str(write(tmp_path / "repeats.json", made)))


def test_each_repeat_has_its_own_j_over_its_judged_verdicts(table):
    assert cell(table, "J repeat 1", "overall")["value"] == pytest.approx(4 / 5)
    second = cell(table, "J repeat 2", "overall")
    assert (second["n"], second["failed"], second["value"]) == (4, 1, pytest.approx(1 / 4))
    assert cell(table, "J repeat 3", "overall")["value"] == pytest.approx(2 / 5)


def test_j_is_the_mean_of_each_questions_judged_repeats(table):
    got = cell(table, "J", "overall")
    assert (got["n"], got["failed"]) == (5, 1)
    assert got["value"] == pytest.approx((1 + 2 / 3 + 0 + 1 / 3 + 1 / 2) / 5)


def test_majority_unanimous_and_any(table):
    # majority: more than half of the judged repeats (b1 has 1 of 2: not more than half)
    assert cell(table, "majority", "overall")["value"] == pytest.approx(2 / 5)
    assert cell(table, "unanimous", "overall")["value"] == pytest.approx(1 / 5)
    assert cell(table, "any", "overall")["value"] == pytest.approx(4 / 5)


def test_the_flip_rate_is_the_share_of_questions_whose_repeats_disagree(table):
    got = cell(table, "flip rate", "overall")
    assert (got["n"], got["value"]) == (5, pytest.approx(3 / 5))


def test_fleiss_kappa_by_hand(table):
    # the four questions with all three repeats judged; (wrong, correct) counts (0,3) (1,2) (3,0) (2,1)
    p_i = [(9 - 3) / 6, (1 + 4 - 3) / 6, (9 - 3) / 6, (4 + 1 - 3) / 6]
    p_bar = sum(p_i) / 4
    p_wrong, p_correct = 6 / 12, 6 / 12
    p_e = p_wrong**2 + p_correct**2
    got = cell(table, "fleiss kappa", "overall")
    assert got["n"] == 4
    assert got["value"] == pytest.approx((p_bar - p_e) / (1 - p_e)) == pytest.approx(1 / 3)


def test_a_file_of_one_repeat_has_no_repeat_figures(tmp_path, capsys):
    table = stats(capsys, main, str(write(tmp_path / "once.json", [verdict("a", 0, 4, 1.0)])))
    figures = {r["figure"] for r in table["rows"]}
    assert "J" in figures and not figures & {"J repeat 1", "majority", "unanimous", "any", "flip rate", "fleiss kappa"}
