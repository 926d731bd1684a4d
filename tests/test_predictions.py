"""Reading predictions files: what is accepted, and one clear line for what is not."""

from __future__ import annotations

import json

import pytest

from locomo_repro.score import crosscheck

from locomo_repro.score import stats
from locomo_repro.score.predictions import Prediction, PredictionsError, parse, read


def question(**over):
    qa = {
        "question": "Where?",
        "answer": "Paris",
        "category": 4,
        "evidence": ["D1:2"],
        "b_prediction": "Paris",
        "b_prediction_context": ["D1:2"],
        "b_prediction_confidence": 0.5,
        "a_prediction": "No information available",
        "a_prediction_context": [],
        "a_prediction_confidence": 0,
    }
    qa.update(over)
    return {k: v for k, v in qa.items() if v is not DROP}


DROP = object()


def good():
    return [
        {"sample_id": "conv-1", "qa": [question(), question(category=5, answer=DROP, adversarial_answer="Rome")]},
        {"sample_id": "conv-2", "qa": [question(category=2.0, answer=2022)]},
        {"sample_id": "conv-1", "qa": [question(a_prediction_confidence=DROP, b_prediction_context=DROP)]},
    ]


def test_a_good_file_reads_with_arms_sorted_and_questions_in_file_order():
    got = parse(good(), "p.json")
    assert got.path == "p.json"
    assert got.arms == ("a", "b")
    assert [(q.sample, q.index, q.category) for q in got.questions] == [
        ("conv-1", 0, 4),
        ("conv-1", 1, 5),
        ("conv-2", 0, 2),
        ("conv-1", 0, 4),
    ]
    # A repeated sample id is the same conversation, first-seen order kept.
    assert got.conversations == ("conv-1", "conv-2")
    first = got.questions[0]
    assert first.predictions["a"] == Prediction("No information available", (), 0.0)
    assert first.predictions["b"] == Prediction("Paris", ("D1:2",), 0.5)
    assert first.evidence == ("D1:2",) and first.answer == "Paris"


def test_values_are_kept_as_written_and_absences_read_as_the_reference_reads_them():
    got = parse(good(), "p.json").questions
    assert got[1].answer is None and got[1].adversarial_answer == "Rome"
    assert got[2].answer == 2022 and isinstance(got[2].category, int)
    assert got[3].predictions["a"].confidence == 0.0  # no confidence key
    assert got[3].predictions["b"].context is None  # no context key


def test_read_from_disk(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(good()))
    assert read(path).arms == ("a", "b")
    assert read(str(path)).path == str(path)


def bad(data):
    with pytest.raises(PredictionsError) as caught:
        parse(data, "p.json")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("p.json: ")
    return message


def test_not_a_list_of_samples():
    assert "not a list of samples" in bad({"sample_id": "conv-1", "qa": []})


def test_a_sample_that_is_not_an_object():
    assert "sample [1] is a list" in bad([good()[0], []])


def test_a_sample_lacking_qa():
    assert bad([{"sample_id": "conv-9"}]) == "p.json: conv-9: no qa list"


def test_qa_that_is_not_a_list():
    assert "conv-9: qa is an object" in bad([{"sample_id": "conv-9", "qa": {}}])


@pytest.mark.parametrize("sample_id", [DROP, "", 26, None])
def test_a_missing_or_unusable_sample_id(sample_id):
    sample = {"sample_id": sample_id, "qa": [question()]}
    message = bad([{k: v for k, v in sample.items() if v is not DROP}])
    assert "sample [0] has no sample_id" in message


def test_no_prediction_keys():
    plain = {"question": "Where?", "answer": "Paris", "category": 4, "evidence": []}
    assert bad([{"sample_id": "conv-1", "qa": [plain]}]) == "p.json: conv-1 qa[0]: no <arm>_prediction key"


def test_arms_that_differ_across_questions():
    data = [{"sample_id": "conv-1", "qa": [question(), question(c_prediction="x")]}]
    message = bad(data)
    assert message == "p.json: conv-1 qa[1]: arms a, b, c differ from the first question's a, b"
    data = [good()[0], {"sample_id": "conv-2", "qa": [question(a_prediction=DROP)]}]
    assert "conv-2 qa[0]: arms b differ" in bad(data)


@pytest.mark.parametrize("category", [0, 7, "4", None, True, 4.5, DROP])
def test_a_category_outside_one_to_six(category):
    assert "conv-1 qa[0]: category" in bad([{"sample_id": "conv-1", "qa": [question(category=category)]}])


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("a_prediction", None, "a_prediction is null, not a string"),
        ("b_prediction", ["Paris"], "b_prediction is a list, not a string"),
        ("a_prediction_context", "D1:2", "a_prediction_context is not a list of ids"),
        ("b_prediction_context", [1, 2], "b_prediction_context is not a list of ids"),
        ("a_prediction_confidence", "high", "a_prediction_confidence is a string, not a number"),
        ("evidence", "D1:2", "evidence is not a list of ids"),
    ],
)
def test_fields_of_the_wrong_type(field, value, says):
    message = bad([{"sample_id": "conv-3", "qa": [question(), question(**{field: value})]}])
    assert message == f"p.json: conv-3 qa[1]: {says}"


@pytest.mark.parametrize("data", [[], [{"sample_id": "conv-1", "qa": []}]])
def test_no_questions(data):
    assert bad(data) == "p.json: no questions"


def test_a_multi_line_sample_id_still_gives_one_line():
    assert "\n" not in bad([{"sample_id": "conv\n1"}])


# --- the file itself, and the command lines -------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "not JSON"),
        ('[{"sample_id": "conv-1", "qa": [{"a_prediction_confidence": NaN}]}]', "not JSON"),
        ("", "not JSON"),
        ('"answers"', "not a list of samples"),
    ],
)
def test_bad_files(tmp_path, text, says):
    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(PredictionsError, match=f"^{path}: {says}"):
        read(path)


def test_a_missing_file(tmp_path):
    with pytest.raises(PredictionsError, match="cannot read"):
        read(tmp_path / "absent.json")


@pytest.mark.parametrize("command", [stats.main, lambda argv: crosscheck.main(["--kit", *argv])])
def test_commands_print_one_line_and_exit_2(tmp_path, capsys, command):
    path = tmp_path / "p.json"
    path.write_text(json.dumps([{"sample_id": "conv-7", "qa": [question(), question(category=9)]}]))
    assert command([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{path}: conv-7 qa[1]: category 9 is not one of 1-6\n"
    assert "Traceback" not in err
