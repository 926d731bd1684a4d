"""A corrupt or foreign errors.json, an error about a question the dataset does not hold, the key applied to
another dataset: one line naming the errors file, exit status 2, nothing written, for every command that grades."""

from __future__ import annotations

import json

import pytest

import toy_audit
from locomo_repro import cli
from refused import one_line


def _errors(change) -> str:
    made = toy_audit.errors()
    change(made)
    return json.dumps(made)


def _set(i: int, **fields):
    return lambda made: made[i].update(fields)


BAD = {
    "not JSON": ("[{", "line 1"),
    "not a list": (json.dumps({"errors": []}), "not locomo-audit's errors.json"),
    "a field missing": (_errors(lambda made: made[0].pop("correct_answer")), "no field 'correct_answer'"),
    "an unknown type": (_errors(_set(0, error_type="TYPO")), "error_type 'TYPO' is none of"),
    "a bad id": (_errors(_set(0, question_id="conv-26_q1")), "is not locomo_<sample>_qa<question>"),
    "listed twice": (_errors(lambda made: made.append(made[0])), "locomo_0_qa1 is listed twice"),
    "no such question": (_errors(_set(0, question_id="locomo_0_qa40")), "has no question 40"),
    "no such conversation": (_errors(_set(0, question_id="locomo_3_qa1")), "the dataset has 1 conversations"),
    "another dataset": (_errors(_set(0, question="Where did Ann go?")), "a key applied to another dataset"),
}


@pytest.fixture
def files(tmp_path, monkeypatch):
    return toy_audit.write(tmp_path, monkeypatch)


@pytest.mark.parametrize("case", BAD)
def test_a_run_under_a_bad_key_writes_nothing(files, capsys, case):
    body, said = BAD[case]
    (files / "audit" / "errors.json").write_text(body)
    code = cli.main(["-data", str(files / "d.json"), "-arms", "toy_plugins:Parrot", "-jobs", "1", "-key", "audited",
                     "-out", str(files / "p.json"), "-json", str(files / "r.json")])
    one_line(capsys, code, "errors.json", said)
    assert not (files / "p.json").exists() and not (files / "r.json").exists()


GRADING = {
    "stats": ["stats", "P"], "official": ["official", "--kit", "P"], "compare": ["compare", "P"], "key": ["key", "P"],
    "peers table": ["table", "P"], "report": ["report", "--predictions", "P", "-o", "OUT"],
}


@pytest.mark.parametrize("command", GRADING)
def test_every_grading_command_refuses_a_key_of_another_dataset(files, capsys, monkeypatch, command):
    if command == "report":
        pytest.importorskip("matplotlib", reason="the report extra")
    monkeypatch.setenv("LOCOMO_DATA", str(files / "d.json"))
    assert cli.main(["-data", str(files / "d.json"), "-arms", "toy_plugins:Parrot", "-jobs", "1",
                     "-out", str(files / "p.json")]) == 0
    (files / "audit" / "errors.json").write_text(BAD["another dataset"][0])
    capsys.readouterr()
    argv = [{"P": str(files / "p.json"), "OUT": str(files / "r.html")}.get(a, a) for a in GRADING[command]]
    one_line(capsys, cli.main(argv + ([] if command == "key" else ["-key", "audited"])), "errors.json",
             "another dataset")
    assert not (files / "r.html").exists()


def test_no_errors_file_where_LOCOMO_AUDIT_points_is_one_line(files, capsys):
    (files / "audit" / "errors.json").unlink()
    code = cli.main(["-data", str(files / "d.json"), "-arms", "toy_plugins:Parrot", "-key", "audited"])
    one_line(capsys, code, "errors.json: no such file")


def unmeasured(err: str) -> list[str]:
    """Stderr but its lines of measured cost (seconds, which differ from run to run)."""
    return [line for line in err.splitlines() if not line.startswith("locomo-repro: cost of ")]


def test_the_official_key_named_is_the_default_byte_for_byte(files, capsys):
    argv = ["-data", str(files / "d.json"), "-arms", "toy_plugins:Parrot", "-jobs", "1"]
    assert cli.main([*argv, "-out", str(files / "a.json")]) == 0
    default = capsys.readouterr()
    assert cli.main([*argv, "-key", "official", "-out", str(files / "b.json")]) == 0
    named = capsys.readouterr()
    assert named.out.replace("b.json", "a.json") == default.out and unmeasured(named.err) == unmeasured(default.err)
    assert (files / "a.json").read_bytes() == (files / "b.json").read_bytes()
    assert "key:" not in default.err
