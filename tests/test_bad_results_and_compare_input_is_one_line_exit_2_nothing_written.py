"""Bad input to ``-json`` and to ``compare`` is one line on stderr and exit status 2, with nothing on stdout
and nothing written: an unusable ``-json`` path is refused before the run (and ``-out`` is not written
either), as are ``-json`` with ``-stats`` and ``-json`` naming ``-out``'s file; ``compare`` refuses
abbreviated or unknown flags, files it cannot read, broken results files (an arm over conversations other than
the dataset's, in its order, among them) and other systems' formats (saying to convert them with
``locomo-repro import``)."""

from __future__ import annotations

import json

import pytest

from locomo_repro import cli
from locomo_repro.score import results

GOOD = {"schema": "locomo-repro/results", "version": 1}


def one_line(capsys, argv) -> str:
    capsys.readouterr()
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    return err


def test_an_unwritable_json_path_is_refused_before_the_run_and_out_is_not_written(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", str(tmp_path / "never-read.json"))
    (tmp_path / "folder").mkdir()
    err = one_line(capsys, ["-only", "2", "-out", str(tmp_path / "p.json"), "-json", str(tmp_path / "folder")])
    assert err == f"locomo-repro: -json {tmp_path / 'folder'}: is a folder (see locomo-repro --help)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_json_with_stats_is_refused(tmp_path, capsys):
    err = one_line(capsys, ["-stats", str(tmp_path / "p.json"), "-json", str(tmp_path / "r.json")])
    assert "-json writes a run's results; -stats reads a predictions file" in err
    assert list(tmp_path.iterdir()) == []


def test_json_and_out_naming_one_file_are_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", str(tmp_path / "never-read.json"))
    err = one_line(capsys, ["-out", str(tmp_path / "x.json"), "-json", str(tmp_path / "x.json")])
    assert f"-out {tmp_path / 'x.json'} and -json {tmp_path / 'x.json'} name the same file" in err
    err = one_line(capsys, ["-out", str(tmp_path / "x.json"), "-json", f"{tmp_path}/./x.json"])  # one file, two spellings
    assert "name the same file" in err
    assert list(tmp_path.iterdir()) == []


def write(tmp_path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    return str(tmp_path / name)


CASES = {
    "an abbreviated flag": (lambda t: ["--form", "csv", write(t, "a.json", "[]")], "unrecognized arguments: --form ("),
    "an unknown format": (lambda t: ["--format", "html", write(t, "a.json", "[]")], "invalid choice: 'html'"),
    "no file": (lambda t: [], "the following arguments are required: FILE"),
    "a missing file": (lambda t: [str(t / "none.json")], "none.json: cannot read"),
    "a file that is no JSON": (lambda t: [write(t, "a.json", "{")], "a.json: not JSON"),
    "another system's object": (lambda t: [write(t, "mem0.json", json.dumps({"0": [{"question": "q", "response": "r"}]}))],
                                "mem0.json: in the mem0 format"),
    "JSON lines": (lambda t: [write(t, "refined.jsonl", '{"qa_id": "a#1"}\n{"qa_id": "a#2"}\n')],
                   "refined.jsonl: JSON lines"),
    "a results file of another version": (lambda t: [write(t, "r.json", json.dumps({**GOOD, "version": 3}))],
                                          "r.json: results version 3; this kit reads versions 1, 2"),
    "a results file without its dataset": (lambda t: [write(t, "r.json", json.dumps(GOOD))], "r.json: no 'dataset'"),
    "a predictions file without questions": (lambda t: [write(t, "p.json", "[]")], "p.json: no questions"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_compare_input_is_one_line_and_exit_2(tmp_path, capsys, case):
    argv, says = CASES[case]
    err = one_line(capsys, ["compare", *argv(tmp_path)])
    assert says in err, err
    if case == "JSON lines":
        assert err.rstrip().endswith("with `locomo-repro import` first")
    if case == "another system's object":  # named, as stats and official name it
        assert err.rstrip().endswith("import it first with locomo-repro import --arm NAME=PATH -out FILE")


def test_a_broken_results_file_names_the_place(tmp_path, capsys, monkeypatch):
    argv = ["-only", "1", "-jobs", "1", "-quiet", "-arms", "read", "-json", str(tmp_path / "r.json")]
    import io

    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    document = json.loads((tmp_path / "r.json").read_bytes())
    document["passes"][0]["arms"]["oracle"]["rows"]["5"]["n"] = "many"
    (tmp_path / "r.json").write_text(json.dumps(document))
    err = one_line(capsys, ["compare", str(tmp_path / "r.json")])
    assert err == f"{tmp_path / 'r.json'}: passes[0] arm oracle row 5: 'n' is a string, not a count\n"


@pytest.mark.slow
def test_compare_to_a_full_stdout_ends_in_one_line(tmp_path):
    """A child interpreter, stdout buffered as a user's is, printing to a device that is always full: the
    signature on stderr, then the failure in one line, no traceback."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system (a device that reports every write as a full disk)")
    (tmp_path / "p.json").write_text(json.dumps([{"sample_id": "s1", "qa": [{
        "question": "Where did Ann go?", "answer": "Paris", "category": 4, "evidence": ["D1:1"],
        "graph_prediction": "Paris", "vector_prediction": "Rome"}]}]))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "locomo_repro", "compare", str(tmp_path / "p.json")], stdout=full,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == "locomo-repro compare: standard output: No space left on device"


def two_conversations(each: list[str]) -> dict:
    """A results file over the dataset's conversations c1 and c2 whose one arm lists ``each`` as its conversations."""
    row = results.Row(n=1, f1=1.0, recall=None, quiet=0.0, f1_interval=None)
    arm = results.Arm(rows={key: row for key, _ in results.ROWS},
                      conversations=tuple((sample, {key: (1, 1.0) for key, _ in results.ROWS}) for sample in each))
    made = results.Results(sha256="0" * 64, conversations=("c1", "c2"), settings={}, signature="", kit_version="0",
                           passes=(results.Pass(None, {o: 1 for o in results.OPTIONS}, {"a": arm}),))
    return results.document(made)


@pytest.mark.parametrize("each", [["c2", "c1"], ["c1", "c3"]], ids=["reordered", "renamed"])
def test_an_arm_over_other_conversations_than_the_datasets_in_order_is_refused(tmp_path, capsys, each):
    path = write(tmp_path, "r.json", json.dumps(two_conversations(each)))
    err = one_line(capsys, ["compare", path])
    assert err == f"{path}: passes[0] arm a: its conversations are not the dataset's conversations in order\n"
    assert cli.main(["compare", write(tmp_path, "good.json", json.dumps(two_conversations(["c1", "c2"])))]) == 0
