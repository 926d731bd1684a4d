"""The command line: the reference's flag spellings, usage errors, and where output goes.

Cases follow main.go of hanzoai/semantic bench/locomo (Go's ``flag`` package
accepts ``-k 5``, ``-k=5``, ``--k 5`` and ``--k=5`` alike).
"""

from __future__ import annotations

import io

import pytest

from locomo_repro import cli

# (argv, what the one-line error must say) — each refused before any data is read.
USAGE_ERRORS = [
    (["-k", "0"], "-k must be at least 1"),
    (["-floor", "1.5"], "-floor must be within [0, 1]"),
    (["-floor", "-0.1"], "-floor must be within [0, 1]"),
    (["-band", "2"], "-band must be within [0, 1]"),
    (["-span", "0"], "-span must be at least 1"),
    (["-parts", "0"], "-parts must be at least 1"),
    (["-show", "-1"], "-show, -only and -limit take a count"),
    (["-arms", "nope"], "-arms nope: no such arm set or installed plug-in (see -arms list)"),
    (["-sweep", "depth"], "invalid choice: 'depth'"),
    (["-k", "five"], "invalid int value: 'five'"),
    (["-frobnicate"], "unrecognized arguments: -frobnicate"),
]


@pytest.mark.parametrize(("argv", "says"), USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_usage_error_is_one_line_and_exit_2(argv, says, capsys, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", "/nonexistent/locomo10.json")  # never reached
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and says in err and err.startswith("locomo-repro: ")


SPELLINGS = [["-k", "7"], ["-k=7"], ["--k", "7"], ["--k=7"]]


@pytest.mark.parametrize("argv", SPELLINGS, ids=[" ".join(a) for a in SPELLINGS])
def test_go_flag_spellings_are_all_accepted(argv):
    assert cli.options(cli.parser().parse_args(argv)).k == 7


def test_defaults_are_the_published_settings():
    args = cli.parser().parse_args([])
    opts = cli.options(args)
    assert (opts.k, opts.floor, opts.span, opts.band, opts.parts) == (5, 0.3, 4, 0.9, 2)
    assert args.arms == "main" and not args.blind and not args.quiet


def test_quick_run_prints_the_table_on_stdout_only(samples, capsys):
    """-only 1 -quiet: counts line, subject line, header and table; only the signature on stderr."""
    out = io.StringIO()
    args = cli.parser().parse_args(["-only", "1", "-quiet"])
    assert cli.run(args, out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "1 conversations, 19 sessions, 419 turns, 199 questions"
    assert lines[2].startswith("questions naming a speaker ")
    assert lines[4] == "k=5 floor=0.30 span=4 band=0.90 parts=2"
    assert lines[-1].startswith("overall          199 ")
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("signature: locomo-repro:")  # then what each arm cost, measured
    assert [line.split(":")[1] for line in err[1:]] == [f" cost of {arm}" for arm in ("graph", "graph+edge", "oracle",
                                                                                      "vector")]


@pytest.mark.slow
def test_sweep_progress_goes_to_stderr(samples, capsys):
    out = io.StringIO()
    args = cli.parser().parse_args(["-only", "1", "-sweep", "parts"])
    assert cli.run(args, out) == 0
    assert len(out.getvalue().splitlines()) == 3 + 2 + 4  # counts, blank, subjects; header; four values
    assert capsys.readouterr().err.count("parts=") == 4


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_show_over_conversations_without_questions_prints_the_headings_alone(tmp_path, capsys, jobs):
    data = tmp_path / "d.json"
    data.write_text(
        '[{"sample_id": "s1", "qa": [], "conversation": {"speaker_a": "Ann", "speaker_b": "Bob",'
        ' "session_1_date_time": "1:56 pm on 8 May, 2023",'
        ' "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I went to Paris."}]}}]'
    )
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args(["-data", str(data), "-quiet", "-show", "3", "-jobs", jobs]), out) == 0
    shown = out.getvalue()[out.getvalue().index("\n== single hop ==") :]
    assert shown == "".join(f"\n== {name} ==\n" for name in ("single hop", "multi hop", "temporal", "open domain",
                                                              "adversarial"))
