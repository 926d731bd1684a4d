"""One run at floor 0 gives the run at any floor (``bench.floor.at_floor``): every record under the floor
becomes the declined reply, graded as declined; the rest, and every context, confidence and recall, stay, and a
reply given without a confidence is never declined.

The claims, the report and the session's lab take every floor this way; here it is held to runs made at
each floor, record for record, for every arm set (the parity tests hold the floors of ``-sweep floor`` and
the default run to the reference's bytes).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from locomo_repro.bench import experiment as bench
from locomo_repro.bench.floor import at_floor
from locomo_repro.read.reader import Options
from locomo_repro.text.lexicon import DECLINE


def record(category: int, reply: str, answer: str, sure: float, score: float) -> bench.Record:
    return bench.Record("s", "q", answer, category, ("D1:1",), reply, ("D1:1", "D2:2"), sure, score, 0.5)


def test_a_record_under_the_floor_is_declined_and_graded_as_declined():
    # By hand: single hop "red car" answered "red car" (F1 1); adversarial answered "blue" (0), declined it scores 1.
    run = {"a": [record(4, "red car", "red car", 0.6, 1.0), record(5, "blue", "x", 0.2, 0.0)],
           "b": [record(4, "car", "red car", 0.1, 2 / 3), record(5, DECLINE, "x", 0.9, 1.0)]}
    at = at_floor(run, 0.3)
    assert at["a"] == [run["a"][0], replace(run["a"][1], reply=DECLINE, score=1.0)]
    assert at["b"] == [replace(run["b"][0], reply=DECLINE, score=0.0), run["b"][1]]
    assert at_floor(run, 0.0) == run and at_floor(run, 0.6)["a"][0] is run["a"][0]
    assert at["a"][1].context == ("D1:1", "D2:2") and at["a"][1].recall == 0.5 and at["a"][1].sure == 0.2


def test_a_reply_without_a_confidence_is_kept_at_every_floor():
    # An answering plug-in's bare reply: no confidence, no context; a floor has nothing to compare, so never declines it.
    bare = bench.Record("s", "q", "red car", 4, ("D1:1",), "red car", None, None, 1.0, None)
    for floor in (0.0, 0.3, 1.0):
        assert at_floor({"a": [bare]}, floor) == {"a": [bare]}


@pytest.mark.slow
def test_every_floor_of_a_run_at_floor_0_is_the_run_at_that_floor(samples):
    cases = bench.build(samples[:1], ",".join(bench.ARM_SETS))  # every arm of every set
    for options in (Options(), Options(k=20, parts=4, band=0.5)):
        base = bench.run(cases, replace(options, floor=0.0))
        assert len(base) == len({arm for arms in bench.ARM_SETS.values() for arm in arms})
        for floor in (*bench.STEPS["floor"], 0.05, 0.35, 1.0):
            assert at_floor(base, floor) == bench.run(cases, replace(options, floor=floor)), (options, floor)
