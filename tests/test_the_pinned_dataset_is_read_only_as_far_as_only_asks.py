"""dataset.load_each with ``only``: the pinned dataset's bytes are read no further than the samples asked for
(they are known to be read without a refusal); any other file is still read and checked to its end."""

from __future__ import annotations

import hashlib
import json

import pytest

from locomo_repro.data import dataset
from locomo_repro.data.dataset import DatasetError

TURN = {"speaker": "Ann", "dia_id": "D1:1", "text": "I moved to Oslo."}


def sample(n: int) -> dict:
    return {"sample_id": f"s{n}",
            "conversation": {"speaker_a": "Ann", "speaker_b": "Bo", "session_1": [TURN],
                             "session_1_date_time": "1:56 pm on 8 May, 2023"},
            "qa": [{"question": "Where did Ann move?", "answer": "Oslo", "evidence": ["D1:1"], "category": 4}]}


@pytest.fixture
def bad_third(tmp_path):
    """A file whose first two samples are good and whose third has no sample id."""
    path = tmp_path / "d.json"
    path.write_text(json.dumps([sample(1), sample(2), {"conversation": {}}]), encoding="utf-8")
    return path


def pin(monkeypatch, body: bytes) -> None:
    """Make ``body`` the pinned dataset's bytes for the test."""
    monkeypatch.setattr(dataset, "SIZE", len(body))
    monkeypatch.setattr(dataset, "SHA256", hashlib.sha256(body).hexdigest())


def test_a_file_is_pinned_only_with_the_pinned_size_and_digest(bad_third, monkeypatch):
    body = bad_third.read_bytes()
    assert not dataset.pinned(bad_third)
    pin(monkeypatch, body)
    assert dataset.pinned(bad_third)
    monkeypatch.setattr(dataset, "SHA256", hashlib.sha256(body + b" ").hexdigest())
    assert not dataset.pinned(bad_third)  # the right size, another digest
    assert not dataset.pinned(bad_third.with_name("absent.json"))


def test_the_pinned_bytes_are_read_no_further_than_only(bad_third, monkeypatch):
    pin(monkeypatch, bad_third.read_bytes())
    assert [s.id for s in dataset.load_each(bad_third, only=1)] == ["s1"]
    assert [s.id for s in dataset.load_each(bad_third, only=2)] == ["s1", "s2"]
    with pytest.raises(DatasetError, match="sample 2: missing field 'sample_id'"):
        list(dataset.load_each(bad_third))  # without only, every sample is read


def test_any_other_file_is_read_to_its_end_whatever_only_says(bad_third):
    with pytest.raises(DatasetError, match="sample 2: missing field 'sample_id'"):
        list(dataset.load_each(bad_third, only=1))
