"""``-retries N`` tries a plug-in's call that raised up to N more times (a remote memory's transient failure) and
counts the failures on stderr, the figures unchanged; ``-traceback`` prints a failing plug-in's own stack
before the one line, from a worker process too."""

from __future__ import annotations

import io

import pytest

from locomo_repro import cli
from locomo_repro.arms import plugin


def table(argv: list[str]) -> str:
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args([*argv, "-only", "1", "-quiet", "-jobs", "1"]), out) == 0
    return out.getvalue()


def test_a_call_that_failed_once_is_tried_again_and_the_failures_counted(monkeypatch, capsys, samples):
    monkeypatch.setattr(plugin, "FIRST_WAIT", 0.0)
    flaky = table(["-arms", "toy_plugins:Flaky", "-retries", "1"])
    err = capsys.readouterr().err
    asked = len({q.text for q in samples[0].questions})  # the first call for each distinct question fails
    assert f"locomo-repro: note: arm flaky: {asked} calls failed and were tried again (-retries 1)\n" in err
    assert flaky == table(["-arms", "toy_plugins:Vec"]).replace("   vec\n", " flaky\n", 1)
    assert "failed" not in capsys.readouterr().err  # a run without failures says nothing of them


def test_without_retries_the_first_failure_stops_the_run(capsys):
    assert cli.main(["-arms", "toy_plugins:Flaky", "-only", "1", "-quiet", "-jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "recall raised TimeoutError: the service did not answer in time" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_traceback_shows_the_plugins_own_stack_then_the_one_line(jobs, capsys):
    assert cli.main(["-arms", "toy_plugins:Raises", "-only", "1", "-quiet", "-jobs", jobs, "-traceback"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert 'raise RuntimeError("the index is down")' in err and "toy_plugins.py" in err
    last = err.splitlines()[-1]
    assert last.startswith("locomo-repro: arm raises, conv-26, question ") and last.endswith(
        "recall raised RuntimeError: the index is down")


def test_a_retries_count_below_zero_is_refused(capsys):
    assert cli.main(["-retries", "-1"]) == 2
    assert capsys.readouterr().err == "locomo-repro: -retries must be 0 or more, got -1 (see locomo-repro --help)\n"
