"""peers.yaml: every cell the peers publish, recomputed from that system's own file (``pytest -m peers``).

The cells' tests need the peers' files (LOCOMO_PEERS); without it they are left out of the run, and the summary
says so.  The checks of the manifest's shape run always."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from locomo_repro.peers import manifest, published
from locomo_repro.score.formats import PeersError

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


# ---- the published tables judged as tables (peers.yaml tables; locomo_repro.peers.published)

ZEP_ORDER = ("1", "2", "3", "4", None)  # Zep's row: categories in number order; its Overall is no category's figure
OWN_ORDER = ("1", "3", "4", "2", "overall")  # the tables' own rows (mem0's harness names)


def test_every_table_row_is_cells_of_the_manifest_one_per_column():
    assert [t.id for t in MANIFEST.tables] == ["memobase.readme", "backboard.readme"]
    ids = {c.id for c in MANIFEST.cells}
    for table in MANIFEST.tables:
        assert table.columns == ("Single-Hop", "Multi-Hop", "Open Domain", "Temporal", "Overall")
        for row in table.rows:
            assert len(row.cells) == len(table.columns) and set(row.cells) <= ids


@pytest.mark.parametrize(("change", "says"), [
    (("    unlike: [Multi-Hop, Open Domain, Temporal]\n- id: backboard", "    unlike: [Multi-Hop, Span]\n- id: backboard"),
     "table memobase.readme: row Zep*: unlike names Span, not a column"),
    (("zep.judge.overall]\n    unlike: [Multi-Hop, Open Domain, Temporal]\n- id", "zep.judge.overal]\n    unlike: []\n- id"),
     "table memobase.readme: row Zep*: zep.judge.overal is not a cell of claims"),
    (("columns: [Single-Hop, Multi-Hop, Open Domain, Temporal, Overall]\n  rows:\n  - row: Backboard",
      "columns: [Single-Hop, Multi-Hop, Open Domain, Temporal]\n  rows:\n  - row: Backboard"),
     "table backboard.readme: row Backboard: 5 cells for 4 columns"),
])
def test_a_malformed_table_is_refused_naming_it(change, says, tmp_path):
    text = PATH.read_text()
    assert change[0] in text
    bad = tmp_path / "peers.yaml"
    bad.write_text(text.replace(change[0], change[1], 1))
    with pytest.raises(PeersError, match=re.escape(says)):
        manifest.load(bad)


def test_a_row_in_another_category_order_is_named_with_the_cells_it_compares():
    """Made-up figures: row b holds categories 1-4 in number order, row a in its harness's order 1, 3, 4, 2."""
    def cell(system, column, category, published):
        return manifest.Cell(f"{system}.{column}", system, f"{system} row, column {column}", "judge", category,
                             published, "percent", "reproduced")
    a = [cell("a", "s", "4", "10.00"), cell("a", "m", "1", "30.00"), cell("a", "o", "3", "40.00"),
         cell("a", "t", "2", "20.00")]
    b = [cell("b", "s", "4", "11.00"), cell("b", "m", "1", "12.00"), cell("b", "o", "3", "13.00"),
         cell("b", "t", "2", "14.00")]
    figures_of = {"a": {"1": 0.1, "2": 0.2, "3": 0.3, "4": 0.4}, "b": {"1": 0.11, "2": 0.12, "3": 0.13, "4": 0.14}}
    measured = {s: {k: {"judge": v} for k, v in f.items()} | {"5": {"judge": None}, "overall": {"judge": None}}
                for s, f in figures_of.items()}
    rows = (manifest.Row("a", tuple(c.id for c in a)), manifest.Row("b", tuple(c.id for c in b), ("M", "O", "T")))
    table = manifest.Table("t", "a table", ("S", "M", "O", "T"), rows)
    peers = manifest.Manifest({"a": ("official", "a"), "b": ("official", "b")}, (*a, *b), (table,))
    first, second = published.judge(table, peers, measured)
    assert first.held == ("1", "3", "4", "2") and first.unlike == ()
    assert second.held == ("1", "2", "3", "4") and second.agrees
    assert published.verdict(table, second) == (
        "b: 3 of its 4 category columns hold another category than in a's row, so they compare different questions: "
        "M 2 temporal (b.m) against 3 open domain (a.m); O 3 open domain (b.o) against 4 single hop (a.o); "
        "T 4 single hop (b.t) against 2 temporal (a.t)")
    assert published.verdict(table, first) == "a: the table's first row; the others are compared with it"


@pytest.mark.peers
@pytest.mark.outside("LOCOMO_PEERS")
@pytest.mark.parametrize("table", MANIFEST.tables, ids=[t.id for t in MANIFEST.tables])
def test_the_zep_row_compares_three_columns_with_other_questions(table, measured):
    verdicts = published.judge(table, MANIFEST, measured)
    for v in verdicts:
        assert v.agrees, f"{table.id}: {published.verdict(table, v)}"
        assert v.held == (ZEP_ORDER if v.row.label.startswith("Zep") else OWN_ORDER), v.row.label
    (zep,) = [v for v in verdicts if v.row.label.startswith("Zep")]
    assert [(u.column, u.held, u.first_held) for u in zep.unlike] == [
        ("Multi-Hop", "2", "3"), ("Open Domain", "3", "4"), ("Temporal", "4", "2")]


@pytest.mark.peers
@pytest.mark.slow
@pytest.mark.outside("LOCOMO_PEERS")
def test_check_prints_each_table_its_rows_verdicts_and_every_cell(capsys):
    from locomo_repro.peers.__main__ import main

    assert main(["check", "--dir", PEERS]) == 0
    out = capsys.readouterr().out
    assert "  Zep*                1 multi hop     2 temporal      3 open domain   4 single hop    -\n" in out
    assert "  Zep: 3 of its 4 category columns hold another category than in Backboard's row" in out
    assert "  Memobase (v0.0.37): every column holds what it holds in Backboard's row: like with like\n" in out
    assert "[FAILING" not in out
    assert [x.split()[0] for x in out.split("verdict per cell")[1].splitlines()[1:]] == [c.id for c in MANIFEST.cells]
