"""-concurrency: the model is asked many prompts at once, and the run prints and keeps what a sequential run does.

Against the loopback stub: the same stdout (cost line included), the same
predictions file and the same memo folder with one request at a time and with
eight; requests really are in flight together (a barrier in the stub, not
timing); a busy endpoint's Retry-After is the pause taken; progress lines.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
from email.utils import formatdate

import pytest
from stub_server import Stub, completion

from locomo_repro import cli
from locomo_repro.read import model
from locomo_repro.read.chat import ChatHTTPError
from locomo_repro.read.reader import Options


def prompt_of(body) -> str:
    (message,) = body["messages"]
    return message["content"]


def by_prompt(body, n):
    """A reply fixed by the prompt; about one prompt in eight is refused for good (status 400)."""
    digest = hashlib.sha256(prompt_of(body).encode()).hexdigest()
    if digest[0] in "01":
        return 400, {"error": "refused"}, 0
    return 200, completion(f"Answer: {digest[:6]}."), 0


def run(tmp_path, base_url: str, concurrency: int, name: str, *more: str) -> str:
    """One run in the folder ``tmp_path/name``: its stdout; the predictions and the memo folder are left there."""
    (tmp_path / name).mkdir()
    os.chdir(tmp_path / name)
    args = cli.parser().parse_args(["-only", "1", "-model", "stub", "-base", base_url, "-closed",
                                    "-memo", "memo", "-out", "answers.json",
                                    "-concurrency", str(concurrency), *more])
    out = io.StringIO()
    assert cli.run(args, out) == 0
    return out.getvalue()


@pytest.fixture
def key(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for variable in model.KEY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("HANZO_API_KEY", "test-key")


@pytest.mark.slow
def test_eight_at_once_print_and_keep_what_one_at_a_time_does(tmp_path, key, samples):
    with Stub(by_prompt) as stub:
        one = run(tmp_path, stub.base_url, 1, "one")
        eight = run(tmp_path, stub.base_url, 8, "eight")
    assert eight == one
    cost = one.splitlines()[-1]
    assert cost.startswith("model stub: ") and " 0 failed" not in cost
    assert (tmp_path / "eight/answers.json").read_bytes() == (tmp_path / "one/answers.json").read_bytes()
    kept = {p.name: p.read_bytes() for p in (tmp_path / "one/memo").iterdir()}
    assert kept and kept == {p.name: p.read_bytes() for p in (tmp_path / "eight/memo").iterdir()}


def test_one_prompt_asked_by_two_threads_at_once_is_bought_once(tmp_path):
    """The second caller waits for the first and finds its answer on disk, as in a sequential run."""
    entered, release = threading.Event(), threading.Event()
    asked: list[str] = []

    def complete(prompt: str) -> str:
        asked.append(prompt)
        entered.set()
        release.wait(30)
        return "Paris"

    memo = model.Memo(complete, tmp_path, "m")
    said: list[str] = []
    first = threading.Thread(target=lambda: said.append(memo("Where?")))
    first.start()
    assert entered.wait(30)
    second = threading.Thread(target=lambda: said.append(memo("Where?")))
    second.start()
    release.set()
    first.join(30)
    second.join(30)
    assert said == ["Paris", "Paris"] and asked == ["Where?"] and memo.hits == 1


@pytest.mark.slow
def test_requests_are_in_flight_together(tmp_path, key, samples):
    meet = threading.Barrier(2, timeout=60)

    questions = []

    def held(body, n):
        if body["messages"][0]["content"] == model.PROBE:  # the endpoint check, before the run
            return 200, completion("ok"), 0
        questions.append(n)
        if len(questions) <= 2:
            meet.wait()  # the first question is answered only once a second one has arrived
        return 200, completion("Caroline"), 0

    with Stub(held) as stub:
        run(tmp_path, stub.base_url, 8, "held", "-quiet")  # one at a time, the barrier would break
    assert not meet.broken and stub.max_in_flight >= 2


def test_a_busy_endpoints_retry_after_is_the_pause_taken():
    statuses = [(429, {"Retry-After": "7"}), (503, {"Retry-After": "3"}), (500, {"Retry-After": "9"})]

    def busy(body, n):
        if n < len(statuses):
            status, headers = statuses[n]
            return status, {"error": "busy"}, 0, headers
        return 200, completion("Paris"), 0

    pauses: list[float] = []
    with Stub(busy) as stub:
        reader = model.open_model("stub", stub.base_url, "k", None, errors=None, attempts=7, timeout=5,
                                  sleep=pauses.append)
        assert reader._ask("Where?") == "Paris"
    # 429 and 503 say how long; a 500's header is not a request to wait, so the third pause doubles (4 s)
    assert pauses == [7.0, 3.0, 4.0]


def test_retry_after_as_a_date_is_the_seconds_until_then():
    now = 1_700_000_000.0
    busy = ChatHTTPError(429, "", "u", formatdate(now + 12, usegmt=True))
    assert model.retry_after(busy, now=lambda: now) == 12.0
    assert model.retry_after(busy, now=lambda: now + 60) == 0.0
    assert model.retry_after(ChatHTTPError(429, "", "u", "soon"), now=lambda: now) is None
    assert model.retry_after(ChatHTTPError(502, "", "u", "5"), now=lambda: now) is None


def test_progress_shows_reads_failures_and_rate_once_a_run_is_long():
    ticks = iter([0.0, model.PROGRESS_EVERY, model.PROGRESS_EVERY + 2, 3 * model.PROGRESS_EVERY])
    errors = io.StringIO()

    def complete(prompt: str) -> str:
        if "fail" in prompt:
            raise ChatHTTPError(400, "no", "u")
        return "yes"

    reader = model.Model("m", model.Memo(complete, None, "m"), errors, clock=lambda: next(ticks))
    reader.expect(3)
    for question in ("a", "fail", "c"):
        reader.alone(question, [], 0.0, None, Options())
    lines = errors.getvalue().splitlines()
    assert lines[0] == "locomo-repro: model m: 1/3 read, 0 failed, 0.1 a second, about 20 s left"
    assert lines[1].startswith("locomo-repro: model m: HTTP 400")  # the failure itself
    assert lines[2] == "locomo-repro: model m: 3/3 read, 1 failed, 0.1 a second"
    assert len(lines) == 3
