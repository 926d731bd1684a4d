"""-stats says on stderr why cells are NaN or empty (stdout stays the reference's report, and the reference's own
files get no note: test_stats checks their stderr)."""

from __future__ import annotations

import json

from locomo_repro.score.stats import main


def qa(category, answer, reply, **arms):
    return {"question": "q?", "answer": answer, "category": category, "evidence": [], "a_prediction": reply,
            "a_prediction_confidence": 0.5, **arms}


def notes(tmp_path, capsys, samples) -> list[str]:
    path = tmp_path / "f.json"
    path.write_text(json.dumps(samples))
    assert main([str(path)]) == 0
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("note: ")]


def test_a_file_without_adversarial_questions_one_arm_and_no_confidences_is_explained(tmp_path, capsys):
    said = notes(tmp_path, capsys, [{"sample_id": "s", "qa": [qa(4, "red", "red"), qa(2, 2022, "2022")]}])
    assert said == [
        "note: no adversarial (category 5) question in the file: the AUCs and the adversarial quiet share and "
        "paired column have nothing to compare (NaN)",
        "note: one arm (a): the paired table compares pairs of arms, so it is empty",
        "note: a: one confidence for every question (a missing confidence reads as 0): its 'sure' AUC cannot "
        "separate anything",
    ]


def test_a_file_with_both_halves_two_arms_and_varied_confidences_gets_no_note(tmp_path, capsys):
    rows = [qa(4, "red", "red", b_prediction="x", b_prediction_confidence=0.1),
            {**qa(5, "none", "No information available", b_prediction="x", b_prediction_confidence=0.2),
             "a_prediction_confidence": 0.9}]
    assert notes(tmp_path, capsys, [{"sample_id": "s", "qa": rows}]) == []
