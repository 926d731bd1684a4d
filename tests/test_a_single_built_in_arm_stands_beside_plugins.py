"""One built-in arm stands beside plug-ins by its name (``-arms vector,mine``), measured as in its arm set;
``-arms list`` says so, and lists every set and installed plug-in in one aligned column with its kind."""

from __future__ import annotations

import io
import re

import pytest

from locomo_repro import cli
from locomo_repro.arms import plugin
from locomo_repro.bench import experiment as bench
from test_a_toy_plugin_runs_through_every_command import table


def ran(arms: str) -> dict[str, list[str]]:
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args(["-arms", arms, "-only", "1", "-quiet", "-jobs", "1"]), out) == 0
    return table(out.getvalue())


def column(rows: dict[str, list[str]], arm: str) -> list[list[str]]:
    at = rows[""].index(arm)
    return [cells[1 + 3 * at: 4 + 3 * at] for name, cells in rows.items() if name]


@pytest.mark.slow
def test_one_built_in_arm_beside_a_plugin_is_the_arm_its_set_measures():
    alone = ran("vector,toy_plugins:Vec")
    assert alone[""] == ["vec", "vector"]
    assert column(alone, "vector") == column(ran("main"), "vector")
    walked = ran("oracle+set")
    assert walked[""] == ["oracle+set"] and column(walked, "oracle+set") == column(ran("read"), "oracle+set")


def test_the_list_is_aligned_and_names_each_plugins_kind():
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args(["-arms", "list"]), out) == 0
    lines = out.getvalue().splitlines()
    named = [line for line in lines if re.match(r"  [^ (]", line)]
    sets, plugins = len(bench.ARMS), len(plugin.installed())  # the built-in sets and whatever plug-ins are installed
    assert len(named) == sets + plugins and len({re.match(r"  \S+ +", line).end() for line in named}) == 1  # one column
    assert any(line.split()[0] == "bm25" and line.endswith("(locomo-repro 0.1.0): memory") for line in named)
    assert "  (or one arm of a set by its name, beside others: -arms vector,MODULE:ATTR)" in lines
