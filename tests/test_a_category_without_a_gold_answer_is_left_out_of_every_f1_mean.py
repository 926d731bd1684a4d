"""Cognitive (LoCoMo-Plus's sixth category) has no gold answer: its F1 is no figure ("-") and every F1 mean over
several categories leaves it out, saying so (the run's table marks its overall row), while its questions
still count for recall and declines; its J alone counts (``judge``)."""

from __future__ import annotations

import json

from locomo_repro.bench.experiment import Record, Tally, tally_table
from locomo_repro.peers.plus_cli import main as plus_main
from locomo_repro.score import results, stats
from test_locomo_plus_run_imports_with_cognitive_its_own_row import published


def _record(category: int, score: float, reply: str = "Paris", recall: float = 1.0) -> Record:
    return Record(sample="conv-1", question="q", answer="a", category=category, evidence=("D1:1",), reply=reply,
                  context=("D1:1",), sure=None, score=score, recall=recall)


# single hop 1.0 and 0.5, adversarial 1.0 (declined), two cognitive questions scored 0 (no gold to grade against)
RECORDS = [_record(4, 1.0), _record(4, 0.5), _record(5, 1.0, "No information available", 0.0),
           _record(6, 0.0, "No information available", 0.5), _record(6, 0.0, "I think so", 1.0)]


def test_the_runs_overall_f1_leaves_cognitive_out_and_its_row_says_so():
    tally = Tally(RECORDS)
    assert tally.mean() == (1.0 + 0.5 + 1.0) / 3 and tally.mean((6,)) == 0.0
    assert tally.count() == 5 and tally.quiet_share() == 2 / 5 and tally.reach() == (1 + 1 + 0 + 0.5 + 1) / 5
    table = tally_table({"mine": tally}).splitlines()
    rows = {line[:14].strip(): line[14:].split() for line in table[2:]}
    assert rows["cognitive"] == ["2", "-", "0.750", "50%"]
    assert rows["overall*"] == ["5", "0.833", "0.700", "40%"]
    assert table[-1] == "* F1 over the 3 questions with a gold answer: cognitive has none (its J alone counts: locomo-repro judge)"


def test_a_table_without_cognitive_keeps_its_overall_row_as_it_was():
    table = tally_table({"mine": Tally(RECORDS[:3])})
    assert "\noverall            3   0.833  0.667    33%\n" in table and "*" not in table and "cognitive" not in table


def test_a_run_of_cognitive_questions_alone_has_no_overall_f1():
    rows = {line[:14].strip(): line[14:].split() for line in tally_table({"mine": Tally(RECORDS[3:])}).splitlines()[2:]}
    assert rows["overall*"] == ["2", "-", "0.750", "50%"]


def test_the_results_files_overall_f1_and_interval_leave_cognitive_out():
    sums = results.sums(RECORDS)
    assert sums["overall"] == (3, 2.5) and sums["answerable"] == (2, 1.5)
    arm = results.arm(Tally(RECORDS), [("conv-1", sums)])
    assert arm.rows["overall"].f1 == 2.5 / 3 and arm.rows["overall"].f1_interval == (2.5 / 3, 2.5 / 3)


def test_stats_constant_abstention_gives_cognitive_no_f1(tmp_path, capsys):
    argv = published(tmp_path, replies=("Paris", "It was Paris", "(empty)"))
    assert plus_main(["import", *argv, "-out", str(tmp_path / "p.json")]) == 0
    assert json.loads((tmp_path / "p.json").read_text())[0]["qa"][2]["category"] == 6
    capsys.readouterr()
    assert stats.main([str(tmp_path / "p.json")]) == 0
    rows = {line[:14].strip(): line[14:].split() for line in capsys.readouterr().out.split("\n\n")[1].splitlines()[2:]}
    assert rows["cognitive"] == ["1", "-"]
    assert rows["overall"] == ["2", "0.500"]  # the single hop's 0 and the adversarial's 1: cognitive in neither
