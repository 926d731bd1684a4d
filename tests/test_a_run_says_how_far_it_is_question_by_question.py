"""A run's progress counts questions, of how many the run asks (counted before it starts, so the line can say
the time left), and in this process (``-jobs 1``) the plug-ins' calls as they return: a slow plug-in shows
how far it is within a conversation.  Lines every ten seconds off a terminal; here, every step."""

from __future__ import annotations

import functools
import io

from locomo_repro import cli
from locomo_repro.data import progress


def test_the_progress_line_counts_questions_and_a_plugins_calls(monkeypatch, capsys, samples):
    monkeypatch.setattr(cli, "Progress", functools.partial(progress.Progress, every=0.0))
    args = cli.parser().parse_args(["-arms", "toy_plugins:Vec", "-only", "1", "-quiet", "-jobs", "1"])
    assert cli.run(args, io.StringIO()) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("locomo-repro: questions: ")]
    n = len(samples[0].questions)
    assert lines[0].startswith(f"locomo-repro: questions: 0/{n} done, 1 plug-in calls, ")
    assert any(line.startswith(f"locomo-repro: questions: 0/{n} done, {n} plug-in calls, ") for line in lines)
    assert lines[-1].startswith(f"locomo-repro: questions: {n}/{n} done, ") and "left" not in lines[-1]


def test_the_questions_asked_are_counted_as_the_run_will_ask_them(samples):
    def asked(*argv: str) -> int | None:
        return cli.scope(cli.parser().parse_args(list(argv))).asked()

    assert asked() == sum(len(s.questions) for s in samples)
    assert asked("-only", "2", "-limit", "7") == 14
    assert asked("-conversations", "conv-30") == len(samples[1].questions)
    assert asked("-data", "/nonexistent.json") is None  # the run itself says why
