"""peers.yaml: every cell the peers publish, recomputed from that system's own file (``pytest -m peers``).

The cells' tests need the peers' files (LOCOMO_PEERS); without it they are left out of the run, and the summary
says so.  The checks of the manifest's shape run always."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from locomo_repro.peers import manifest
from locomo_repro.peers.formats import PeersError

PATH = Path(__file__).resolve().parent.parent / "peers.yaml"
MANIFEST = manifest.load(PATH)
PEERS = os.environ.get("LOCOMO_PEERS")


@pytest.fixture(scope="module")
def measured(samples):
    assert PEERS, "LOCOMO_PEERS names the peers' published files"
    return manifest.measure(MANIFEST, Path(PEERS), samples)


@pytest.mark.peers
@pytest.mark.outside("LOCOMO_PEERS")
@pytest.mark.parametrize("cell", MANIFEST.cells, ids=[c.id for c in MANIFEST.cells])
def test_cell(cell, measured, record_property):
    got = manifest.printed(cell, measured[cell.system])
    record_property("measured", got)
    if cell.status == "reproduced":
        assert got == cell.published, f"{cell.where}: the file gives {got}, published {cell.published}"
    else:
        assert got == cell.measured != cell.published, f"{cell.where}: the file gives {got}"
        if cell.found_under:  # the published value is another category's figure
            assert manifest.printed(cell, measured[cell.system], cell.found_under) == cell.published


def test_every_published_table_cell_is_in_the_manifest():
    rows = {(c.system, c.where.partition("column ")[2]) for c in MANIFEST.cells if c.metric == "judge" and
            "column" in c.where}
    columns = ["Single-Hop", "Multi-Hop", "Open Domain", "Temporal", "Overall"]
    assert rows == {(s, col) for s in ("memobase", "zep", "backboard") for col in columns}
    memobase_means = [(c.metric, c.category) for c in MANIFEST.cells if c.where.startswith("Memobase v0.0.37")]
    assert sorted(memobase_means) == sorted([("mem0_f1", k) for k in "1234"] + [
        ("mem0_bleu", "overall"), ("mem0_f1", "overall"), ("judge", "overall")])


def test_a_refuted_cell_without_a_reason_is_refused_naming_it(tmp_path):
    text = PATH.read_text().replace("  reason: the file's Single-Hop", "  note: the file's Single-Hop", 1)
    bad = tmp_path / "peers.yaml"
    bad.write_text(text)
    with pytest.raises(PeersError, match="memobase.judge.single-hop: a refuted cell needs measured and reason"):
        manifest.load(bad)
