"""bench_perf's speed table: each row's flags given to the kit and to --vs, run by run in turn; medians,
ratios, and the README block rewritten in place."""

from __future__ import annotations

import json
import os

import pytest

from locomo_repro.bench import perf
from locomo_repro.bench.perf import KIT, Row, Usage

REF = ["/opt/go-bench", "-x"]


def test_each_row_alternates_the_kit_and_the_reference_on_the_same_flags(tmp_path, monkeypatch):
    data = tmp_path / "d.json"
    data.write_text(json.dumps([{"sample_id": "a"}, {"sample_id": "b"}]))
    calls: list[tuple[tuple[str, ...], list[str]]] = []
    copies = set()
    env = {"PYTHONPYCACHEPREFIX": str(tmp_path / "cache")}

    def fake(flags, command=KIT, given=None):
        assert given is env  # every run of every row, the reference's too
        calls.append((tuple(command), list(flags)))
        if flags[1] != str(data):
            copies.add(flags[1])
            copied = json.loads(open(flags[1]).read())
            assert [s["sample_id"] for s in copied] == [f"{i}-{r}" for r in range(10) for i in "ab"]
        # the warm runs are the first two of a row: a measured figure taken from one shows as 99
        warm = len(calls) % 6 in (1, 2)
        return Usage(cpu=99.0 if warm else 2.0 if tuple(command) == KIT else 4.0, wall=1.0, rss_mib=100.0)

    monkeypatch.setattr(perf, "measure", fake)
    measured = perf.rows(2, REF, data, only=3, env=env)
    assert [r.label for r in measured] == [label for label, _, _ in perf.ROWS]
    assert all(len(r.kit) == len(r.ref) == 2 for r in measured)
    assert all(u.cpu == 2.0 for r in measured for u in r.kit) and all(u.cpu == 4.0 for r in measured for u in r.ref)
    first = calls[:6]  # the default table: each command once unmeasured, then kit, reference, reference, kit
    assert [c[0] for c in first] == [KIT, tuple(REF), KIT, tuple(REF), tuple(REF), KIT]
    assert {tuple(c[1]) for c in first} == {("-data", str(data), "-only", "3")}
    walk = calls[6 * [label for label, _, _ in perf.ROWS].index("`-arms walk`")][1]  # six runs a row
    assert walk == ["-data", str(data), "-arms", "walk", "-only", "3"]
    (copy,) = copies  # the last row reads the copy ten times over; it goes with its temporary folder
    assert calls[-1][1] == ["-data", copy, "-only", "3"] and not os.path.exists(copy)


def test_there_is_a_row_for_every_published_command_that_prints_a_table():
    assert [(ten, flags) for _, ten, flags in perf.ROWS] == [
        (False, ()), (False, ("-blind",)), (False, ("-arms", "factor")), (False, ("-arms", "walk")),
        (False, ("-arms", "walk", "-blind")), (False, ("-arms", "read")), (False, ("-k", "2000", "-floor", "0")),
        (False, ("-k", "20", "-parts", "4", "-band", "0.5")),
        *((False, ("-sweep", s)) for s in ("floor", "span", "band", "parts")),
        (False, ("-show", "5")), (True, ()),
    ]
    assert [label for label, _, _ in perf.ROWS][:2] == ["default table", "`-blind`"]


def test_the_table_names_its_worst_row():
    kit = [Usage(1.0, 1.0, 100.0)]
    rows = [Row("default table", kit, [Usage(4.0, 2.0, 400.0)]), Row("`-arms read`", kit, [Usage(1.25, 1.0, 400.0)]),
            Row("`-sweep floor`", kit, [Usage(10.0, 10.0, 400.0)])]
    assert perf.markdown(rows, 1, REF).splitlines()[-2:] == [
        "", "The worst row is `-arms read`: 0.80× the reference's CPU, 1.00× its wall time."]


def test_the_table_gives_medians_and_the_kits_share_of_the_reference():
    kit = [Usage(1.0, 2.0, 100.0), Usage(3.0, 4.0, 300.0), Usage(2.0, 3.0, 200.0)]
    ref = [Usage(4.0, 6.0, 400.0), Usage(4.0, 6.0, 400.0), Usage(8.0, 6.0, 2400.0)]
    text = perf.markdown([Row("default table", kit, ref)], 3, REF)
    assert text.splitlines()[2:] == [
        "| run | kit CPU | ref CPU | ratio | kit wall / ref wall | kit peak | ref peak |",
        "|---|---|---|---|---|---|---|",
        "| default table | 2.00 s | 4.00 s | 0.50× | 0.50× | 200 MiB | 400 MiB |",
        "", "The worst row is default table: 0.50× the reference's CPU, 0.50× its wall time.",
    ]
    assert "alternating with `/opt/go-bench -x`" in text.splitlines()[0]
    alone = perf.markdown([Row("default table", kit, [])], 3, [])
    assert alone.splitlines()[2:] == ["| run | CPU | wall | peak |", "|---|---|---|---|",
                                      "| default table | 2.00 s | 3.00 s | 200 MiB |"]


def test_the_readme_block_is_replaced_and_nothing_else(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# Kit\n\n## Speed\n{perf.BEGIN}\nold\ntable\n{perf.END}\n\nafter\n")
    perf.into_readme(readme, "new\n")
    assert readme.read_text() == f"# Kit\n\n## Speed\n{perf.BEGIN}\nnew\n{perf.END}\n\nafter\n"


def test_a_readme_without_the_block_is_refused_in_one_line(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# Kit\n")
    with pytest.raises(SystemExit) as refused:
        perf.into_readme(readme, "new\n")
    assert str(refused.value.code) == f"{readme}: no {perf.BEGIN} … {perf.END} lines to write the table between"
    assert readme.read_text() == "# Kit\n"


def test_a_reference_command_that_is_not_there_is_refused_before_anything_runs(monkeypatch, capsys):
    monkeypatch.setattr(perf, "measure", lambda *a, **k: pytest.fail("measured"))
    assert perf.main(["--vs", "/nonexistent/go-bench -x"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("locomo-repro bench: error: --vs /nonexistent/go-bench -x: "
                                 "no such command\n")
