"""A plug-in that cannot be loaded is one line and exit 2, before any work; one that fails in a run (it raises,
returns an id that is not a turn of the conversation, a NaN score, a wrong type, too many cites) stops the run
in one line naming the arm, the question and what was wrong, exit 1; in both cases nothing is written."""

from __future__ import annotations

import pytest

from locomo_repro import cli

LOAD = [
    ("no_such_module_here:Mine", "cannot import no_such_module_here"),
    ("toy_plugins:Missing", "toy_plugins has no attribute Missing"),
    ("toy_plugins:NOT_CALLABLE", "is a int, not a class or function"),
    ("toy_plugins:Plus", "the arm name 'bad+name' is not a plain name"),
    ("toy_plugins:Vector", "the arm name 'vector' is a built-in memory's"),
    ("toy_plugins:", "a plug-in is named MODULE:ATTR"),
    ("nope", "no such arm set or installed plug-in (see -arms list)"),
    ("toy_plugins:Parrot+set", "parrot is an answerer; only a memory is read by a reader"),
]

RUN = [
    ("toy_plugins:Raises", "recall raised RuntimeError: the index is down"),
    ("toy_plugins:NotATurn", "'D99:99' is not a turn of the conversation"),
    ("toy_plugins:NanScore", "the score of 'D1:1' must be a finite number, got float nan"),
    ("toy_plugins:WrongType", "recall must return a list of (dia_id, score) pairs, got str"),
    ("toy_plugins:TooMany", "recall returned more than k=5 cites"),
    ("toy_plugins:BadAnswer", "answer must return a reply or (reply, dia_ids, confidence), got int 42"),
]

FACTORY = [
    ("toy_plugins:FactoryRaises", "toy_plugins:FactoryRaises(conversation) raised ValueError: no model file"),
    ("toy_plugins:Neither", "which has neither recall(question, k) nor answer(question)"),
]


def run(argv, tmp_path, capsys) -> tuple[int, str]:
    out = tmp_path / "p.json"
    status = cli.main([*argv, "-only", "1", "-quiet", "-out", str(out)])
    err = capsys.readouterr().err
    assert not out.exists() and list(tmp_path.iterdir()) == []
    assert err.count("\n") == 1 and err.startswith("locomo-repro: "), err
    return status, err


@pytest.mark.parametrize(("spec", "says"), LOAD, ids=[s for s, _ in LOAD])
def test_a_plugin_that_cannot_be_loaded_is_refused_before_any_work(spec, says, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", "/nonexistent/locomo10.json")  # never reached
    status, err = run(["-arms", f"main,{spec}"], tmp_path, capsys)
    assert status == 2 and says in err


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("spec", "says"), RUN, ids=[s for s, _ in RUN])
def test_a_plugin_that_fails_on_a_question_stops_the_run_naming_it(spec, says, jobs, tmp_path, capsys):
    status, err = run(["-arms", spec, "-jobs", jobs], tmp_path, capsys)
    name = spec.split(":")[1].lower()
    assert status == 1 and says in err
    assert err.startswith(f"locomo-repro: arm {name}, conv-26, question 'What ") or \
        err.startswith(f"locomo-repro: arm {name}, conv-26, question 'When "), err


@pytest.mark.parametrize(("spec", "says"), FACTORY, ids=[s for s, _ in FACTORY])
def test_a_factory_that_fails_stops_the_run_naming_the_conversation(spec, says, tmp_path, capsys):
    status, err = run(["-arms", spec], tmp_path, capsys)
    assert status == 1 and says in err and err.startswith(f"locomo-repro: arm {spec.split(':')[1].lower()}, conv-26: ")


@pytest.mark.parametrize(("spec", "says"), [
    ("toy_plugins:AnswerNotATurn", "'D99:99' is not a turn of the conversation"),
    ("toy_plugins:AnswerNumberId", "a dialogue id must be a string, got int"),
])
def test_every_dialogue_id_an_answerer_returns_is_a_turn_of_the_conversation(spec, says, tmp_path, capsys):
    status, err = run(["-arms", spec, "-jobs", "1"], tmp_path, capsys)
    assert status == 1 and says in err and err.startswith(f"locomo-repro: arm {spec.split(':')[1].lower()}, conv-26, ")


@pytest.mark.parametrize(("spec", "says"), [
    ("toy_plugins:TrueScore", "the score of 'D1:1' must be a finite number, got bool True"),
    ("toy_plugins:TrueConfidence", "the confidence must be a finite number, got bool True"),
])
def test_true_is_neither_a_score_nor_a_confidence(spec, says, tmp_path, capsys):
    status, err = run(["-arms", spec, "-jobs", "1"], tmp_path, capsys)
    assert status == 1 and says in err and err.startswith(f"locomo-repro: arm {spec.split(':')[1].lower()}, conv-26, ")
