"""Odd but possible input ends in one line naming the file and the problem (exit 2), never a traceback.

Samples holding no questions print NaN% as the reference does; JSON nested
100,000 deep is refused by every reader (dataset, predictions, refined files,
a model's or judge's reply); refined export refuses a turn id whose number is
no decimal ("D1:²"), a session that is a number, and an array with no sample; an
integer of 5000 digits (past Python's conversion limit) is one line too;
``-stats`` refuses a confidence beyond a float64 (``1e999``) and names a huge
resample count without printing its hundreds of digits; the dataset refuses
``"category": true`` (Go's decoder does).
"""

from __future__ import annotations

import io
import json

import pytest

from refused import one_line
from locomo_repro import cli
from locomo_repro.data import dataset
from locomo_repro.read.chat import ChatBadReply, _parse_reply
from locomo_repro.refined import judge
from locomo_repro.refined.__main__ import main as refined_main
from locomo_repro.score import crosscheck, stats
from locomo_repro.score.predictions import PredictionsError

DEEP = "[" * 100_000 + "]" * 100_000


def sample(qa: list, **conversation) -> dict:
    conv = {"speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I went to Paris yesterday."},
                          {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice, I like Rome."}]}
    conv.update(conversation)
    return {"sample_id": "s1", "conversation": conv, "qa": qa}



def test_samples_without_questions_print_nan_percent_as_the_reference(tmp_path, capsys):
    data = tmp_path / "noq.json"
    data.write_text(json.dumps([sample([])]))
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args(["-data", str(data), "-quiet"]), out) == 0
    assert "Traceback" not in capsys.readouterr().err
    out = out.getvalue()
    assert "questions naming a speaker 0/0 (NaN%), resolving to any known name 0/0 (NaN%)\n" in out


def test_json_nested_100000_deep_is_one_line_in_every_reader(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    deep_lines = tmp_path / "deep.jsonl"
    deep_lines.write_text(DEEP + "\n")
    one_line(capsys, cli.main(["-data", str(deep)]), str(deep), "nested too deeply")
    one_line(capsys, cli.main(["-stats", str(deep)]), str(deep), "nested too deeply")
    one_line(capsys, crosscheck.main([str(deep), "--kit"]), str(deep), "nested too deeply")
    one_line(capsys, refined_main(["export", "--data", str(deep), "--out", str(tmp_path / "o")]),
             str(deep), "nested too deeply")
    one_line(capsys, refined_main(["score", "--questions", str(deep_lines), "--predictions", str(deep_lines)]),
             str(deep_lines), "line 1", "nested too deeply")
    with pytest.raises(ChatBadReply):
        _parse_reply(DEEP.encode(), "http://x")
    with pytest.raises(ValueError, match="nests too deeply"):
        judge.parse_label('{"a":' * 100_000 + "1" + "}" * 100_000)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.json", "deep.jsonl"]


def test_an_integer_of_5000_digits_is_one_line_in_every_reader(tmp_path, capsys):
    big = tmp_path / "big.json"
    big.write_text("[" + "9" * 5000 + "]")
    big_lines = tmp_path / "big.jsonl"
    big_lines.write_text("9" * 5000 + "\n")
    too_big = "is out of a float64's range"
    one_line(capsys, cli.main(["-data", str(big)]), str(big), too_big)
    one_line(capsys, cli.main(["-stats", str(big)]), str(big), too_big)
    one_line(capsys, refined_main(["export", "--data", str(big), "--out", str(tmp_path / "o")]), str(big), too_big)
    one_line(capsys, refined_main(["score", "--questions", str(big_lines), "--predictions", str(big_lines)]),
             str(big_lines), "line 1", too_big)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.json", "big.jsonl"]


@pytest.mark.parametrize(("raw", "problem"), [
    ([sample([], session_1=[{"speaker": "Ann", "dia_id": "D1:²", "text": "hi"}])],
     "sample 's1': turn id 'D1:²': what follows the colon is not a decimal number"),
    ([sample([], session_1=[{"speaker": "Ann", "dia_id": "D1:" + "9" * 5000, "text": "hi"}])],
     "what follows the colon is not a decimal number"),
    ([sample([], session_1=5)], "sample 's1': session_1 is int, not a list of turns"),
    ([], "holds no LoCoMo samples"),
    ([1, 2, 3], "holds no LoCoMo samples"),
])
def test_refined_export_of_malformed_samples_is_one_line(tmp_path, capsys, raw, problem):
    data = tmp_path / "raw.json"
    data.write_text(json.dumps(raw))
    line = one_line(capsys, refined_main(["export", "--data", str(data), "--out", str(tmp_path / "o")]), problem)
    assert line.startswith(f"error: {data}: ")
    assert not (tmp_path / "o").exists()


def predictions(confidence: str, conversations: int = 1) -> str:
    qa = ('{"question": "q", "answer": "a", "category": 1, "evidence": [], "graph_prediction": "a", '
          f'"graph_prediction_context": [], "graph_prediction_confidence": {confidence}}}')
    return "[" + ", ".join(f'{{"sample_id": "s{i}", "qa": [{qa}]}}' for i in range(conversations)) + "]"


@pytest.mark.parametrize("confidence", ["1e999", "-1e999", "1" + "0" * 400])
def test_stats_refuses_a_confidence_beyond_a_float64(tmp_path, capsys, confidence):
    path = tmp_path / "p.json"
    path.write_text(predictions(confidence))
    one_line(capsys, cli.main(["-stats", str(path)]), str(path), "line 1 column 181: number", "out of a float64's range")


def test_too_many_conversations_for_the_exact_bootstrap_is_said_without_a_600_digit_number(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(predictions("0.5", conversations=1000))
    read = stats.read(str(path))
    with pytest.raises(PredictionsError) as caught:
        stats.bootstrappable(read)  # the report's refusal
    message = str(caught.value)
    assert "1000 conversations" in message and "more than 10^599 resamples" in message and len(message) < 300
    assert "over 1000 conversations (Monte Carlo: 10,000 resamples, seed 0)" in stats.render(read)  # stats: drawn


def test_the_dataset_refuses_a_category_that_is_true(tmp_path):
    data = tmp_path / "d.json"
    data.write_text(json.dumps([sample([{"question": "q", "answer": "a", "category": True, "evidence": []}])]))
    with pytest.raises(dataset.DatasetError, match=r"qa 0: missing or unknown field 'category'$"):
        dataset.load(data)
