"""``compare`` of a file with itself: the second copy's column of the first arm differs from the first column
by exactly 0, with the interval [0, 0], on every row; every other column differs from it as the first copy's
does.  A run's results file and its own ``-out`` file compare the same way: equal figures, zero differences.
``--baseline`` puts the column it names first, the one the others are differenced from.
"""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from refused import one_line


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("self")
    argv = ["-only", "2", "-jobs", "1", "-quiet", "-out", str(folder / "p.json"), "-json", str(folder / "r.json")]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    return folder / "r.json", folder / "p.json"


def compare(capsys, *paths) -> dict:
    assert cli.main(["compare", *map(str, paths), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def by_column(document: dict) -> dict[str, dict[str, dict]]:
    out: dict[str, dict[str, dict]] = {}
    for row in document["rows"]:
        out.setdefault(row["column"], {})[row["category"]] = row
    return out


@pytest.mark.parametrize("second", [0, 1], ids=["results file twice", "results file and its predictions file"])
def test_the_same_answers_differ_by_exactly_zero_with_a_zero_interval(files, capsys, second):
    one, two = files[0], files[second]
    got = by_column(compare(capsys, one, two))
    labels = list(got)
    half = len(labels) // 2
    assert half == 4 and labels[0] == ("r.json#1 graph" if second == 0 else "r.json graph")
    for first, again in zip(labels[:half], labels[half:]):
        assert first.split()[-1] == again.split()[-1]
        for key, row in got[again].items():
            mine = got[first][key]
            assert (row["n"], row["f1"], row["recall"], row["quiet"]) == (mine["n"], mine["f1"], mine["recall"],
                                                                          mine["quiet"])
            if first == labels[0]:
                assert mine["diff"] is None and (row["diff"], row["low"], row["high"]) == (0.0, 0.0, 0.0)
            else:
                assert (row["diff"], row["low"], row["high"]) == (mine["diff"], mine["low"], mine["high"])
    assert len(got[labels[0]]) == 7


def test_baseline_chooses_the_column_the_others_are_differenced_from(files, capsys):
    one, two = files
    got = by_column(compare(capsys, one, two, "--baseline", "p.json oracle"))
    assert list(got)[0] == "p.json oracle"
    assert all(got["r.json oracle"][key]["diff"] == 0.0 for key in got["r.json oracle"])
    assert all(got["p.json oracle"][key]["diff"] is None for key in got["p.json oracle"])
    assert compare(capsys, one, "--baseline", "vector")["baseline"] == "r.json vector"  # the last word of one label


@pytest.mark.parametrize(("name", "says"), [
    ("oracle", "--baseline oracle: 2 columns are (r.json oracle, p.json oracle) labelled so"),
    ("bm25", "--baseline bm25: no column is labelled so; the columns: r.json graph, "),
])
def test_a_baseline_that_names_no_single_column_is_one_line(files, capsys, name, says):
    one_line(capsys, cli.main(["compare", *map(str, files), "--baseline", name]), says)
