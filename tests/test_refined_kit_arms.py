"""The bench's memory + reader arms as LoCoMo-Refined ``predict`` arms: same answers as the bench."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from locomo_repro.bench import experiment as bench
from locomo_repro.bench import stream

from locomo_repro.read.reader import Options
from locomo_repro.refined import export, predict
from locomo_repro.refined.__main__ import main


def data_path() -> Path:
    path = os.environ.get("LOCOMO_DATA")
    assert path, "set LOCOMO_DATA to locomo10.json (see the README)"
    return Path(path)


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.slow
def test_every_arm_of_every_arm_set_is_registered_with_a_set_that_builds_it(samples):
    built = {arm_set: {a.name for a in bench.build(samples[:1], arm_set)[0].arms} for arm_set in bench.ARM_SETS}
    assert set(predict.KIT_ARMS) == set().union(*built.values())
    assert all(name in built[arm_set] for name, arm_set in predict.KIT_ARMS.items())
    assert set(predict.arm_names()) == {"abstain", *predict.KIT_ARMS}


@pytest.mark.slow  # every arm builds its own two conversations: more work than building all ten once
def test_each_kit_arm_answers_as_the_bench_does(samples):
    public = export.read_dataset(data_path(), 2)
    # Refined's export strips a question's spaces; conv-30 has one question that ends with a space
    assert any(q.text != q.text.strip() for s in samples[:2] for q in s.questions)
    for arm_set in bench.ARM_SETS:
        records = bench.run(bench.build(samples[:2], arm_set), Options())
        for arm, want in records.items():
            answer = predict.answerer(arm, str(data_path()))
            got = [answer(q["sample_id"], q["question"]) for q in public.questions]
            assert got == [r.reply for r in want], (arm_set, arm)


@pytest.mark.slow
def test_export_predict_graph_score_and_the_answers_are_the_benchs(tmp_path, lab, capsys):
    pub = tmp_path / "pub"
    assert main(["export", "--data", str(data_path()), "--out", str(pub)]) == 0
    preds = tmp_path / "graph.jsonl"
    assert main(["predict", "--arm", "graph", "--questions", str(pub / "questions.jsonl"), "--out", str(preds)]) == 0
    assert main(["score", "--questions", str(pub / "questions.jsonl"), "--predictions", str(preds)]) == 0
    capsys.readouterr()

    # the kit's own predictions file, graph arm, question for question
    kit = stream.predictions(lab.samples, lab.records(""))
    want = [(f"{c['sample_id']}#q{i:04d}", qa["graph_prediction"]) for c in kit for i, qa in enumerate(c["qa"])]
    got = [(r["qa_id"], r["predicted_answer"]) for r in read_jsonl(preds)]
    assert got == want and len(got) == 1986

    scored = read_jsonl(tmp_path / "graph_scored.jsonl")
    assert [r["qa_id"] for r in scored] == [qid for qid, _ in want]
    assert all(r["prediction_found"] for r in scored)
    summary = json.loads((tmp_path / "graph_scored_summary.json").read_text())
    mean = sum(r["f1_score"] for r in scored) / len(scored)
    assert summary["overall"]["count"] == 1986 and 0 < mean < 1
    assert summary["overall"]["f1_score"] == pytest.approx(mean)


@pytest.mark.slow
def test_a_question_or_conversation_not_in_the_dataset_is_an_arm_error(tmp_path, capsys):
    answer = predict.answerer("vector", str(data_path()))
    with pytest.raises(predict.ArmError, match="no conversation 'conv-0'"):
        answer("conv-0", "What?")
    with pytest.raises(predict.ArmError, match="no question 'Who won the 1999 cup' in conversation conv-26"):
        answer("conv-26", "Who won the 1999 cup")

    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"qa_id": "conv-26#q9999", "sample_id": "conv-26", "question": "Who won?"}) + "\n")
    out = tmp_path / "p.jsonl"
    assert main(["predict", "--arm", "oracle", "--questions", str(questions), "--data", str(data_path()),
                 "--out", str(out)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == "error: the arm failed on conv-26#q9999: ArmError: no question 'Who won?' in conversation conv-26 of the dataset"
    assert not out.exists()


def test_a_missing_dataset_is_an_arm_error(tmp_path, capsys):
    with pytest.raises(predict.ArmError, match="no such dataset file"):
        predict.answerer("graph", str(tmp_path / "none.json"))
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"qa_id": "x#q0000", "sample_id": "x", "question": "Who?"}) + "\n")
    assert main(["predict", "--arm", "graph", "--questions", str(questions), "--data", str(tmp_path / "none.json"),
                 "--out", str(tmp_path / "p.jsonl")]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ") and "none.json" in line
