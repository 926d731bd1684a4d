"""Ctrl-C ends a run within moments, whatever it waits on: a retry's pause (a 503 asking for 30 s, a rate
limit's 30 s) or a request the endpoint holds.  ``-model`` and ``refined judge`` alike print
``interrupted`` and exit 130, no traceback, and send no request after it.  (Before, a 503 with a 30 s
``Retry-After`` kept the run alive 175 s after Ctrl-C: the pool's threads were waited for.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading

import pytest
from kit_child import finish, interruptible, start, tiny, until
from stub_server import Stub, completion

from locomo_repro.read.model import PROBE

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix",
                                                   reason="signals a child process (POSIX)")]

#: However long a run may take to end after Ctrl-C here before it counts as hanging.
ENDS_WITHIN = 30


@pytest.fixture
def held():
    """An event the stub's handlers wait on (released at the end, so no handler outlives the test)."""
    release = threading.Event()
    yield release
    release.set()


def busy(held):
    return lambda body, n: (503, {"error": "busy"}, 0, {"Retry-After": "30"})


def rate_limited(held):
    return lambda body, n: (429, {"error": "rate limit"}, 0)


def holding(held):
    """Holds every request but the model's endpoint check, which it answers."""
    def respond(body, n):
        if body["messages"][0]["content"] == PROBE:
            return 200, completion("ok"), 0
        held.wait(300)
        return 200, {"error": "never sent"}, 0

    return respond


def interrupt(child: subprocess.Popen, stub: Stub, asked: int = 1) -> tuple[str, str]:
    """Ctrl-C once the endpoint has been asked ``asked`` times; the child's output once it ended."""
    assert until(lambda: len(stub.requests) >= asked, 60), "the run never reached the endpoint"
    os.kill(child.pid, signal.SIGINT)
    return child.communicate(timeout=ENDS_WITHIN)


@pytest.mark.parametrize("respond", [busy, holding], ids=["in a pause a 503 asked for", "in a request"])
def test_a_model_run(tmp_path, held, respond):
    data = tiny(tmp_path / "d.json")
    with interruptible(), Stub(respond(held)) as stub:
        child = start(["-model", "m", "-base", stub.base_url, "-memo", "", "-closed", "-data", str(data)], tmp_path,
                      {"OPENAI_API_KEY": "k"})
        try:
            out, err = interrupt(child, stub, asked=2)  # the endpoint check, then a question
            asked = len(stub.requests)
        finally:
            finish(child)
        assert len(stub.requests) == asked
    assert child.returncode == 130 and out == ""
    assert err.splitlines()[-1] == "locomo-repro: interrupted" and "Traceback" not in err


@pytest.mark.parametrize("respond", [rate_limited, holding], ids=["in a rate limit's pause", "in a request"])
def test_refined_judge(tmp_path, held, respond):
    (tmp_path / "q.jsonl").write_text(json.dumps(
        {"qa_id": "s#q0", "conversation_idx": 0, "qa_index": 0, "question": "Q?", "answer": ["A"], "category": "1"}
    ) + "\n")
    (tmp_path / "p.jsonl").write_text(json.dumps({"qa_id": "s#q0", "predicted_answer": "not it"}) + "\n")
    (tmp_path / "prompt.txt").write_text("{question} {gold_answer} {generated_answer}")
    with interruptible(), Stub(respond(held)) as stub:
        child = start(["judge", "--questions", "q.jsonl", "--predictions", "p.jsonl", "--judge-prompt", "prompt.txt",
                       "--model", "qwen3-14b", "--base-url", stub.base_url, "--api-key", "k",
                       "--rate-limit-wait", "30", "30"], tmp_path, module="locomo_repro.refined")
        try:
            out, err = interrupt(child, stub)
            asked = len(stub.requests)
        finally:
            finish(child)
        assert len(stub.requests) == asked
    assert child.returncode == 130 and out == ""
    assert err.splitlines()[-1] == "interrupted" and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl", "prompt.txt", "q.jsonl"]
