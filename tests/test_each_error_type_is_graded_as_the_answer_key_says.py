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


def _single_hop(command: str, out: str) -> str:
    """The single hop figure a reader prints: the parrot's F1 (table, compare), the question count (stats)."""
    line = next(li for li in out.splitlines() if "single hop" in li)
    if command == "table":
        return line.split()[5]
    if command == "compare":
        return line.split("|")[5].strip()
    return next(li for li in out.splitlines() if li.startswith("answerable")).split()[1]


@pytest.mark.parametrize("command", ["table", "compare", "stats"])
def test_a_predictions_file_is_graded_under_the_key_by_every_reader(files, capsys, monkeypatch, command):
    """The run's -out file (official gold) read back under the audited key: single hop's F1 is 1, as the run
    under that key prints it, where it is 0.5 under the official key; the ambiguous question is left out (stats:
    6 answerable questions, not 7)."""
    monkeypatch.setenv("LOCOMO_DATA", str(files / "d.json"))
    table(files, "-out", str(files / "p.json"))
    capsys.readouterr()
    got = {}
    for name in ("official", "audited"):
        assert cli.main([command, str(files / "p.json"), "-key", name]) == 0
        got[name] = capsys.readouterr()
    want = ("7", "6") if command == "stats" else ("0.500", "1.000")
    assert (_single_hop(command, got["official"].out), _single_hop(command, got["audited"].out)) == want
    assert "1 ambiguous questions held apart" in got["audited"].err and "held apart" not in got["official"].err


def test_a_model_run_is_graded_under_the_key(files, monkeypatch):
    """-model: a loopback model that answers "Paris" to everything (floor 0: every question is put to it) is
    graded against the corrected gold."""
    from stub_server import Stub, completion

    monkeypatch.setenv("HANZO_API_KEY", "sekret")
    with Stub(lambda body, n: (200, completion("Paris"), 0)) as stub:
        got = {}
        for name in ("official", "audited"):
            out = io.StringIO()
            args = cli.parser().parse_args(["-data", str(files / "d.json"), "-arms", "read", "-quiet",
                                            "-model", "stub", "-base", stub.base_url, "-memo", "", "-floor", "0", "-key", name])
            assert cli.run(args, out) == 0
            got[name] = {line[:14].strip(): line[14:].split() for line in out.getvalue().splitlines()
                         if line[:14].strip() in ("single hop", "ambiguous")}
    assert got["official"]["single hop"][4] == "0.500" and got["audited"]["single hop"][4] == "1.000"
    assert "ambiguous" not in got["official"] and got["audited"]["ambiguous"][4] == "1.000"
