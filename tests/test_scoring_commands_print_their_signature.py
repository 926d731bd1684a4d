"""Every command that prints scores puts one ``signature: ...`` line on stderr, and nothing new on stdout."""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from locomo_repro.data import dataset
from locomo_repro.go.json import dumps
from locomo_repro.refined.__main__ import main as refined_main
from locomo_repro.score import crosscheck, signature, stats

#: A two-question, one-arm predictions file in the official shape.
PREDICTIONS = [
    {
        "sample_id": "conv-1",
        "qa": [
            {"question": "Where?", "answer": "Paris", "category": 4, "evidence": ["D1:1"],
             "a_prediction": "Paris", "a_prediction_context": ["D1:1"], "a_prediction_confidence": 0.9},
            {"question": "Who?", "answer": "x", "category": 5, "evidence": [],
             "a_prediction": "No information available", "a_prediction_context": [],
             "a_prediction_confidence": 0.1},
        ],
    }
]


def signature_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("signature: ")]


@pytest.mark.slow
def test_the_default_run_prints_its_signature_on_stderr_only(samples, capsys):
    out = io.StringIO()
    args = cli.parser().parse_args(["-only", "1", "-quiet", "-k", "3"])
    assert cli.run(args, out) == 0
    data = signature.file_digest(dataset.resolve())
    assert signature_lines(capsys.readouterr().err) == [
        f"signature: locomo-repro:0.1.0|data:{data}|only:1|scorer:kit|arms:main|k:3|floor:0.30|span:4|band:0.90|parts:2"
    ]
    assert "signature" not in out.getvalue()


@pytest.mark.slow
def test_a_sweep_names_the_swept_setting(samples, capsys):
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args(["-only", "1", "-sweep", "parts", "-arms", "factor"]), out) == 0
    (line,) = signature_lines(capsys.readouterr().err)
    assert line.endswith("|arms:factor|k:5|floor:0.30|span:4|band:0.90|parts:sweep")
    assert "signature" not in out.getvalue()


def test_stats_prints_the_file_signature_after_an_unchanged_report(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_bytes(dumps(PREDICTIONS).encode())
    assert stats.main([str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == stats.render(stats.read(str(path)))
    # named as the report names the same file's figures: the scorer, then the bootstrap
    assert signature_lines(err) == [
        f"signature: locomo-repro:0.1.0|predictions:{signature.file_digest(path)}|scorer:kit|bootstrap:exact-95"]


def test_the_cross_check_prints_one_signature_per_file(tmp_path, capsys):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_bytes(dumps(PREDICTIONS).encode())
    two.write_bytes(dumps(PREDICTIONS[:1] + [{**PREDICTIONS[0], "sample_id": "conv-2"}]).encode())
    assert crosscheck.main([str(one), str(two), "--kit"]) == 0
    out, err = capsys.readouterr()
    assert "signature" not in out
    assert signature_lines(err) == [
        f"signature: locomo-repro:0.1.0|predictions:{signature.file_digest(p)}|scorer:kit" for p in (one, two)
    ]


def test_refined_score_carries_the_signature_in_its_summary_and_on_stderr(tmp_path, capsys):
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"qa_id": "s#q0", "question": "Q?", "answer": "one", "category": 4}) + "\n")
    predictions = tmp_path / "preds.jsonl"
    predictions.write_text(json.dumps({"qa_id": "s#q0", "predicted_answer": "one"}) + "\n")
    assert refined_main(["score", "--questions", str(questions), "--predictions", str(predictions)]) == 0
    out, err = capsys.readouterr()
    saved = json.loads((tmp_path / "preds_scored_summary.json").read_text())["metadata"]["signature"]
    assert signature_lines(err) == [f"signature: {saved}"]
    assert saved.startswith(f"locomo-repro:0.1.0|predictions:{signature.file_digest(predictions)}|scorer:refined|")
    assert saved.endswith("|metrics:bleu+f1")
    assert "signature" not in out


def test_official_json_carries_each_file_signature_beside_its_arms(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_bytes(dumps(PREDICTIONS).encode())
    assert crosscheck.main([str(path), "--json", "--kit"]) == 0
    out, err = capsys.readouterr()
    found = json.loads(out)[str(path)]
    assert found["signature"] == str(signature.predictions(path, "kit"))
    assert set(found) == {"a", "signature"}
    assert signature_lines(err) == [f"signature: {found['signature']}"]
