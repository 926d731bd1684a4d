"""``-resume`` reads back only what this run wrote: a kept file carries the run's signature, the
conversation's id and the sha256 of what it holds, and has the kept layout.  A file of another run or
another conversation, an edited score, a wrong shape or no JSON at all is never merged into the table or
``-json``, never a traceback: the conversation is computed again, said on stderr in one line naming the
file.  ``-resume`` with ``-model`` is refused (the memo folder keeps a model run's answers)."""

from __future__ import annotations

import json
import shutil

import pytest

import kit_child
from locomo_repro import cli
from locomo_repro.bench import resume
from refused import one_line


def run(tmp_path, capsys, *more: str) -> tuple[bytes, str]:
    """A run over the tiny dataset kept in ``kept``: its ``-json`` bytes and stderr."""
    data = tmp_path / "data.json"
    if not data.exists():
        kit_child.tiny(data, samples=2)
    out = tmp_path / "r.json"
    assert cli.main(["-data", str(data), "-quiet", "-jobs", "1", "-resume", str(tmp_path / "kept"), "-json", str(out),
                     *more]) == 0
    return out.read_bytes(), capsys.readouterr().err


def figures(results: bytes) -> dict:
    """A results file but its measured cost (seconds, which differ from run to run: docs/results.md)."""
    body = json.loads(results)
    del body["cost"]
    return body


def kept(tmp_path) -> list:
    return sorted((tmp_path / "kept").iterdir(), key=lambda p: json.loads(p.read_text())["sample"])


def forged(path, change) -> None:
    """Change a kept file and give it the sha256 of what it then holds (as a forger would)."""
    body = json.loads(path.read_text())
    change(body)
    body["sha256"] = resume._digest(body)
    path.write_text(json.dumps(body))


def edited(path) -> None:
    """A score changed, the sha256 left as it was."""
    body = json.loads(path.read_text())
    body["records"][0]["vector"][0][8] = 1.0 - body["records"][0]["vector"][0][8]
    path.write_text(json.dumps(body))


CHANGES = {
    "an edited score": (edited, "edited"),
    "a score that is no number": (lambda p: forged(p, lambda b: b["records"][0]["vector"][0].__setitem__(8, "x")),
                                  "not of the kept types"),
    "records of a wrong shape": (lambda p: forged(p, lambda b: b.__setitem__("records", {"vector": 1})),
                                 "passes of records"),
    "no JSON": (lambda p: p.write_bytes(b"\0" * 64), "not JSON"),
    "another version": (lambda p: forged(p, lambda b: b.__setitem__("version", 1)), "no \"schema\""),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_kept_file_changed_is_computed_again_never_merged(change, tmp_path, capsys):
    first, _ = run(tmp_path, capsys)
    spoil, says = CHANGES[change]
    spoil(kept(tmp_path)[0])
    again, err = run(tmp_path, capsys)
    assert figures(again) == figures(first)
    (line,) = [line for line in err.splitlines() if "computed again" in line]
    assert str(kept(tmp_path)[0]) in line and says in line, line
    assert "Traceback" not in err
    assert run(tmp_path, capsys)[1].count("computed again") == 0  # the file was replaced by this run's


def test_a_file_of_another_run_is_not_read(tmp_path, capsys):
    first, _ = run(tmp_path, capsys)
    mine = kept(tmp_path)[0]
    shutil.rmtree(tmp_path / "kept")
    run(tmp_path, capsys, "-k", "3")
    shutil.copy(kept(tmp_path)[0], mine)  # the other run's file of the same conversation, under this run's name
    again, err = run(tmp_path, capsys)
    assert figures(again) == figures(first) and "another run's signature" in err and str(mine) in err


def test_a_file_of_another_conversation_is_not_read(tmp_path, capsys):
    first, _ = run(tmp_path, capsys)
    one, two = kept(tmp_path)
    shutil.copy(one, two)
    again, err = run(tmp_path, capsys)
    assert figures(again) == figures(first) and "another conversation's" in err and str(two) in err


def test_resume_with_a_model_is_refused(tmp_path, capsys):
    data = kit_child.tiny(tmp_path / "data.json")
    code = cli.main(["-data", str(data), "-model", "m", "-resume", str(tmp_path / "kept")])
    one_line(capsys, code, "-resume", "-model", "-memo")
    assert not (tmp_path / "kept").exists()
