"""The leaderboard's cells are the figures the kit's other commands give for the same file: the official F1 and
recall of ``official --kit --json``, the answerable F1 of ``compare``, the row intervals and adjacent paired
differences of ``stats`` (its function and its printed report), J and its failed judgements of ``judge
stats``, and the audited F1 of ``compare -key audited`` (the reference's answers.json and locomo-audit's
full-context run)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from locomo_repro import cli
from locomo_repro.data.dataset import ANSWERABLE
from locomo_repro.peers import manifest
from locomo_repro.score import stats
from locomo_repro.score.predictions import read

pytestmark = pytest.mark.slow  # each reads a whole file of the dataset's 1,986 questions, or several


def run(capsys, *argv: str) -> dict:
    assert cli.main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def board(capsys, *argv: str) -> dict[str, dict]:
    got = run(capsys, "leaderboard", "--no-peers", "--arms", "none", "--format", "json", *argv)
    return {r["name"]: r for r in got["rows"]}


@pytest.fixture
def answers() -> str:
    return str(Path(os.environ["LOCOMO_REFERENCE"]) / "answers.json")


@pytest.mark.outside("LOCOMO_REFERENCE")
def test_f1_and_recall_are_officials_and_compares(capsys, answers):
    rows = board(capsys, answers)
    official = run(capsys, "official", "--kit", "--json", answers)[answers]
    compared = {r["column"]: r for r in run(capsys, "compare", "--format", "json", answers)["rows"]
                if r["category"] == "answerable"}
    for arm, figures in official.items():
        if arm == "signature":
            continue
        row = rows[f"answers.json {arm}"]
        assert (row["overall_n"], row["overall_f1"], row["recall"]) == (
            figures["overall"]["n"], figures["overall"]["f1"], figures["overall"]["recall"])
        assert (row["adversarial_n"], row["adversarial_f1"]) == (figures["5"]["n"], figures["5"]["f1"])
        assert (row["n"], row["f1"]) == (compared[row["name"]]["n"], compared[row["name"]]["f1"])


@pytest.mark.outside("LOCOMO_REFERENCE")
def test_intervals_and_differences_are_stats(capsys, answers):
    rows = board(capsys, answers)
    assert [r["name"] for r in rows.values()] == [f"answers.json {a}" for a in ("oracle", "vector", "graph",
                                                                                "graph+edge")]
    predictions = read(answers)
    grades = stats.grades(predictions)
    for arm in predictions.arms:
        row = rows[f"answers.json {arm}"]
        assert (row["low"], row["high"]) == stats.pooled(predictions, grades[arm], ANSWERABLE)[1:]
        assert (row["overall_low"], row["overall_high"]) == stats.pooled(predictions, grades[arm], (*ANSWERABLE, 5))[1:]
    assert cli.main(["stats", answers]) == 0
    printed = {line[:24].replace(" ", ""): line[24:].split("]")[1].strip() + "]"
               for line in capsys.readouterr().out.splitlines() if " - " in line[:24]}
    for one, two in (("oracle", "vector"), ("graph", "graph+edge")):  # adjacent, in the order -stats pairs them
        row = rows[f"answers.json {one}"]
        diff = [a - b for a, b in zip(grades[one], grades[two])]
        assert (row["diff"], row["diff_low"], row["diff_high"]) == stats.pooled(predictions, diff, ANSWERABLE)
        assert printed[f"{one}-{two}"] == f"{row['diff']:+.3f} [{row['diff_low']:+.3f}, {row['diff_high']:+.3f}]"


@pytest.mark.outside("LOCOMO_REFERENCE")
@pytest.mark.outside("LOCOMO_AUDIT")
def test_the_audited_f1_is_compares_under_the_audited_key(capsys, answers):
    rows = board(capsys, "-key", "audited", answers)
    compared = run(capsys, "compare", "-key", "audited", "--format", "json", answers)["rows"]
    for r in compared:
        if r["category"] == "answerable":
            assert rows[r["column"]]["audited_f1"] == r["f1"]
            assert rows[r["column"]]["audited_f1"] != rows[r["column"]]["f1"]


@pytest.mark.outside("LOCOMO_AUDIT")
def test_the_files_own_judge_is_judge_stats_and_its_disclosure_its_metadata(capsys):
    run_file = str(Path(os.environ["LOCOMO_AUDIT"]) / "fc-baseline" / "results" / "gpt-4.1-mini-cot"
                   / "eval_results.json")
    (row,) = board(capsys, run_file).values()
    judged = {r["row"]: r for r in run(capsys, "judge", "stats", "--format", "json", run_file)["rows"]
              if r["figure"] == "J"}
    assert (row["j"], row["j_overall"]) == (judged["answerable"]["value"], judged["overall"]["value"])
    assert row["j_failed"] == judged["overall"]["failed"]
    assert row["j"] == pytest.approx(0.9262, abs=5e-5)  # the audit's README: 92.62%
    assert (row["answer_model"], row["answer_prompt"], row["judge_model"], row["retrieval"]) == (
        "gpt-4.1-mini", "answer_prompt_cot", "gpt-4o-mini", "unknown")  # its metadata says; retrieval it does not



@pytest.mark.outside("LOCOMO_PEERS")
@pytest.mark.outside("LOCOMO_AUDIT")
@pytest.mark.outside("LOCOMO_PLUS")
def test_each_systems_row_is_its_imported_file_and_its_headline_is_peers_checks(capsys, tmp_path):
    got = run(capsys, "leaderboard", "--arms", "none", "--format", "json")["rows"]
    runs = {r["name"]: r for r in got if r["source"] in ("locomo-audit", "LoCoMo-Plus")}
    audited = runs["locomo-audit gpt-4.1-mini-cot"]
    assert (audited["j"], audited["answer_prompt"]) == (pytest.approx(0.9262, abs=5e-5), "answer_prompt_cot")
    plus_run = runs["LoCoMo-Plus gpt-5-nano"]  # its judged_v2.json: 142 API errors and 2 empty labels in all
    assert plus_run["n"] == 1540 and 0 < plus_run["j_failed"] <= 144
    assert {r["name"] for r in runs.values() if r["missing"]} <= {"locomo-audit gpt-4o-mini-memos",
                                                                   "locomo-audit gpt-4o-mini-cot"}
    rows = {r["name"]: r for r in got if r["source"] == "peers.yaml"}
    assert set(rows) == set(manifest.load(manifest.default_path()).systems)
    folder = Path(os.environ["LOCOMO_PEERS"])
    imported = tmp_path / "peers.json"
    assert cli.main(["import", "--arm", f"memobase={folder / 'memobase' / 'memobase_eval_0710_3000.json'}",
                     "--arm", f"zep={folder / 'zep' / 'zep_locomo_responses.json'}",
                     "--arm", f"backboard={folder / 'backboard'}", "-out", str(imported)]) == 0
    capsys.readouterr()
    official = run(capsys, "official", "--kit", "--json", str(imported))[str(imported)]
    for name, row in rows.items():
        assert (row["n"], row["f1"]) == (official[name]["overall"]["n"], official[name]["overall"]["f1"])  # 1-4
    assert cli.main(["peers", "check"]) == 0
    checked = capsys.readouterr().out
    cells = {c.where: c for c in manifest.load(manifest.default_path()).cells}
    for row in rows.values():
        (cell,) = [c for where, c in cells.items() if row["headline"].startswith(where)]
        line = next(line for line in checked.splitlines() if line.split()[:1] == [cell.id])
        assert line.split()[1] == row["verdict"]
        assert f"published {row['published']}, the file gives {row['kit']} under overall" in line
    assert (rows["zep"]["published"], rows["zep"]["kit"], rows["zep"]["verdict"]) == ("75.14", "75.13", "refuted")
