"""A judgement whose reason is an API error, whose label is empty or none the judge's scale has, or that is
missing, is a failed judgement: counted and named, left out of every figure, never the score the file wrote
beside it (LoCoMo-Plus's judged.json scores its API errors 1.0)."""

from __future__ import annotations

import json

import pytest
from judged_files import cell, stats, verdict, write

from locomo_repro.judge import files, measures
from locomo_repro.judge.__main__ import main


def plus_items(samples, labels_and_reasons) -> list[dict]:
    names = {1: "multi-hop", 2: "temporal", 3: "common-sense", 4: "single-hop", 5: "adversarial"}
    return [{"question_input": q.text, "category": names[q.category], "ground_truth": "g", "prediction": "r",
             "model": "m", "judge_label": label, "judge_reason": reason, "judge_score": 1.0}
            for q, (label, reason) in zip(samples[0].questions, labels_and_reasons)]


def test_locomo_plus_api_errors_scored_1_are_failed_judgements(tmp_path, samples, capsys):
    error = "[API Error: Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-***'}}]"
    path = tmp_path / "judged.json"
    path.write_text(json.dumps(plus_items(samples, [("correct", error)] * 3)))
    table = stats(capsys, main, str(path))
    got = cell(table, "J", "overall")
    assert (got["n"], got["failed"], got["value"]) == (0, 3, None)
    assert f"{path}: 3 of 3 judgements failed (3 an API error)" in table["notes"][0]
    assert "sk-" not in json.dumps(table)  # the reason, which may quote a key, is never shown


def test_an_empty_or_unknown_label_is_a_failed_judgement_not_a_wrong_one(tmp_path, samples):
    path = tmp_path / "judged_v2.json"
    path.write_text(json.dumps(plus_items(samples, [("", "The model"), ("maybe", "hm"), ("partial", "half")])))
    judged = files.read(str(path), lambda: samples)
    assert [v.score for v in judged.verdicts] == [None, None, 0.5]
    assert [files.cause(v) for v in judged.verdicts[:2]] == ["an empty label", "no verdict in its label"]
    assert measures.j(list(judged.verdicts), (1, 2, 3, 4, 5)) == measures.Figure(1, 2, 0.5)


def test_a_failed_verdict_labelled_correct_in_the_kits_file_counts_for_nothing(tmp_path, capsys):
    made = [verdict("a", 0, 4, 0.0), verdict("a", 1, 4, None, label="correct"), verdict("b", 0, 4, None)]
    table = stats(capsys, main, str(write(tmp_path / "kit.json", made)))
    got = cell(table, "J", "overall")
    assert (got["n"], got["failed"], got["value"]) == (1, 2, 0.0)


@pytest.mark.parametrize("said", [None, "true", 1])
def test_an_audit_judgment_that_is_not_true_or_false_failed(tmp_path, samples, said):
    q = samples[0].questions[0]
    results = {"locomo_exp_user_0": [{"question": q.text, "golden_answer": "g", "generated_answer": "r",
                                      "llm_judgments": {"judgment_1": said, "judgment_2": False}}]}
    (tmp_path / "eval_results.json").write_text(json.dumps({"detailed_results": results}))
    judged = files.read(str(tmp_path / "eval_results.json"), lambda: samples)
    assert [v.score for v in judged.verdicts] == [None, 0.0]
    assert measures.aggregate(list(judged.verdicts), (q.category,), "any").value == 0.0


def test_a_peers_reply_without_its_judges_verdict_is_a_failed_judgement(tmp_path, samples):
    first = [q for q in samples[0].questions if q.category != 5][:2]
    data = {"0": [{"question": q.text, "answer": "g", "response": "r", "category": str(q.category)} for q in first]}
    data["0"][0]["llm_score"] = 1
    (tmp_path / "mem0.json").write_text(json.dumps(data))
    judged = files.read(str(tmp_path / "mem0.json"), lambda: samples)
    assert [v.score for v in judged.verdicts] == [1.0, None]
    assert files.cause(judged.verdicts[1]) == files.NO_VERDICT


def test_an_endpoint_failure_in_the_kits_file_is_named_an_api_error(tmp_path, capsys):
    table = stats(capsys, main, str(write(tmp_path / "kit.json", [verdict("a", 0, 4, None), verdict("a", 1, 4, 1.0)])))
    assert "1 of 2 judgements failed (1 an API error)" in table["notes"][0]
