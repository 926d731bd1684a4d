"""The real judged files (outside the kit): locomo-audit's full-context runs give their published accuracy,
and the notes say which aggregation of the three repeats gives each figure the file states (the per-run
mean is its ``accuracy``, the majority its ``correct``); its ap-baseline v2, read against its answer key,
gives the published leniency of 62.81%; LoCoMo-Plus's judged.json is 2,240 failed judgements out of 2,240,
not a score of 1.0; the peers' own verdicts give the J their READMEs publish."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from judged_files import cell, stats

from locomo_repro.judge.__main__ import main

AUDIT = Path(os.environ.get("LOCOMO_AUDIT", "."))
PLUS = Path(os.environ.get("LOCOMO_PLUS", "."))
PEERS = Path(os.environ.get("LOCOMO_PEERS", "."))


@pytest.mark.outside("LOCOMO_AUDIT")
@pytest.mark.parametrize(("run", "majority", "mean", "repeats"), [
    ("gpt-4.1-mini-cot", 1427, 0.9262, (0.9260, 0.9247, 0.9279)),  # fc-baseline/README.md: 92.62%, 92.66% majority
    ("gpt-4.1-mini-memos", 1264, 0.8195, (0.8182, 0.8201, 0.8201)),  # 81.95%, 82.08% majority
])
def test_the_full_context_runs_give_their_published_accuracy(capsys, run, majority, mean, repeats):
    path = AUDIT / "fc-baseline" / "results" / run / "eval_results.json"
    table = stats(capsys, main, str(path))
    voted = cell(table, "majority", "overall")
    assert (voted["n"], round(voted["value"] * voted["n"])) == (1540, majority)
    assert round(cell(table, "J", "overall")["value"], 4) == mean
    assert tuple(round(cell(table, f"J repeat {r}", "overall")["value"], 4) for r in (1, 2, 3)) == repeats
    notes = "\n".join(table["notes"])
    assert f"states correct {majority}: the majority of its repeats" in notes
    accuracy = next(line for line in table["notes"] if "states accuracy" in line)
    assert accuracy.split(": ", 2)[2].startswith("the mean of its repeats (J)")


@pytest.mark.outside("LOCOMO_AUDIT")
def test_the_ap_baseline_v2_is_accepted_6281_percent_of_the_time(capsys):
    table = stats(capsys, main, str(AUDIT / "ap-baseline" / "v2" / "ap_eval_results_scored.json"),
                  "--wrong", str(AUDIT / "ap-baseline" / "answer_key.json"))
    overall = cell(table, "leniency", "overall")
    assert (overall["n"], round(100 * overall["value"], 2)) == (1540, 62.81)
    published = {"single hop": 68.53, "multi hop": 44.44, "temporal": 63.24, "open domain": 65.28}
    assert {row: round(100 * cell(table, "leniency", row)["value"], 2) for row in published} == published


@pytest.mark.outside("LOCOMO_PLUS")
def test_locomo_plus_judged_is_2240_failed_judgements_not_a_score_of_one(capsys):
    table = stats(capsys, main, str(PLUS / "output" / "judged.json"))
    assert "judged.json: 2,240 of 2,240 judgements failed (2,240 an API error)" in table["notes"][0]
    for row, failed in {"answerable": 1540, "overall": 1986, "cognitive": 254}.items():
        got = cell(table, "J", row)
        assert (got["n"], got["failed"], got["value"]) == (0, failed, None)


@pytest.mark.outside("LOCOMO_PLUS")
def test_locomo_plus_judged_v2_states_both_denominators_with_its_failures_apart(capsys):
    table = stats(capsys, main, str(PLUS / "output" / "judged_v2.json"))
    answerable, overall = cell(table, "J", "answerable"), cell(table, "J", "overall")
    assert answerable["n"] + answerable["failed"] == 1540 and overall["n"] + overall["failed"] == 1986
    assert "144 of 2,240 judgements failed" in table["notes"][0]
    assert cell(table, "J", "cognitive")["n"] + cell(table, "J", "cognitive")["failed"] == 254


@pytest.mark.outside("LOCOMO_PEERS")
@pytest.mark.parametrize(("path", "correct"), [
    ("memobase/memobase_eval_0710_3000.json", 1167),  # Memobase's README: 75.78
    ("backboard", 1386),  # Backboard's README: 90.00
])
def test_the_peers_own_verdicts_give_their_published_j(capsys, path, correct):
    got = cell(stats(capsys, main, str(PEERS / path)), "J", "answerable")
    assert (got["n"], round(got["value"] * 1540)) == (1540, correct)
