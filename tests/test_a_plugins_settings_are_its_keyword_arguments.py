"""A plug-in's settings, ``-arms 'NAME(key=value,...)'``, are passed to its factory as keyword arguments (numbers,
``true``/``false`` and words as written); the arm's column and the signature name them, two settings of
one plug-in are two arms, and settings its factory does not take are refused in one line before any work."""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from locomo_repro.arms.plugin import value
from refused import one_line
from test_a_toy_plugin_runs_through_every_command import table


def test_a_value_is_a_number_a_truth_value_or_the_word_written():
    assert [value(t) for t in ("2", "-3", "1.5", "1e-3", "true", "false", "bm25", "nan", "1,2")] == [
        2, -3, 1.5, 0.001, True, False, "bm25", "nan", "1,2"]
    assert isinstance(value("2"), int) and isinstance(value("2.0"), float)


def test_the_settings_reach_the_factory_and_name_the_column_and_the_signature(tmp_path, capsys, samples):
    out = io.StringIO()
    arms = "toy_plugins:Firsts,toy_plugins:Firsts(first=2,backwards=true,score=0.5,tag=x),vector"
    argv = ["-arms", arms, "-only", "1", "-quiet", "-jobs", "1", "-out", str(tmp_path / "p.json")]
    assert cli.run(cli.parser().parse_args(argv), out) == 0
    assert table(out.getvalue())[""] == ["firsts", "firsts(first=2,backwards=true,score=0.5,tag=x)", "vector"]
    err = capsys.readouterr().err
    assert f"|arms:{arms}|plugin:firsts=toy_plugins:Firsts|" \
           f"plugin:firsts(first=2,backwards=true,score=0.5,tag=x)=toy_plugins:Firsts|" in err
    first = json.loads((tmp_path / "p.json").read_text())[0]["qa"][0]
    turns = [t.id for t in samples[0].turns]
    assert first["firsts_prediction_context"] == turns[:3]
    assert first["firsts(first=2,backwards=true,score=0.5,tag=x)_prediction_context"] == turns[:2][::-1]


@pytest.mark.parametrize(("arms", "says"), [
    ("toy_plugins:Firsts(depth=2)", "-arms toy_plugins:Firsts(depth=2): toy_plugins:Firsts does not take these "
                                    "settings: got an unexpected keyword argument 'depth'"),
    ("toy_plugins:Firsts(first)", "a plug-in's settings are key=value, each key once, comma-separated"),
    ("toy_plugins:Firsts(first=1,first=2)", "each key once"),
    ("main,toy_plugins:Firsts(=2)", "a plug-in's settings are key=value"),
])
def test_settings_the_factory_does_not_take_are_refused_before_any_work(arms, says, capsys, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", "/nonexistent/locomo10.json")  # never reached
    one_line(capsys, cli.main(["-arms", arms]), says)
