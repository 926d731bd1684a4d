"""Every ``--format`` of ``compare`` reads back to the same table: csv with the csv module and json with the
json module give the exact figures, markdown and latex the same rows and cells rounded to three places; json
and markdown carry a results file's evidence and cost per column, a predictions file's none."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from locomo_repro import cli
from locomo_repro.score.compare import COST_FIELDS, FIELDS


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("formats")
    argv = ["-only", "2", "-jobs", "1", "-quiet", "-arms", "read", "-out", str(folder / "p_1.json"),
            "-json", str(folder / "r.json")]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    return [str(folder / "r.json"), str(folder / "p_1.json")]


def printed(capsys, files, *flags: str) -> str:
    capsys.readouterr()
    assert cli.main(["compare", *files, *flags]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def exact(files):
    """The json format's rows, read with the json module."""
    out = io.StringIO()
    from contextlib import redirect_stdout

    with redirect_stdout(out):
        assert cli.main(["compare", *files, "--format", "json"]) == 0
    document = json.loads(out.getvalue())
    assert document["schema"] == "locomo-repro/compare" and document["version"] == 1
    assert document["baseline"] == "r.json oracle" and document["notes"] == []
    assert [f["kind"] for f in document["files"]] == ["results", "predictions"]
    return document["rows"]


def rounded(row: dict) -> list[str]:
    def cell(field: str) -> str:
        value = row[field]
        if value is None:
            return ""
        if isinstance(value, float):
            return f"{value:+.3f}" if field in ("diff", "low", "high") else f"{value:.3f}"
        return str(value)

    return [cell(f) for f in FIELDS]


def test_json_rows_cover_every_row_and_column(exact):
    assert len(exact) == 7 * 4 and all(list(row) == list(FIELDS) for row in exact)
    assert {row["column"] for row in exact} == {"r.json oracle", "r.json oracle+set", "p_1.json oracle",
                                                "p_1.json oracle+set"}


def test_csv_reads_back_to_the_exact_figures(files, exact, capsys):
    rows = list(csv.DictReader(io.StringIO(printed(capsys, files, "--format", "csv"))))
    assert len(rows) == len(exact)
    for got, want in zip(rows, exact):
        for field in FIELDS:
            value = want[field]
            assert got[field] == ("" if value is None else str(value)) if not isinstance(value, float) else \
                float(got[field]) == value


def test_markdown_is_the_default_and_reads_back_to_the_rounded_figures(files, exact, capsys):
    text = printed(capsys, files)
    assert text == printed(capsys, files, "--format", "markdown") == printed(capsys, files, "-format", "markdown")
    lines = text.splitlines()
    assert [c.strip() for c in lines[0].strip("|").split("|")] == list(FIELDS)
    end = lines.index("")  # then the cost table
    body = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:end]]
    assert body == [rounded(row) for row in exact]
    assert [c.strip() for c in lines[end + 1].strip("|").split("|")] == list(COST_FIELDS)
    costs = [[c.strip() for c in line.strip("|").split("|")] for line in lines[end + 3:]]
    assert [row[0] for row in costs] == ["r.json oracle", "r.json oracle+set", "p_1.json oracle", "p_1.json oracle+set"]
    assert costs[2][1:] == [""] * 9  # a predictions file has neither evidence nor cost


def test_json_costs_are_the_results_files_evidence_and_cost(files, capsys):
    document = json.loads(printed(capsys, files, "--format", "json"))
    ran = json.loads(Path(files[0]).read_text())
    for row in document["costs"][:2]:
        arm = row["column"].split()[-1]
        shown, cost = ran["passes"][0]["arms"][arm]["evidence"], ran["cost"][arm]
        assert (row["evidence_turns"], row["evidence_characters"], row["evidence_words"]) == (
            shown["turns"], shown["characters"], shown["words"])
        assert (row["build_seconds"], row["calls"], row["p50_seconds"], row["p99_seconds"], row["failures"]) == (
            cost["build"]["seconds"], cost["calls"]["n"], cost["calls"]["p50"], cost["calls"]["p99"], cost["failures"])
    assert all(value is None for row in document["costs"][2:] for key, value in row.items() if key != "column")
    assert json.loads(printed(capsys, files[1:], "--format", "json"))["costs"] == []  # no file with costs


def test_latex_reads_back_to_the_rounded_figures(files, exact, capsys):
    text = printed(capsys, files, "--format", "latex")
    lines = text.splitlines()
    assert lines[0].startswith(r"\begin{tabular}") and lines[-1] == r"\end{tabular}"
    body = lines[lines.index(r"\midrule") + 1: lines.index(r"\bottomrule")]
    cells = [[c.strip() for c in line.removesuffix(r"\\").split("&")] for line in body]
    assert cells == [[c.replace("_", r"\_") for c in rounded(row)] for row in exact]
