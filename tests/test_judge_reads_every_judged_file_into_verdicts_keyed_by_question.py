"""Every judged file the kit meets becomes verdicts keyed by (conversation id, question index): mem0's
harness, zep-papers' responses and grades, Backboard's folder, locomo-audit's eval_results (three repeats),
LoCoMo-Plus's judged file (with its Cognitive items kept apart) and Refined's judge output.

The files are made here from the dataset the kit is pointed at (no dataset text is kept in tests/): the
question texts come from locomo10, the replies and verdicts are made up, the verdict of question i is
i % 2 (LoCoMo-Plus: correct, partial, wrong in turn)."""

from __future__ import annotations

import json

import pytest

from locomo_repro.judge import files


@pytest.fixture(scope="module")
def asked(samples):
    """(sample position, question position, question) of the first two conversations' answerable questions."""
    return [(a, i, q) for a, s in enumerate(samples[:2]) for i, q in enumerate(s.questions) if q.category != 5]


def keyed(judged: files.Judged) -> dict[tuple[str, int, int], float | None]:
    return {(v.sample_id, v.qa, v.repeat): v.score for v in judged.verdicts}


def expected(samples, asked, repeats: int = 1) -> dict[tuple[str, int, int], float]:
    return {(samples[a].id, i, r): float(i % 2) for a, i, _ in asked for r in range(repeats)}


def test_mem0s_harness(tmp_path, samples, asked):
    data: dict[str, list] = {}
    for a, i, q in asked:
        data.setdefault(str(a), []).append({"question": q.text, "answer": "g", "response": f"r{i}",
                                            "category": str(q.category), "llm_score": i % 2})
    (tmp_path / "m.json").write_text(json.dumps(data))
    judged = files.read(str(tmp_path / "m.json"), lambda: samples)
    assert judged.shape == "mem0" and keyed(judged) == expected(samples, asked)
    assert {v.judge for v in judged.verdicts} == {"mem0"}


def test_zeps_responses_with_the_grades_beside_them(tmp_path, samples, asked):
    responses: dict[str, list] = {}
    grades: dict[str, list] = {}
    for a, i, q in asked:
        key = f"locomo_experiment_user_{a}"
        responses.setdefault(key, []).append({"question": q.text, "answer": f"r{i}", "golden_answer": "g"})
        grades.setdefault(key, []).append({"question": q.text, "answer": f"r{i}", "golden_answer": "g",
                                           "grade": bool(i % 2), "category": q.category})
    (tmp_path / "zep_responses.json").write_text(json.dumps(responses))
    (tmp_path / "zep_grades.json").write_text(json.dumps(grades))
    judged = files.read(str(tmp_path / "zep_responses.json"), lambda: samples)
    assert judged.shape == "zep" and keyed(judged) == expected(samples, asked)
    assert judged.verdicts[1].reply == f"r{asked[1][1]}"


def test_backboards_folder_of_conversations(tmp_path, samples, asked):
    for a in (0, 1):
        responses = [{"question": q.text, "ai_response": f"r{i}", "category": q.category,
                      "evaluation": {"is_correct": bool(i % 2)}} for at, i, q in asked if at == a]
        (tmp_path / f"locomo_conversation_{a + 1}.json").write_text(json.dumps(
            {"conversation_id": samples[a].id, "responses": responses}))
    judged = files.read(str(tmp_path), lambda: samples)
    assert judged.shape == "backboard" and keyed(judged) == expected(samples, asked)


def test_locomo_audits_three_repeats(tmp_path, samples, asked):
    results: dict[str, list] = {}
    for a, i, q in asked:
        results.setdefault(f"locomo_exp_user_{a}", []).append({
            "question_id": f"locomo_{a}_qa{i}", "question": q.text, "golden_answer": "g", "generated_answer": f"r{i}",
            "llm_judgments": {f"judgment_{k}": bool(i % 2) for k in (1, 2, 3)}, "category": str(q.category)})
    path = tmp_path / "run" / "eval_results.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"correct": 7, "accuracy": 0.5, "detailed_results": results,
                                "metadata": {"judge_model": "gpt-4o-mini"}}))
    judged = files.read(str(path), lambda: samples)
    assert judged.shape == "audit" and keyed(judged) == expected(samples, asked, repeats=3)
    assert judged.stated == {"correct": 7.0, "accuracy": 0.5}
    assert {(v.arm, v.model, v.gold) for v in judged.verdicts} == {("run", "gpt-4o-mini", "g")}


def test_locomo_plus_in_the_datasets_order_with_its_cognitive_items_apart(tmp_path, samples):
    first = samples[0].questions[:4]
    labels = ["correct", "partial", "wrong", "correct"]
    items = [{"question_input": q.text, "category": {1: "multi-hop", 2: "temporal", 3: "common-sense",
                                                      4: "single-hop", 5: "adversarial"}[q.category],
              "ground_truth": "g", "prediction": f"r{i}", "model": "m", "judge_label": label,
              "judge_reason": "because", "judge_score": 9} for i, (q, label) in enumerate(zip(first, labels))]
    items.append({"question_input": "A: a trigger", "category": "Cognitive", "ground_truth": "a cue",
                  "prediction": "r", "model": "m", "judge_label": "wrong", "judge_reason": "no", "time_gap": "later"})
    (tmp_path / "judged.json").write_text(json.dumps(items))
    judged = files.read(str(tmp_path / "judged.json"), lambda: samples)
    assert judged.shape == "locomo-plus"
    assert [(v.sample_id, v.qa, v.category, v.score) for v in judged.verdicts] == [
        *[(samples[0].id, i, q.category, s) for i, (q, s) in enumerate(zip(first, (1.0, 0.5, 0.0, 1.0)))],
        (files.PLUS_SAMPLE, 0, 6, 0.0)]
    assert files.NAMES[6] == "cognitive"


def test_refineds_judge_output(tmp_path, samples, asked):
    lines = [json.dumps({"qa_id": f"{samples[a].id}#q{i:04d}", "question": q.text, "answer": ["g"],
                         "predicted_answer": f"r{i}", "matched_answer": "g", "llm_judge": "refined",
                         "llm_score": float(i % 2), "llm_reason": "llm_judge_refined"}) for a, i, q in asked]
    (tmp_path / "p_scored.jsonl").write_text("\n".join(lines) + "\n")
    judged = files.read(str(tmp_path / "p_scored.jsonl"), lambda: samples)
    assert judged.shape == "refined" and keyed(judged) == expected(samples, asked)
    assert {v.judge for v in judged.verdicts} == {"refined"}


def test_the_kits_own_file_needs_no_dataset(tmp_path):
    from judged_files import verdict, write

    path = write(tmp_path / "kit.json", [verdict("x", 3, 2, 0.5)])
    judged = files.read(str(path), lambda: pytest.fail("the kit's file names its questions"))
    assert judged.shape == "kit" and keyed(judged) == {("x", 3, 0): 0.5}


def test_an_imported_file_keeps_its_systems_verdicts_and_pairs_with_the_original(tmp_path, samples, asked, capsys):
    from judged_files import cell, stats

    from locomo_repro.judge.__main__ import main
    from locomo_repro.peers.__main__ import main as peers

    data: dict[str, list] = {}
    for a, i, q in asked:
        data.setdefault(str(a), []).append({"question": q.text, "answer": "g", "response": f"r{i}",
                                            "category": str(q.category), "llm_score": i % 2})
    (tmp_path / "m.json").write_text(json.dumps(data))
    assert peers(["import", "--arm", f"sys={tmp_path / 'm.json'}", "-out", str(tmp_path / "imported.json")]) == 0
    judged = files.read(str(tmp_path / "imported.json"), lambda: samples)
    assert judged.shape == "official" and keyed(judged) == expected(samples, asked)
    assert {v.arm for v in judged.verdicts} == {"sys"}
    table = stats(capsys, main, str(tmp_path / "m.json"), str(tmp_path / "imported.json"))
    agreement = cell(table, "agreement", "overall")
    assert (agreement["n"], agreement["value"]) == (len(asked), 1.0)
    assert cell(table, "J difference", "overall")["value"] == 0.0
