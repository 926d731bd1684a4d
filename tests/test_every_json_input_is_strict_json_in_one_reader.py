"""Every command reads JSON through one reader (``data.jsonio``), which refuses in one line what would
otherwise crash later or be graded wrongly: NaN and Infinity, a number beyond a float64, a lone surrogate
escape, nesting past 512 levels; the dataset's session numbers and question texts included, with and
without ``-jobs``.  Each case is a small hand-made file."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from refused import one_line
from locomo_repro import cli
from locomo_repro.data import jsonio
from locomo_repro.peers.__main__ import main as peers_main
from locomo_repro.refined.__main__ import main as refined_main
from locomo_repro.report.cli import main as report_main
from locomo_repro.score import crosscheck


def sample(question: str = "Where did Ann go?", text: str = "I went to Paris yesterday.", answer: object = "Paris",
           **conversation) -> dict:
    conv = {"speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": text}]}
    conv.update(conversation)
    return {"sample_id": "s1", "conversation": conv,
            "qa": [{"question": question, "answer": answer, "category": 4, "evidence": ["D1:1"]}]}


def predictions(confidence: str = "0.5", reply: str = '"Paris"', extra: str = "") -> str:
    qa = (f'{{"question": "q", "answer": "Paris", "category": 4, "evidence": [], "a_prediction": {reply}, '
          f'"a_prediction_context": [], "a_prediction_confidence": {confidence}{extra}}}')
    return f'[{{"sample_id": "s1", "qa": [{qa}]}}]'



@pytest.mark.parametrize(("raw", "says"), [
    ("[NaN]", "line 1 column 2: NaN is no JSON number"),
    ('{"a": [1,\n -Infinity]}', "line 2 column 2: -Infinity is no JSON number"),
    ('[1e999]', "line 1 column 2: number 1e999 is out of a float64's range"),
    ("[" + "1" * 400 + "]", "line 1 column 2: number 111111111111…(400 characters) is out of a float64's range"),
    ('["ok", "\\ud800"]', "line 1 column 9: a \\ud800-\\udfff escape that is not half of a surrogate pair"),
    ('["\\udc00\\ud83d"]', "line 1 column 3: a \\ud800-\\udfff escape"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply (more than 512 levels)"),
    ("[" * 513 + "]" * 513, "nested too deeply (more than 512 levels)"),
])
def test_the_reader_refuses_in_one_line_naming_where(raw, says):
    with pytest.raises(jsonio.InputError) as refused:
        jsonio.parse(raw, "f.json")
    assert str(refused.value).startswith("f.json: ") and says in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("raw", ['["\\ud83d x\\ude00"]', '["\\ud83d", "\\ude00"]', '["\\ud83d\\n\\ude00"]'])
def test_a_high_surrogate_is_half_of_a_pair_only_with_its_low_half_right_after_it(raw):
    with pytest.raises(jsonio.InputError, match="line 1 column 3: a \\\\ud800-\\\\udfff escape that is not half"):
        jsonio.parse(raw, "f.json")


@pytest.mark.parametrize("raw", ['["\\ud83d\\ude00"]', '["\\\\ud800"]', "[" * 512 + "]" * 512, "[1e308, -0.0]",
                                 '{"a": ' + "9" * 300 + "}"])
def test_what_it_accepts_reads_as_python_reads_it(raw):
    assert jsonio.parse(raw, "f.json") == json.loads(raw)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=20))
def test_every_value_python_writes_reads_back_the_same(value):
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False)):
        assert jsonio.parse(text, "f.json") == json.loads(text)


def test_the_kit_writes_strict_json_a_non_finite_float_as_null():
    assert jsonio.dumps({"mean": float("nan"), "sum": [1.5, float("inf")]}) == '{"mean": null, "sum": [1.5, null]}'
    assert jsonio.dumps({"a": [1, 2.5]}, indent=2) == json.dumps({"a": [1, 2.5]}, indent=2)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("case", "says"), [
    (sample(question="Where did Ann go\ud800?"), "escape that is not half of a surrogate pair"),
    (sample(text="I went to \udfff Paris."), "escape that is not half of a surrogate pair"),
    (sample(answer=float("nan")), "NaN is no JSON number"),
    ({**sample(), "conversation": {**sample()["conversation"], "session_" + "9" * 5000: []}},
     "session key session_999999999999… has 5000 digits (at most 18)"),
])
def test_the_dataset_refuses_with_and_without_jobs(tmp_path, capsys, case, says, jobs):
    data = tmp_path / "d.json"
    data.write_text(json.dumps([sample(), case]))  # the bad sample second: the first is already handed out
    one_line(capsys, cli.main(["-data", str(data), "-quiet", "-jobs", jobs]), str(data), says)


def test_every_command_refuses_a_lone_surrogate_and_nan(tmp_path, capsys, matplotlib_found):
    lone, nan = tmp_path / "lone.json", tmp_path / "nan.json"
    lone.write_text(predictions(reply='"Par\\ud800is"'))
    nan.write_text(predictions(confidence="NaN"))
    lone_says, nan_says = "escape that is not half of a surrogate pair", "NaN is no JSON number"
    for path, says in ((lone, lone_says), (nan, nan_says)):
        one_line(capsys, cli.main(["-stats", str(path)]), str(path), says)
        one_line(capsys, crosscheck.main([str(path), "--kit"]), str(path), says)
        one_line(capsys, peers_main(["table", str(path)]), str(path), says)
        one_line(capsys, report_main(["--predictions", str(path), "-o", str(tmp_path / "r.html")]), str(path), says)
    mem0 = tmp_path / "mem0.json"
    mem0.write_text('{"0": [{"question": "q", "answer": "a", "response": "a", "category": "4", "f1_score": NaN}]}')
    one_line(capsys, peers_main(["import", "--arm", f"m={mem0}", "-out", str(tmp_path / "o.json")]), str(mem0), nan_says)
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text('{"qa_id": "s#q0000", "predicted_answer": "\\udc00"}\n')
    one_line(capsys, refined_main(["score", "--questions", str(jsonl), "--predictions", str(jsonl)]),
             str(jsonl), "line 1 column 43", lone_says)
    raw = tmp_path / "raw.json"
    raw.write_text(json.dumps([sample(question="q\ud800")]))
    one_line(capsys, refined_main(["export", "--data", str(raw), "--out", str(tmp_path / "pub")]), str(raw), lone_says)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lone.json", "mem0.json", "nan.json", "p.jsonl", "raw.json"]


def test_a_score_of_400_digits_is_refused_before_a_summary_is_written(tmp_path, capsys):
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text('{"qa_id": "s#q0000", "predicted_answer": "a", "x_score": ' + "9" * 400 + "}\n")
    one_line(capsys, refined_main(["score", "--questions", str(jsonl), "--predictions", str(jsonl)]),
             str(jsonl), "line 1", "out of a float64's range")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl"]
