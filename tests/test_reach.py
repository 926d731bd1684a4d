"""The shape reach_test.go of hanzoai/semantic bench/locomo asserts, and the reach report.

On the first two conversations, for questions whose subject resolves: one hop
from the subject's node reaches at least 80% of the evidence of every
answerable category and at most 55% of the adversarial evidence; two hops
reach at least 85% of the adversarial evidence (the reference observes
0.826/0.913/0.952/1.000, 0.315 and 0.973).
"""

from __future__ import annotations

import pytest

from locomo_repro.bench import reach
from locomo_repro.data.dataset import ANSWERABLE


@pytest.fixture(scope="module")
def first_two(lab):
    """Reach over the first two conversations (``reach.reach``), made once for the session: the claims' too."""
    return lab.reach(2)


@pytest.mark.parametrize("category", ANSWERABLE)
def test_reach_one_hop_reaches_most_answerable_evidence(first_two, category):
    assert first_two[1][category] >= 0.80


def test_reach_one_hop_misses_most_adversarial_evidence(first_two):
    assert first_two[1][5] <= 0.55


def test_reach_two_hops_reach_the_adversarial_trap(first_two):
    assert first_two[2][5] >= 0.85


def test_reach_report_lines(first_two):
    lines = reach.report(first_two).splitlines()
    assert [line.split(":")[0] for line in lines] == [f"category {c}" for c in (4, 1, 2, 3, 5)]
    assert lines[0] == "category 4: one hop reaches 0.826, two 0.939"


def test_reach_named_lines_give_number_and_official_name_in_number_order(first_two):
    lines = reach.report(first_two, named=True).splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "category 1 multi hop", "category 2 temporal", "category 3 open domain", "category 4 single hop",
        "category 5 adversarial"]
    assert lines[3] == "category 4 single hop: one hop reaches 0.826, two 0.939"


def test_a_negative_count_is_refused_in_one_line(capsys):
    assert reach.main(["--only", "-1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "locomo-repro reach: error: --only takes a count of 0 or more, got -1\n"
