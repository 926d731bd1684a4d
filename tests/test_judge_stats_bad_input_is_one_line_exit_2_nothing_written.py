"""judge stats refuses what it cannot read in one line naming the file, exit status 2, nothing on stdout and
no file written: a judged file of an unknown shape, a malformed kit's file, a file that is not JSON, one
that is not there, an answer key that is none."""

from __future__ import annotations

import json

import pytest
from judged_files import verdict, write
from refused import one_line

from locomo_repro.judge.__main__ import main
from locomo_repro.judge.verdicts import SCHEMA


def kit_body(tmp_path) -> dict:
    return json.loads(write(tmp_path / "good.json", [verdict("a", 0, 4, 1.0)]).read_text())


def malformed(tmp_path, change) -> str:
    body = kit_body(tmp_path)
    change(body)
    (tmp_path / "bad.json").write_text(json.dumps(body))
    return str(tmp_path / "bad.json")


CASES = {
    "unknown shape": (lambda t: (t / "bad.json").write_text('{"answers": [1, 2]}'), "not a judged file of a shape"),
    "not json": (lambda t: (t / "bad.json").write_text("{oops"), "bad.json"),
    "kit file missing a field": (lambda t: malformed(t, lambda b: b["verdicts"][0].pop("score")),
                                 "does not have exactly the fields"),
    "kit file of another version": (lambda t: malformed(t, lambda b: b.update(version=99)), "version 99"),
    "kit file with a score out of range": (lambda t: malformed(t, lambda b: b["verdicts"][0].update(score=2)),
                                           "score is in [0, 1]"),
    "kit file with a repeat that is no integer": (lambda t: malformed(t, lambda b: b["verdicts"][0].update(repeat="x")),
                                                 "repeat is str, not an integer"),
    "kit file with a score that is text": (lambda t: malformed(t, lambda b: b["verdicts"][0].update(score="1")),
                                           "score is str, not a number or null"),
    "kit file with a reply that is no text": (lambda t: malformed(t, lambda b: b["verdicts"][0].update(reply=None)),
                                              "reply is NoneType, not a string"),
    "kit file whose verdicts are no list": (lambda t: malformed(t, lambda b: b.update(verdicts={})),
                                            "'verdicts' is not a list"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_judged_file_is_one_line(tmp_path, capsys, case):
    make, said = CASES[case]
    make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    one_line(capsys, main(["stats", str(tmp_path / "bad.json")]), "bad.json", said)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_missing_file_is_one_line(tmp_path, capsys):
    one_line(capsys, main(["stats", str(tmp_path / "absent.json")]), "absent.json")


def test_an_answer_key_that_is_none_is_one_line(tmp_path, capsys, samples):
    good = write(tmp_path / "good.json", [verdict("a", 0, 4, 1.0)])
    (tmp_path / "key.json").write_text(json.dumps({"schema": SCHEMA}))
    one_line(capsys, main(["stats", str(good), "--wrong", str(tmp_path / "key.json")]), "key.json", "not an answer key")


def test_a_wrong_flag_and_no_file_are_one_line(capsys):
    one_line(capsys, main(["stats", "--format", "yaml", "x.json"]), "--format")
    one_line(capsys, main(["stats"]), "FILE")
