"""dataset.load_each: the samples load reads, one at a time, and load's refusals word for word."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from locomo_repro.data import dataset
from locomo_repro.data.dataset import DatasetError

TURN = {"speaker": "Ann", "dia_id": "D1:1", "text": "I moved to Oslo."}


def sample(n: int) -> dict:
    return {"sample_id": f"s{n}",
            "conversation": {"speaker_a": "Ann", "speaker_b": "Bo", "session_1": [TURN],
                             "session_1_date_time": "1:56 pm on 8 May, 2023"},
            "qa": [{"question": "Where did Ann move?", "answer": "Oslo", "evidence": ["D1:1"], "category": 4}]}


def test_the_dataset_one_by_one_is_the_dataset(samples):
    assert list(dataset.load_each()) == samples
    assert list(dataset.load_each(only=3)) == samples[:3]


@given(st.integers(1, 64), st.sampled_from(["", " ", "\n  "]))
def test_any_chunk_size_and_spacing_reads_the_same_items(chunk, space):
    items = [sample(n) for n in range(4)]
    text = "[" + space + ("," + space).join(json.dumps(i) for i in items) + space + "]" + space
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "d.json"
        path.write_text(text, encoding="utf-8")
        assert list(dataset.items(path, chunk)) == items


@pytest.mark.parametrize("tail", ["", "]", ', {"sample_id": 1}]', ", [}"], ids=["cut", "extra", "bad sample", "bad json"])
def test_a_file_load_refuses_is_refused_with_loads_message(tmp_path, tail):
    path = tmp_path / "bad.json"
    path.write_text("[" + json.dumps(sample(1)) + (tail if tail != "]" else "]]"), encoding="utf-8")
    with pytest.raises(DatasetError) as loaded:
        dataset.load(path)
    with pytest.raises(DatasetError) as each:
        list(dataset.load_each(path, only=1))  # refused even though the first sample was fine
    assert str(each.value) == str(loaded.value)


@pytest.mark.parametrize("text", ["[]", "{}", ""], ids=["empty", "object", "nothing"])
def test_no_samples_is_refused_with_loads_message(tmp_path, text):
    path = tmp_path / "none.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetError) as loaded:
        dataset.load(path)
    with pytest.raises(DatasetError) as each:
        list(dataset.load_each(path))
    assert str(each.value) == str(loaded.value)


def test_a_file_only_load_can_read_is_read_by_load(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(json.dumps([sample(1), sample(2)]).encode("utf-16"))
    assert list(dataset.load_each(path)) == dataset.load(path)
