"""Hand-checked: one question per error type of locomo-audit, graded under the official and the audited key.

The dataset is one conversation whose last turn says "Paris"; the ``parrot`` plug-in answers every question
with that turn and names it as its evidence (D1:3).  So a question scores F1 1 and recall 1 where the key's
gold is "Paris" with evidence D1:3, and 0 where it is "London" with D1:1; a multi-hop gold "Paris, Rome"
scores 0.5 (one part of two).  The errors file is written by the test (toy_audit), in the audit's shape.
"""

from __future__ import annotations

import io

import pytest

import toy_audit
from locomo_repro import cli
from locomo_repro.score.key import Key, load
from toy_audit import QUESTIONS


@pytest.fixture
def files(tmp_path, monkeypatch):
    return toy_audit.write(tmp_path, monkeypatch)


def table(files, *flags: str) -> dict[str, list[str]]:
    """The run's table rows by name: n, then the parrot's F1, recall and declined share."""
    out = io.StringIO()
    args = cli.parser().parse_args(["-data", str(files / "d.json"), "-arms", "toy_plugins:Parrot", "-quiet",
                                    "-jobs", "1", *flags])
    assert cli.run(args, out) == 0
    return {line[:14].strip(): line[14:].split() for line in out.getvalue().splitlines()[6:] if line.strip()}


def test_the_official_key_grades_every_question_against_the_datasets_gold(files):
    rows = table(files)
    assert rows["single hop"] == ["4", "0.500", "0.250", "0%"]  # clean 1/1, hallucination 0/0, attribution 0/0,
    assert rows["multi hop"] == ["1", "0.000", "0.000", "0%"]  # citation: F1 1 against "Paris", recall 0 (D1:1)
    assert rows["temporal"] == ["1", "0.000", "0.000", "0%"]
    assert rows["open domain"] == ["1", "1.000", "1.000", "0%"]  # "Paris; she went" is cut at ";"
    assert rows["answerable"] == ["7", f"{3 / 7:.3f}", f"{2 / 7:.3f}", "0%"]
    assert "ambiguous" not in rows


def test_the_audited_key_grades_against_the_corrections_and_holds_the_ambiguous_apart(files, capsys):
    rows = table(files, "-key", "audited")
    assert rows["single hop"] == ["4", "1.000", "1.000", "0%"]  # hallucination and attribution corrected to
    assert rows["multi hop"] == ["1", "0.500", "1.000", "0%"]  # Paris; citation keeps its answer, not the note
    assert rows["temporal"] == ["1", "1.000", "1.000", "0%"]
    assert rows["open domain"] == ["0", "0.000", "0.000", "0%"]  # the ambiguous question is in no category
    assert rows["answerable"] == ["6", f"{5.5 / 6:.3f}", "1.000", "0%"]
    assert rows["overall"][0] == "7"
    assert rows["ambiguous"] == ["1", "1.000", "1.000", "0%"]  # graded against the official gold, apart
    assert "key:audited-" in capsys.readouterr().err


def test_key_gold_is_a_function_of_the_question_and_its_official_gold(files):
    key = load("audited")
    official = Key()
    for i, (_, _, answer, evidence, kind, corrected, fixed) in enumerate(QUESTIONS):
        assert official.gold(0, i, answer, tuple(evidence)).answer == answer
        gold = key.gold(0, i, answer, tuple(evidence))
        if kind in (None, "WRONG_CITATION", "AMBIGUOUS"):
            assert gold.answer == answer
        else:
            assert gold.answer == corrected
        assert gold.evidence == tuple(fixed if kind not in (None, "AMBIGUOUS") else evidence)
        assert gold.held == (kind == "AMBIGUOUS")
