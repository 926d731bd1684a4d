"""An imported file grades the same under -stats and official: every gold answer is written as text.

The Go -stats reads ``answer`` with a string type assertion, so a gold the dataset writes as a JSON number
(six answers, in the first conversation) grades as "" there and as its digits in the official scorer.  The
importer writes each answer as text (numbers as written), as the reference's own -out files do, so even the
Go reading could not differ on its files; the kit's -stats reads a number as its digits anyway."""

from __future__ import annotations

import json

from locomo_repro.data.dataset import resolve
from locomo_repro.peers.__main__ import main
from locomo_repro.score import official, stats
from locomo_repro.score.metric import grade
from locomo_repro.score.predictions import read


def test_numeric_golds_are_text_and_both_readings_grade_alike(tmp_path, samples):
    raw = json.loads(resolve().read_bytes())
    numeric = [qa["question"] for qa in raw[0]["qa"] if isinstance(qa.get("answer"), (int, float))]
    assert numeric, "the dataset's first conversation has numeric answers"
    source = tmp_path / "m.json"
    source.write_text(json.dumps({"0": [{"question": q.text, "response": q.answer, "category": str(q.category)}
                                        for q in samples[0].questions if q.category != 5]}))
    out = tmp_path / "out.json"
    assert main(["import", "--arm", f"m={source}", "-out", str(out)]) == 0
    predictions = read(out)
    assert all(isinstance(q.answer, str) for q in predictions.questions)
    assert {q.answer for q in predictions.questions if q.category != 5} >= {
        q.answer for q in samples[0].questions if q.text in numeric}
    go = [grade(q.category, q.predictions["m"].reply, stats._answer(q)) for q in predictions.questions]
    qas = official._qas(predictions, predictions.questions, "m")
    assert go == official.kit_eval_question_answering(qas, "m_prediction")[0]
    by_text = {q.answer: mark for q, mark in zip(predictions.questions, go)}
    assert all(by_text[q.answer] == 1.0 for q in samples[0].questions if q.text in numeric)  # not "" as in Go
