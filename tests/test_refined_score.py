"""refined.score and refined.summary: clean-up, best-of candidates, merging, summaries, the score command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from locomo_repro.refined import score, summary
from locomo_repro.refined.__main__ import main
from locomo_repro.refined.files import InputError

LEX = frozenset({"f1", "bleu"})
ALL = frozenset({"llm", "f1", "bleu"})


# -- prediction clean-up ------------------------------------------------------


@pytest.mark.parametrize("raw, cleaned", [
    ("  Paris  ", "Paris"),
    ("so \\boxed{42}.", "42"),
    ("\\boxed{1} then \\boxed{ 2 }", "2"),
    ("\\boxed{\\frac{1}{2}}", "\\frac{1}{2}"),
    ("\\boxed{never closed", "never closed"),
    ("\\box{short form}", "short form"),
    ("Final answer: \\boxed{7}", "7"),
    ("\\boxed{}", ""),
    ("We reason... FINAL ANSWER:  Paris", "Paris"),
    ("<think>hmm</think>  Paris", "Paris"),
    ("final answer: <think>x</think> y", "y"),
    # the first "final answer:" wins, even inside the thinking; then the text after </think>
    ("<think>final answer: no</think>Final answer: yes", "Final answer: yes"),
    ("no markers at all", "no markers at all"),
])
def test_clean_prediction(raw, cleaned):
    assert score.clean_prediction(raw) == cleaned


def test_clean_prediction_keeps_the_reference_index_drift():
    # "İ".lower() is two characters, so the index found in the lowercased text lands two
    # characters late in the original: "ab" is lost, as in the reference.
    assert score.clean_prediction("İİ final answer:ab") == ""
    assert score.clean_prediction("II final answer:ab") == "ab"


# -- candidates and the best-of rule -----------------------------------------


def test_candidates():
    assert score.candidates(["a", "", None, "b"]) == ["a", "b"]
    assert score.candidates("x") == ["x"]
    assert score.candidates(2022) == ["2022"]
    assert score.candidates([]) == [""]
    assert score.candidates(None) == [""]


def test_best_candidate_by_f1_when_no_judge():
    matched, scores = score.best_candidate("When?", "in May 2023", ["7 May 2023", "May 2023"], LEX)
    assert matched == "May 2023"
    # [in may 2023] vs [may 2023]: P=2/3, R=1
    assert scores == {"f1_score": pytest.approx(0.8, rel=1e-15), "bleu_score": 2 / 3}
    assert list(scores) == ["f1_score", "bleu_score"]


def test_the_judge_outranks_f1_and_every_candidate_is_judged():
    calls = []

    def judge(question, gold, prediction):
        calls.append(gold)
        return 1.0 if gold == "7 May 2023" else 0.0

    matched, scores = score.best_candidate("When?", "in May 2023", ["7 May 2023", "May 2023"], ALL, judge)
    assert matched == "7 May 2023"
    assert calls == ["7 May 2023", "May 2023"]
    assert list(scores) == ["llm_score", "llm_reason", "f1_score", "bleu_score"]
    assert scores["llm_score"] == 1.0 and scores["llm_reason"] == "llm_judge_refined"
    # the lexical scores are the matched candidate's: [in may 2023] vs [7 may 2023]
    assert scores["f1_score"] == pytest.approx(2 / 3, rel=1e-15)


def test_ties_keep_the_first_candidate():
    matched, _ = score.best_candidate("q", "blue", ["red", "green"], LEX)
    assert matched == "red"


def never(*args):
    raise AssertionError("the judge must not be asked")


def test_exact_match_scores_one_without_the_judge():
    matched, scores = score.best_candidate("q", "May 2023", ["7 May", "May 2023"], ALL, never)
    assert matched == "May 2023"
    assert scores["llm_score"] == scores["f1_score"] == scores["bleu_score"] == 1.0


def test_empty_prediction_scores_zero_against_the_first_non_empty_gold():
    matched, scores = score.best_candidate("q", "", ["Paris", "France"], ALL, never)
    assert matched == "Paris"
    assert scores["llm_score"] == scores["f1_score"] == scores["bleu_score"] == 0.0


def test_no_gold_answer_scores_zero_for_an_answer_and_one_for_silence():
    matched, scores = score.best_candidate("q", "something", [""], ALL, never)
    assert (matched, scores["f1_score"], scores["llm_reason"]) == ("", 0.0, "")
    # reference quirk: [""] equals an empty prediction exactly
    _, scores = score.best_candidate("q", "", [""], ALL, never)
    assert scores["f1_score"] == 1.0


def test_score_record_fields():
    record = {"qa_id": "s#q0000", "question": "Where?", "answer": ["Paris"], "predicted_answer": "x</think>Paris!"}
    out = score.score_record(record, LEX)
    assert out["response"] == "Paris!"
    assert out["ori_response"] == "x</think>Paris!"
    assert out["matched_answer"] == "Paris"
    assert out["f1_score"] == pytest.approx(2 / 3, rel=1e-15)
    assert list(out)[:4] == ["qa_id", "question", "answer", "predicted_answer"]
    plain = score.score_record({**record, "predicted_answer": "Paris"}, LEX)
    assert "ori_response" not in plain and plain["f1_score"] == 1.0


def test_metric_set():
    assert score.metric_set(["f1,BLEU"]) == LEX
    assert score.metric_set(["all"]) == ALL
    with pytest.raises(ValueError, match="rouge"):
        score.metric_set(["f1", "rouge"])


# -- predictions: index and merge --------------------------------------------

QUESTIONS = [
    {"qa_id": "s#q0000", "conversation_idx": 0, "qa_index": 0, "question": "a?", "answer": ["one"],
     "category": "1", "is_multi_modality": False},
    {"qa_id": "s#q0001", "conversation_idx": 0, "qa_index": 1, "question": "b?", "answer": ["two"],
     "category": "2", "is_multi_modality": True},
]


def test_index_predictions_by_id_or_by_position():
    found = score.index_predictions(
        [{"qa_id": " s#q0000 ", "predicted_answer": "1"}, {"conversation_idx": "0", "qa_index": 1.0, "response": "2"}],
        QUESTIONS)
    assert sorted(found) == ["s#q0000", "s#q0001"]
    assert found["s#q0001"]["response"] == "2"


@pytest.mark.parametrize("records, message", [
    ([{"qa_id": "s#q0000"}, {"qa_id": "s#q0000"}], "duplicate prediction for qa_id s#q0000"),
    ([{"qa_id": "s#q0009"}], "not among the questions (s#q0009)"),
    ([{"predicted_answer": "x"}], "neither qa_id nor"),
    ([{"conversation_idx": 3, "qa_index": 0}], "names no known question"),
])
def test_index_predictions_errors(records, message):
    with pytest.raises(InputError, match="p.jsonl: ") as caught:
        score.index_predictions(records, QUESTIONS, source="p.jsonl")
    assert message in str(caught.value)


def test_extra_predictions_are_dropped_when_allowed_but_duplicates_never_are():
    found = score.index_predictions([{"qa_id": "zzz"}, {"conversation_idx": 9, "qa_index": 9}, {"qa_id": "s#q0001"}],
                                    QUESTIONS, allow_extra=True)
    assert list(found) == ["s#q0001"]
    with pytest.raises(InputError, match="duplicate"):
        score.index_predictions([{"qa_id": "s#q0001"}, {"qa_id": "s#q0001"}], QUESTIONS, allow_extra=True)


def test_missing_prediction_scores_zero_and_stays_counted():
    merged = score.merge(QUESTIONS, {"s#q0000": {"qa_id": "s#q0000", "predicted_answer": " one "}}, "refined")
    assert merged[0]["predicted_answer"] == "one" and merged[0]["errors"] == []
    assert merged[1]["prediction_found"] is False and merged[1]["success"] is False
    assert merged[1]["errors"][0]["error_code"] == "MISSING_PREDICTION"
    assert all(m["llm_judge"] == "refined" for m in merged)
    scored = score.score_records(merged, LEX)
    assert [s["f1_score"] for s in scored] == [1.0, 0.0]
    result = summary.summarize(scored)
    assert result["overall"]["count"] == 2 and result["overall"]["f1_score"] == 0.5


# -- summaries ----------------------------------------------------------------


def rec(conv, cat, f1, modal=False, **extra):
    return {"conversation_idx": conv, "category": cat, "f1_score": f1, "is_multi_modality": modal,
            "llm_judge": "refined", **extra}


def test_summary_groups_sort_by_their_string_keys():
    rows = [rec(10, "2", 1.0), rec(2, "10", 0.0), rec(2, "2", 0.5, True), rec(None, "2", 0.25)]
    s = summary.summarize(rows)
    assert list(s) == ["metric_fields", "overall", "by_category", "by_conversations", "primary_metric",
                       "record_count", "by_is_multi_modality", "metadata"]
    assert list(s["by_category"]) == ["10", "2"]
    assert list(s["by_conversations"]) == ["10", "2"]  # the record without a conversation is left out
    assert s["by_category"]["2"]["f1_score"] == pytest.approx((1.0 + 0.5 + 0.25) / 3)
    assert s["by_conversations"]["2"]["by_category"]["10"]["count"] == 1
    assert s["by_is_multi_modality"]["multimodal_available"]["f1_score"] == 0.5
    assert s["by_is_multi_modality"]["text_only"]["count"] == 3
    assert s["metadata"] == {"llm_judge": "refined", "text_only_count": 3, "multimodal_available_count": 1}
    assert s["primary_metric"] == "f1_score" and s["record_count"] == 4


def test_group_statistics_and_missing_values():
    rows = [rec(0, "1", 0.5, llm_score=True), rec(0, "1", 1.0), {"conversation_idx": 0, "category": "1"}]
    s = summary.summarize(rows)
    assert s["metric_fields"] == ["llm_score", "f1_score"]  # a boolean is a number, as in the reference
    overall = s["overall"]
    assert list(overall) == ["count", "metrics", "llm_score", "f1_score"]
    assert overall["metrics"]["f1_score"] == {"count": 2, "missing_count": 1, "mean": 0.75, "min": 0.5, "max": 1.0}
    assert overall["metrics"]["llm_score"]["missing_count"] == 2
    assert s["primary_metric"] == "llm_score"
    empty = summary.summarize([])
    assert empty["overall"] == {"count": 0, "metrics": {}} and empty["primary_metric"] == ""


def test_markdown_shape():
    s = summary.summarize([rec(0, "1", 0.5, bleu_score=0.25), rec(0, "2", 1.0, bleu_score=1.0)])
    assert summary.markdown(s) == (
        "# Score Summary\n\n## Overall\n\n- Count: 2\n\n"
        "| Metric | Mean | Count | Missing | Min | Max |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: |\n"
        "| f1_score | 0.7500 | 2 | 0 | 0.5000 | 1.0000 |\n"
        "| bleu_score | 0.6250 | 2 | 0 | 0.2500 | 1.0000 |\n\n"
        "## By Category\n\n"
        "| Category | Count | f1_score | bleu_score |\n"
        "| --- | ---: | ---: | ---: |\n"
        "| 1 | 1 | 0.5000 | 0.2500 |\n"
        "| 2 | 1 | 1.0000 | 1.0000 |\n")


# -- the score command --------------------------------------------------------


def write_lines(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def qfile(tmp_path):
    return write_lines(tmp_path / "questions.jsonl", QUESTIONS)


def test_score_command_writes_three_files_in_refined_shapes(tmp_path, qfile, capsys):
    preds = write_lines(tmp_path / "preds.jsonl", [{"qa_id": "s#q0000", "predicted_answer": "one"},
                                                   {"qa_id": "s#q0001", "predicted_answer": "\\boxed{two}"}])
    assert main(["score", "--questions", str(qfile), "--predictions", str(preds)]) == 0
    scored = [json.loads(line) for line in (tmp_path / "preds_scored.jsonl").read_text().splitlines()]
    assert [r["f1_score"] for r in scored] == [1.0, 1.0]
    assert scored[1]["ori_response"] == "\\boxed{two}"
    saved = json.loads((tmp_path / "preds_scored_summary.json").read_text())
    assert saved == summary.summarize(scored, saved["metadata"]["signature"])
    assert saved["metadata"]["signature"].startswith("locomo-repro:")
    assert (tmp_path / "preds_scored_summary.md").read_text() == summary.markdown(saved)
    assert json.loads(capsys.readouterr().out)["overall"] == {"f1_score": 1.0, "bleu_score": 1.0}


def test_score_command_json_predictions_give_json_output(tmp_path, qfile):
    preds = tmp_path / "preds.json"
    preds.write_text(json.dumps([{"qa_id": "s#q0000", "predicted_answer": "one"}]))
    out = tmp_path / "deep" / "scored.json"
    assert main(["score", "--questions", str(qfile), "--predictions", str(preds), "--out", str(out)]) == 0
    assert [r["qa_id"] for r in json.loads(out.read_text())] == ["s#q0000", "s#q0001"]
    assert (tmp_path / "deep" / "scored_summary.json").exists()


@pytest.mark.parametrize("lines, message", [
    ('{"qa_id": "s#q0000"}\n{"qa_id": "s#q0000"}\n', "duplicate prediction for qa_id s#q0000"),
    ('{"qa_id": "nope"}\n', "not among the questions"),
    ('{"qa_id": "s#q0000"}\n{oops\n', "line 2: not JSON"),
])
def test_score_command_bad_predictions_exit_2_with_one_line_and_no_output(tmp_path, qfile, capsys, lines, message):
    preds = tmp_path / "preds.jsonl"
    preds.write_text(lines)
    assert main(["score", "--questions", str(qfile), "--predictions", str(preds)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(preds) in err and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["preds.jsonl", "questions.jsonl"]


def test_score_command_allows_extra_predictions_on_request(tmp_path, qfile):
    preds = write_lines(tmp_path / "preds.jsonl", [{"qa_id": "nope"}, {"qa_id": "s#q0001", "predicted_answer": "two"}])
    assert main(["score", "--questions", str(qfile), "--predictions", str(preds), "--allow-extra-predictions"]) == 0
    s = json.loads((tmp_path / "preds_scored_summary.json").read_text())
    assert s["overall"]["f1_score"] == 0.5


def test_score_command_refuses_the_llm_metric_and_missing_files(tmp_path, qfile, capsys):
    preds = write_lines(tmp_path / "preds.jsonl", [])
    assert main(["score", "--questions", str(qfile), "--predictions", str(preds), "--metrics", "llm"]) == 2
    assert main(["score", "--questions", str(tmp_path / "none.jsonl"), "--predictions", str(preds)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "judge subcommand" in err[0] and err[1] == f"error: {tmp_path / 'none.jsonl'}: cannot read: No such file or directory"


def test_means_are_plain_left_to_right_sums():
    values = [0.1, 0.2, 0.3, 1e-17, 0.7]
    rows = [rec(0, "1", v) for v in values]
    total = 0.0
    for v in values:
        total += v
    assert summary.summarize(rows)["overall"]["f1_score"] == total / 5
    assert not math.isnan(total)
