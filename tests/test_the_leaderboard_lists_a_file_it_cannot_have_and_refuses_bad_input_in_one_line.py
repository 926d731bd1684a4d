"""A row whose file cannot be had is listed as missing, with why, never dropped: a peers.yaml system whose file
is not in the peers' folder, every system when the pinned files cannot be fetched, a publication's run its
variable's folder lacks.  Bad input is one line on stderr, exit status 2, nothing on stdout."""

from __future__ import annotations

import json

import pytest

import toy_board
from locomo_repro import cli
from locomo_repro.peers import fetch, plus
from locomo_repro.score.formats import PeersError
from refused import one_line


@pytest.fixture
def files(tmp_path, monkeypatch):
    toy_board.write(tmp_path, monkeypatch)  # LOCOMO_AUDIT names a folder without the audit's runs
    monkeypatch.setenv(plus.ENV, str(tmp_path))  # nor LoCoMo-Plus's
    (tmp_path / "peers.yaml").write_text("systems:\n  mine: {format: official, path: p.json}\n"
                                         "  gone: {format: mem0, path: gone/answers.json}\n")
    return tmp_path


def board(capsys, files, *argv: str, fmt: str = "json"):
    assert cli.main(["leaderboard", "--arms", "none", "--data", str(files / "d.json"), "--manifest",
                     str(files / "peers.yaml"), "--format", fmt, *argv]) == 0
    out = capsys.readouterr().out
    return json.loads(out)["rows"] if fmt == "json" else out


def test_a_system_whose_file_is_not_there_is_a_missing_row(capsys, files, monkeypatch):
    monkeypatch.setenv(fetch.ENV, str(files))
    rows = board(capsys, files)
    assert [(r["name"], r["source"], r["place"]) for r in rows] == [
        ("mine", "peers.yaml", 1), ("gone", "peers.yaml", None),
        *((f"locomo-audit {run}", "locomo-audit", None)
          for run in ("gpt-4o-mini-memos", "gpt-4o-mini-cot", "gpt-4.1-mini-memos", "gpt-4.1-mini-cot")),
        ("LoCoMo-Plus judged_v2", "LoCoMo-Plus", None)]
    assert rows[0]["f1"] == 2 / 6 and rows[0]["missing"] is None
    assert "gone/answers.json" in rows[1]["missing"] and rows[1]["f1"] is None
    assert "fc-baseline/results/gpt-4o-mini-cot/eval_results.json (LOCOMO_AUDIT names" in rows[3]["missing"]
    assert "output/judged_v2.json (LOCOMO_PLUS names" in rows[-1]["missing"]
    text = board(capsys, files, fmt="text")
    assert "missing (no file to score):" in text and "  gone (peers.yaml): " in text


def test_every_system_is_missing_when_the_pinned_files_cannot_be_fetched(capsys, files, monkeypatch):
    monkeypatch.delenv(fetch.ENV, raising=False)

    def offline(*args, **kwargs):
        raise PeersError("https://raw.githubusercontent.com/x: cannot download (offline); nothing written")

    monkeypatch.setattr(fetch, "fetch", offline)
    rows = board(capsys, files, str(files / "p.json"))
    assert [(r["name"], r["missing"] is None) for r in rows][:3] == [("p.json a", True), ("mine", False),
                                                                     ("gone", False)]
    assert all("cannot download (offline)" in r["missing"] for r in rows[1:3])
    assert all(r["missing"] for r in rows[3:]) and len(rows) == 8


@pytest.mark.parametrize(("content", "part"), [
    ("{not json", "x.json"),
    ('{"some": "object"}', "neither a results file"),
    ('[{"sample_id": "s1", "qa": [{"question": "q"}]}]', "no <arm>_prediction key"),
])
def test_a_file_it_cannot_read_is_one_line(capsys, files, content, part):
    (files / "x.json").write_text(content)
    code = cli.main(["leaderboard", "--no-peers", "--arms", "none", "--data", str(files / "d.json"),
                     str(files / "x.json")])
    one_line(capsys, code, part)


@pytest.mark.parametrize(("argv", "part"), [
    (["--no-peers", "--arms", "none"], "no row"),
    (["--jobs", "0"], "-jobs must be at least 1"),
    (["--format", "html"], "invalid choice"),
    (["--form", "csv"], "unrecognized arguments"),
    (["--no-peers", "--arms", "none", "--judged", "nothere.json", "p.json"], "nothere.json"),
])
def test_a_bad_command_line_is_one_line(capsys, files, monkeypatch, argv, part):
    monkeypatch.chdir(files)
    one_line(capsys, cli.main(["leaderboard", "--data", "d.json", *argv]), part)
