"""refined judge refuses a timeout or a pause that is not a finite number of seconds (nan, inf) and a base URL
the HTTP library cannot use, in one line, exit 2."""

from __future__ import annotations

import pytest

from locomo_repro.refined.__main__ import main


@pytest.fixture
def argv(judge_argv):
    return [*judge_argv, "--base-url", "http://127.0.0.1:9/v1"]


@pytest.mark.parametrize("extra", [
    ["--rate-limit-wait", "0", "inf"],
    ["--rate-limit-wait", "nan", "1"],
    ["--timeout", "nan"],
    ["--timeout", "inf"],
    ["--retry-wait", "nan"],
    ["--retry-wait", "inf"],
])
def test_a_wait_that_is_not_finite_is_refused(argv, extra, capsys, tmp_path):
    assert main(argv + extra) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: argument --") and "finite" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl", "prompt.txt", "q.jsonl"]


@pytest.mark.parametrize("base", ["http://[::1", "http://127.0.0.1:port/v1"])
def test_a_malformed_base_url_is_refused(argv, base, capsys):
    assert main(argv + ["--base-url", base]) == 2
    assert capsys.readouterr().err == f"error: --base-url must be an http(s) URL, got {base!r}\n"
