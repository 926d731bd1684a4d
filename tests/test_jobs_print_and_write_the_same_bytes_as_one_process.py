"""-jobs: conversations built and asked in worker processes print and write what one process does.

The run gathers conversations one by one (``bench.stream``); its table and
predictions file are also checked against ``bench.experiment``'s functions over
all the cases at once, the way the kit computed them before it streamed.
"""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from locomo_repro.bench import experiment as bench
from locomo_repro.bench import stream
from locomo_repro.go.json import dumps


def run(tmp_path, *argv: str) -> tuple[str, bytes | None]:
    """stdout of ``locomo-repro -only 2 ARGV -out FILE`` and the file's bytes (``None`` when not written)."""
    target = tmp_path / "answers.json"
    target.unlink(missing_ok=True)
    args = cli.parser().parse_args(["-only", "2", *argv, "-out", str(target)])
    out = io.StringIO()
    assert cli.run(args, out) == 0
    return out.getvalue(), target.read_bytes() if target.exists() else None


@pytest.mark.slow
@pytest.mark.parametrize("argv", [[], ["-arms", "walk", "-show", "3"]], ids=["main", "walk-show"])
def test_two_jobs_print_and_write_what_one_job_does(tmp_path, samples, argv):
    one = run(tmp_path, *argv, "-jobs", "1")
    two = run(tmp_path, *argv, "-jobs", "2")
    assert two == one

    # and what the functions over all cases at once compute
    cases = bench.build(samples[:2], cli.parser().parse_args(argv).arms)
    records = bench.run(cases, cli.options(cli.parser().parse_args([])))
    printed, written = one
    assert bench.table(records) in printed and bench.build_lines(cases) in printed
    assert written == dumps(stream.predictions(samples[:2], records)).encode()


@pytest.mark.slow
def test_a_sweep_with_two_jobs_prints_what_one_job_does(tmp_path, samples, capsys):
    one = run(tmp_path, "-sweep", "parts", "-jobs", "1")
    two = run(tmp_path, "-sweep", "parts", "-jobs", "2")
    assert two == one and one[1] is None
    cases = bench.build(samples[:2])
    assert one[0].endswith(bench.sweep(cases, cli.options(cli.parser().parse_args([])), "parts"))


def test_jobs_below_one_are_refused():
    with pytest.raises(cli.UsageError, match="^-jobs must be at least 1, got 0$"):
        cli.options(cli.parser().parse_args(["-jobs", "0"]))


@pytest.mark.slow
def test_a_bad_sample_after_good_ones_is_one_line_with_nothing_written(tmp_path, samples, capsys):
    """Conversations are read as they are asked, yet a bad one further on still refuses the whole file."""
    from locomo_repro.data import dataset

    raw = json.loads(dataset.resolve().read_bytes())[:1] + [{"sample_id": "bad", "qa": []}]
    data = tmp_path / "bad.json"
    data.write_text(json.dumps(raw))
    assert cli.main(["-data", str(data), "-jobs", "2", "-out", str(tmp_path / "answers.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"locomo-repro: {data}: sample bad: missing field 'conversation'\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]
