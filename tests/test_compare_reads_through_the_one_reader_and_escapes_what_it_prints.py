"""``compare`` is one of the kit's commands like the others: its files are read once, by the kit's one JSON
reader (``/dev/zero`` ended in MemoryError, deep nesting in RecursionError); file names and labels are
escaped for markdown (``|``) and LaTeX (``& % _ # $ { } ~ ^ \\``); a results file's signature or arm name is
printed only after the control-character check the writers use (a newline forged a second ``signature:``
line, an ANSI escape reached the terminal): one line, exit 2, the value not shown."""

from __future__ import annotations

import json

import pytest

import kit_child
from locomo_repro import cli
from locomo_repro.data import jsonio
from refused import one_line


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results file of a run over the tiny dataset."""
    folder = tmp_path_factory.mktemp("results")
    data = kit_child.tiny(folder / "data.json", samples=2)
    done = kit_child.run(["-data", str(data), "-quiet", "-jobs", "1", "-json", "r.json"], folder)
    assert done.returncode == 0, done.stderr
    return json.loads((folder / "r.json").read_text())


def test_dev_zero_is_refused_in_one_line(capsys, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_STREAM", 1 << 20)
    one_line(capsys, cli.main(["compare", "/dev/zero"]), "/dev/zero: not a regular file and longer than")


def test_nesting_too_deep_is_refused_in_one_line(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    one_line(capsys, cli.main(["compare", str(deep)]), f"{deep}: not JSON: nested too deeply")


def test_a_file_is_read_once_so_a_pipe_is_read_as_a_file_is(tmp_path, capsys, results):
    import os

    path = tmp_path / "r.json"
    path.write_text(json.dumps(results))
    read, write = os.pipe()
    os.write(write, path.read_bytes())
    os.close(write)
    try:
        assert cli.main(["compare", str(path), f"/dev/fd/{read}", "--format", "json"]) == 0
    finally:
        os.close(read)
    assert [f["kind"] for f in json.loads(capsys.readouterr().out)["files"]] == ["results", "results"]


def test_labels_are_escaped_for_markdown_and_latex(tmp_path, capsys, results):
    bar, specials = tmp_path / "a|b.json", tmp_path / "x_&%#$~^{}.json"
    for path in (bar, specials):
        path.write_text(json.dumps(results))
    assert cli.main(["compare", str(bar), str(specials)]) == 0
    table = capsys.readouterr().out
    figures, costs = table.split("\n\n")  # the figures, then the measured costs (a results file of version 2)
    for line in figures.splitlines():
        assert line.replace("\\|", "").count("|") == 11, line  # ten cells, whatever the labels hold
    for line in costs.splitlines():
        assert line.replace("\\|", "").count("|") == 11, line  # ten cells here too
    assert "a\\|b.json vector" in table
    assert cli.main(["compare", str(bar), str(specials), "--format", "latex"]) == 0
    latex = capsys.readouterr().out
    assert r"x\_\&\%\#\$\textasciitilde{}\^{}\{\}.json vector" in latex


@pytest.mark.parametrize("control", ["\n", "\x1b[2J"], ids=["newline", "ANSI escape"])
@pytest.mark.parametrize("where", ["signature", "arm name"])
def test_a_control_character_in_what_compare_prints_is_refused_unshown(where, control, tmp_path, capsys, results):
    changed = json.loads(json.dumps(results))
    if where == "signature":
        changed["signature"] += f"{control}signature: forged"
    else:
        arms = changed["passes"][0]["arms"]
        arms[f"vector{control}forged"] = arms.pop("vector")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(changed))
    line = one_line(capsys, cli.main(["compare", str(path)]), str(path), "holds a control character", "not shown")
    assert "forged" not in line and "\x1b" not in line
