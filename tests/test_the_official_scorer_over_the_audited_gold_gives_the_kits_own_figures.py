"""``official --key audited``: the authors' own evaluation.py run on a predictions file whose gold the kit rewrote
gives the figures the kit's run under the audited key prints (the toy conversation of the hand-checked cases),
and the kit's metric over the whole audited gold is the official scorer's, row for row.  Skipped, naming
LOCOMO_EVALUATION_PY, where the official scorer is not at hand."""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from locomo_repro.score import key, official
from locomo_repro.score.predictions import parse, read
import toy_audit


@pytest.fixture
def files(tmp_path, monkeypatch):
    return toy_audit.write(tmp_path, monkeypatch)


def run(files, *flags: str) -> None:
    args = cli.parser().parse_args(["-data", str(files / "d.json"), "-arms", "toy_plugins:Parrot", "-quiet",
                                    "-jobs", "1", *flags])
    assert cli.run(args, io.StringIO()) == 0


def test_the_official_scorer_on_the_rewritten_file_is_the_audited_runs_figures(files, official_scorer, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", str(files / "d.json"))
    run(files, "-out", str(files / "p.json"))  # the official gold, as a run writes it
    run(files, "-key", "audited", "-json", str(files / "r.json"))
    rewritten, graded = key.keyed("audited", read(files / "p.json"))
    assert graded.name == "audited" and len(rewritten.questions) == 7  # the ambiguous question held apart
    theirs = official.scores(rewritten, official_scorer)["parrot"]
    ran = json.loads((files / "r.json").read_text())["passes"][0]["arms"]["parrot"]["rows"]
    for row, name in (("4", "single hop"), ("1", "multi hop"), ("2", "temporal"), ("answerable", "answerable")):
        assert theirs[name] == (ran[row]["f1"], ran[row]["recall"]), row
    assert theirs["single hop"] == (1.0, 1.0) and theirs["multi hop"] == (0.5, 1.0)


def test_official_key_prints_the_key_in_its_signature(files, official_scorer, monkeypatch, capsys):
    monkeypatch.setenv("LOCOMO_DATA", str(files / "d.json"))
    run(files, "-out", str(files / "p.json"))
    capsys.readouterr()
    from locomo_repro.score.crosscheck import main

    assert main([str(files / "p.json"), "--key", "audited"]) == 0
    err = capsys.readouterr().err
    assert "1 ambiguous questions held apart" in err and "|key:audited-" in err


@pytest.mark.outside("LOCOMO_AUDIT")
def test_the_kit_metric_is_the_official_scorer_over_the_whole_audited_gold(samples, official_scorer):
    """Every question answered with its official gold and with its question: under the audited key the 86
    corrected golds make many marks fall below 1, and the two scorers still agree on every row."""
    made = [{"sample_id": s.id, "qa": [
        {"question": q.text, "answer": q.answer, "category": q.category, "evidence": list(q.evidence),
         "gold_prediction": q.answer, "echo_prediction": q.text, "gold_prediction_context": list(q.evidence[:1])}
        for q in s.questions]} for s in samples]
    audited, held = key.load("audited").predictions(parse(made, "made"), key.load("audited").samples(samples))
    assert held == 13 and len(audited.questions) == 1986 - 13
    kit = official.scores(audited, official.kit_eval_question_answering)
    assert official.scores(audited, official_scorer) == kit
    assert kit["gold"]["answerable"][0] < 1.0 == official.scores(parse(made, "made"), official_scorer)["gold"][
        "single hop"][0]
