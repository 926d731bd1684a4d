"""The test summary shows what the suite measured and reported without judging it; fixtures that several
test files share.

A test that measures a figure of the machine (a claim of status ``reported``,
such as a timing) records it as the user property ``reported``; those lines are
printed in a section of their own at the end of the run.
"""

from __future__ import annotations

import importlib.util
import json

import pytest


@pytest.fixture
def matplotlib_found(monkeypatch):
    """The report's check for matplotlib finds it (a stand-in spec), so a test of bad input needs no plotting."""
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: real("json") if name == "matplotlib" else real(name, *a))


@pytest.fixture
def judge_argv(tmp_path) -> list[str]:
    """``refined judge`` over one question, a wrong prediction and a prompt file, written into ``tmp_path``."""
    (tmp_path / "q.jsonl").write_text(json.dumps(
        {"qa_id": "s#q0", "conversation_idx": 0, "qa_index": 0, "question": "Q?", "answer": ["A"], "category": "1"}
    ) + "\n")
    (tmp_path / "p.jsonl").write_text(json.dumps({"qa_id": "s#q0", "predicted_answer": "not it"}) + "\n")
    (tmp_path / "prompt.txt").write_text("{question} {gold_answer} {generated_answer}")
    return ["judge", "--questions", str(tmp_path / "q.jsonl"), "--predictions", str(tmp_path / "p.jsonl"),
            "--judge-prompt", str(tmp_path / "prompt.txt")]


def pytest_terminal_summary(terminalreporter) -> None:
    lines = [
        value
        for report in terminalreporter.stats.get("passed", [])
        for name, value in getattr(report, "user_properties", ())
        if name == "reported"
    ]
    if lines:
        terminalreporter.section("measured here and reported, not asserted")
        for line in lines:
            terminalreporter.write_line(line)
