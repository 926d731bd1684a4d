"""LoCoMo-Plus's published run imported (``locomo-repro plus import|score``): every record checked against the
rebuilt unified input, the official F1 per category where a gold answer exists, cognitive its own row with
none; a run that is not the rebuilt input's, or a file missing, is one line, exit 2, nothing written; its files
fetched pinned through the peers' mechanism."""

from __future__ import annotations

import hashlib
import io
import json

import pytest

from locomo_repro.peers import fetch, plus
from locomo_repro.peers.plus_cli import main
from refused import one_line
from test_locomo_plus_stitching_follows_its_published_rules import item, sample


def published(tmp_path, replies=("Paris", "No information available", "(empty)"), **change):
    """A LoCoMo-Plus folder (data/, output/) and a dataset: two locomo10 questions and one cognitive item."""
    (tmp_path / "data").mkdir()
    (tmp_path / "output").mkdir()
    it = item(gap="two weeks later")
    (tmp_path / plus.ITEMS).write_text(json.dumps([
        {"relation_type": it.relation, "cue_dialogue": it.cue, "trigger_query": it.trigger, "time_gap": it.time_gap},
        {"relation_type": "goal", "cue_dialogue": "A: x", "trigger_query": "A: never asked", "time_gap": ""}]))
    records = [
        {"question_input": "Where did Ann move?", "evidence": "Ann：I moved to Paris.", "category": "single-hop",
         "ground_truth": "Paris"},
        {"question_input": "Where did Bob move?",
         "evidence": "Ann：I moved to Paris.\nBob：Look.\n[D9:9] [Missing turn]\n[X] [Parse error]",
         "category": "adversarial", "ground_truth": ""},
        {"question_input": "A: I said yes again.", "evidence": "Ann：I learned to say no.\nBob：Good for you.",
         "category": "Cognitive", "ground_truth": "", "time_gap": "two weeks later"},
    ]
    for r, reply in zip(records, replies):
        r.update(prediction=reply, model="m-1")
    records[change.pop("at", 0)].update(change)
    (tmp_path / plus.PREDICTIONS).write_text(json.dumps(records))
    (tmp_path / "locomo.json").write_text(json.dumps([sample()]))
    return ["--dir", str(tmp_path), "--data", str(tmp_path / "locomo.json")]


def test_the_run_imports_into_the_official_shape_with_cognitive_category_6(tmp_path, capsys):
    assert main(["import", *published(tmp_path), "-out", str(tmp_path / "p.json")]) == 0
    (entry,) = json.loads((tmp_path / "p.json").read_text())
    assert entry["sample_id"] == "conv-1"
    assert [(qa["category"], qa["answer"], qa["m-1_prediction"]) for qa in entry["qa"]] == [
        (4, "Paris", "Paris"), (5, "Paris", "No information available"), (6, "", "(empty)")]
    assert entry["qa"][2]["question"] == "A: I said yes again." and entry["qa"][2]["evidence"] == []


def test_score_gives_the_official_f1_where_a_gold_answer_exists_and_none_for_cognitive(tmp_path, capsys):
    argv = published(tmp_path, replies=("Paris, France", "It was Paris", "(empty)"))
    assert main(["score", *argv]) == 0
    rows = {line[:14].strip(): line[14:].split() for line in capsys.readouterr().out.splitlines()[2:]}
    # "Paris, France" against "Paris": precision 1/2, recall 1, F1 2/3; the adversarial reply does not decline: 0.
    assert rows["single hop"] == ["1", "0.667", "0%"] and rows["adversarial"] == ["1", "0.000", "0%"]
    assert rows["cognitive"] == ["1", "-", "100%"]
    assert rows["multi hop"] == ["0", "-", "-"]
    assert rows["overall"] == ["2", "0.333", "0%"] and rows["answerable"] == ["1", "0.667", "0%"]


@pytest.mark.parametrize("change, says", [
    ({"at": 2, "evidence": "Ann：I learned to say no."}, "record 2: evidence is not the rebuilt unified input's"),
    ({"at": 2, "time_gap": "one week later"}, "record 2: time_gap"),
    ({"at": 0, "question_input": "Where?"}, "record 0: question_input"),
    ({"at": 1, "category": "temporal"}, "record 1: category"),
    ({"at": 2, "question_input": "A: not an item"}, "record 2: its trigger is no item of locomo_plus.json"),
    ({"at": 0, "category": "cognitive"}, "record 0: category 'cognitive' is none of LoCoMo-Plus's six"),
])
def test_a_run_that_is_not_the_rebuilt_inputs_is_one_line_and_nothing_written(tmp_path, capsys, change, says):
    argv = published(tmp_path, **change)
    one_line(capsys, main(["import", *argv, "-out", str(tmp_path / "p.json")]), says, plus.PREDICTIONS)
    assert not (tmp_path / "p.json").exists()


def test_a_missing_file_names_the_variable_and_the_fetch(tmp_path, capsys):
    argv = ["--dir", str(tmp_path), "--data", str(tmp_path / "none.json")]
    one_line(capsys, main(["score", *argv]), str(tmp_path / plus.PREDICTIONS), "plus fetch", plus.ENV)


def test_its_files_are_fetched_pinned_into_their_own_folder_of_the_cache(tmp_path, monkeypatch, capsys):
    bodies = {p.url: f"made-up {p.local}".encode() for p in plus.FILES}
    pinned = tuple(fetch.Pinned(p.repo, p.commit, p.path, p.local, hashlib.sha256(bodies[p.url]).hexdigest())
                   for p in plus.FILES)
    monkeypatch.setattr(plus, "FILES", pinned)
    monkeypatch.setattr(fetch.urllib.request, "urlopen", lambda url, timeout: io.BytesIO(bodies[url]))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["fetch"]) == 0
    where = tmp_path / "locomo-repro" / "locomo-plus"
    assert capsys.readouterr().out == f"{where}\n"
    assert (where / plus.PREDICTIONS).read_bytes() == bodies[pinned[2].url]
    assert {p.commit for p in pinned if p.local.startswith("output/")} == {plus.OUTPUT_COMMIT}
    assert all(p.path == f"evaluation_framework/{p.local}" for p in pinned if p.local.startswith("output/"))

    def refused(url, timeout):
        raise fetch.urllib.error.URLError("no network here")

    monkeypatch.setattr(fetch.urllib.request, "urlopen", refused)
    assert main(["fetch", "--dir", str(tmp_path / "x")]) == 2
    last = capsys.readouterr().err.splitlines()[-1]  # after the line saying what it fetches
    assert last.startswith(pinned[0].url) and "no network here" in last and plus.ENV in last
    assert not (tmp_path / "x").exists()


@pytest.mark.outside("LOCOMO_PLUS")
def test_the_pinned_sums_are_the_published_files_sums():
    import os
    from pathlib import Path

    base = Path(os.environ["LOCOMO_PLUS"])
    assert all(hashlib.sha256((base / p.local).read_bytes()).hexdigest() == p.sha256 for p in plus.FILES)


def test_an_item_that_is_not_locomo_pluss_shape_is_one_line_and_nothing_written(tmp_path, capsys):
    argv = published(tmp_path)
    items = json.loads((tmp_path / plus.ITEMS).read_text())
    items[1]["time_gap"] = 7
    (tmp_path / plus.ITEMS).write_text(json.dumps(items))
    one_line(capsys, main(["stitch", *argv, "-out", str(tmp_path / "s.json")]), plus.ITEMS,
             "item 1: field 'time_gap' is not a string")
    assert not (tmp_path / "s.json").exists()
