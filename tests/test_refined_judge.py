"""refined.judge and the judge command, through a real OpenAI-compatible stub on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
from pathlib import Path

import pytest
from stub_server import Stub, completion

from locomo_repro.read.chat import ChatClient, ChatHTTPError
from locomo_repro.refined import judge
from locomo_repro.refined.__main__ import main

PROMPT = 'Q: {question}\nGOLD: {gold_answer}\nGEN: {generated_answer}\nAnswer with {{"label": "..."}}'

QUESTIONS = [
    {"qa_id": "s#q0000", "conversation_idx": 0, "qa_index": 0, "question": "Capital?", "answer": ["Paris"], "category": "1"},
    {"qa_id": "s#q0001", "conversation_idx": 0, "qa_index": 1, "question": "When?", "answer": ["7 May 2023", "May 2023"],
     "category": "2"},
    {"qa_id": "s#q0002", "conversation_idx": 0, "qa_index": 2, "question": "Other city?", "answer": ["London"],
     "category": "1"},
    {"qa_id": "s#q0003", "conversation_idx": 1, "qa_index": 0, "question": "Old city?", "answer": ["Rome"], "category": "4"},
]
PREDICTIONS = ["It is Paris.", "in May 2023", "Paris", "Rome"]


def verdict(body) -> str:
    """CORRECT when the gold text appears in the generated answer (the stub's idea of a judge)."""
    prompt = body["messages"][0]["content"]
    gold = re.search(r"^GOLD: (.*)$", prompt, re.M).group(1)
    gen = re.search(r"^GEN: (.*)$", prompt, re.M).group(1)
    return "CORRECT" if gold.lower() in gen.lower() else "WRONG"


def ok(body):
    return 200, completion(f'The answer matches.\n```json\n{{"label": "{verdict(body)}"}}\n```'), 0


@pytest.fixture(autouse=True)
def no_endpoint_env(monkeypatch):
    for name in ("EVALUATOR_MODEL", "EVALUATOR_API_BASE", "EVALUATOR_BASE_URL", "OPENAI_API_BASE",
                 "OPENAI_BASE_URL", "EVALUATOR_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def files(tmp_path):
    questions = tmp_path / "questions.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({"qa_id": q["qa_id"], "predicted_answer": p}) + "\n"
                             for q, p in zip(QUESTIONS, PREDICTIONS)))
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(PROMPT)
    return tmp_path


def run(files: Path, base_url: str, *extra: str) -> int:
    return main(["judge", "--questions", str(files / "questions.jsonl"), "--predictions", str(files / "preds.jsonl"),
                 "--judge-prompt", str(files / "prompt.txt"), "--base-url", base_url, "--model", "qwen3-14b",
                 "--timeout", "2", "--attempts", "3", "--retry-wait", "0", "--rate-limit-wait", "0.05", "0.05",
                 *extra])


def scores(files: Path) -> list[float]:
    return [json.loads(line)["llm_score"] for line in (files / "preds_scored.jsonl").read_text().splitlines()]


def outputs(files: Path) -> list[str]:
    return sorted(p.name for p in files.iterdir() if p.name.startswith("preds_scored"))


# -- the command through the stub --------------------------------------------


def test_success(files, capsys):
    with Stub(lambda body, n: ok(body)) as stub:
        assert run(files, stub.base_url, "--api-key", "k") == 0
    assert scores(files) == [1.0, 1.0, 0.0, 1.0]
    # one request per gold candidate; the exact match needs none
    assert len(stub.bodies) == 4
    body = stub.bodies[0]
    assert body["model"] == "qwen3-14b" and body["temperature"] == 0.0 and body["enable_thinking"] is False
    assert [m["role"] for m in body["messages"]] == ["user"]
    assert stub.headers[0]["Authorization"] == "Bearer k"
    prompts = sorted(b["messages"][0]["content"] for b in stub.bodies)
    assert prompts[0] == 'Q: Capital?\nGOLD: Paris\nGEN: It is Paris.\nAnswer with {"label": "..."}'
    records = [json.loads(line) for line in (files / "preds_scored.jsonl").read_text().splitlines()]
    assert records[1]["matched_answer"] == "May 2023" and records[1]["llm_reason"] == "llm_judge_refined"
    assert list(records[0])[-6:] == ["matched_answer", "response", "llm_score", "llm_reason", "f1_score", "bleu_score"]
    summary = json.loads((files / "preds_scored_summary.json").read_text())
    assert summary["primary_metric"] == "llm_score" and summary["overall"]["llm_score"] == 0.75
    assert "warning" not in capsys.readouterr().err


def test_malformed_reply_is_retried(files, capsys):
    def respond(body, n):
        if n == 0:
            return 200, completion("CORRECT, I am sure"), 0
        return ok(body)

    with Stub(respond) as stub:
        assert run(files, stub.base_url, "--concurrency", "1") == 0
    assert scores(files) == [1.0, 1.0, 0.0, 1.0]
    assert len(stub.bodies) == 5
    assert "attempt 1/3 failed (no JSON object in the judge's reply); retrying in 0.00s" in capsys.readouterr().err


def test_malformed_reply_every_time_fails_the_run_and_writes_nothing(files, capsys):
    with Stub(lambda body, n: (200, completion('{"label": "CORRECT"'), 0)) as stub:
        assert run(files, stub.base_url, "--concurrency", "1") == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("error: no verdict after 3 attempt(s): no JSON object")
    assert len(stub.bodies) == 3
    assert outputs(files) == []


def test_rate_limit_then_success_waits_the_rate_limit_pause(files, capsys):
    def respond(body, n):
        if n == 0:
            return 429, {"error": {"message": "Too many requests"}}, 0
        return ok(body)

    with Stub(respond) as stub:
        assert run(files, stub.base_url, "--concurrency", "1") == 0
    assert scores(files) == [1.0, 1.0, 0.0, 1.0]
    err = capsys.readouterr().err
    assert "failed (HTTP 429:" in err and "retrying in 0.05s" in err


@pytest.mark.slow
def test_timeout_then_success(files, capsys):
    retried = threading.Event()

    def respond(body, n):
        if n == 0:  # answered (WRONG) only once the judge has given up on it and asked again
            retried.wait(60)
            return 200, completion('{"label": "WRONG"}'), 0
        retried.set()
        return ok(body)

    with Stub(respond) as stub:
        assert run(files, stub.base_url, "--concurrency", "1", "--timeout", "1") == 0
    assert scores(files) == [1.0, 1.0, 0.0, 1.0]
    assert "timed out after 1s" in capsys.readouterr().err


def test_refused_enable_thinking_is_dropped_for_the_rest_of_the_run(files, capsys):
    def respond(body, n):
        if "enable_thinking" in body:
            return 400, {"error": {"message": "Unrecognized request argument supplied: enable_thinking"}}, 0
        return ok(body)

    with Stub(respond) as stub:
        assert run(files, stub.base_url, "--concurrency", "1") == 0
    assert scores(files) == [1.0, 1.0, 0.0, 1.0]
    assert ["enable_thinking" in b for b in stub.bodies] == [True, False, False, False, False]
    err = capsys.readouterr().err
    assert "refuses enable_thinking" in err and "attempt" not in err  # the fallback is not a retry


def test_other_bad_requests_keep_the_field_and_are_retried(files):
    with Stub(lambda body, n: (400, {"error": {"message": "model not found"}}, 0)) as stub:
        assert run(files, stub.base_url, "--concurrency", "1") == 1
    assert len(stub.bodies) == 3 and all("enable_thinking" in b for b in stub.bodies)
    assert outputs(files) == []


def test_dead_endpoint_is_a_clear_error_and_nothing_is_written(files, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    (files / "preds_scored.jsonl").write_text("previous run\n")
    assert run(files, dead) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("error: no verdict after 3 attempt(s): cannot connect")
    assert f"({dead}/chat/completions)" in err[-1]
    assert (files / "preds_scored.jsonl").read_text() == "previous run\n"
    assert outputs(files) == ["preds_scored.jsonl"]
    assert not [p for p in files.iterdir() if p.name.endswith(".tmp")]


def test_one_failing_question_stops_the_others_pausing(files, capsys):
    # "When?" and "Other city?" are rate-limited and pause 60 s; "Old city?" needs no request (exact match).
    others, capital = threading.Semaphore(0), []

    def respond(body, n):
        if "Capital?" in body["messages"][0]["content"]:
            capital.append(n)
            if len(capital) == 1:  # its first reply waits until both others have asked (60 s at most)
                others.acquire(timeout=60)
                others.acquire(timeout=60)
            return 500, {"error": "boom"}, 0  # retried at once (--retry-wait 0), then fatal
        others.release()
        return 429, {"error": "busy"}, 0

    with Stub(respond) as stub:
        assert run(files, stub.base_url, "--attempts", "2", "--rate-limit-wait", "60", "60") == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("error: no verdict after 2 attempt(s): HTTP 500")
    assert sum("failed (HTTP 429" in line and "retrying in 60.00s" in line for line in err) == 2
    # Had the paused questions waited out their pause, each would have asked a second time.
    assert sum("Capital?" not in b["messages"][0]["content"] for b in stub.bodies) == 2
    assert outputs(files) == []


def test_concurrency_is_bounded(tmp_path):
    questions = [{"qa_id": f"s#q{i:04d}", "question": f"q{i}?", "answer": ["yes"], "category": "1"} for i in range(12)]
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions))
    (tmp_path / "preds.jsonl").write_text("".join(json.dumps({"qa_id": q["qa_id"], "predicted_answer": "yes!"}) + "\n"
                                                  for q in questions))
    (tmp_path / "prompt.txt").write_text(PROMPT)
    full = threading.Barrier(3, timeout=60)  # each reply waits until three requests are in flight

    def respond(body, n):
        with contextlib.suppress(threading.BrokenBarrierError):
            full.wait()
        return 200, completion('{"label": "CORRECT"}'), 0

    with Stub(respond) as stub:
        assert run(tmp_path, stub.base_url, "--concurrency", "3") == 0
    assert len(stub.bodies) == 12
    assert stub.max_in_flight == 3 and not full.broken


def test_endpoint_from_refined_environment_variables_and_model_warning(files, monkeypatch, capsys):
    with Stub(lambda body, n: ok(body)) as stub:
        monkeypatch.setenv("EVALUATOR_MODEL", "gpt-4o-mini")
        monkeypatch.setenv("EVALUATOR_API_BASE", stub.base_url)
        monkeypatch.setenv("EVALUATOR_API_KEY", "from-env")
        code = main(["judge", "--questions", str(files / "questions.jsonl"), "--predictions",
                     str(files / "preds.jsonl"), "--judge-prompt", str(files / "prompt.txt"), "--metrics", "llm"])
    assert code == 0
    assert stub.bodies[0]["model"] == "gpt-4o-mini" and stub.headers[0]["Authorization"] == "Bearer from-env"
    err = capsys.readouterr().err
    assert "warning: judge model 'gpt-4o-mini' is not Qwen3-14B" in err
    record = json.loads((files / "preds_scored.jsonl").read_text().splitlines()[0])
    assert "llm_score" in record and "f1_score" not in record


@pytest.mark.parametrize("url", ["ftp://example.com/v1", "localhost:8000/v1", "http://"])
def test_base_url_must_be_http(files, capsys, url):
    code = main(["judge", "--questions", str(files / "questions.jsonl"), "--predictions",
                 str(files / "preds.jsonl"), "--judge-prompt", str(files / "prompt.txt"), "--base-url", url])
    assert code == 2
    assert capsys.readouterr().err == f"error: --base-url must be an http(s) URL, got {url!r}\n"
    assert not (files / "preds_scored.jsonl").exists()


def write_checkout(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "llm_judge.py").write_text(
        "import os\n\nraise SystemExit('this module is never run')\n\n"
        f"JUDGE_PROMPTS = {{\n    'original': 'LENIENT ' {PROMPT!r},\n    \"refined\": {PROMPT!r},\n}}\n")
    (root / "data" / "public").mkdir(parents=True)
    (root / "data" / "public" / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    return root


def test_prompt_and_questions_from_a_refined_checkout(files):
    root = write_checkout(files / "LoCoMo_refined")
    with Stub(lambda body, n: ok(body)) as stub:
        assert main(["judge", "--refined-root", str(root), "--predictions", str(files / "preds.jsonl"),
                     "--base-url", stub.base_url, "--llm-judge", "original", "--retry-wait", "0"]) == 0
    assert all(b["messages"][0]["content"].startswith("LENIENT Q: ") for b in stub.bodies)
    record = json.loads((files / "preds_scored.jsonl").read_text().splitlines()[1])
    assert record["llm_judge"] == "original" and record["llm_reason"] == "llm_judge_original"


def test_prompt_problems_exit_2_before_any_request(files, capsys):
    preds, questions = str(files / "preds.jsonl"), str(files / "questions.jsonl")
    bad = files / "bad.txt"
    bad.write_text("Q: {question} A: {answer}")
    assert main(["judge", "--questions", questions, "--predictions", preds]) == 2
    assert main(["judge", "--questions", questions, "--predictions", preds, "--judge-prompt", str(bad)]) == 2
    assert main(["judge", "--questions", questions, "--predictions", preds, "--refined-root", str(files / "nope")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "--refined-root DIR" in err[0] and "--judge-prompt FILE" in err[0]
    assert err[1] == f"error: {bad}: unknown placeholder(s) {{answer}}"
    assert "nope" in err[2]
    assert outputs(files) == []


# -- the pieces ---------------------------------------------------------------


@pytest.mark.parametrize("reply, label", [
    ('{"label": "CORRECT"}', 1),
    ('```json\n{\n  "label": " correct "\n}\n```', 1),
    ('Thinking... {"label": "WRONG"} after all', 0),
    ('{"label": "CORRECT", "note": "a } in a string"} {"label": "WRONG"}', 1),
    ('{"verdict": "CORRECT"}', 0),
    ('{"label": "CORRECT or WRONG"}', 0),
])
def test_parse_label(reply, label):
    assert judge.parse_label(reply) == label


@pytest.mark.parametrize("reply", ["CORRECT", "", '{"label": "CORRECT"', "{'label': 'CORRECT'}",
                                   # the first balanced braces are taken, readable or not
                                   'Reasoning {with "braces}" inside} then {"label": "WRONG"}'])
def test_parse_label_refuses_replies_without_a_json_object(reply):
    with pytest.raises(ValueError):
        judge.parse_label(reply)


def test_first_json_object_skips_braces_after_a_backslash():
    assert judge.first_json_object('\\{ {"a": 1}') == '{"a": 1}'


def test_thinking_refusal_and_rate_limit_words():
    assert judge.refuses_thinking_field("HTTP 400: extra inputs are not permitted: enable_thinking")
    assert not judge.refuses_thinking_field("HTTP 400: enable_thinking must be a boolean")
    assert not judge.refuses_thinking_field("HTTP 400: unknown field temperature")
    assert judge.is_rate_limited(ChatHTTPError(429, "", "http://h:1/v1"))
    assert judge.is_rate_limited(ValueError("TPM quota"))
    # the port in the address is not read as a status
    assert not judge.is_rate_limited(ChatHTTPError(500, "", "http://127.0.0.1:4290/v1"))


def test_official_model_names():
    for name in ("qwen3-14b", "qwen3_14b", "Qwen/Qwen3-14B", "qwen/qwen3-14b", "dashscope/qwen3-14b"):
        assert judge.is_official_model(name) and judge.model_warning(name) is None
    for name in ("qwen3-32b", "gpt-4o-mini", "qwen3-14b-instruct"):
        assert not judge.is_official_model(name) and judge.model_warning(name)


def test_endpoint_precedence():
    env = {"EVALUATOR_BASE_URL": "http://b", "OPENAI_BASE_URL": "http://c", "OPENAI_API_KEY": "ok"}
    assert judge.resolve_endpoint(env=env) == judge.Endpoint("qwen3-14b", "http://b", "ok")
    env["EVALUATOR_API_BASE"] = "http://a"
    assert judge.resolve_endpoint(model="m", env=env).base_url == "http://a"
    assert judge.resolve_endpoint(base_url="http://flag", api_key="k", env=env) == judge.Endpoint(
        "qwen3-14b", "http://flag", "k")
    assert judge.resolve_endpoint(env={}) == judge.Endpoint("qwen3-14b", "https://api.openai.com/v1", None)


def test_prompt_from_refined_reads_without_running(tmp_path):
    root = write_checkout(tmp_path)
    assert judge.prompt_from_refined(root) == PROMPT
    assert judge.prompt_from_refined(root, " Original ").startswith("LENIENT ")
    with pytest.raises(judge.PromptError, match="no judge prompt named 'strict'"):
        judge.prompt_from_refined(root, "strict")


def test_judge_object_rate_limit_pause_is_drawn_from_its_range():
    notes = []

    def respond(body, n):
        return (429, {"error": "tpm exceeded"}, 0) if n < 2 else (200, completion('{"label":"CORRECT"}'), 0)

    with Stub(respond) as stub:
        j = judge.Judge(ChatClient(model="m", base_url=stub.base_url, timeout=2), PROMPT,
                        judge.Backoff(attempts=3, wait=9.0, rate_limit_wait=(0.01, 0.03)), log=notes.append)
        assert j("q", "gold", "the gold") == 1.0
    pauses = [float(re.search(r"retrying in ([0-9.]+)s", n).group(1)) for n in notes]
    assert len(pauses) == 2 and all(0.01 <= p <= 0.03 for p in pauses)
