"""The model reader (-model, -closed) against a real OpenAI-compatible stub on 127.0.0.1.

What is tested is everything around the model: what it is shown, what is kept of
its reply, what a failure costs, that a question is bought once, and the arms it adds.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stub_server import Stub, completion, dead_url

from locomo_repro.bench import experiment as bench

from locomo_repro import cli

from locomo_repro.read import model
from locomo_repro.data.dataset import Turn
from locomo_repro.memory.cite import Cite
from locomo_repro.score.metric import DECLINE
from locomo_repro.read.reader import Options, gather, reply
from locomo_repro.memory.terms import Vocabulary
from locomo_repro.arms.vector import VectorMemory

ROOT = Path(__file__).resolve().parent.parent
DAY = datetime(2023, 5, 8, 13, 56)
QUIZ = Options()
SNAKES = Turn("D1:1", 1, DAY, "Jolene", "I have two snakes, Susie and Seraphim.")
COMPANY = Turn("D1:2", 1, DAY, "Nate", "Snakes are such good company.")
QUESTION = "What are Jolene's snakes called?"


def says(text):
    return lambda body, n: (200, completion(text), 0)


def prompt_of(body) -> str:
    (message,) = body["messages"]
    assert message["role"] == "user"
    return message["content"]


def reader(base_url: str, memo=None, *, name="test-model", attempts=1, errors=None, pauses=None) -> model.Model:
    """A model reader with key "sekret"; pauses are recorded, never slept."""
    return model.open_model(name, base_url, "sekret", memo, errors=errors, attempts=attempts, timeout=5,
                            sleep=(pauses.append if pauses is not None else lambda s: None))


def vocab(*turns: Turn) -> Vocabulary:
    return Vocabulary([t.text for t in turns])


# -- the floor, the prompt, the request -----------------------------------------------


def test_the_floor_is_applied_before_any_call():
    words = vocab(SNAKES)
    with Stub(says("Paris")) as stub:
        m = reader(stub.base_url)
        assert m.read("Where?", [], 1.0, words, QUIZ) == DECLINE
        assert m.read("Where?", [Cite(SNAKES, 1.0)], QUIZ.floor - 0.01, words, QUIZ) == DECLINE
        assert m.read("Where?", [Cite(SNAKES, 1.0)], QUIZ.floor, words, QUIZ) == "Paris"  # at the floor it asks
    assert len(stub.requests) == 1
    assert (m.calls, m.fails) == (1, 0)


def test_the_prompt_shows_each_turn_once_with_the_question_and_the_decline_wording():
    with Stub(says("Susie, Seraphim.")) as stub:
        m = reader(stub.base_url)
        cites = [Cite(SNAKES, 1.0), Cite(COMPANY, 0.5), Cite(SNAKES, 0.4)]
        assert m.read(QUESTION, cites, 1.0, vocab(SNAKES, COMPANY), QUIZ) == "Susie, Seraphim"
    (request,) = stub.requests
    prompt = prompt_of(request["body"])
    assert prompt.count("I have two snakes") == 1
    assert QUESTION in prompt and "No information available" in prompt
    # each turn as the retriever indexes it: date, speaker and words, in the order first cited
    first, second = SNAKES.line(), COMPANY.line()
    assert first == '(8 May, 2023) Jolene said, "I have two snakes, Susie and Seraphim."'
    assert f"{first}\n{second}\n" in prompt
    body = request["body"]
    assert body["model"] == "test-model" and body["temperature"] == 0 and body["max_tokens"] == 384
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer sekret"


@given(st.lists(st.sampled_from([SNAKES, COMPANY]), min_size=1, max_size=6))
def test_every_cited_turn_is_shown_exactly_once_in_first_cited_order(turns):
    prompt = model.evidence_prompt("Who?", [Cite(t, 1.0) for t in turns])
    distinct = list(dict.fromkeys(turns))
    assert [prompt.count(t.line()) for t in distinct] == [1] * len(distinct)
    assert "\n".join(t.line() for t in distinct) in prompt


def test_a_question_with_braces_is_sent_as_it_is():
    assert "What is {this}?" in model.evidence_prompt("What is {this}?", [Cite(SNAKES, 1.0)])
    assert "What is {this}?" in model.bare_prompt("What is {this}?")


# -- failures ------------------------------------------------------------------------


def test_a_failed_call_declines_and_is_counted():
    errors = io.StringIO()
    with Stub(lambda body, n: (400, {"error": {"message": "gateway said no"}}, 0)) as stub:
        m = reader(stub.base_url, attempts=7, errors=errors)
        assert m.read("Where did Evan move?", [Cite(SNAKES, 1.0)], 1.0, vocab(SNAKES), QUIZ) == DECLINE
    assert len(stub.requests) == 1  # a refused request is not sent again
    assert (m.calls, m.hits, m.fails) == (1, 0, 1)
    assert m.cost() == "model test-model: 1 questions asked, 0 answered from disk, 1 bought, 1 failed"
    (line,) = errors.getvalue().splitlines()
    assert "HTTP 400" in line and "gateway said no" in line and "sekret" not in line


def test_a_busy_endpoint_is_tried_again_with_doubling_pauses():
    pauses: list[float] = []
    with Stub(lambda body, n: (503, {"error": "busy"}, 0) if n < 3 else (200, completion("Paris"), 0)) as stub:
        m = reader(stub.base_url, attempts=7, pauses=pauses)
        assert m.read("Where?", [Cite(SNAKES, 1.0)], 1.0, vocab(SNAKES), QUIZ) == "Paris"
    assert len(stub.requests) == 4 and pauses == [1.0, 2.0, 4.0]
    assert (m.calls, m.fails) == (1, 0)
    assert [model.pause(None, n) for n in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]


def test_a_dead_endpoint_declines_after_its_attempts_and_says_so_five_times_at_most():
    errors, pauses = io.StringIO(), []
    m = reader(dead_url(), attempts=3, errors=errors, pauses=pauses)
    for _ in range(7):
        assert m.read("Where?", [Cite(SNAKES, 1.0)], 1.0, vocab(SNAKES), QUIZ) == DECLINE
    assert (m.calls, m.fails) == (7, 7)
    assert len(pauses) == 7 * 2
    lines = errors.getvalue().splitlines()
    assert len(lines) == model.SHOWN_FAILURES and all("cannot connect" in line for line in lines)


# -- what is kept of a reply ---------------------------------------------------------


@pytest.mark.parametrize("said, want", [
    ("  Paris  ", "Paris"),
    ("Answer: Paris", "Paris"),
    ('"Paris"', "Paris"),
    ("\u201cParis\u201d", "Paris"),
    ("Paris.", "Paris"),
    ("<think>she said March</think>\n8 May, 2023", "8 May, 2023"),
    ("<think>a</think> <think>b</think> Rome.", "Rome"),
    ("Susie, Seraphim.", "Susie, Seraphim"),
    ("", DECLINE),
    ("   ", DECLINE),
    ('""', DECLINE),
    ("No information available", DECLINE),
    ("Paris, France...", "Paris, France..."),
    ('"Paris".', 'Paris"'),  # quotes go before the full stop, so this one stays (reference behaviour)
    (".", "."),
    ("\x1cParis", "\x1cParis"),  # Go's TrimSpace keeps the information separators
])
def test_tidy_strips_wrapping(said, want):
    assert model.tidy(said) == want


@given(st.lists(st.sampled_from(list("ab .:'\"\u201c\u201d\n<>/") + ["Answer:", "</think>"])).map("".join))
def test_tidy_never_adds_content(said):
    out = model.tidy(said)
    assert out == DECLINE or out in said


# -- the memo ------------------------------------------------------------------------


def test_a_question_is_bought_once(tmp_path):
    memo = tmp_path / "said"
    cites = [Cite(SNAKES, 1.0)]
    with Stub(says("Paris")) as stub:
        m = reader(stub.base_url, memo)
        for _ in range(3):
            assert m.read("Where?", cites, 1.0, vocab(SNAKES), QUIZ) == "Paris"
        assert len(stub.requests) == 1 and (m.calls, m.hits) == (3, 2)
        assert m.read("When?", cites, 1.0, vocab(SNAKES), QUIZ) == "Paris"
        assert len(stub.requests) == 2
        # a second run over the same folder buys nothing
        again = reader(stub.base_url, memo)
        assert again.read("Where?", cites, 1.0, vocab(SNAKES), QUIZ) == "Paris"
        assert len(stub.requests) == 2
        assert again.cost() == "model test-model: 1 questions asked, 1 answered from disk, 0 bought, 0 failed"
        # another model is another answer
        reader(stub.base_url, memo, name="other").read("Where?", cites, 1.0, vocab(SNAKES), QUIZ)
        assert len(stub.requests) == 3
    prompt = model.evidence_prompt("Where?", cites)
    name = hashlib.sha256(f"test-model\n{prompt}".encode()).hexdigest()[:32]
    assert (memo / name).read_text() == "Paris"  # the raw reply, tidied when read
    assert sorted(p.name for p in memo.iterdir() if p.name.startswith(".")) == []  # no temporary left


def test_the_memo_keeps_the_raw_reply_and_tidies_it_each_time(tmp_path):
    with Stub(says('Answer: "Paris"')) as stub:
        first = reader(stub.base_url, tmp_path).alone("Where?", [], 0.0, vocab(SNAKES), QUIZ)
        second = reader(stub.base_url, tmp_path).alone("Where?", [], 0.0, vocab(SNAKES), QUIZ)
    assert first == second == "Paris"
    assert len(stub.requests) == 1
    assert [p.read_text() for p in tmp_path.iterdir()] == ['Answer: "Paris"']


def test_failures_are_not_memoised(tmp_path):
    with Stub(lambda body, n: (400, {"error": "busy"}, 0)) as stub:
        m = reader(stub.base_url, tmp_path)
        for _ in range(2):
            assert m.read("Where?", [Cite(SNAKES, 1.0)], 1.0, vocab(SNAKES), QUIZ) == DECLINE
    assert len(stub.requests) == 2 and (m.calls, m.hits, m.fails) == (2, 0, 2)
    assert list(tmp_path.iterdir()) == []


def test_a_memo_folder_that_cannot_be_written_still_answers_and_warns_once(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    errors = io.StringIO()
    with Stub(says("Paris")) as stub:
        m = reader(stub.base_url, blocked, errors=errors)
        assert [m.alone(q, [], 0.0, vocab(SNAKES), QUIZ) for q in ("a?", "b?")] == ["Paris", "Paris"]
    assert len(errors.getvalue().splitlines()) == 1 and "not being kept" in errors.getvalue()


# -- the arms ------------------------------------------------------------------------


def test_twin_gives_one_model_arm_per_memory():
    words = vocab(SNAKES, COMPANY)
    vector = VectorMemory((SNAKES, COMPANY), words)
    other = model.Nothing()
    m = reader(dead_url())
    arms = [bench.Arm("vector", vector, reply), bench.Arm("vector+set", vector, gather),
            bench.Arm("empty", other, reply)]
    got = bench.twin(arms, m.read)
    assert [a.name for a in got] == ["vector+model", "closed+model"]
    assert got[0].memory is vector and got[1].memory is other
    assert got[0].read == m.read
    case = bench.Case(sample=None, vocab=words, knowledge=None, arms=list(arms))
    bench.add_model_arms([case], m, closed=True)
    assert [a.name for a in case.arms[3:]] == ["vector+model", "closed+model", "closed"]
    assert isinstance(case.arms[-1].memory, model.Nothing) and case.arms[-1].read == m.alone


def test_the_control_is_shown_no_evidence_whatever_the_floor_and_nothing_recalls_nothing():
    with Stub(says("Susie, Seraphim")) as stub:
        m = reader(stub.base_url)
        got = m.alone(QUESTION, [Cite(SNAKES, 1.0)], 0.0, vocab(SNAKES), QUIZ)
    assert got == "Susie, Seraphim"
    (request,) = stub.requests
    prompt = prompt_of(request["body"])
    assert "Susie and Seraphim" not in prompt and SNAKES.line() not in prompt
    assert QUESTION in prompt and "No information available" in prompt
    assert model.Nothing().recall("anything?", 5) == []
    assert model.Nothing.name == "closed"


def test_the_key_comes_from_hanzo_then_openai():
    assert model.api_key({"HANZO_API_KEY": "h", "OPENAI_API_KEY": "o"}) == "h"
    assert model.api_key({"HANZO_API_KEY": "", "OPENAI_API_KEY": "o"}) == "o"
    assert model.api_key({}) is None
    assert "sekret" not in repr(reader(dead_url()))


# -- the command line ----------------------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (["-model", "m"], "-model m needs an API key in HANZO_API_KEY or OPENAI_API_KEY"),
    (["-closed"], "-closed needs -model"),
    (["-model", "m", "-base", "api.example/v1"], "-base must be an http(s) URL"),
])
def test_model_usage_errors_are_one_line_and_exit_2(argv, message, monkeypatch, capsys):
    for name in model.KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    if "-base" in argv:
        monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert message in line


def answer_stub(body, n):
    """Evidence prompts get an answer, the control gets a decline."""
    prompt = prompt_of(body)
    return 200, completion("No information available." if "do not know" in prompt else "Answer: Caroline."), 0


def table_arms(stdout: str) -> list[str]:
    """The arm names heading the results table."""
    lines = stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("k="))
    return lines[at + 2].split()


def kit(tmp_path: Path, *argv: str, key: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in model.KEY_VARIABLES}
    env["PYTHONPATH"] = str(ROOT)
    if key:
        env["HANZO_API_KEY"] = "test-key"
    return subprocess.run([sys.executable, "-m", "locomo_repro", "-only", "1", *argv],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_command_line_run_adds_the_model_arms_and_a_rerun_costs_nothing(tmp_path, samples):
    memo = tmp_path / "said"
    with Stub(answer_stub) as stub:
        run = kit(tmp_path, "-model", "stub", "-base", stub.base_url, "-memo", str(memo), "-closed",
                  "-out", "with.json")
        bought = len(stub.requests)
        rerun = kit(tmp_path, "-model", "stub", "-base", stub.base_url, "-memo", str(memo), "-closed")
        assert len(stub.requests) == bought  # nothing bought, not even the check: the memo answers everything
    probes = [b for b in stub.bodies if prompt_of(b) == model.PROBE]
    assert len(probes) == 1 and all(b["max_tokens"] == 1 for b in probes)
    bought -= 1
    plain = kit(tmp_path, "-out", "without.json", key=False)
    kept = f"locomo-repro: the model's answers are kept in {memo} (a rerun reads them back; -memo '' keeps none)\n"
    for done in (run, rerun):  # stderr: where the answers are kept, the signature, each arm's cost, the tokens
        assert done.returncode == 0 and done.stderr.startswith(kept)
        sig, *costs, tokens = done.stderr[len(kept):].splitlines()
        assert sig.startswith("signature: locomo-repro:") and tokens.startswith("locomo-repro: model stub: ")
        assert costs and all(line.startswith("locomo-repro: cost of ") for line in costs)
    assert plain.returncode == 0 and plain.stderr.startswith("signature: locomo-repro:")
    assert all(line.startswith("locomo-repro: cost of ") for line in plain.stderr.splitlines()[1:])
    assert "|model:stub|" in run.stderr and "|model:" not in plain.stderr

    # what the model should have been asked: every question above the floor, per memory; the control, all
    (case,) = bench.build(samples[:1])
    prompts: list[str] = []
    for memory in ("vector", "graph", "oracle"):
        arm = next(a for a in case.arms if a.name == memory)
        for q, (cites, sure) in zip(case.sample.questions, case.recall(arm.memory, QUIZ.k)):
            if cites and sure >= QUIZ.floor:
                prompts.append(model.evidence_prompt(q.text, cites))
    asked = len(prompts) + len(case.sample.questions)
    distinct = len(set(prompts)) + len({model.bare_prompt(q.text) for q in case.sample.questions})
    assert bought == distinct == len([p for p in memo.iterdir() if p.suffix != ".whole"])
    assert sorted(prompt_of(b) for b in stub.bodies if prompt_of(b) != model.PROBE) == sorted(
        set(prompts) | {model.bare_prompt(q.text) for q in case.sample.questions})

    assert table_arms(run.stdout) == ["closed", "graph", "graph+edge", "graph+model", "oracle", "oracle+model",
                      "vector", "vector+model"]
    last = run.stdout.splitlines()[-1]
    assert last == f"model stub: {asked} questions asked, {asked - distinct} answered from disk, {distinct} bought, 0 failed"
    assert rerun.stdout.splitlines()[-1] == f"model stub: {asked} questions asked, {asked} answered from disk, 0 bought, 0 failed"

    with_model = json.loads((tmp_path / "with.json").read_text())
    without = json.loads((tmp_path / "without.json").read_text())
    for got, want in zip(with_model[0]["qa"], without[0]["qa"], strict=True):
        assert {k: v for k, v in got.items() if k in want} == want
        assert got["closed_prediction"] == DECLINE and got["closed_prediction_context"] == []
        for memory in ("vector", "graph", "oracle"):
            below = not got[f"{memory}_prediction_context"] or got[f"{memory}_prediction_confidence"] < QUIZ.floor
            assert got[f"{memory}+model_prediction"] == (DECLINE if below else "Caroline")
            assert got[f"{memory}+model_prediction_context"] == got[f"{memory}_prediction_context"]


@pytest.mark.slow
def test_command_line_failed_calls_are_counted_declines(tmp_path):
    def refusing(body, n):  # the endpoint check passes; every question is then refused
        return (200, completion("ok"), 0) if prompt_of(body) == model.PROBE else (401, {"error": "bad key"}, 0)

    with Stub(refusing) as stub:
        done = kit(tmp_path, "-model", "stub", "-base", stub.base_url, "-memo", "", "-quiet")
        failed = len(stub.requests) - 1
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stdout.splitlines()[-1] == f"model stub: {failed} questions asked, 0 answered from disk, {failed} bought, {failed} failed"
    signature, *said = done.stderr.splitlines()  # the run's signature, the failures shown, the costs
    failures = [line for line in said if not line.startswith(("locomo-repro: cost of ", "locomo-repro: model stub: 0 "))]
    assert len(failures) == model.SHOWN_FAILURES and signature.startswith("signature: ")
    assert "test-key" not in done.stderr
    arms = table_arms(done.stdout)
    (overall,) = [line.split() for line in done.stdout.splitlines() if line.startswith("overall")]
    quiet = dict(zip(arms, overall[4::3]))
    assert [a for a in arms if quiet[a] == "100%"] == ["graph+model", "oracle+model", "vector+model"]
    assert not (tmp_path / "out").exists()  # -memo "" keeps nothing
