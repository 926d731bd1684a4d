"""``locomo-repro stats FILE`` and ``locomo-repro official FILE`` (and ``-stats``) on a file
in another system's shape say in one line which shape they recognised and that ``locomo-repro import``
converts it first (exit 2, nothing on stdout), instead of "not a list of samples".  The files are made up
in each shape ``score.formats`` reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from locomo_repro.score.formats import detect
from locomo_repro.score import crosscheck, stats

SHAPED = {
    "mem0": {"0": [{"question": "q?", "answer": "a", "response": "r", "category": 1, "llm_score": 1}]},
    "zep": {"locomo_experiment_user_0": [{"question": "q?", "answer": "r", "golden_answer": "a"}]},
    "backboard": {"conversation_id": "1", "responses": [{"question": "q?", "ai_response": "r", "category": 1}]},
    "refined": [{"qa_id": "conv-26_q0", "predicted_answer": "r"}],
}


@pytest.mark.parametrize("kind", SHAPED)
@pytest.mark.parametrize("command", [stats.main, lambda argv: crosscheck.main([*argv, "--kit"])],
                         ids=["stats", "official"])
def test_the_file_is_named_with_its_shape_and_sent_to_import(kind, command, tmp_path, capsys):
    path = tmp_path / f"{kind}.json"
    path.write_text(json.dumps(SHAPED[kind]))
    assert command([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"{path}: in the {kind} format (")
    assert err.endswith("not the official predictions shape: import it first with "
                        "locomo-repro import --arm NAME=PATH -out FILE\n")


@pytest.mark.parametrize("kind", SHAPED)
def test_the_shape_named_is_the_one_import_reads_it_as(kind):
    assert detect(Path("x.json"), SHAPED[kind]) == kind


def test_a_file_of_no_known_shape_is_still_not_a_list_of_samples(tmp_path, capsys):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"answers": []}))
    assert stats.main([str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: not a list of samples (top level is an object)\n"
