"""A plug-in whose object has both ``recall`` and ``answer`` is measured as what its ``kind`` attribute says
(``kind = "memory"`` or ``"answerer"``); without one it is refused in one line, before any work for a class
and once made for a function, as is a ``kind`` naming a method the object lacks."""

from __future__ import annotations

import io

import pytest

from locomo_repro import cli
from locomo_repro.arms.plugin import kind
from refused import one_line
from test_a_toy_plugin_runs_through_every_command import table

import toy_plugins


def test_kind_tells_a_memory_an_answerer_and_one_that_says_which_it_is():
    assert kind(toy_plugins.Vec) == "memory" and kind(toy_plugins.Bare) == "answerer"
    assert kind(toy_plugins.Neither) == ""
    assert kind(toy_plugins.BothAsMemory) == "memory" and kind(toy_plugins.BothAsAnswerer) == "answerer"
    with pytest.raises(ValueError, match=r'^it has both recall\(question, k\) and answer\(question\): say which it '
                                         r'is with kind = "memory" or kind = "answerer"$'):
        kind(toy_plugins.Both)
    with pytest.raises(ValueError, match=r"^its kind is 'answerer' but it has no answer\(question\)$"):
        kind(toy_plugins.KindWithout)


@pytest.mark.parametrize(("spec", "says"), [
    ("toy_plugins:Both", "-arms toy_plugins:Both: toy_plugins:Both: it has both recall(question, k) and answer"),
    ("toy_plugins:KindWithout", "its kind is 'answerer' but it has no answer(question)"),
])
def test_a_class_that_does_not_say_which_it_is_is_refused_before_any_work(spec, says, capsys, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", "/nonexistent/locomo10.json")  # never reached
    one_line(capsys, cli.main(["-arms", spec, "-only", "1"]), says)


def test_a_function_whose_object_has_both_stops_the_run_naming_the_conversation(capsys):
    status = cli.main(["-arms", "toy_plugins:both_made", "-only", "1", "-quiet", "-jobs", "1"])
    err = capsys.readouterr().err
    assert status == 1 and err.startswith("locomo-repro: arm both_made, conv-26: toy_plugins:both_made(conversation) "
                                          "returned Both ") and "say which it is with kind" in err


def test_the_kind_chooses_what_is_measured():
    out = io.StringIO()
    args = cli.parser().parse_args(["-arms", "toy_plugins:BothAsMemory,toy_plugins:BothAsAnswerer,toy_plugins:Vec",
                                    "-only", "1", "-quiet", "-jobs", "1"])
    assert cli.run(args, out) == 0
    rows = table(out.getvalue())
    assert rows[""] == ["both_answerer", "both_memory", "vec"]
    answerer, memory, vec = (rows["overall"][1 + 3 * i: 4 + 3 * i] for i in range(3))
    assert memory == vec  # measured by its recall, as the memory it extends
    assert answerer[1] == "-"  # its bare answer: no evidence, so no recall
