"""The report's leaderboard section (``report --leaderboard``): the forest plot of the rows with their intervals
and, in its table, every row's figures exactly as ``locomo-repro leaderboard`` measures them (its data
attributes), tied rows in one group, a missing row listed with why.  The files are the toy board's."""

from __future__ import annotations

import re

import pytest

import toy_board
from locomo_repro.data.dataset import load
from locomo_repro.peers import leaderboard
from locomo_repro.report import cli as report_cli
from locomo_repro.report import page
from locomo_repro.score.predictions import read
from refused import one_line

pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
from locomo_repro.report import plots  # noqa: E402


def section(tmp_path, monkeypatch) -> tuple[str, list[leaderboard.Placed]]:
    files = toy_board.write(tmp_path, monkeypatch)
    samples = load(str(files / "d.json"))
    entries = [*leaderboard.of_predictions(read(files / "p.json"), "p.json"),
               *leaderboard.load_file(str(files / "r.json"), "r.json", samples),
               *leaderboard.load_file(str(files / "j.json"), "j.json", samples),
               leaderboard.Entry("gone", "peers.yaml", "gone", missing="gone.json: cannot read")]
    table, conversations, _ = leaderboard.tabulate(entries, samples, None)
    shown = [(p.row.name, p.row.f1, p.row.low, p.row.high, p.group) for p in table if p.row.f1 is not None]
    svg = plots.forest(shown, "leaderboard", "toy")
    return page.leaderboard_section(table, svg, "signature-of-it", len(conversations)), table


def attributes(html: str, name: str) -> dict[str, str]:
    (row,) = re.findall(rf'<tr ([^>]*data-name="{re.escape(name)}"[^>]*)>', html)
    return dict(re.findall(r'data-([a-z0-9-]+)="([^"]*)"', row))


def test_each_row_carries_the_leaderboards_figures(tmp_path, monkeypatch):
    html, table = section(tmp_path, monkeypatch)
    assert html.count('<svg data-figure="leaderboard"') == 1 and 'data-signature="signature-of-it"' in html
    for p in table:
        got = attributes(html, p.row.name)
        for key, want in (("place", p.place or None), ("f1", p.row.f1), ("low", p.row.low), ("high", p.row.high),
                          ("rank-low", p.rank_low), ("rank-high", p.rank_high), ("diff-low", p.diff_low),
                          ("tied", p.tied), ("group", p.group)):
            shown = "null" if want is None else repr(want) if isinstance(want, float) else str(want).lower() \
                if isinstance(want, bool) else str(want)
            assert got[key] == shown, (p.row.name, key)


def test_tied_rows_share_a_group_and_a_missing_row_says_why(tmp_path, monkeypatch):
    html, _ = section(tmp_path, monkeypatch)
    c, b, a = (attributes(html, n) for n in ("j.json c", "r.json b", "p.json a"))
    assert c["tied"] == "true" and c["group"] == b["group"] != a["group"]  # c - b holds 0; b - a does not
    assert attributes(html, "gone")["missing"] == "gone.json: cannot read"
    assert "missing: gone.json: cannot read" in html


def test_the_leaderboard_is_graded_under_the_official_key_only(capsys, tmp_path):
    code = report_cli.main(["--leaderboard", "-key", "audited", "-o", str(tmp_path / "r.html")])
    one_line(capsys, code, "--leaderboard grades under the official key")
    assert not (tmp_path / "r.html").exists()
