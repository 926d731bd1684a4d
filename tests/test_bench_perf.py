"""bench_perf: one measured run of a small benchmark command, and its refusals."""

from __future__ import annotations

import re
import sys

import pytest

from locomo_repro.bench import perf as bench_perf

from locomo_repro.data import dataset

LINE = re.compile(r"  (median|best  )  cpu +(\d+\.\d\d) s   wall +(\d+\.\d\d) s   peak rss +(\d+\.\d) MiB")


@pytest.mark.slow
def test_one_run_of_one_conversation_prints_median_and_best(capsys):
    data = str(dataset.resolve())
    assert bench_perf.main(["--runs", "1", "--", "-data", data, "-only", "1", "-quiet"]) == 0
    out, err = capsys.readouterr()
    head, *rows = out.splitlines()
    assert head == f"locomo-repro -data {data} -only 1 -quiet: 1 runs" and err == ""
    found = [LINE.fullmatch(row) for row in rows]
    assert len(found) == 2 and all(found), rows
    assert [m.group(1).strip() for m in found] == ["median", "best"]
    # with one run, the median and the best are that run
    assert found[0].groups()[1:] == found[1].groups()[1:]
    cpu, wall, rss = (float(x) for x in found[0].groups()[1:])
    assert cpu > 0 and wall > 0 and rss > 20  # a Python interpreter with numpy loaded


def test_zero_runs_is_refused_in_one_line(capsys):
    assert bench_perf.main(["--runs", "0"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "locomo-repro bench: error: --runs must be at least 1, got 0\n"


def test_a_failing_child_is_reported_with_its_last_stderr_line():
    with pytest.raises(SystemExit) as failed:
        bench_perf.measure(["-k", "0"])
    message = str(failed.value.code)
    assert message.startswith("locomo-repro -k 0 exited with status 2: ")
    assert "-k must be at least 1, got 0" in message and "\n" not in message


def test_a_failing_child_that_says_nothing_on_stderr_is_reported_with_its_last_stdout_line(tmp_path):
    session = tmp_path / "session.py"  # as a test session prints its summary: on stdout, last
    session.write_text("import sys\nprint('F.')\nprint('1 failed, 1 passed in 0.01s')\nprint()\nsys.exit(1)\n")
    with pytest.raises(SystemExit) as failed:
        bench_perf.measure([str(session)], (sys.executable,))
    assert str(failed.value.code) == f"{sys.executable} {session} exited with status 1: 1 failed, 1 passed in 0.01s"
