"""Every subcommand parses its flags on one base (``go.flags.Parser``): whole names only (no ``--eval`` for
``--evaluation-py``), one-line errors with exit status 2, numbers checked (an int64, a finite float, a wait a
clock can keep), no control character in any argument (a model name with a newline would forge a second
signature line).  Beside it: a judge prompt's placeholders are plain, ``bench_perf --readme`` checks its
markers before measuring, and text given to matplotlib is not read as mathtext."""

from __future__ import annotations

import pytest

from refused import one_line
from locomo_repro import cli
from locomo_repro.bench import perf
from locomo_repro.bench.reach import main as reach_main
from locomo_repro.claims.report import main as claims_main
from locomo_repro.go import flags
from locomo_repro.refined import judge
from locomo_repro.refined.__main__ import main as refined_main
from locomo_repro.report.cli import main as report_main
from locomo_repro.score import crosscheck, golden, signature, stats


def status(command, argv: list[str]) -> int:
    """The exit status of ``command(argv)``, whether it returns it or raises SystemExit."""
    try:
        return command(argv)
    except SystemExit as done:
        return int(done.code or 0)



ABBREVIATED = [
    (crosscheck.main, ["x.json", "--eval", "e.py"], "--eval"),
    (refined_main, ["score", "--pred", "p.jsonl"], "--pred"),
    (cli.main, ["import", "--arm", "a=x.json", "--ou", "o.json"], "--ou"),
    (report_main, ["--onl", "1"], "--onl"),
    (golden.main, ["--ou", "G"], "--ou"),
    (reach_main, ["--onl", "1"], "--onl"),
    (claims_main, ["--man", "m.yaml"], "--man"),
    (refined_main, ["export", "--max", "1"], "--max"),
    (stats.main, ["--fil", "x.json"], "--fil"),
    (perf.main, ["--run", "1"], "--run"),
]


@pytest.mark.parametrize(("command", "argv", "flag"), ABBREVIATED, ids=[" ".join(a) for _, a, _ in ABBREVIATED])
def test_an_abbreviated_flag_is_unknown_in_every_command(command, argv, flag, capsys, monkeypatch, matplotlib_found):
    monkeypatch.setenv("LOCOMO_DATA", "/nonexistent/locomo10.json")  # never reached
    line = one_line(capsys, status(command, argv), flag)
    assert "unrecognized arguments" in line or "required" in line


@pytest.mark.parametrize(("extra", "says"), [
    (["--concurrency", "x"], "argument --concurrency: invalid int value: 'x'"),
    (["--timeout", "1e300"], "argument --timeout: invalid value '1e300': seconds from 0 to"),
    (["--retry-wait", "1e300"], "argument --retry-wait: invalid value '1e300'"),
    (["--rate-limit-wait", "0", "1e300"], "argument --rate-limit-wait: invalid value '1e300'"),
    (["--attempts", str(2**63)], "value out of range"),
])
def test_refined_judge_numbers_are_checked_in_one_line(judge_argv, extra, says, capsys, tmp_path):
    one_line(capsys, refined_main([*judge_argv, *extra]), "error: ", says)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl", "prompt.txt", "q.jsonl"]


@pytest.mark.parametrize("placeholder", ["{question:d}", "{question!z}", "{question:>99999999999}", "{question!r}"])
def test_a_prompt_placeholder_with_a_conversion_or_spec_is_refused(judge_argv, placeholder, capsys, tmp_path):
    (tmp_path / "prompt.txt").write_text(f"{placeholder} {{gold_answer}} {{generated_answer}}")
    one_line(capsys, refined_main(judge_argv), str(tmp_path / "prompt.txt"), "has a conversion or format spec")
    with pytest.raises(judge.PromptError):
        judge.check_template(placeholder, "t")


@pytest.mark.parametrize("name", ["gpt\nsignature: forged", "gpt\r", "gpt\x1b[2K"])
def test_a_model_name_with_a_control_character_is_refused_and_never_signed(name, capsys, monkeypatch):
    monkeypatch.setenv("HANZO_API_KEY", "k")
    line = one_line(capsys, cli.main(["-model", name, "-data", "/nonexistent"]),
                    "locomo-repro: the value of -model holds a control character")
    assert "forged" not in line
    with pytest.raises(ValueError, match="control character"):
        signature.Signature((("model", name),))


def test_a_judge_model_from_the_environment_with_a_line_break_is_refused(judge_argv, capsys, monkeypatch):
    monkeypatch.setenv("EVALUATOR_MODEL", "qwen3-14b\nsignature: forged")
    one_line(capsys, refined_main([*judge_argv, "--base-url", "http://127.0.0.1:9/v1"]),
             "error: the judge model name", "holds a control character")


def test_the_parser_base_keeps_whole_names_and_glued_values_with_an_equals_sign():
    p = flags.Parser(prog="t")
    p.add_argument("--evaluation-py")
    p.add_argument("-k", type=int)
    assert vars(p.parse_args(["--evaluation-py=e.py", "-k=5"])) == {"evaluation_py": "e.py", "k": 5}
    for argv in (["--eval", "e.py"], ["-k5"], ["-k", "nan"], ["-k", "1e3"]):
        with pytest.raises(flags.UsageError):
            p.parse_args(argv)


def test_every_flag_spelt_with_two_dashes_is_read_with_one():
    p = flags.Parser(prog="t")
    p.add_argument("--evaluation-py")
    p.add_argument("-k", type=int)
    p.add_argument("rest", nargs="*")
    got = p.parse_args(["-evaluation-py", "e.py", "-k", "5", "--", "-evaluation-py"])
    assert vars(got) == {"evaluation_py": "e.py", "k": 5, "rest": ["-evaluation-py"]}
    assert p.parse_args(["-evaluation-py=f.py"]).evaluation_py == "f.py"
    with pytest.raises(flags.UsageError):
        p.parse_args(["-eval", "e.py"])  # still whole names only


def test_refined_predict_reads_one_dash_flags_like_every_other_command(capsys, tmp_path):
    assert refined_main(["predict", "-arm", "toy_plugins:Missing", "-out", str(tmp_path / "p.jsonl")]) == 2
    one_line(capsys, 2, "toy_plugins has no attribute Missing")


def test_bench_perf_refuses_a_readme_without_markers_before_measuring(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(perf, "measure", lambda *a, **k: pytest.fail("measured"))
    readme = tmp_path / "R.md"
    readme.write_text("# no markers\n")
    assert perf.main(["--readme", str(readme)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (f"locomo-repro bench: error: {readme}: no {perf.BEGIN} … {perf.END} "
                                 "lines to write the table between\n")


@pytest.mark.parametrize("name", ["a$^$b", "x$\\foo$", "p$_$.json"])
def test_text_given_to_matplotlib_is_shown_as_written(name):
    pytest.importorskip("matplotlib")
    from locomo_repro.report import plots
    from locomo_repro.report.figures import Difference, Estimate

    svg = plots.intervals([Estimate(name, "1", "1 multi hop", 3, 0.5, 0.4, 0.6)], "f", f"{name}: intervals")
    assert svg.startswith("<svg")
    assert plots.differences([Difference(name, "b", "answerable", 0.1, 0.0, 0.2)], "g", name).startswith("<svg")
