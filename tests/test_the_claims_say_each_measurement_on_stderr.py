"""``locomo-repro claims`` says how far it is on stderr (``data.progress``): a line for each measurement the
lab makes (a build with the runs asked of it, reach, ...), and the count of claims measured (a bar on a
terminal, a line every ten seconds elsewhere)."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pytest

from locomo_repro import claims
from locomo_repro.data.progress import Progress


@pytest.mark.slow
def test_each_measurement_is_a_line_and_so_is_the_count(samples):
    manifest = claims.load()
    chosen = ("result.table.single-hop.n", "result.table.graph.single-hop.f1", "hops.reach.first-two-same-shape")
    small = replace(manifest, claims=tuple(manifest.claim(cid) for cid in chosen))
    said = io.StringIO()
    with Progress("claims", len(small.claims), said, every=0.0, verb="measured") as progress:
        verdicts = claims.measured(small, samples[:1], None, progress)
    assert [v.claim.id for v in verdicts] == list(chosen)
    lines = said.getvalue().splitlines()
    measured = [line for line in lines if not re.fullmatch(r"locomo-repro: claims: \d/3 measured, .*", line)]
    assert [re.sub(r"\(\d+\.\d s\)$", "(s)", line) for line in measured] == [
        "locomo-repro: claims: -arms main: 1 conversations built and asked 1 way (s)",  # both table claims' run
        "locomo-repro: claims: reach over 2 conversations (s)",
    ]
    assert [line.split(",")[0] for line in lines if line not in measured] == [
        f"locomo-repro: claims: {n}/3 measured" for n in (1, 2, 3)]
