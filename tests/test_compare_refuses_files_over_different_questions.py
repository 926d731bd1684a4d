"""``compare`` refuses files that are not over the same questions in one line on stderr, exit status 2,
nothing on stdout: results files over different datasets, predictions files whose answers differ, runs of
different conversations (``-only``), a results file against a predictions file of other conversations."""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    for only in ("1", "2"):
        argv = ["-only", only, "-jobs", "1", "-quiet", "-arms", "read", "-out", str(folder / f"p{only}.json"),
                "-json", str(folder / f"r{only}.json")]
        assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    return folder


def refused(capsys, *paths) -> str:
    capsys.readouterr()
    assert cli.main(["compare", *map(str, paths)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    return err


def test_results_files_over_different_datasets_are_refused(runs, tmp_path, capsys):
    document = json.loads((runs / "r2.json").read_bytes())
    document["dataset"]["sha256"] = "0" * 64
    other = tmp_path / "other.json"
    other.write_text(json.dumps(document))
    err = refused(capsys, runs / "r2.json", other)
    assert err == f"{other}: over another dataset than {runs / 'r2.json'} (sha256 000000000000... against 79fa87e90f04...)\n"


def test_predictions_files_with_a_different_answer_are_refused(runs, tmp_path, capsys):
    document = json.loads((runs / "p2.json").read_bytes())
    document[1]["qa"][3]["answer"] = "something else"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(document))
    err = refused(capsys, runs / "p2.json", other)
    assert err == f"{other}: not over the same questions as {runs / 'p2.json'}: conv-30 qa[3]: the answer differs\n"


@pytest.mark.parametrize(("one", "two"), [("r2", "r1"), ("r2", "p1"), ("p1", "p2")])
def test_files_of_different_conversations_are_refused(runs, capsys, one, two):
    err = refused(capsys, runs / f"{one}.json", runs / f"{two}.json")
    assert err.startswith(f"{runs / (two + '.json')}: not over the same questions as {runs / (one + '.json')}")
