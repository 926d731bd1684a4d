"""``judge run`` sends, for each of the field's judges, exactly the request body its pinned source builds: the
template read out of the source by the test's own means (text, not the kit's reader), filled as the source
fills it, with the source's messages and settings; and the judge's reply is read into the score the source
gives it.  The sources are code the kit never ships: ``LOCOMO_JUDGE_SOURCES`` names a folder holding them
(``<owner>/<repo>/<path>``, the pinned commits), else these tests are left out, counted."""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pytest
import yaml
from stub_server import Stub, completion

from locomo_repro.judge import verdicts
from locomo_repro.judge.run import main

pytestmark = pytest.mark.outside("LOCOMO_JUDGE_SOURCES")

#: Three questions of one conversation: single hop, temporal, adversarial; one arm.
QAS = [
    {"question": "Where did Ann move?", "answer": "Paris", "category": 4, "evidence": ["D1:2"],
     "mine_prediction": "She moved to Paris."},
    {"question": "When did Ann move?", "answer": "7 May 2023", "category": 2, "evidence": ["D1:1; D2:1"],
     "mine_prediction": "In May 2023"},
    {"question": "Where did Bob move?", "adversarial_answer": "Rome", "category": 5, "evidence": ["D9:1"],
     "mine_prediction": "Not mentioned"},
]
CONVERSATION = {"speaker_a": "Ann", "speaker_b": "Bob",
                "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I moved!"},
                              {"speaker": "Bob", "dia_id": "D1:2", "text": "To Paris?"}],
                "session_1_date_time": "1:00 pm on 8 May, 2023",
                "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Yes, last week."}],
                "session_2_date_time": "1:00 pm on 9 May, 2023"}


def source(path: str) -> str:
    return (Path(os.environ["LOCOMO_JUDGE_SOURCES"]) / path).read_text(encoding="utf-8")


def literal(text: str, name: str):
    """The literal assigned to ``name`` at the top of a module's text (the test reads it; nothing is run)."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(name)


def judged(tmp_path, judge: str, reply: str, *extra: str) -> tuple[list[dict], list[verdicts.Verdict], int]:
    """The request bodies ``judge run`` sent (in question order) and the verdicts it wrote, every reply ``reply``."""
    (tmp_path / "p.json").write_text(json.dumps([{"sample_id": "conv-1", "qa": QAS}]))
    with Stub(lambda body, n: (200, completion(reply), 0)) as stub:
        code = main([str(tmp_path / "p.json"), "-judge", judge, "-model", "judge-m", "-base", stub.base_url,
                     "-o", str(tmp_path / "j.json"), "-memo", "", "-concurrency", "1", "-attempts", "1", *extra])
    made, _, _ = verdicts.read(tmp_path / "j.json")
    return [r["body"] for r in stub.requests], made, code


def test_mem0_sends_its_accuracy_prompt_as_json_object_at_temperature_0(tmp_path):
    text = source("mem0ai/mem0/evaluation/metrics/llm_judge.py")
    template = text.split('ACCURACY_PROMPT = """', 1)[1].split('"""', 1)[0]
    bodies, made, code = judged(tmp_path, "mem0", '```json\n{"label": "CORRECT"}\n```')
    assert code == 0
    expected = [{"model": "judge-m",
                 "messages": [{"role": "user", "content": template.format(
                     question=qa["question"], gold_answer=qa["answer"], generated_answer=qa["mine_prediction"])}],
                 "response_format": {"type": "json_object"}, "temperature": 0.0} for qa in QAS[:2]]
    assert bodies == expected  # category 5 is not judged: mem0's harness skips it
    assert [(v.label, v.score) for v in made] == [("CORRECT", 1.0), ("CORRECT", 1.0)]


@pytest.mark.parametrize("reply, score", [('{"label": "WRONG"}', 0.0), ('{"label": "correct"}', 0.0)])
def test_mem0_counts_only_the_exact_label_correct(tmp_path, reply, score):
    _, made, _ = judged(tmp_path, "mem0", reply)
    assert [v.score for v in made] == [score, score]


def test_longmemeval_sends_the_template_of_each_categorys_question_type(tmp_path):
    text = source("xiaowu0162/LongMemEval/src/evaluation/evaluate_qa.py")
    generic, temporal, _update, _preference, abstention = (
        ast.literal_eval(t) for t in re.findall(r'template = ("(?:[^"\\]|\\.)*")', text))
    bodies, made, code = judged(tmp_path, "longmemeval", "Yes.")
    assert code == 0
    contents = [generic.format(QAS[0]["question"], "Paris", QAS[0]["mine_prediction"]),
                temporal.format(QAS[1]["question"], "7 May 2023", QAS[1]["mine_prediction"]),
                abstention.format(QAS[2]["question"], "Not mentioned in the conversation", "Not mentioned")]
    assert bodies == [{"model": "judge-m", "messages": [{"role": "user", "content": c}], "n": 1, "temperature": 0,
                       "max_tokens": 10} for c in contents]
    assert [v.score for v in made] == [1.0, 1.0, 1.0]
    _, made, _ = judged(tmp_path, "longmemeval", "No")
    assert [v.score for v in made] == [0.0, 0.0, 0.0]


def test_evermemos_sends_its_system_and_user_prompt(tmp_path):
    prompts = yaml.safe_load(source("dial481/locomo-audit/evaluation/config/prompts.yaml"))["llm_judge"]
    bodies, made, code = judged(tmp_path, "evermemos", 'Reasoning first. {"label": " Correct "}')
    assert code == 0
    expected = []
    for qa in QAS[:2]:
        user = (prompts["user_prompt"].replace("{question}", qa["question"]).replace("{golden_answer}", qa["answer"])
                .replace("{generated_answer}", qa["mine_prediction"]))
        expected.append({"model": "judge-m", "temperature": 0,
                         "messages": [{"role": "system", "content": prompts["system_prompt"]},
                                      {"role": "user", "content": user}]})
    assert bodies == expected
    assert [v.score for v in made] == [1.0, 1.0]


def test_locomo_plus_sends_its_category_template_with_the_evidence_turns_and_grades_partial(tmp_path):
    templates = literal(source("xjtuleeyf/Locomo-Plus/evaluation_framework/task_eval/prompt.py"), "PROMPT_TEMPLATES")
    start = literal(source("xjtuleeyf/Locomo-Plus/evaluation_framework/task_eval/utils.py"), "CONV_START_PROMPT")
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([{"sample_id": "conv-1", "conversation": CONVERSATION, "qa": []}]))
    bodies, made, code = judged(tmp_path, "locomo-plus", '{"label": "partial", "reason": "half of it"}',
                                "-data", str(data))
    assert code == 0
    evidence = ["Bob：To Paris?", "Ann：I moved!\nAnn：Yes, last week.", "[D9:1] [Missing turn]"]
    kinds = ["single-hop", "temporal", "adversarial"]
    golds = ["Paris", "7 May 2023", ""]
    contents = [start.format("A", "B") + templates[kind].format(gold=gold, pred=qa["mine_prediction"],
                                                                evidence=ev).strip()
                for kind, gold, qa, ev in zip(kinds, golds, QAS, evidence)]
    assert bodies == [{"model": "judge-m", "messages": [{"role": "user", "content": c}], "temperature": 0.0,
                       "max_tokens": 512} for c in contents]
    assert [v.score for v in made] == [0.5, 0.5, 0.5]
    assert made[0].reason == '{"label": "partial", "reason": "half of it"}'


@pytest.mark.parametrize("reply, score", [
    ('{"label": "wrong", "reason": "no"}', 0.0),
    ("The prediction is correct.", 1.0),
    ("This is incorrect.", 1.0),  # the source's word search finds "correct" in "incorrect"
])
def test_locomo_plus_reads_labels_as_its_parser_does(tmp_path, reply, score):
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([{"sample_id": "conv-1", "conversation": CONVERSATION, "qa": []}]))
    _, made, _ = judged(tmp_path, "locomo-plus", reply, "-data", str(data))
    assert [v.score for v in made] == [score] * 3


def test_a_reply_without_a_label_is_a_failed_judgement_for_every_judge(tmp_path, capsys):
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([{"sample_id": "conv-1", "conversation": CONVERSATION, "qa": []}]))
    for judge, reply in (("mem0", '{"verdict": "CORRECT"}'), ("evermemos", ""), ("longmemeval", "  "),
                         ("locomo-plus", "maybe")):
        _, made, code = judged(tmp_path, judge, reply, *(["-data", str(data)] if judge == "locomo-plus" else []))
        assert code == 1 and made and all(v.score is None and v.label == "" for v in made), judge
        assert all(v.reason.startswith("failed judgement: no verdict after 1 attempt(s)") for v in made)



def test_locomo_plus_judges_a_cognitive_question_with_its_cognitive_template(tmp_path):
    templates = literal(source("xjtuleeyf/Locomo-Plus/evaluation_framework/task_eval/prompt.py"), "PROMPT_TEMPLATES")
    start = literal(source("xjtuleeyf/Locomo-Plus/evaluation_framework/task_eval/utils.py"), "CONV_START_PROMPT")
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([{"sample_id": "conv-1", "conversation": CONVERSATION, "qa": []}]))
    cue = {"question": "I am packing again.", "answer": "", "category": 6, "evidence": ["D1:1"],
           "mine_prediction": "Moving again so soon?"}
    (tmp_path / "p.json").write_text(json.dumps([{"sample_id": "conv-1", "qa": [cue]}]))
    with Stub(lambda body, n: (200, completion('{"label": "correct", "reason": "it links"}'), 0)) as stub:
        code = main([str(tmp_path / "p.json"), "-judge", "locomo-plus", "-model", "judge-m", "-base", stub.base_url,
                     "-o", str(tmp_path / "j.json"), "-memo", "", "-concurrency", "1", "-attempts", "1",
                     "-data", str(data)])
    assert code == 0
    content = start.format("A", "B") + templates["Cognitive"].format(
        gold="", pred="Moving again so soon?", evidence="Ann：I moved!").strip()
    assert [r["body"]["messages"] for r in stub.requests] == [[{"role": "user", "content": content}]]
    made, _, _ = verdicts.read(tmp_path / "j.json")
    assert [(v.category, v.score) for v in made] == [(6, 1.0)]
