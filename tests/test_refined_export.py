"""refined.export and refined.predict: Refined's public files, predictions, and export -> predict -> score on locomo10."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from locomo_repro.score.metric import DECLINE
from locomo_repro.refined import export, predict
from locomo_repro.refined.__main__ import main


def data_path() -> Path:
    path = os.environ.get("LOCOMO_DATA")
    assert path, "set LOCOMO_DATA to locomo10.json (see the README)"
    return Path(path)


RAW = [
    {
        "sample_id": "s-1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "1:00 pm on 1 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": " Hi Bob "},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "   "},
                {"speaker": "Bob", "dia_id": "D1:3", "text": "Look!", "img_url": ["http://i/1.jpg", " "],
                 "blip_caption": " a dog ", "query": "dog"},
                "not a turn",
                {"speaker": "Cy", "dia_id": "D1:x", "text": "Hello all"},
            ],
            "session_2_date_time": "2:00 pm on 3 May, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Back", "img_url": "http://i/2.jpg"}],
            "session_3_date_time": "x",
            "session_3": [{"speaker": "Ann", "dia_id": "D3:1", "text": ""}],
            "session_4": [{"speaker": "Ann", "dia_id": "D4:1", "text": "never reached"}],
        },
        "qa": [
            {"question": " What did Bob show? ", "answer": "a dog", "category": 1, "evidence": ["D1:3", "D9:9"]},
            "not a question",
            {"question": "Which year?", "answer": 2022, "category": 2, "evidence": [], "is_multi_modality": True},
            {"question": "Adversarial?", "adversarial_answer": "x", "category": 5, "evidence": ["D2:1"]},
            {"question": "List?", "answer": ["a", " ", "b "], "category": 4, "evidence": "D4:1"},
        ],
    },
    ["not", "a", "sample"],
    {"conversation": {"speaker_a": "P", "speaker_b": "Q", "session_1": []}, "qa": []},
]


def test_message_and_session_records():
    public = export.convert(RAW, "raw.json")
    conv = public.conversations[0]
    first, second = conv["sessions"]
    assert [m["dia_id"] for m in first["messages"]] == ["D1:1", "D1:3", "D1:x"]
    assert first["messages"][0] == {
        "session_index": 1, "session_date_time": "1:00 pm on 1 May, 2023", "message_index": 1, "dia_id": "D1:1",
        "speaker": "Ann", "role": "user", "text": "Hi Bob", "images": [], "blip_caption": "", "query": "",
        "has_multimodal_context": False}
    look = first["messages"][1]
    assert (look["role"], look["images"], look["blip_caption"], look["has_multimodal_context"]) == (
        "assistant", ["http://i/1.jpg"], "a dog", True)
    # "D1:x" has no numeric index: the position in the session (5th entry) stands in; a third speaker is a user
    assert (first["messages"][2]["message_index"], first["messages"][2]["role"]) == (5, "user")
    assert second["messages"][0]["images"] == ["http://i/2.jpg"]
    # session 3 has no text, so it ends the conversation and session 4 is never read
    assert (conv["session_count"], conv["message_count"], conv["multimodal_message_count"], conv["image_count"]) == (
        2, 4, 2, 2)
    assert list(conv) == ["sample_id", "conversation_idx", "speaker_a", "speaker_b", "session_count", "message_count",
                          "multimodal_message_count", "image_count", "sessions", "conversation_history_text",
                          "conversation_history_multimodal_text"]


def test_history_texts():
    conv = export.convert(RAW, "raw.json").conversations[0]
    assert conv["conversation_history_text"] == (
        "--- Session 1 started at 1:00 pm on 1 May, 2023 ---\nAnn: Hi Bob\nBob: Look!\nCy: Hello all\n"
        "--- Session 2 started at 2:00 pm on 3 May, 2023 ---\nAnn: Back")
    assert conv["conversation_history_multimodal_text"] == (
        "--- Session 1 started at 1:00 pm on 1 May, 2023 ---\nAnn: Hi Bob\nBob: Look!\n"
        "  [images] http://i/1.jpg\n  [caption] a dog\n  [query] dog\nCy: Hello all\n"
        "--- Session 2 started at 2:00 pm on 3 May, 2023 ---\nAnn: Back\n  [images] http://i/2.jpg")


def test_question_records():
    public = export.convert(RAW, "raw.json")
    q = public.questions
    assert [x["qa_id"] for x in q] == ["s-1#q0000", "s-1#q0002", "s-1#q0003", "s-1#q0004", ]
    assert list(q[0]) == ["qa_id", "sample_id", "conversation_idx", "qa_index", "speaker_a", "speaker_b", "question",
                          "answer", "category", "is_multi_modality", "evidence", "evidence_messages"]
    assert (q[0]["question"], q[0]["answer"], q[0]["category"], q[0]["is_multi_modality"]) == (
        "What did Bob show?", ["a dog"], "1", False)
    # only resolvable evidence is expanded, without the role and date fields
    assert q[0]["evidence_messages"] == [{
        "dia_id": "D1:3", "session_index": 1, "message_index": 3, "speaker": "Bob", "text": "Look!",
        "images": ["http://i/1.jpg"], "blip_caption": "a dog", "query": "dog", "has_multimodal_context": True}]
    assert (q[1]["answer"], q[1]["is_multi_modality"]) == (["2022"], True)
    assert q[2]["answer"] == []  # the adversarial answer is not a gold answer
    assert (q[3]["answer"], q[3]["evidence"], q[3]["evidence_messages"]) == (["a", "b"], ["D4:1"], [])


def test_unnamed_samples_and_manifest():
    public = export.convert(RAW, "raw.json")
    assert [c["sample_id"] for c in public.conversations] == ["s-1", "conversation-0002"]
    assert [c["conversation_idx"] for c in public.conversations] == [0, 2]
    assert public.conversations[1]["sessions"] == [] and public.conversations[1]["conversation_history_text"] == ""
    assert public.manifest() == {
        "dataset_file_name": "raw.json", "conversation_count": 2, "question_count": 4,
        "category_counts": {"1": 1, "2": 1, "4": 1, "5": 1},
        "is_multi_modality_counts": {"false": 3, "true": 1},
        "files": {"conversations": "conversations.jsonl", "questions": "questions.jsonl",
                  "submission_template": "submission_template.jsonl"}}
    assert export.convert(RAW, "raw.json", max_conversations=1).manifest()["conversation_count"] == 1
    assert export.qa_id("  ", 7) == "sample#q0007"


def test_written_files_and_reading_back(tmp_path):
    raw = tmp_path / "raw.json"
    raw.write_text(json.dumps(RAW), encoding="utf-8")
    out = tmp_path / "pub"
    assert main(["export", "--data", str(raw), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "conversations.jsonl", "manifest.json", "questions.jsonl", "submission_template.jsonl"]
    lines = (out / "questions.jsonl").read_text(encoding="utf-8")
    assert lines.endswith("\n") and lines.count("\n") == 4
    assert (out / "submission_template.jsonl").read_text().splitlines()[0] == '{"qa_id": "s-1#q0000", "predicted_answer": ""}'
    assert not (out / "manifest.json").read_text().endswith("\n")
    public = export.read_dataset(raw)
    assert export.load_questions(out / "questions.jsonl") == public.questions
    assert export.load_questions(raw) == public.questions  # a raw dataset is converted on the fly


def test_export_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["export", "--data", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert main(["export", "--data", str(tmp_path / "missing.json"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"error: {bad}: expected a JSON array of LoCoMo samples"
    assert len(err) == 2 and str(tmp_path / "missing.json") in err[1]
    assert not (tmp_path / "o").exists()


def test_export_refuses_a_negative_conversation_count(tmp_path, capsys):
    raw = tmp_path / "raw.json"
    raw.write_text("[]")
    assert main(["export", "--data", str(raw), "--out", str(tmp_path / "o"), "--max-conversations", "-1"]) == 2
    assert capsys.readouterr().err == "error: --max-conversations takes a count of 0 or more, got -1\n"
    assert not (tmp_path / "o").exists()


# -- predict ------------------------------------------------------------------


def test_predict_asks_the_arm_for_every_question_in_order():
    seen = []

    def answer(sample_id, question):
        seen.append((sample_id, question))
        return question.upper()

    questions = export.convert(RAW, "raw.json").questions
    records = predict.predict(questions, answer)
    assert seen == [("s-1", "What did Bob show?"), ("s-1", "Which year?"), ("s-1", "Adversarial?"), ("s-1", "List?")]
    assert records[0] == {"qa_id": "s-1#q0000", "predicted_answer": "WHAT DID BOB SHOW?"}


def test_registered_arm_gets_the_data_argument(tmp_path, monkeypatch):
    got = []
    monkeypatch.setitem(predict._ARMS, "echo", lambda data: got.append(data) or (lambda s, q: f"{s}:{q}"))
    raw = tmp_path / "raw.json"
    raw.write_text(json.dumps(RAW))
    out = tmp_path / "p.jsonl"
    assert main(["predict", "--arm", "echo", "--questions", str(raw), "--data", "DATA", "--out", str(out)]) == 0
    assert got == ["DATA"]
    assert json.loads(out.read_text().splitlines()[1]) == {"qa_id": "s-1#q0002", "predicted_answer": "s-1:Which year?"}


def test_failing_arm_exits_1_and_leaves_the_old_file(tmp_path, monkeypatch, capsys):
    def broken(data):
        def answer(sample_id, question):
            if question == "Which year?":
                raise RuntimeError("reader down")
            return "x"
        return answer

    monkeypatch.setitem(predict._ARMS, "broken", broken)
    monkeypatch.setitem(predict._ARMS, "number", lambda data: (lambda s, q: 7))
    raw = tmp_path / "raw.json"
    raw.write_text(json.dumps(RAW))
    out = tmp_path / "p.jsonl"
    out.write_text("old\n")
    assert main(["predict", "--arm", "broken", "--questions", str(raw), "--out", str(out)]) == 1
    assert main(["predict", "--arm", "number", "--questions", str(raw), "--out", str(out)]) == 1
    assert main(["predict", "--arm", "nope", "--questions", str(raw), "--out", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "error: the arm failed on s-1#q0002: RuntimeError: reader down"
    assert "int, not a string" in err[1] and "unknown arm 'nope'" in err[2]
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl", "raw.json"]


# -- locomo10, end to end -----------------------------------------------------


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.slow
def test_locomo10_export_predict_score(tmp_path, monkeypatch, capsys):
    pub = tmp_path / "pub"
    assert main(["export", "--data", str(data_path()), "--out", str(pub)]) == 0
    manifest = json.loads((pub / "manifest.json").read_text())
    assert (manifest["conversation_count"], manifest["question_count"]) == (10, 1986)
    assert manifest["category_counts"] == {"1": 282, "2": 321, "3": 96, "4": 841, "5": 446}
    # locomo10 has no per-question multimodality flag, so every question is text-only
    assert manifest["is_multi_modality_counts"] == {"false": 1986, "true": 0}

    questions = read_jsonl(pub / "questions.jsonl")
    first = questions[0]
    assert (first["qa_id"], first["answer"], first["category"], first["evidence"]) == (
        "conv-26#q0000", ["7 May 2023"], "2", ["D1:3"])
    assert first["evidence_messages"][0]["text"] == "I went to a LGBTQ support group yesterday and it was so powerful."
    assert questions[-1]["qa_id"] == "conv-50#q%04d" % (sum(q["sample_id"] == "conv-50" for q in questions) - 1)
    assert sum(not q["answer"] for q in questions) == 444
    conversations = read_jsonl(pub / "conversations.jsonl")
    assert sum(c["message_count"] for c in conversations) == 5882
    raw = json.loads(data_path().read_text())
    urls = sum(len(t.get("img_url") or []) for s in raw for k, v in s["conversation"].items()
               if k.startswith("session_") and isinstance(v, list) for t in v)
    assert sum(c["image_count"] for c in conversations) == urls
    assert conversations[0]["conversation_history_text"].startswith(
        "--- Session 1 started at 1:56 pm on 8 May, 2023 ---\nCaroline: Hey Mel!")

    # the abstaining arm: every prediction present, each scored against the golds
    preds = tmp_path / "abstain.jsonl"
    assert main(["predict", "--arm", "abstain", "--questions", str(pub / "questions.jsonl"), "--out", str(preds)]) == 0
    assert read_jsonl(preds)[0] == {"qa_id": "conv-26#q0000", "predicted_answer": DECLINE}
    assert main(["score", "--questions", str(pub / "questions.jsonl"), "--predictions", str(preds)]) == 0
    summary = json.loads((tmp_path / "abstain_scored_summary.json").read_text())
    assert summary["record_count"] == 1986 and summary["overall"]["metrics"]["f1_score"]["missing_count"] == 0
    assert 0 < summary["overall"]["f1_score"] < 0.01
    assert list(summary["by_conversations"])[:3] == ["0", "1", "2"]

    # an arm that answers the first gold answer, with 100 predictions then removed
    # (a few questions repeat within a conversation, so each asking takes the next answer in order)
    gold: dict[tuple[str, str], list[str]] = {}
    for q in questions:
        gold.setdefault((q["sample_id"], q["question"]), []).append((q["answer"] or [""])[0])
    monkeypatch.setitem(predict._ARMS, "gold", lambda data: (lambda s, q: gold[(s, q)].pop(0)))
    preds = tmp_path / "gold.jsonl"
    assert main(["predict", "--arm", "gold", "--questions", str(pub / "questions.jsonl"), "--out", str(preds)]) == 0
    kept = [r for r in read_jsonl(preds) if not r["qa_id"].endswith(("#q0000", "#q0001"))]
    dropped = 1986 - len(kept)
    dropped_with_gold = sum(1 for q in questions if q["qa_id"].endswith(("#q0000", "#q0001")) and q["answer"])
    preds.write_text("".join(json.dumps(r) + "\n" for r in kept))
    capsys.readouterr()
    assert main(["score", "--predictions", str(preds), "--data", str(data_path())]) == 0  # questions exported on the fly
    summary = json.loads((tmp_path / "gold_scored_summary.json").read_text())
    assert summary["record_count"] == 1986 and dropped == 20
    # a missing prediction scores 0 when there is a gold answer (and 1 when there is none: reference quirk)
    assert summary["overall"]["f1_score"] == pytest.approx((1986 - dropped_with_gold) / 1986, rel=1e-12)
    assert summary["overall"]["bleu_score"] == summary["overall"]["f1_score"]
    scored = read_jsonl(tmp_path / "gold_scored.jsonl")
    missing = [r for r in scored if not r["prediction_found"]]
    assert len(missing) == dropped and all(r["errors"][0]["error_code"] == "MISSING_PREDICTION" for r in missing)
