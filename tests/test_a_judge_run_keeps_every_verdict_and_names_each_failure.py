"""``judge run`` against a judge server of the test's own on loopback, whose verdicts follow a rule the test
knows: labels read into scores (binary or graded), a failing endpoint (401, 429, 500, garbage) retried and
then a failed judgement that is never counted correct, a memo that asks nothing twice and resumes a stopped
run, probes made as documented, repeats, the token usage summed, and bad input refused in one line."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from refused import one_line
from stub_server import Stub, completion

from locomo_repro.judge import verdicts
from locomo_repro.judge.run import main

TEMPLATE = 'Q: {question}\nGOLD: {gold_answer}\nGEN: {generated_answer}\nSay {{"label": "..."}}'

#: conv-1: three single-hop questions (two with one gold), a temporal one, an adversarial one; conv-2: one.
FILE = [
    {"sample_id": "conv-1", "qa": [
        {"question": "Where is Ann?", "answer": "Paris", "category": 4, "evidence": [], "mine_prediction": "Paris"},
        {"question": "Where was Ann?", "answer": "paris ", "category": 4, "evidence": [],
         "mine_prediction": "near Paris maybe"},
        {"question": "Where is Bob?", "answer": "Rome", "category": 4, "evidence": [], "mine_prediction": "Oslo"},
        {"question": "When?", "answer": 2022, "category": 2, "evidence": [], "mine_prediction": "2022"},
        {"question": "Trap?", "adversarial_answer": "x", "category": 5, "evidence": [], "mine_prediction": "x"},
    ]},
    {"sample_id": "conv-2", "qa": [
        {"question": "Where is Cy?", "answer": "Oslo", "category": 4, "evidence": [], "mine_prediction": "Oslo"},
    ]},
]


def shown(body) -> tuple[str, str, str]:
    """(question, gold, reply) of a request filled from ``TEMPLATE``."""
    text = body["messages"][0]["content"]
    return tuple(re.search(rf"^{name}: (.*)$", text, re.M).group(1) for name in ("Q", "GOLD", "GEN"))


def rule(body) -> str:
    """The test's judge: CORRECT when the reply is the gold, PARTIAL when it holds it, else WRONG."""
    _, gold, reply = shown(body)
    gold, reply = gold.strip().lower(), reply.strip().lower()
    return "CORRECT" if reply == gold else "PARTIAL" if gold and gold in reply else "WRONG"


def ok(body, n):
    return 200, {**completion(json.dumps({"label": rule(body)})),
                 "usage": {"prompt_tokens": 100 + n, "completion_tokens": 5, "total_tokens": 105 + n}}, 0


@pytest.fixture
def files(tmp_path, monkeypatch):
    for name in ("HANZO_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "p.json").write_text(json.dumps(FILE))
    (tmp_path / "t.txt").write_text(TEMPLATE)
    return tmp_path


def run(files, base: str, *extra: str) -> int:
    return main([str(files / "p.json"), "-prompt", str(files / "t.txt"), "-model", "judge-m", "-base", base,
                 "-o", str(files / "j.json"), "-memo", str(files / "memo"), "-attempts", "2", "-retry-wait", "0",
                 "-rate-limit-wait", "0", "0", "-timeout", "5", *extra])


def made(files) -> list[verdicts.Verdict]:
    return verdicts.read(files / "j.json")[0]


def test_labels_are_read_into_binary_or_graded_scores(files, capsys):
    with Stub(ok) as stub:
        assert run(files, stub.base_url) == 0
    got = made(files)
    # category 5 is not judged by a template of the user's own; the others in file order
    assert [(v.sample_id, v.qa, v.label, v.score) for v in got] == [
        ("conv-1", 0, "CORRECT", 1.0), ("conv-1", 1, "PARTIAL", 0.5), ("conv-1", 2, "WRONG", 0.0),
        ("conv-1", 3, "CORRECT", 1.0), ("conv-2", 0, "CORRECT", 1.0)]
    assert got[3].gold == "2022" and got[3].question == "When?"
    assert {v.judge for v in got} == {"prompt"} and {v.model for v in got} == {"judge-m"}
    assert {v.prompt_sha256 for v in got} == {hashlib.sha256(TEMPLATE.encode()).hexdigest()}
    assert len(stub.requests) == 5
    first = next(r["body"] for r in stub.requests if shown(r["body"])[0] == "Where is Ann?")
    assert first == {"model": "judge-m", "temperature": 0.0, "messages": [
        {"role": "user", "content": 'Q: Where is Ann?\nGOLD: Paris\nGEN: Paris\nSay {"label": "..."}'}]}
    out = capsys.readouterr().out
    assert "mine       5       0  0.700" in out  # (1 + 0.5 + 0 + 1 + 1) / 5


def fails(body, n):
    """401, 429, 500 and garbage for the first four questions, every time; the rule for the others."""
    question = shown(body)[0]
    if question == "Where is Ann?":
        return 401, {"error": {"message": "Incorrect API key provided"}}, 0
    if question == "Where was Ann?":
        return 429, {"error": {"message": "Too many requests"}}, 0
    if question == "Where is Bob?":
        return 500, {"error": "boom"}, 0
    if question == "When?":
        return 200, b"<html>correct</html>", 0
    return ok(body, n)


def test_a_failing_endpoint_is_retried_then_a_failed_judgement_never_counted_correct(files, capsys):
    with Stub(fails) as stub:
        assert run(files, stub.base_url) == 1
    got = made(files)
    assert [v.score for v in got] == [None, None, None, None, 1.0]
    assert all(v.failed and v.label == "" for v in got[:4])
    for v, why in zip(got, ("HTTP 401: ", "HTTP 429: ", "HTTP 500: ", "reply is not JSON")):
        assert v.reason.startswith("failed judgement: no verdict after 2 attempt(s): ") and why in v.reason
    asked = [shown(r["body"])[0] for r in stub.requests]
    assert [asked.count(q) for q in ("Where is Ann?", "Where was Ann?", "Where is Bob?", "When?", "Where is Cy?")] \
        == [2, 2, 2, 2, 1]
    captured = capsys.readouterr()
    assert "mine       5       4  1.000" in captured.out  # J over the one verdict had: failures are no verdicts
    assert sum(line.startswith("failed: conv-1 qa[") for line in captured.out.splitlines()) == 4
    assert "failed: conv-1 qa[0] mine repeat 0: failed judgement: no verdict after 2 attempt(s): HTTP 401" \
        in captured.out
    assert "judge: attempt 1/2 failed (HTTP 429" in captured.err
    assert verdicts.read(files / "j.json")[1]["failed"] == 4


def test_a_rerun_asks_nothing_twice_and_a_failed_run_resumes(files, capsys):
    failing = [True]

    def respond(body, n):
        return fails(body, n) if failing[0] else ok(body, n)

    with Stub(respond) as stub:
        assert run(files, stub.base_url) == 1
        first = len(stub.requests)
        failing[0] = False
        assert run(files, stub.base_url) == 0  # only the four failed judgements are asked again
        assert len(stub.requests) == first + 4
        assert {shown(r["body"])[0] for r in stub.requests[first:]} == {
            "Where is Ann?", "Where was Ann?", "Where is Bob?", "When?"}
        again = (files / "j.json").read_bytes()
        assert run(files, stub.base_url) == 0
        assert len(stub.requests) == first + 4  # nothing asked at all
    assert (files / "j.json").read_bytes() == again
    assert [v.score for v in made(files)] == [1.0, 0.5, 0.0, 1.0, 1.0]
    assert f"5 judgements, 5 read from {files / 'memo'}, 0 asked" in capsys.readouterr().err.splitlines()[-1]


def test_probes_are_the_other_gold_the_question_an_empty_reply_and_the_gold(files):
    with Stub(ok) as stub:
        assert run(files, stub.base_url, "-probes") == 0
    probes = [(v.sample_id, v.qa, v.arm, v.reply, v.score) for v in made(files) if v.arm.startswith("probe.")]
    assert probes == [
        # the next question of conv-1 and single hop whose gold is another ("paris " is Paris again): Rome
        ("conv-1", 0, "probe.wrong-gold", "Rome", 0.0), ("conv-1", 0, "probe.restated", "Where is Ann?", 0.0),
        ("conv-1", 0, "probe.empty", "", 0.0), ("conv-1", 0, "probe.gold", "Paris", 1.0),
        ("conv-1", 1, "probe.wrong-gold", "Rome", 0.0), ("conv-1", 1, "probe.restated", "Where was Ann?", 0.0),
        ("conv-1", 1, "probe.empty", "", 0.0), ("conv-1", 1, "probe.gold", "paris ", 1.0),
        # after the last one, the first again
        ("conv-1", 2, "probe.wrong-gold", "Paris", 0.0), ("conv-1", 2, "probe.restated", "Where is Bob?", 0.0),
        ("conv-1", 2, "probe.empty", "", 0.0), ("conv-1", 2, "probe.gold", "Rome", 1.0),
        # no other temporal question in conv-1, no other question at all in conv-2: no wrong gold
        ("conv-1", 3, "probe.restated", "When?", 0.0), ("conv-1", 3, "probe.empty", "", 0.0),
        ("conv-1", 3, "probe.gold", "2022", 1.0),
        ("conv-2", 0, "probe.restated", "Where is Cy?", 0.0), ("conv-2", 0, "probe.empty", "", 0.0),
        ("conv-2", 0, "probe.gold", "Oslo", 1.0),
    ]
    # a probe that is a reply of the file (the gold of conv-1 qa[0] and qa[3], of conv-2) is asked once
    assert len(stub.requests) == 5 + 18 - 3


def test_repeats_ask_each_reply_again_and_are_numbered(files):
    with Stub(lambda body, n: (200, completion(json.dumps({"label": ["CORRECT", "WRONG"][n % 2]})), 0)) as stub:
        assert run(files, stub.base_url, "-repeats", "3", "-concurrency", "1") == 0
    got = made(files)
    assert [(v.qa, v.repeat) for v in got[:6]] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert len(got) == 15 and len(stub.requests) == 15
    assert [v.score for v in got[:3]] == [1.0, 0.0, 1.0]
    judge = verdicts.read(files / "j.json")[1]
    assert judge["repeats"] == 3 and judge["temperature"] == 0.0


def test_usage_is_summed_and_the_six_facts_are_written(files, tmp_path, capsys):
    (tmp_path / "answer.txt").write_text("answer briefly")
    with Stub(ok) as stub:
        assert run(files, stub.base_url, "-temperature", "0.7", "-seed", "7", "-answer-model", "gpt-x",
                   "-answer-prompt", str(tmp_path / "answer.txt"), "-retrieval", "k=5") == 0
    assert {r["body"]["temperature"] for r in stub.requests} == {0.7}
    assert {r["body"]["seed"] for r in stub.requests} == {7}
    _, judge, sig = verdicts.read(files / "j.json")
    assert judge["usage"] == {"prompt_tokens": 5 * 100 + sum(range(5)), "completion_tokens": 25,
                              "total_tokens": 5 * 105 + sum(range(5))}
    assert judge["name"] == "prompt" and judge["model"] == "judge-m" and judge["repeats"] == 1
    assert judge["prompt_sha256"] == hashlib.sha256(TEMPLATE.encode()).hexdigest() and judge["temperature"] == 0.7
    assert judge["answer_model"] == "gpt-x" and judge["retrieval"] == "k=5"
    assert judge["answer_prompt_sha256"] == hashlib.sha256(b"answer briefly").hexdigest()
    err = capsys.readouterr().err
    assert f"signature: {sig}\n" in err
    for part in ("answer-model:gpt-x", "answer-prompt:" + judge["answer_prompt_sha256"][:8], "retrieval:k=5",
                 "judge:prompt", "judge-model:judge-m", "judge-prompt:" + judge["prompt_sha256"][:8], "repeats:1",
                 "temperature:0.70"):
        assert f"|{part}|" in sig
    assert "tokens asked: 510 prompt + 25 completion = 535 tokens" in err


def test_a_seed_the_endpoint_refuses_is_dropped(files, capsys):
    def respond(body, n):
        if "seed" in body:
            return 400, {"error": {"message": "Unrecognized request argument supplied: seed"}}, 0
        return ok(body, n)

    with Stub(respond) as stub:
        assert run(files, stub.base_url, "-seed", "7", "-concurrency", "1") == 0
    assert ["seed" in r["body"] for r in stub.requests] == [True, False, False, False, False, False]
    assert "refuses seed" in capsys.readouterr().err


def test_refined_is_refineds_request_through_the_same_machinery(files):
    (files / "refined" / "src").mkdir(parents=True)
    (files / "refined" / "src" / "llm_judge.py").write_text(
        f"raise SystemExit('never run')\nJUDGE_PROMPTS = {{'refined': {TEMPLATE!r}}}\n")
    with Stub(ok) as stub:
        assert main([str(files / "p.json"), "-judge", "refined", "-refined-root", str(files / "refined"),
                     "-model", "qwen3-14b", "-base", stub.base_url, "-o", str(files / "j.json"), "-memo", ""]) == 0
    first = next(r["body"] for r in stub.requests if shown(r["body"])[0] == "Where is Ann?")
    assert first == {"model": "qwen3-14b", "temperature": 0.0, "enable_thinking": False,
                                        "messages": [{"role": "user", "content":
                                                      'Q: Where is Ann?\nGOLD: Paris\nGEN: Paris\nSay {"label": "..."}'}]}
    # Refined reads CORRECT or else wrong: its partial is a 0
    assert [(v.judge, v.score) for v in made(files)] == [("refined", s) for s in (1.0, 0.0, 0.0, 1.0, 1.0)]


@pytest.mark.parametrize("argv, parts", [
    (["-judge", "nope"], ["unknown judge 'nope'", "mem0, longmemeval, evermemos, locomo-plus, refined"]),
    (["-judge", "mem0", "-prompt", "t.txt"], ["name one judge"]),
    (["-prompt", "bad.txt"], ["bad.txt", "missing placeholder(s) {generated_answer}"]),
    (["-prompt", "t.txt", "-repeats", "0"], ["-repeats must be at least 1"]),
    (["-judge", "refined"], ["--refined-root DIR"]),
    (["-prompt", "t.txt", "-refined-root", "."], ["-refined-root is where -judge refined reads its prompt"]),
    (["-judge", "mem0", "-data", "d.json"], ["-data is where -judge locomo-plus reads its evidence turns"]),
])
def test_bad_input_is_one_line_and_nothing_is_written(files, monkeypatch, capsys, argv, parts):
    monkeypatch.chdir(files)
    (files / "bad.txt").write_text("{question} {gold_answer}")
    code = main(["p.json", *argv, "-model", "m", "-base", "http://127.0.0.1:9/v1", "-o", "j.json", "-memo", "memo"])
    one_line(capsys, code, *parts)
    assert not (files / "j.json").exists() and not (files / "memo").exists()


def test_an_unreadable_predictions_file_is_one_line(files, capsys):
    (files / "p.json").write_text('[{"sample_id": "conv-1", "qa": [{"question": "Q?"}]}')
    code = run(files, "http://127.0.0.1:9/v1")
    one_line(capsys, code, "p.json")
    assert not (files / "j.json").exists() and not (files / "memo").exists()


def test_a_source_that_is_not_the_pinned_one_is_refused(files, monkeypatch, capsys):
    wrong = files / "sources" / "mem0ai" / "mem0" / "evaluation" / "metrics" / "llm_judge.py"
    wrong.parent.mkdir(parents=True)
    wrong.write_text("ACCURACY_PROMPT = '{question} {gold_answer} {generated_answer}'\n")
    monkeypatch.setenv("LOCOMO_JUDGE_SOURCES", str(files / "sources"))
    code = main([str(files / "p.json"), "-judge", "mem0", "-model", "m", "-base", "http://127.0.0.1:9/v1",
                 "-o", str(files / "j.json"), "-memo", str(files / "memo")])
    one_line(capsys, code, str(wrong), "sha256", "expected ac2e242f", "not the pinned mem0ai/mem0@b3ede5b7")
    assert not (files / "j.json").exists() and not (files / "memo").exists()


def test_a_stopped_run_writes_nothing_and_resumes_from_the_memo(files, monkeypatch, capsys):
    from locomo_repro.data import progress

    advance = progress.Progress.advance
    counted = []

    def interrupted(self, steps=1, note=""):  # Ctrl-C once the third judgement is done
        counted.append(steps)
        if len(counted) == 3:
            raise KeyboardInterrupt
        advance(self, steps, note)

    with Stub(ok) as stub:
        monkeypatch.setattr(progress.Progress, "advance", interrupted)
        assert run(files, stub.base_url, "-concurrency", "1") == 130
        # the three done are kept (and any the worker finished before the run let it go)
        kept = len(list((files / "memo").iterdir()))
        assert not (files / "j.json").exists() and kept >= 3
        first = len(stub.requests)
        monkeypatch.setattr(progress.Progress, "advance", advance)
        assert run(files, stub.base_url, "-concurrency", "1") == 0
    assert len(stub.requests) - first == 5 - kept  # the re-run asks only what was not kept
    assert len(made(files)) == 5
    assert "interrupted" in capsys.readouterr().err


def test_the_key_goes_to_the_endpoint_only_and_is_never_shown(files, monkeypatch, capsys):
    key = "sk-test-secret-0123456789"
    monkeypatch.setenv("OPENAI_API_KEY", key)

    def echo(body, n):  # a server that quotes the request's headers in its error
        return 401, {"error": {"message": f"bad key Bearer {key}"}}, 0

    with Stub(echo) as stub:
        assert run(files, stub.base_url, "-attempts", "1") == 1
    assert {r["headers"]["Authorization"] for r in stub.requests} == {f"Bearer {key}"}
    captured = capsys.readouterr()
    assert key not in captured.out + captured.err and key not in (files / "j.json").read_text()
    assert "[redacted]" in made(files)[0].reason
