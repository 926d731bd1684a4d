"""Under ``-key audited`` the questions the audit leaves open are held apart however the run is split: with
worker processes the table is the one process's, byte for byte, with its ``ambiguous`` row (a question once
came back from a worker not held, so a run with workers graded all 13 in their categories)."""

from __future__ import annotations

import io

import pytest

from locomo_repro import cli


def table(*flags: str) -> str:
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args(["-key", "audited", "-conversations", "conv-26,conv-30,conv-41",
                                            "-quiet", *flags]), out) == 0
    return out.getvalue()


@pytest.mark.slow
@pytest.mark.outside("LOCOMO_AUDIT")
def test_workers_hold_apart_the_questions_one_process_holds_apart():
    alone = table("-jobs", "1")
    ambiguous = [line for line in alone.splitlines() if line.startswith("ambiguous")]
    assert ambiguous and int(ambiguous[0].split()[1]) > 0
    assert table("-jobs", "2") == alone
