"""``locomo-repro reach`` prints, over all ten conversations, the reference's own reach lines
(``golden/reference/extra-reach-all10-and-graph-gather.txt``: its reach_test.go harness, run with
``go test -v``, logs each line after ``ALL10 ``): categories by bare number in its order 4, 1, 2, 3, 5.
Those are the reference's bytes, so the command keeps them rather than naming the categories."""

from __future__ import annotations

import pytest

from locomo_repro.bench import reach


@pytest.mark.slow
def test_all_ten_conversations_give_the_references_lines(lab, reference_dir):
    kept = (reference_dir / "extra-reach-all10-and-graph-gather.txt").read_text().splitlines()[:5]
    found = lab.reach(len(lab.samples))  # the session's one reach over all ten (``reach.reach``), the claims' too
    assert [line.removeprefix("ALL10 ") for line in kept] == reach.report(found).splitlines()
