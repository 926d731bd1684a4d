"""``-sweep 'ARM(KEY=V1,V2,...)'`` sweeps a plug-in's setting as ``-sweep k`` sweeps the reader's: one row per value,
each the figures of the plug-in built with that value (``-arms 'ARM(KEY=V)'``), the other arms alike in every
row; the results file has a pass per value naming ``ARM.KEY``, and the signature the sweep."""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from refused import one_line


def ran(argv: list[str], capsys) -> tuple[str, str]:
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args([*argv, "-only", "1", "-quiet"]), out) == 0
    return out.getvalue(), capsys.readouterr().err


def test_each_row_is_the_plugin_built_with_that_value(tmp_path, capsys):
    argv = ["-arms", "toy_plugins:Firsts(score=0.5),vector", "-sweep", "firsts(first=1,4,2)", "-json",
            str(tmp_path / "s.json")]
    out, err = ran([*argv, "-jobs", "1"], capsys)
    assert "|parts:2|sweep:firsts(first=1,4,2)" in err and "locomo-repro: first=4 done" in err
    rows = out.splitlines()[-3:]
    assert [row.split()[0] for row in rows] == ["1", "4", "2"]
    assert out.splitlines()[-5].split() == ["firsts(score=0.5)", "vector"]
    assert len({row.split(maxsplit=5)[5] for row in rows}) == 1  # vector's columns: the same in every row
    assert ran([*argv, "-jobs", "2"], capsys)[0] == out
    swept = json.loads((tmp_path / "s.json").read_text())["passes"]
    for value, each in zip((1, 4, 2), swept):
        assert each["sweep"] == {"setting": "firsts.first", "value": value}
        ran(["-arms", f"toy_plugins:Firsts(score=0.5,first={value})", "-jobs", "1", "-json", str(tmp_path / "one.json")],
            capsys)
        (alone,) = json.loads((tmp_path / "one.json").read_text())["passes"][0]["arms"].values()
        assert each["arms"]["firsts(score=0.5)"] == alone


@pytest.mark.parametrize(("argv", "says"), [
    (["-arms", "vector", "-sweep", "firsts(first=1,2)"], "-sweep firsts(first=...): no plug-in of -arms is named firsts"),
    (["-arms", "toy_plugins:Firsts", "-sweep", "firsts(depth=1,2)"],
     "toy_plugins:Firsts does not take these settings: got an unexpected keyword argument 'depth'"),
    (["-arms", "toy_plugins:Firsts(first=2)", "-sweep", "firsts(first=1,2)"], "-arms already sets first"),
    (["-arms", "toy_plugins:Firsts", "-sweep", "firsts(first=1,x)"], "invalid choice: 'firsts(first=1,x)'"),
])
def test_a_sweep_no_plugin_of_the_run_takes_is_refused_before_any_work(argv, says, capsys, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", "/nonexistent/locomo10.json")  # never reached
    one_line(capsys, cli.main(argv), says)
