"""peers check --key audited names every published judge accuracy above the ceiling of the category it holds
(hand-made cells against hand-made ceilings), and ``locomo-repro key`` gives the audit's own ceilings."""

from __future__ import annotations

import pytest

from locomo_repro.peers.manifest import Cell
from locomo_repro.peers.published import above
from locomo_repro.score import ceiling
from locomo_repro.score.key import load

CEILINGS = {"1": 0.9007, "2": 0.9190, "3": 0.9062, "4": 0.9572, "5": 1.0, "overall": 0.9357}


def cell(id: str, category: str, published: str, metric: str = "judge", found_under: str | None = None) -> Cell:
    return Cell(id=id, system="s", where="w", metric=metric, category=category, published=published,
                unit="percent", status="reproduced", found_under=found_under)


def test_only_judge_accuracies_above_the_ceiling_of_the_category_they_hold_are_named():
    cells = [
        cell("single", "4", "95.96"),  # EverMemOS's single hop against 95.72: above
        cell("multi", "1", "90.07"),  # equal to the ceiling: not above
        cell("named-otherwise", "3", "91.20", found_under="4"),  # the table's open domain holds single hop
        cell("open", "3", "91.20"),
        cell("overall", "overall", "93.60"),
        cell("f1", "4", "99.00", metric="mem0_f1"),
    ]
    assert above(cells, CEILINGS) == [
        "  single: published 95.96 is above 4 single hop's ceiling 95.72",
        "  open: published 91.20 is above 3 open domain's ceiling 90.62",
        "  overall: published 93.60 is above overall's ceiling 93.57",
    ]


@pytest.mark.outside("LOCOMO_AUDIT")
def test_the_ceilings_are_the_audits_own(samples):
    key = load("audited")
    got = ceiling.by_category(key, key.samples(samples))
    assert (round(100 * got["4"], 2), round(100 * got["1"], 2), round(100 * got["overall"], 2)) == (95.72, 90.07, 93.57)
    rows = {name: (n, wrong) for name, n, _, wrong, _ in ceiling.ceilings(key, key.samples(samples))}
    assert rows["answerable"] == (1540, 99) and rows["overall"] == (1986, 99) and rows["single hop"] == (841, 36)
