"""peers import: every format a system publishes becomes one official-shape file matched to locomo10.

The fixtures are built at test time from the dataset the kit is pointed at (no dataset text is kept in
tests/): the question texts come from locomo10, the replies, labels and verdicts are made up here.
"""

from __future__ import annotations

import json

import pytest

from refused import one_line
from locomo_repro import cli
from locomo_repro.peers.__main__ import main

SAMPLES = 2  # the fixtures answer questions of the first two conversations


@pytest.fixture(scope="module")
def asked(samples):
    """(sample position, question position, question) of the answerable questions of the first conversations."""
    return [(a, i, q) for a, s in enumerate(samples[:SAMPLES]) for i, q in enumerate(s.questions) if q.category != 5]


def reply(a: int, i: int) -> str:
    return f"made-up reply {a}/{i}"


def mem0_file(asked, key=lambda a: str(a)) -> dict:
    out: dict[str, list] = {}
    for a, i, q in asked:
        out.setdefault(key(a), []).append({
            "question": q.text, "answer": "not the gold", "response": reply(a, i), "category": str(q.category),
            "bleu_score": 0.25, "f1_score": 0.5, "llm_score": i % 2,
        })
    return out


def run(tmp_path, *arms: str, extra=()) -> tuple[int, list[dict] | None]:
    out = tmp_path / "out.json"
    code = main(["import", *[x for arm in arms for x in ("--arm", arm)], "-out", str(out), *extra])
    return code, json.loads(out.read_text()) if out.exists() else None


def answered(data: list[dict], arm: str) -> dict[tuple[str, str], dict]:
    return {(s["sample_id"], qa["question"] + "|" + qa[f"{arm}_prediction"]): qa for s in data for qa in s["qa"]}


def test_mem0_file_keyed_by_position_takes_gold_and_category_from_locomo10(tmp_path, samples, asked, capsys):
    path = tmp_path / "mem0.json"
    path.write_text(json.dumps(mem0_file(asked)))
    code, data = run(tmp_path, f"sys={path}")
    assert code == 0
    qas = [qa for s in data for qa in s["qa"]]
    assert len(qas) == len(asked)
    for qa, (a, i, q) in zip(qas, asked):
        assert qa["sys_prediction"] == reply(a, i)
        assert (qa["answer"], qa["category"], qa["evidence"]) == (q.answer, q.category, list(q.evidence))
        assert qa["sys_judge"] == i % 2 and qa["sys_f1_score"] == 0.5 and qa["sys_bleu_score"] == 0.25
        assert "sys_prediction_context" not in qa
    line = capsys.readouterr().err
    assert f"{len(asked)} of {len(asked)} replies matched" in line
    assert "categories absent: 5 adversarial" in line and "lacks: contexts, confidences" in line


def test_conv_keys_name_the_position_and_sample_ids_name_the_sample(tmp_path, samples, asked):
    by_conv = tmp_path / "conv.json"
    by_conv.write_text(json.dumps(mem0_file(asked, key=lambda a: f"conv_{a}")))
    by_id = tmp_path / "ids.json"
    by_id.write_text(json.dumps(mem0_file(asked, key=lambda a: samples[a].id)))
    first, second = run(tmp_path, f"a={by_conv}")[1], run(tmp_path, f"a={by_id}")[1]
    assert first == second and [s["sample_id"] for s in first] == [s.id for s in samples[:SAMPLES]]


def zep_files(tmp_path, asked, shuffle_grades=False):
    responses, grades = {}, {}
    for a, i, q in asked:
        key = f"locomo_experiment_user_{a}"
        responses.setdefault(key, []).append({"question": q.text, "answer": reply(a, i), "golden_answer": "x"})
        grades.setdefault(key, []).append({"question": q.text, "answer": reply(a, i), "golden_answer": "x",
                                           "grade": i % 3 == 0, "category": q.category})
    if shuffle_grades:
        grades["locomo_experiment_user_0"].reverse()
    (tmp_path / "sys_responses.json").write_text(json.dumps(responses))
    (tmp_path / "sys_grades.json").write_text(json.dumps(grades))
    return tmp_path / "sys_responses.json", tmp_path / "sys_grades.json"


def test_zep_responses_find_their_grades_beside_them_or_by_a_comma(tmp_path, asked):
    responses, grades = zep_files(tmp_path, asked)
    code, beside = run(tmp_path, f"zep={responses}")
    assert code == 0
    code, named = run(tmp_path, f"zep={responses},{grades}")
    assert code == 0 and named == beside
    qas = [qa for s in beside for qa in s["qa"]]
    assert [qa["zep_judge"] for qa in qas] == [int(i % 3 == 0) for _, i, _ in asked]
    assert [qa["zep_prediction"] for qa in qas] == [reply(a, i) for a, i, _ in asked]


def test_zep_grades_out_of_order_are_one_line_and_exit_2(tmp_path, asked, capsys):
    responses, grades = zep_files(tmp_path, asked, shuffle_grades=True)
    code, data = run(tmp_path, f"zep={responses}")
    err = capsys.readouterr().err
    assert code == 2 and data is None
    assert err.count("\n") == 1 and str(grades) in err


def test_backboard_folder_reads_each_doubled_record_once_and_reports_the_category_names(tmp_path, samples, asked,
                                                                                       capsys):
    folder = tmp_path / "bb"
    folder.mkdir()
    for a in range(SAMPLES):
        records = [{"category": q.category, "question_type": "single_hop" if q.category == 1 else "whatever",
                    "question": q.text, "ai_response": reply(b, i), "evaluation": {"is_correct": True}}
                   for b, i, q in asked if b == a]
        (folder / f"conv_{a}.json").write_text(json.dumps({
            "conversation_id": samples[a].id, "total": len(records),
            "by_type": {"all": {"responses": records}}, "responses": records}))
    code, data = run(tmp_path, f"bb={folder}")
    assert code == 0 and sum(len(s["qa"]) for s in data) == len(asked)
    err = capsys.readouterr().err
    ones = sum(q.category == 1 for _, _, q in asked)
    assert f"{ones}x calls category 1 'single_hop' (official: multi hop)" in err
    code, globbed = run(tmp_path, f"bb={folder}/conv_*.json")
    assert code == 0 and globbed == data


def test_normalised_text_matches_and_repeated_texts_pair_in_order(tmp_path, samples):
    at, text = next((a, q.text) for a, s in enumerate(samples) for i, q in enumerate(s.questions)
                    if sum(p.text == q.text for p in s.questions) > 1)
    positions = [i for i, q in enumerate(samples[at].questions) if q.text == text]
    loud = "  " + text.upper().replace(" ", "   ") + " "
    path = tmp_path / "rep.json"
    path.write_text(json.dumps({str(at): [
        {"question": text, "response": "first", "category": "1"},
        {"question": loud, "response": "second", "category": "1"},
    ]}))
    code, data = run(tmp_path, f"r={path}")
    assert code == 0
    got = [qa["r_prediction"] for qa in data[0]["qa"]]
    assert got == ["first", "second"]
    assert data[0]["qa"][0]["answer"] == samples[at].questions[positions[0]].answer
    assert data[0]["qa"][1]["answer"] == samples[at].questions[positions[1]].answer


def test_an_unmatched_question_is_one_line_naming_the_file_and_nothing_is_written(tmp_path, asked, capsys):
    bad = mem0_file(asked)
    bad["0"][3]["question"] = "What is a question locomo10 never asked?"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    code, data = run(tmp_path, f"s={path}")
    err = capsys.readouterr().err
    assert code == 2 and data is None and err.count("\n") == 1
    assert str(path) in err and "never asked" in err
    assert list(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("key", ["{n}", "conv_{n}", "locomo_experiment_user_{n}"])
def test_a_conversation_position_past_the_last_is_one_line_and_nothing_is_written(tmp_path, samples, asked, key,
                                                                                  capsys):
    """The positions run from 0 to one less than the number of conversations: that number itself is none."""
    shown = key.format(n=len(samples))
    path = tmp_path / "past.json"
    path.write_text(json.dumps(mem0_file(asked, key=lambda a: shown if a == 1 else str(a))))
    code, data = run(tmp_path, f"s={path}")
    assert data is None and list(tmp_path.iterdir()) == [path]
    assert one_line(capsys, code) == (f"{path}: conversation {shown!r} is no sample id of the dataset and no position "
                                      f"below {len(samples)}")


def test_an_unknown_shape_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({"hello": 1}))
    code, data = run(tmp_path, f"s={path}")
    err = capsys.readouterr().err
    assert code == 2 and data is None and err == f"{path}: unknown shape (not mem0, zep, backboard, official " \
        "or refined); --format to force one\n"


def test_official_shape_and_refined_jsonl_round_trip(tmp_path, samples, asked):
    mem0 = tmp_path / "m.json"
    mem0.write_text(json.dumps(mem0_file(asked)))
    refined = tmp_path / "m_{arm}.jsonl"
    code, first = run(tmp_path, f"m={mem0}", extra=("--refined-out", str(refined)))
    assert code == 0
    official = tmp_path / "official.json"
    official.write_text(json.dumps(first))
    code, again = run(tmp_path, f"m={official}")
    assert code == 0 and again == first
    code, from_refined = run(tmp_path, f"m={tmp_path / 'm_m.jsonl'}")
    strip = [{**s, "qa": [{k: v for k, v in qa.items() if k in ("question", "answer", "category", "evidence",
                                                                  "m_prediction")} for qa in s["qa"]]}
             for s in first]
    assert code == 0 and from_refined == strip


def test_several_arms_keep_the_questions_every_arm_answered(tmp_path, asked, capsys):
    full, half = tmp_path / "full.json", tmp_path / "half.json"
    full.write_text(json.dumps(mem0_file(asked)))
    half.write_text(json.dumps(mem0_file([x for x in asked if x[0] == 0])))
    code, data = run(tmp_path, f"a={full}", f"b={half}")
    first = sum(1 for a, _, _ in asked if a == 0)
    assert code == 0 and sum(len(s["qa"]) for s in data) == first
    assert f"left out: a {len(asked) - first}" in capsys.readouterr().err


def test_the_kit_command_line_dispatches_import(tmp_path, asked, capsys):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(mem0_file(asked)))
    out = tmp_path / "via-cli.json"
    assert cli.main(["import", "--arm", f"m={path}", "-out", str(out)]) == 0
    assert out.is_file() and str(out) in capsys.readouterr().out


def test_a_null_reply_is_empty_and_a_conversation_without_questions_is_no_obstacle(tmp_path, asked):
    data = mem0_file([x for x in asked if x[0] == 0])
    data["0"][0]["response"] = None
    data["1"] = []
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    code, out = run(tmp_path, f"m={path}")
    assert code == 0 and out[0]["qa"][0]["m_prediction"] == ""
