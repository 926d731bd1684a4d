"""Every ``--format`` of ``judge stats`` is ``compare``'s and reads back to the same table: json and csv the
exact figures, markdown (the default) and latex the same rows with figures rounded to three places."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

import pytest
from judged_files import verdict, write

from locomo_repro import cli
from locomo_repro.judge.stats import FIELDS


@pytest.fixture
def path(tmp_path) -> str:
    made = [verdict(c, i, k, s, repeat=r) for c, k in (("a", 4), ("b", 2)) for i in range(3)
            for r, s in enumerate((1.0, float(i % 2)))]
    return str(write(tmp_path / "j.json", made))


def printed(capsys, *argv: str) -> str:
    capsys.readouterr()
    assert cli.main(["judge", "stats", *argv]) == 0
    return capsys.readouterr().out


def shown(value: object) -> str:
    return "" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def test_json_csv_markdown_and_latex_hold_the_same_rows(path, capsys):
    capsys.readouterr()
    assert cli.main(["judge", "stats", path, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert (document["schema"], document["version"]) == ("locomo-repro/judge-stats", 1)
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:8]
    (said,) = [line for line in err.splitlines() if line.startswith("signature: ")]
    assert said.endswith(f"|judged:{digest}|shape:kit|scorer:kit")
    assert document["files"] == [{"path": path, "shape": "kit", "signature": said.removeprefix("signature: ")}]
    rows = document["rows"]
    assert rows and all(list(row) == list(FIELDS) for row in rows)
    read_back = list(csv.DictReader(io.StringIO(printed(capsys, path, "--format", "csv"))))
    assert [[r[f] for f in FIELDS] for r in read_back] == [
        ["" if row[f] is None else repr(row[f]) if isinstance(row[f], float) else str(row[f]) for f in FIELDS]
        for row in rows]
    markdown = printed(capsys, path)
    assert markdown == printed(capsys, path, "--format", "markdown")
    lines = markdown.splitlines()
    assert [c.strip() for c in lines[0].strip("|").split("|")] == list(FIELDS)
    assert [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]] == [
        [shown(row[f]) for f in FIELDS] for row in rows]
    latex = printed(capsys, path, "--format", "latex")
    assert latex.startswith("\\begin{tabular}") and latex.count("\\\\") == len(rows) + 1
