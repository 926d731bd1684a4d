"""refined score: predictions that cover only part of the questions are said loudly, and --only-predicted scores
the predicted questions alone (a system that never answers category 5 is not credited for its silence)."""

from __future__ import annotations

import json

from locomo_repro.refined.__main__ import main

QUESTIONS = [
    {"qa_id": "s#q0000", "conversation_idx": 0, "qa_index": 0, "question": "a?", "answer": ["one"], "category": "1"},
    {"qa_id": "s#q0001", "conversation_idx": 0, "qa_index": 1, "question": "b?", "answer": ["two"], "category": "2"},
    {"qa_id": "s#q0002", "conversation_idx": 0, "qa_index": 2, "question": "c?", "answer": [], "category": "5"},
]


def lines(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def score(tmp_path, *flags):
    questions = lines(tmp_path / "questions.jsonl", QUESTIONS)
    predictions = lines(tmp_path / "preds.jsonl", [{"qa_id": "s#q0000", "predicted_answer": "one"},
                                                   {"qa_id": "s#q0001", "predicted_answer": "three"}])
    assert main(["score", "--questions", str(questions), "--predictions", str(predictions), *flags]) == 0
    return [json.loads(x) for x in (tmp_path / "preds_scored.jsonl").read_text().splitlines()]


def test_partial_predictions_are_scored_over_every_question_with_a_warning(tmp_path, capsys):
    scored = score(tmp_path)
    assert [r["f1_score"] for r in scored] == [1.0, 0.0, 1.0]  # the unanswered question without gold scores 1
    err = capsys.readouterr().err
    assert "WARNING" in err and "predicts 2 of the 3 questions" in err and "--only-predicted" in err


def test_only_predicted_scores_the_predicted_questions_alone_and_quietly(tmp_path, capsys):
    scored = score(tmp_path, "--only-predicted")
    assert [r["qa_id"] for r in scored] == ["s#q0000", "s#q0001"]
    assert json.loads(capsys.readouterr().out)["overall"]["f1_score"] == 0.5


def test_full_predictions_give_no_warning(tmp_path, capsys):
    questions = lines(tmp_path / "questions.jsonl", QUESTIONS[:2])
    predictions = lines(tmp_path / "preds.jsonl", [{"qa_id": "s#q0000", "predicted_answer": "one"},
                                                   {"qa_id": "s#q0001", "predicted_answer": "two"}])
    assert main(["score", "--questions", str(questions), "--predictions", str(predictions)]) == 0
    assert "WARNING" not in capsys.readouterr().err
