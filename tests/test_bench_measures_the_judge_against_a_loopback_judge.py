"""``locomo-repro bench --judge-runs N``: ``judge run`` over 1,540 replies twice with ``-concurrency 32``, each
run with a memo folder of its own, against a loopback judge of the bench's own that answers after 200 ms;
the row names the ideal wall time, 3,080 × 0.2 / 32 s."""

from __future__ import annotations

import json

from locomo_repro.bench import perf
from locomo_repro.bench.perf import Usage
from locomo_repro.read.chat import ChatClient, user_message


def test_the_judge_row_runs_judge_run_against_the_slow_judge_runs_times(monkeypatch):
    calls: list[list[str]] = []

    env = {"PYTHONPYCACHEPREFIX": "/nowhere"}

    def fake(flags, command=perf.KIT, given=None):
        assert tuple(command) == perf.KIT and given is env
        answers = json.loads(open(flags[2]).read())
        assert sum(len(s["qa"]) for s in answers) == 1540 and len(answers) == 10
        reply = ChatClient("m", flags[flags.index("-base") + 1], timeout=5).complete(user_message("judge this"))
        assert json.loads(reply.content) == {"label": "CORRECT"}
        calls.append(list(flags))
        return Usage(1.0, 20.0, 40.0)

    monkeypatch.setattr(perf, "measure", fake)
    monkeypatch.setattr(perf, "JUDGE_DELAY", 0.0)
    row = perf.judged(2, env)
    assert len(row.kit) == 2 and row.ref == []
    assert [c[:2] for c in calls] == [["judge", "run"]] * 2
    for flags in calls:
        assert flags[flags.index("-repeats") + 1] == "2" and flags[flags.index("-concurrency") + 1] == "32"
    assert calls[0][calls[0].index("-memo") + 1] != calls[1][calls[1].index("-memo") + 1]


def test_the_ideal_is_every_answering_time_32_at_once():
    assert perf.judge_ideal() == 3080 * 0.2 / 32
    assert "(ideal 19.25 s)" in f"(ideal {perf.judge_ideal():.2f} s)"
