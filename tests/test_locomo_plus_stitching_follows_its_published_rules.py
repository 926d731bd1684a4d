"""LoCoMo-Plus's stitching, rebuilt: hand-checked cases of each rule (the time gap, the lines, the speakers, the
order), a stitched conversation the kit reads and runs on, and, over the real files (LOCOMO_PLUS), the unified
inputs rebuilt equal to the published run's records, question for question."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

import pytest

from locomo_repro.bench import experiment as bench
from locomo_repro.data import dataset, jsonio
from locomo_repro.peers import plus, stitch
from locomo_repro.peers.plus_cli import main
from locomo_repro.read.reader import Options


def sample(sample_id: str = "conv-1") -> dict:
    """A locomo10 sample of two sessions, a week apart, the second with a shared image."""
    return {
        "sample_id": sample_id,
        "conversation": {
            "speaker_a": "Ann", "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 1 May, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I moved to Paris."},
                          {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice!"}],
            "session_2_date_time": "9:05 am on 15 May, 2023",
            "session_2": [{"speaker": "Bob", "dia_id": "D2:1", "text": "Look.", "blip_caption": "a cat"}],
        },
        "qa": [{"question": "Where did Ann move?", "answer": "Paris", "category": 4, "evidence": ["D1:1"]},
               {"question": "Where did Bob move?", "adversarial_answer": "Paris", "category": 5,
                "evidence": ["D1:1; D2:1", "D9:9", "X"]}],
    }


def item(index: int = 0, gap: str = "one week later") -> plus.Item:
    return plus.Item(index, "causal", "A: I learned to say no.\nB: Good for you.\nnoise", "A: I said yes again.", gap)


@pytest.mark.parametrize("gap, days", [
    ("two weeks later", 14), ("About a month later", 30), ("3 years later", 1095), ("an year after", 365),
    ("twelve months on", 360), ("several days later", 0), ("", 0), ("thirteen weeks", 0),
])
def test_a_time_gap_counts_7_30_or_365_days_per_unit_and_0_when_it_names_none(gap, days):
    assert stitch.gap_days(gap) == days


def test_a_dialogue_keeps_its_a_and_b_lines_and_drops_the_rest():
    assert plus.lines(" A: hi \nB:there\nC: no\n\nA:") == (
        plus.Line("A", "hi"), plus.Line("B", "there"), plus.Line("A", ""))


def test_the_cue_goes_in_by_time_after_a_session_at_its_very_time_and_the_trigger_a_week_after_the_last():
    one_week = stitch.stitch(item(gap="one week later"), sample())  # cue at the second session's time
    assert one_week.query_time == datetime(2023, 5, 22, 9, 5) and one_week.cue_time == datetime(2023, 5, 15, 9, 5)
    assert one_week.cue_after == 1
    assert [name for name, _, _ in one_week.timeline] == ["session_1", "session_2", "cue", "trigger"]
    assert one_week.timeline[2][2] == ({"speaker": "Ann", "text": "I learned to say no."},
                                       {"speaker": "Bob", "text": "Good for you."})
    early = stitch.stitch(item(gap="two months later"), sample())
    assert early.cue_after is None and [n for n, _, _ in early.timeline][:2] == ["cue", "session_1"]
    between = stitch.stitch(item(gap="two weeks"), sample())
    assert between.cue_after == 0 and [n for n, _, _ in between.timeline][:3] == ["session_1", "cue", "session_2"]


def test_item_i_goes_into_conversation_i_mod_the_conversations():
    got = stitch.stitch_all([item(i) for i in range(5)], [sample("a"), sample("b")])
    assert [s.sample["sample_id"] for s in got] == ["a", "b", "a", "b", "a"]


def test_the_unified_records_are_the_published_scripts_for_each_kind_of_question_and_evidence():
    records = stitch.unified([sample()], [item(gap="two weeks later")])
    assert records == [
        {"question_input": "Where did Ann move?", "evidence": "Ann：I moved to Paris.", "category": "single-hop",
         "ground_truth": "Paris"},
        {"question_input": "Where did Bob move?",
         "evidence": "Ann：I moved to Paris.\nBob：Look.\n[D9:9] [Missing turn]\n[X] [Parse error]",
         "category": "adversarial", "ground_truth": ""},
        {"question_input": "A: I said yes again.", "evidence": "Ann：I learned to say no.\nBob：Good for you.",
         "category": "Cognitive", "ground_truth": "", "time_gap": "two weeks later"},
    ]


def test_a_stitched_conversation_is_a_dataset_the_kit_runs_with_cognitive_its_own_row(tmp_path):
    stitched = stitch.sample(stitch.stitch(item(gap="two weeks later"), sample()))
    conv = stitched["conversation"]
    assert [conv[f"session_{n}_date_time"] for n in (1, 2, 3)] == [
        "1:56 pm on 1 May, 2023", "9:05 am on 8 May, 2023", "9:05 am on 15 May, 2023"]
    assert [t["dia_id"] for t in conv["session_2"]] == ["D2:1", "D2:2"] and conv["session_3"][0]["dia_id"] == "D3:1"
    assert stitched["qa"] == [{"question": "Ann: I said yes again.", "category": 6, "evidence": ["D2:1", "D2:2"]}]
    file = tmp_path / "stitched.json"
    file.write_text(json.dumps([stitched]))
    (read,) = dataset.load(file)
    assert read.questions[0].category == dataset.COGNITIVE and read.questions[0].answer == ""
    assert [t.id for t in read.turns] == ["D1:1", "D1:2", "D2:1", "D2:2", "D3:1"]
    table = bench.table(bench.run(bench.build([read]), Options()))
    rows = {line.split()[0]: line.split() for line in table.splitlines()[2:]}
    assert list(rows) == ["single", "multi", "temporal", "open", "adversarial", "cognitive", "answerable", "overall*",
                          "*"]
    cognitive = rows["cognitive"]
    assert cognitive[1] == "1" and cognitive[2] == "-"  # one question; no gold answer, no F1
    assert rows["overall*"][1:3] == ["1", "-"]  # nor an F1 over all: cognitive is left out of it
    oracle = sorted(["graph", "graph+edge", "oracle", "vector"]).index("oracle")
    assert cognitive[3 + 3 * oracle] == "1.000"  # the oracle cites the cue's turns


def test_the_stamp_is_the_datasets_own_form():
    for t in (datetime(2023, 5, 8, 0, 7), datetime(2023, 5, 8, 12, 0), datetime(2023, 12, 31, 23, 59)):
        assert dataset.parse_stamp(stitch.stamp(t)) == t
    assert stitch.stamp(datetime(2023, 5, 8, 13, 56)) == "1:56 pm on 8 May, 2023"


# --- the real files ------------------------------------------------------------------------------------------

PLUS = os.environ.get("LOCOMO_PLUS")


@pytest.fixture(scope="module")
def published():
    base = Path(PLUS or ".")
    records = plus.records(plus.path(plus.PREDICTIONS, base))
    items = plus.items(plus.path(plus.ITEMS, base))
    return records, items, jsonio.load(dataset.resolve())


@pytest.mark.outside("LOCOMO_PLUS")
def test_the_rebuilt_unified_inputs_are_the_published_runs_records_question_for_question(published):
    records, items, locomo = published
    answered = plus.answered(records, items, Path("p"))
    assert len(items) == 401 and len(records) == 2240 and len(answered) == 254
    assert [i.index for i in answered] == sorted(i.index for i in answered)  # a subset, in the published order
    rebuilt = stitch.unified(locomo, answered)
    assert rebuilt == [{k: v for k, v in r.items() if k not in ("prediction", "model")} for r in records]
    # Stitched by their place among all 401 items, only 20 of the 254 cues' evidence would be the same.
    wide = {r["question_input"]: r["evidence"] for r in stitch.unified(locomo, items)}
    agree = sum(wide[r["question_input"]] == r["evidence"] for r in records if r["category"] == "Cognitive")
    assert agree == 20


@pytest.mark.slow
@pytest.mark.outside("LOCOMO_PLUS")
def test_stitch_writes_the_401_conversations_and_import_the_run_with_cognitive_its_own_row(tmp_path, capsys):
    assert main(["stitch", "-out", str(tmp_path / "s.json")]) == 0
    stitched = json.loads((tmp_path / "s.json").read_text())
    assert len(stitched) == 401 and {s["qa"][0]["category"] for s in stitched} == {6}
    assert len(dataset.load(tmp_path / "s.json")) == 401
    assert main(["import", "-out", str(tmp_path / "p.json")]) == 0
    entries = json.loads((tmp_path / "p.json").read_text())
    qas = [qa for e in entries for qa in e["qa"]]
    assert len(entries) == 10 and len(qas) == 2240
    assert sum(qa["category"] == 6 for qa in qas) == 254 and all("gpt-5-nano_prediction" in qa for qa in qas)
