"""The leaderboard reads each named file once (the kit's one reader): a predictions file, a results file and a
judged file given as a pipe (``<(cat f)``) give the rows the files give, named by the path given."""

from __future__ import annotations

import json

import pytest

import toy_board
from locomo_repro import cli
from test_an_input_is_read_once_and_a_stream_is_capped import pipe


@pytest.mark.parametrize("name", ["p.json", "r.json", "j.json"])
def test_a_pipe_gives_the_files_rows(capsys, tmp_path, monkeypatch, name):
    files = toy_board.write(tmp_path, monkeypatch)
    argv = ["leaderboard", "--no-peers", "--arms", "none", "--data", str(files / "d.json"), "--format", "json"]
    assert cli.main([*argv, str(files / name)]) == 0
    from_file = json.loads(capsys.readouterr().out)["rows"]
    with pipe((files / name).read_bytes()) as path:
        assert cli.main([*argv, path]) == 0
        from_pipe = json.loads(capsys.readouterr().out)["rows"]
        label = path.rsplit("/", 1)[1]
    assert [{**r, "name": r["name"].replace(label, name)} for r in from_pipe] == from_file
    assert from_file[0]["f1"] is not None
