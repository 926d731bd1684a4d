"""The peers' real published files (LOCOMO_PEERS) import with every question matched, and the converted file
scores the same under the kit's metric and the official evaluation.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from locomo_repro.peers.__main__ import main
from locomo_repro.score import official
from locomo_repro.score.predictions import read

PEERS = os.environ.get("LOCOMO_PEERS")
pytestmark = pytest.mark.outside("LOCOMO_PEERS")

ARMS = {
    "memobase": "memobase/memobase_eval_0710_3000.json",
    "zep": "zep/zep_locomo_responses.json",
    "backboard": "backboard",
}


@pytest.fixture(scope="module")
def converted(tmp_path_factory, samples):
    out = tmp_path_factory.mktemp("peers") / "peers.json"
    arms = [x for name, path in ARMS.items() for x in ("--arm", f"{name}={Path(PEERS) / path}")]
    assert main(["import", *arms, "-out", str(out)]) == 0
    return out


def test_each_file_imports_with_all_1540_questions_matched(converted):
    data = json.loads(converted.read_text())
    qas = [qa for s in data for qa in s["qa"]]
    assert len(qas) == 1540 and {qa["category"] for qa in qas} == {1, 2, 3, 4}
    for arm in ARMS:
        assert all(f"{arm}_prediction" in qa and f"{arm}_judge" in qa for qa in qas)


@pytest.mark.slow
def test_the_official_f1_per_category_is_the_official_evaluation_py_s(converted, official_scorer):
    predictions = read(converted)
    assert official.scores(predictions, official_scorer) == official.scores(
        predictions, official.kit_eval_question_answering
    )
