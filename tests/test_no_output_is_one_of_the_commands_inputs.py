"""No output of a command may be one of its own inputs, the same file by device and inode however it is
named (the path itself, a symbolic link, a hard link): ``-out``/``-json`` naming ``-data`` replaced the
dataset, ``report -o`` naming a ``--predictions`` file replaced it with HTML.  Refused in one line, exit 2,
before any work, the input as it was."""

from __future__ import annotations

import json
import os

import pytest

import kit_child
from locomo_repro import cli
from locomo_repro.peers.__main__ import main as peers_main
from locomo_repro.refined.__main__ import main as refined_main
from locomo_repro.report import cli as report_cli
from refused import one_line


def named(path, how: str, tmp_path):
    """``path`` itself, or a symbolic link or a hard link to it."""
    if how == "path":
        return path
    other = tmp_path / f"{how}.json"
    other.symlink_to(path) if how == "symlink" else os.link(path, other)
    return other


@pytest.mark.parametrize("how", ["path", "symlink", "hard link"])
@pytest.mark.parametrize("flag", ["-out", "-json"])
def test_a_run_never_writes_over_its_dataset(flag, how, tmp_path, capsys):
    data = kit_child.tiny(tmp_path / "data.json")
    before = data.read_bytes()
    code = cli.main(["-data", str(data), "-quiet", "-jobs", "1", flag, str(named(data, how, tmp_path))])
    one_line(capsys, code, f"{flag} ", f"the input -data {data} is that file")
    assert data.read_bytes() == before


def test_a_run_never_writes_over_the_dataset_named_by_locomo_data(tmp_path, capsys, monkeypatch):
    data = kit_child.tiny(tmp_path / "data.json")
    monkeypatch.setenv("LOCOMO_DATA", str(data))
    before = data.read_bytes()
    one_line(capsys, cli.main(["-quiet", "-jobs", "1", "-out", str(data)]), "the input -data")
    assert data.read_bytes() == before


def test_the_report_never_writes_over_a_predictions_file(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    predictions = tmp_path / "p.json"
    predictions.write_text("[]")
    code = report_cli.main(["--predictions", str(predictions), "-o", str(named(predictions, "symlink", tmp_path))])
    one_line(capsys, code, f"the input --predictions {predictions} is that file")
    assert predictions.read_text() == "[]"


def test_peers_import_never_writes_over_the_file_it_imports(tmp_path, capsys):
    mem0 = tmp_path / "m.json"
    mem0.write_text(json.dumps({"0": [{"question": "Where did Ann go?", "answer": "Paris", "response": "Paris"}]}))
    before = mem0.read_bytes()
    one_line(capsys, peers_main(["import", "--arm", f"m={mem0}", "-out", str(mem0)]), f"the input --arm {mem0}")
    assert mem0.read_bytes() == before


def test_refined_score_never_writes_over_its_predictions(tmp_path, capsys):
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text('{"qa_id": "s#q0000", "predicted_answer": "a", "answer": "a"}\n')
    before = jsonl.read_bytes()
    one_line(capsys, refined_main(["score", "--questions", str(jsonl), "--predictions", str(jsonl),
                                   "--summary", str(jsonl)]), f"the input --predictions {jsonl} is that file")
    assert jsonl.read_bytes() == before


def test_refined_predict_never_writes_over_its_questions(tmp_path, capsys):
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text('{"qa_id": "s#q0000", "question": "Where?", "answer": "a"}\n')
    before = jsonl.read_bytes()
    one_line(capsys, refined_main(["predict", "--arm", "vector", "--questions", str(jsonl), "--out", str(jsonl)]),
             f"the input --questions {jsonl} is that file")
    assert jsonl.read_bytes() == before
