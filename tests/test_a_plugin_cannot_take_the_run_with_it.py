"""A plug-in cannot take the run with it.  Whatever escapes its code, ``SystemExit`` and ``GeneratorExit``
included, at import, in its factory, in ``recall`` or ``answer`` (``-jobs 1`` and ``2``), and whatever the
checks of what it returned meet (a score of 10**400, an iterable that raises, a ``__float__`` that raises,
an attribute lookup that raises) is one line naming the arm, exit 1 (2 at import), no traceback, nothing
written.  At most ``k + 1`` items are taken from what ``recall`` returns; a plug-in's ``print`` goes to
stderr; a child a plug-in forks that returns into the kit ends there; two plug-ins that give one name are
refused."""

from __future__ import annotations

import json

import pytest

import kit_child
from locomo_repro import cli

IN_A_RUN = [
    ("hostile_plugins:Exits", "recall raised SystemExit"),
    ("hostile_plugins:GeneratorExits", "recall raised GeneratorExit"),
    ("hostile_plugins:AnswerExits", "answer raised SystemExit: 3"),
    ("hostile_plugins:FactoryExits", "hostile_plugins:FactoryExits(conversation) raised SystemExit: no index"),
    ("hostile_plugins:HugeScore", "the score of 'D1:1' must be a finite number, got int 1000"),
    ("hostile_plugins:IterationRaises", "recall raised _Broken: the cursor closed"),
    ("hostile_plugins:FloatRaises", "recall raised ValueError: no float here"),
    ("hostile_plugins:LookupRaises", "raised RuntimeError: no recall today"),
    ("hostile_plugins:Endless", "recall returned more than k=5 cites"),
]


def run(argv, tmp_path, capsys) -> tuple[int, str]:
    out = tmp_path / "p.json"
    status = cli.main([*argv, "-only", "1", "-quiet", "-out", str(out)])
    captured = capsys.readouterr()
    assert not out.exists() and captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("locomo-repro: "), captured.err
    return status, captured.err


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("spec", "says"), IN_A_RUN, ids=[s.split(":")[1] for s, _ in IN_A_RUN])
def test_whatever_a_plugin_raises_or_returns_is_one_line_and_exit_1(spec, says, jobs, tmp_path, capsys):
    status, err = run(["-arms", spec, "-jobs", jobs], tmp_path, capsys)
    assert status == 1 and says in err, err
    assert err.startswith(f"locomo-repro: arm {spec.split(':')[1].lower()}, conv-26"), err


def test_a_module_whose_import_exits_is_refused_before_any_work(tmp_path, capsys):
    status, err = run(["-arms", "hostile_import_exits:Mine"], tmp_path, capsys)
    assert status == 2 and "importing hostile_import_exits raised SystemExit: this module is a script" in err


def kit(tmp_path, *argv: str):
    """The kit run in a process of its own (as a user runs it) with the tests' plug-ins importable."""
    data = kit_child.tiny(tmp_path / "data.json")
    return kit_child.run(["-data", str(data), "-jobs", "1", "-quiet", *argv], tmp_path,
                         {"PYTHONPATH": f"{kit_child.ROOT}:{kit_child.ROOT / 'tests'}"})


def test_what_a_plugin_prints_goes_to_stderr_never_into_the_table(tmp_path):
    done = kit(tmp_path, "-arms", "hostile_plugins:Prints")
    assert done.returncode == 0, done.stderr
    assert "NOISE" not in done.stdout and done.stderr.count("NOISE from the plug-in\n") == 3
    assert ["prints"] in [line.split() for line in done.stdout.splitlines()]  # the table's heading names the arm


def test_a_child_a_plugin_forks_ends_where_it_returns_into_the_kit(tmp_path):
    done = kit(tmp_path, "-arms", "hostile_plugins:Forks", "-out", "p.json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("conversations, ") == 1 and done.stdout.count("predictions: p.json") == 1
    assert done.stderr.count("signature: ") == 1


def test_two_plugins_that_give_one_name_are_refused(tmp_path, capsys):
    status, err = run(["-arms", "hostile_plugins:Twin,hostile_plugins:OtherTwin"], tmp_path, capsys)
    assert status == 2 and "the arm name 'twin' is also hostile_plugins:Twin's" in err


def test_a_reply_is_taken_as_a_plain_string_inside_the_guard(tmp_path):
    done = kit(tmp_path, "-arms", "hostile_plugins:SlyReply", "-out", "p.json")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    replies = {q["slyreply_prediction"] for s in json.loads((tmp_path / "p.json").read_text()) for q in s["qa"]}
    assert replies == {"Paris"}
