"""``locomo-repro bench --proof-runs N``: the commands that check every published number (the main test
lane, the claims, the report, ``pytest -k reach``) measured N times each, run by this interpreter from the
kit's checkout, in a table of their own under the speed table; refused in one line elsewhere."""

from __future__ import annotations

import os
import sys

from locomo_repro.bench import perf
from locomo_repro.bench.perf import Row, Usage


def test_each_proof_row_is_run_by_this_interpreter_runs_times(monkeypatch):
    calls: list[tuple[tuple[str, ...], list[str]]] = []

    def fake(flags, command=perf.KIT):
        calls.append((tuple(command), list(flags)))
        if "report" in flags:
            assert os.path.isdir(os.path.dirname(flags[-1]))  # the report is written into a temporary folder
        return Usage(1.0, 2.0, 3.0)

    monkeypatch.setattr(perf, "measure", fake)
    measured = perf.proof(2)
    assert [r.label for r in measured] == [label for label, _ in perf.PROOF]
    assert all(len(r.kit) == 2 and r.ref == [] for r in measured)
    assert {command for command, _ in calls} == {(sys.executable,)}
    assert calls[0][1] == calls[1][1] == ["-m", "pytest", "-q", "-m", "not browser"]
    assert calls[-1][1] == ["-m", "pytest", "-q", "-k", "reach"]
    assert calls[2][1] == ["-m", "locomo_repro", "claims"]
    report = calls[4][1]
    assert report[:4] == ["-m", "locomo_repro", "report", "-o"] and report[4].endswith("/report.html")
    assert not os.path.exists(os.path.dirname(report[4]))  # gone with its folder


def test_the_proof_is_a_table_under_the_speed_table(monkeypatch, capsys):
    monkeypatch.setattr(perf, "rows", lambda runs, vs, data, only, env: [Row("default table", [Usage(1.0, 1.0, 50.0)], [])])
    monkeypatch.setattr(perf, "proof", lambda runs: [Row("`locomo-repro claims`", [Usage(20.0, 15.0, 300.0)] * runs,
                                                         [])])
    assert perf.main(["--runs", "1", "--proof-runs", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index("The proof, from the kit's checkout:")
    assert out[at + 2].startswith("Median of 3 runs on ") and out[at + 4:] == [
        "| run | CPU | wall | peak |", "|---|---|---|---|", "| `locomo-repro claims` | 20.00 s | 15.00 s | 300 MiB |"]


def test_the_proof_is_refused_in_one_line_outside_the_checkout(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(perf, "rows", lambda *a: (_ for _ in ()).throw(AssertionError("measured")))
    assert perf.main(["--proof-runs", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("locomo-repro bench: error: --proof-runs runs the kit's tests: run it from the kit's "
                                 "checkout (tests/ and claims.yaml in the current folder)\n")
    assert perf.main(["--proof-runs", "-1"]) == 2
    assert capsys.readouterr().err == "locomo-repro bench: error: --proof-runs takes a count of 0 or more, got -1\n"
