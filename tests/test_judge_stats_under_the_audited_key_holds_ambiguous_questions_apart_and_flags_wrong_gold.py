"""``judge stats --key audited``: the verdicts on the questions the audit holds apart (ambiguous) are left out
of every figure and counted in a note, and per arm the J of the questions whose gold the audit corrects and
the share of J that comes from them, checked by hand over ``toy_audit``'s conversation (one question per error
type: 1 hallucinated, 2 temporal, 3 attribution, 4 incomplete gold, 5 ambiguous, 6 a wrong citation only; 0
and the adversarial 7 have none)."""

from __future__ import annotations

import json

import pytest
import toy_audit
from judged_files import cell, stats, verdict, write

from locomo_repro.judge.__main__ import main

#: Scores of questions 0-7 (categories 4, 4, 2, 4, 1, 3, 4, 5).
SCORES = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0]


@pytest.fixture
def judged(tmp_path, monkeypatch):
    toy_audit.write(tmp_path, monkeypatch)
    kinds = [c for _, c, *_ in toy_audit.QUESTIONS] + [5]
    return write(tmp_path / "j.json", [verdict("s1", i, kinds[i], s) for i, s in enumerate(SCORES)]), tmp_path


def test_ambiguous_verdicts_are_held_apart_and_wrong_gold_is_flagged(judged, capsys):
    path, here = judged
    table = stats(capsys, main, str(path), "--data", str(here / "d.json"), "--key", "audited")
    # question 5 (ambiguous, open domain) is in no figure: answerable holds 0, 1, 2, 3, 4, 6: 4 of 6 accepted
    assert (cell(table, "J", "answerable")["n"], cell(table, "J", "answerable")["value"]) == (6, 4 / 6)
    assert (cell(table, "J", "overall")["n"], cell(table, "J", "overall")["value"]) == (7, 4 / 7)
    assert not [r for r in table["rows"] if r["row"] == "open domain"]
    # the gold the audit corrects: 1, 2, 3, 4 (scores 1, 0, 1, 0); the citation-only error 6 keeps its gold
    wrong = cell(table, "J wrong gold", "answerable")
    assert (wrong["n"], wrong["value"]) == (4, 0.5)
    # of the 4 accepted answerable questions, 2 have a wrong gold; single hop: 2 of its 4 (0, 1, 3, 6)
    assert (cell(table, "J share wrong gold", "answerable")["n"],
            cell(table, "J share wrong gold", "answerable")["value"]) == (4, 0.5)
    assert cell(table, "J share wrong gold", "single hop")["value"] == 0.5
    assert cell(table, "J share wrong gold", "overall")["value"] == 0.5
    # temporal: one wrong-gold question, rejected: J 0 and no share of an empty J
    assert (cell(table, "J wrong gold", "temporal")["value"], cell(table, "J share wrong gold", "temporal")["value"]) \
        == (0.0, None)
    assert "1 verdicts on 1 ambiguous questions held apart" in " ".join(table["notes"])
    assert "|key:audited-" in table["files"][0]["signature"]


def test_the_official_key_adds_nothing(judged, capsys):
    path, here = judged
    table = stats(capsys, main, str(path), "--data", str(here / "d.json"))
    assert (cell(table, "J", "answerable")["n"], cell(table, "J", "answerable")["value"]) == (7, 5 / 7)
    assert not [r for r in table["rows"] if "wrong gold" in r["figure"]]
    assert "key:" not in json.dumps(table["files"])
