"""The judge against the official F1 of the same replies (ROC AUC of F1 for the verdict, J where F1 is 0
and where it is 1), and its leniency: the acceptance of the probes' wrong answers, each and together, the
sensitivity to the gold itself, and the acceptance of answers known wrong against an answer key."""

from __future__ import annotations

import pytest
from judged_files import cell, stats, verdict, write

from locomo_repro.judge import measures
from locomo_repro.judge.__main__ import main


def test_the_auc_of_f1_for_the_verdict_and_j_at_f1_0_and_1(tmp_path, capsys):
    made = [  # single hop, graded by the official F1 of the reply against "red car"
        verdict("a", 0, 4, 1.0, reply="red car", gold="red car"),   # F1 1, accepted
        verdict("a", 1, 4, 1.0, reply="blue boat", gold="red car"),  # F1 0, accepted
        verdict("b", 0, 4, 0.0, reply="red boat", gold="red car"),   # F1 0.5, rejected
        verdict("b", 1, 4, 0.0, reply="green bus", gold="red car"),  # F1 0, rejected
    ]
    table = stats(capsys, main, str(write(tmp_path / "f1.json", made)))
    # accepted F1s (1, 0) against rejected (0.5, 0): 1 beats both, 0 ties one 0 and loses to 0.5
    assert cell(table, "f1 auc", "single hop")["value"] == pytest.approx((1 + 1 + 0 + 0.5) / 4)
    at_zero = cell(table, "J at f1=0", "single hop")
    assert (at_zero["n"], at_zero["value"]) == (2, 0.5)
    at_one = cell(table, "J at f1=1", "single hop")
    assert (at_one["n"], at_one["value"]) == (1, 1.0)


def test_the_probes_acceptance_each_and_together_and_the_sensitivity(tmp_path, capsys):
    probes = {"probe.wrong-gold": [1.0, 0.0, 0.0], "probe.restated": [1.0, 1.0], "probe.empty": [0.0, 0.0],
              "probe.gold": [1.0, 0.0]}
    made = [verdict("a", i, 4, s, arm=arm) for arm, scores in probes.items() for i, s in enumerate(scores)]
    table = stats(capsys, main, str(write(tmp_path / "probes.json", [verdict("a", 0, 4, 1.0), *made])))
    assert cell(table, "acceptance", "overall", "probe.wrong-gold")["value"] == pytest.approx(1 / 3)
    assert cell(table, "acceptance", "overall", "probe.restated")["value"] == 1.0
    assert cell(table, "acceptance", "overall", "probe.empty")["value"] == 0.0
    together = cell(table, "acceptance", "overall", "probes.wrong")
    assert (together["n"], together["value"]) == (7, pytest.approx(3 / 7))
    assert cell(table, "sensitivity", "overall", "probe.gold")["value"] == 0.5
    assert {r["arm"] for r in table["rows"] if r["figure"] == "J"} == {"mine"}  # a probe is no arm of its own


def test_answers_known_wrong_are_those_of_the_key_that_are_not_its_gold():
    made = [verdict("a", 0, 4, 1.0, reply="sometime in spring"), verdict("a", 1, 4, 1.0, reply="Yes"),
            verdict("a", 2, 4, 0.0, reply="a cat"), verdict("a", 3, 4, 1.0, reply="not in the key")]
    key = {("a", 0): "7 May 2023", ("a", 1): "yes", ("a", 2): "a dog"}
    wrong = measures.known_wrong(made, key)
    assert [v.qa for v in wrong] == [0, 2]  # "Yes" is the gold, accidentally right; question 3 is not in the key
    assert measures.j(wrong, (4,)).value == 0.5
