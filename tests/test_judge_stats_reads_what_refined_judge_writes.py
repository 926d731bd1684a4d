"""``refined judge`` (through a judge on loopback that says CORRECT when the gold is in the reply) writes a
scored file that ``judge stats`` reads whole: a verdict for every question of the dataset, the judged ones
as the judge said, the others by Refined's rules (no prediction, an empty one: 0)."""

from __future__ import annotations

import json
import re

from stub_server import Stub, completion

from locomo_repro.judge import files
from locomo_repro.refined.__main__ import main as refined

PROMPT = "Q: {question}\nGOLD: {gold_answer}\nGEN: {generated_answer}\n"


def judge(body):
    prompt = body["messages"][0]["content"]
    gold = re.search(r"^GOLD: (.*)$", prompt, re.M).group(1)
    said = "CORRECT" if gold.lower() in re.search(r"^GEN: (.*)$", prompt, re.M).group(1).lower() else "WRONG"
    return 200, completion(json.dumps({"label": said})), 0


def test_refined_judges_scored_file_is_one_verdict_per_question(tmp_path, samples, monkeypatch):
    for name in ("EVALUATOR_MODEL", "EVALUATOR_API_BASE", "EVALUATOR_BASE_URL", "OPENAI_API_BASE",
                 "OPENAI_BASE_URL", "EVALUATOR_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    first = samples[0]
    answerable = [i for i, q in enumerate(first.questions) if q.category != 5][:4]
    replies = {i: (f"it was {first.questions[i].answer}" if n % 2 == 0 else "something else")
               for n, i in enumerate(answerable)}
    (tmp_path / "p.jsonl").write_text("".join(json.dumps({"qa_id": f"{first.id}#q{i:04d}", "predicted_answer": r})
                                              + "\n" for i, r in replies.items()))
    (tmp_path / "prompt.txt").write_text(PROMPT)
    with Stub(lambda body, n: judge(body)) as stub:
        assert refined(["judge", "--predictions", str(tmp_path / "p.jsonl"), "--judge-prompt",
                        str(tmp_path / "prompt.txt"), "--base-url", stub.base_url, "--model", "qwen3-14b",
                        "--attempts", "1"]) == 0
    judged = files.read(str(tmp_path / "p_scored.jsonl"), lambda: samples)
    assert judged.shape == "refined"
    assert len(judged.verdicts) == sum(len(s.questions) for s in samples)
    mine = {v.qa: v for v in judged.verdicts if v.sample_id == first.id and v.qa in replies}
    assert {i: v.score for i, v in mine.items()} == {i: float(n % 2 == 0) for n, i in enumerate(answerable)}
    assert {v.reply for v in mine.values()} == set(replies.values()) and {v.judge for v in mine.values()} == {"refined"}
    unanswered = [v for v in judged.verdicts if v.sample_id != first.id and v.category != 5]
    assert unanswered and {v.score for v in unanswered} == {0.0}
