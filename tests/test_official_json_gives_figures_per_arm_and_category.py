"""locomo-repro official FILE --json: n, official F1, recall, judge and mem0's F1/BLEU-1 per arm and category.

The file is made up here (questions, answers and replies are invented; the official scorer does not look
questions up in the dataset)."""

from __future__ import annotations

import json

import pytest

from locomo_repro.score import mem0
from locomo_repro.score.crosscheck import main


def qa(category, answer, reply, **extra):
    return {"question": "q?", "answer": answer, "category": category, "evidence": ["D1:1"], "a_prediction": reply,
            **extra}


@pytest.fixture
def made_up(tmp_path):
    path = tmp_path / "answers.json"
    path.write_text(json.dumps([
        {"sample_id": "s1", "qa": [
            qa(4, "red apple", "a red apple", a_judge=1),
            qa(4, "blue", "green", a_judge=0),
            qa(2, "7 May 2023", "May 7, 2023"),
        ]},
    ]))
    return path


def figures(path, capsys, *flags):
    assert main([str(path), "--json", "--kit", *flags]) == 0
    return json.loads(capsys.readouterr().out)[str(path)]


def test_every_category_and_overall_has_the_six_figures(made_up, capsys):
    arm = figures(made_up, capsys)["a"]
    assert list(arm) == ["1", "2", "3", "4", "5", "overall"]
    assert [arm[k]["name"] for k in "12345"] == ["multi hop", "temporal", "open domain", "single hop", "adversarial"]
    assert [arm[k]["n"] for k in [*"12345", "overall"]] == [0, 1, 0, 2, 0, 3]
    assert arm["1"] == {"name": "multi hop", "n": 0, "f1": None, "recall": None, "judge": None,
                        "mem0_f1": None, "mem0_bleu": None}


def test_recall_is_absent_without_contexts_and_judge_counts_only_the_verdicts_given(made_up, capsys):
    arm = figures(made_up, capsys)["a"]
    assert arm["overall"]["recall"] is None and arm["4"]["recall"] is None
    assert arm["4"]["judge"] == 0.5 and arm["2"]["judge"] is None and arm["overall"]["judge"] == 0.5


def test_mem0_figures_are_the_means_of_the_harness_metric(made_up, capsys):
    arm = figures(made_up, capsys)["a"]
    pairs = [("a red apple", "red apple"), ("green", "blue")]
    assert arm["4"]["mem0_f1"] == sum(mem0.token_f1(r, g) for r, g in pairs) / 2
    assert arm["4"]["mem0_bleu"] == sum(mem0.bleu1(r, g) for r, g in pairs) / 2
    # mem0 keeps the article: {a, red, apple} against {red, apple} is 0.8; the official F1 drops it: 1.0
    assert arm["4"]["mem0_f1"] == (0.8 + 0.0) / 2 and arm["4"]["f1"] == (1.0 + 0.0) / 2


def test_a_file_with_contexts_has_a_recall(tmp_path, capsys):
    path = tmp_path / "ctx.json"
    path.write_text(json.dumps([{"sample_id": "s", "qa": [
        qa(4, "x", "x", a_prediction_context=["D1:1"]), qa(4, "y", "y", a_prediction_context=["D9:9"])]}]))
    assert figures(path, capsys)["a"]["4"]["recall"] == 0.5


def test_the_official_scorer_gives_the_same_f1_as_the_kit_on_a_made_up_file(made_up, capsys, official_scorer):
    kit = figures(made_up, capsys)["a"]
    assert main([str(made_up), "--json"]) == 0
    official = json.loads(capsys.readouterr().out)[str(made_up)]["a"]
    assert {k: v["f1"] for k, v in official.items()} == {k: v["f1"] for k, v in kit.items()}
