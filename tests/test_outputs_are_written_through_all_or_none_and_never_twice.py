"""One writer rule for every output: a stream or pipe path (``/dev/stdout``, ``/dev/fd/N`` of ``>(gzip)``,
``/proc/self/fd/N``) is written through; a command's several outputs are committed all or none, even when a
rename fails midway; two outputs of one command that are the same file are refused before any work; a
read-only target is refused, not replaced; every JSON the kit writes is strict (a non-finite mean is null)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from refused import one_line
from locomo_repro import cli
from locomo_repro.data import atomic, jsonio
from locomo_repro.peers.__main__ import main as peers_main
from locomo_repro.refined.__main__ import main as refined_main
from locomo_repro.score import golden

ROOT = Path(__file__).resolve().parents[1]
DATA = [{"sample_id": "s1", "conversation": {
    "speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I went to Paris yesterday."}]},
    "qa": [{"question": "Where did Ann go?", "answer": "Paris", "category": 4, "evidence": ["D1:1"]}]}]


@pytest.fixture
def data(tmp_path) -> Path:
    path = tmp_path / "d.json"
    path.write_text(json.dumps(DATA))
    return path



@pytest.mark.parametrize("form", ["/dev/fd/{}", "/proc/self/fd/{}"])
def test_out_to_a_pipe_path_is_written_through(data, tmp_path, capsys, form):
    expected = tmp_path / "plain.json"
    assert cli.main(["-data", str(data), "-jobs", "1", "-quiet", "-out", str(expected)]) == 0
    read, write = os.pipe()
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(os.fdopen(read, "rb").read()))
    reader.start()
    try:
        assert cli.main(["-data", str(data), "-jobs", "1", "-quiet", "-out", form.format(write)]) == 0
    finally:
        os.close(write)
        reader.join()
    assert got == [expected.read_bytes()]


@pytest.mark.slow
def test_out_dev_stdout_into_a_pipe_follows_the_table(data):
    run = subprocess.run([sys.executable, "-m", "locomo_repro", "-data", str(data), "-jobs", "1", "-quiet",
                          "-out", "/dev/stdout"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    table, _, rest = run.stdout.partition("\n[\n")
    assert "single hop" in table and rest.endswith("]\n\npredictions: /dev/stdout (graph, graph+edge, oracle, vector)\n")
    assert json.loads("[\n" + rest.rpartition("\n\npredictions:")[0])[0]["sample_id"] == "s1"


def refused_at(monkeypatch, name: str) -> None:
    """Make the rename onto ``name`` fail, as onto an immutable file."""
    real = os.replace

    def replace(src, dst):
        if Path(dst).name == name:
            raise PermissionError(1, "Operation not permitted")
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)


def test_a_rename_that_fails_midway_puts_every_file_back(tmp_path, monkeypatch):
    out = tmp_path / "g"
    out.mkdir()
    for name in golden.FILES[:3]:  # three old files; the other two do not exist yet
        (out / name).write_text(f"old {name}")
    (out / golden.FILES[0]).chmod(0o640)
    refused_at(monkeypatch, "replies.tsv")
    with pytest.raises(golden.GoldenError, match="replies.tsv: cannot write: Operation not permitted"):
        golden.write(out, {name: f"new {name}" for name in golden.FILES})
    assert sorted(p.name for p in out.iterdir()) == sorted(golden.FILES[:3])  # no litter, nothing new
    assert all((out / name).read_text() == f"old {name}" for name in golden.FILES[:3])
    assert (out / golden.FILES[0]).stat().st_mode & 0o777 == 0o640


def test_two_files_replaced_together_are_both_kept_when_the_second_rename_fails(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_text("old a")
    (tmp_path / "b.txt").write_text("old b")
    refused_at(monkeypatch, "b.txt")
    with pytest.raises(atomic.WriteError, match="b.txt: cannot write: Operation not permitted"):
        atomic.write_files([(tmp_path / "a.txt", b"new a"), (tmp_path / "b.txt", b"new b")])
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == {"a.txt": "old a", "b.txt": "old b"}


def test_a_file_created_before_a_rename_that_fails_is_removed(tmp_path, monkeypatch):
    (tmp_path / "b.txt").write_text("old b")
    refused_at(monkeypatch, "b.txt")
    with pytest.raises(atomic.WriteError, match="b.txt: cannot write: Operation not permitted"):
        atomic.write_files([(tmp_path / "a.txt", b"new a"), (tmp_path / "b.txt", b"new b")])
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == {"b.txt": "old b"}


def test_peers_import_refuses_a_folder_or_a_shared_path_before_writing_anything(tmp_path, capsys):
    mem0 = tmp_path / "m.json"
    mem0.write_text(json.dumps({"0": [{"question": "Where did Ann go?", "answer": "Paris", "response": "Paris"}]}))
    out, folder = tmp_path / "o.json", tmp_path / "folder"
    folder.mkdir()
    one_line(capsys, peers_main(["import", "--arm", f"m={mem0}", "-out", str(out), "--refined-out", str(folder)]),
             f"--refined-out {folder}: is a folder")
    one_line(capsys, peers_main(["import", "--arm", f"m={mem0}", "-out", str(out), "--refined-out", str(out)]),
             f"-out {out} and --refined-out {out} name the same file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "m.json"]


def test_refined_score_refuses_two_outputs_that_are_one_file(tmp_path, capsys):
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text('{"qa_id": "s#q0000", "predicted_answer": "a", "answer": "a"}\n')
    s = tmp_path / "s.json"
    one_line(capsys, refined_main(["score", "--questions", str(jsonl), "--predictions", str(jsonl),
                                   "--out", str(s), "--summary", str(s)]),
             f"error: --out {s} and --summary {s} name the same file")
    link = tmp_path / "link.md"
    link.symlink_to(tmp_path / "s.md")
    one_line(capsys, refined_main(["score", "--questions", str(jsonl), "--predictions", str(jsonl),
                                   "--markdown", str(link), "--summary", str(tmp_path / "s.md")]), "name the same file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.md", "p.jsonl"]


def test_a_read_only_target_is_refused_not_replaced(data, tmp_path, capsys):
    target = tmp_path / "ro.json"
    target.write_text("keep me")
    target.chmod(0o444)
    one_line(capsys, cli.main(["-data", str(data), "-jobs", "1", "-out", str(target)]),
             f"-out {target}: a read-only file (mode 0444): not replaced")
    with pytest.raises(atomic.WriteError, match="read-only"):
        atomic.write_files([(tmp_path / "new.json", b"x"), (target, b"y")])
    assert target.read_text() == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["d.json", "ro.json"]


def test_a_summary_whose_mean_overflows_is_strict_json(tmp_path, capsys):
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text("".join(json.dumps({"qa_id": f"s#q{i:04d}", "predicted_answer": "a", "answer": "a",
                                         "x_score": 1.5e308}) + "\n" for i in range(2)))
    assert refined_main(["score", "--questions", str(jsonl), "--predictions", str(jsonl)]) == 0
    capsys.readouterr()
    summary = jsonio.load(tmp_path / "p_scored_summary.json")  # the strict reader: no NaN, no Infinity
    assert summary["overall"]["x_score"] is None and summary["overall"]["metrics"]["x_score"]["max"] == 1.5e308
