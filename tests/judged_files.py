"""Tiny judged files in the kit's own shape, written by the tests of ``judge stats``: every verdict given as
(conversation, question index, category, score, repeat, arm, reply, gold), the rest filled in."""

from __future__ import annotations

import json
from pathlib import Path

from locomo_repro.judge.verdicts import Verdict, dumps


def verdict(sample: str, qa: int, category: int, score: float | None, repeat: int = 0, arm: str = "mine",
            reply: str = "a reply", gold: str = "a gold", label: str | None = None, reason: str = "") -> Verdict:
    """One verdict; its label says its score (``correct`` 1, ``wrong`` 0, else the number) unless given."""
    said = label if label is not None else {1.0: "correct", 0.0: "wrong", None: ""}.get(score, str(score))
    return Verdict(sample_id=sample, qa=qa, category=category, question=f"question {sample} {qa}", gold=gold,
                   reply=reply, arm=arm, label=said, score=score, judge="test", repeat=repeat,
                   reason=reason or ("the endpoint answered 500" if score is None else ""))


def write(path: Path, verdicts: list[Verdict]) -> Path:
    """The kit's judged file holding ``verdicts``."""
    path.write_text(dumps(verdicts, {"name": "test", "model": "rule"}, "signature: test"))
    return path


def stats(capsys, main, *argv: str) -> dict:
    """``judge stats ARGV --format json`` run, exit status 0, its table decoded."""
    capsys.readouterr()
    assert main(["stats", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def cell(table: dict, figure: str, row: str, arm: str | None = None) -> dict:
    """The one row of ``figure`` on ``row`` (of ``arm`` when given)."""
    (found,) = [r for r in table["rows"] if r["figure"] == figure and r["row"] == row and arm in (None, r["arm"])]
    return found
