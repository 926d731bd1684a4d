"""``-json FILE`` writes the very figures the printed table rounds, and leaves stdout byte for byte as it was.

Every F1, recall and quiet cell of the table (``-only 2`` of locomo10, and each value of a sweep) is the
results file's float rounded as the table rounds it; ``n`` is the same count.
"""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from locomo_repro.data.dataset import CATEGORIES
from locomo_repro.score import results


def run(*argv: str) -> str:
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args(["-only", "2", "-jobs", "1", "-quiet", *argv]), out) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> tuple[str, dict]:
    """The printed table and results file of one ``-only 2`` run."""
    path = tmp_path_factory.mktemp("json") / "results.json"
    printed = run("-json", str(path))
    return printed, json.loads(path.read_bytes())


def cells(table: str) -> tuple[list[str], dict[str, tuple[int, dict[str, tuple[str, str, str]]]]]:
    """The printed table's arms, and per row name its n and each arm's F1, recall and quiet cells as printed."""
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("category "))
    arms = lines[start - 1].split()
    rows = {}
    for line in lines[start + 1:]:
        name, n, rest = line[:14].strip(), int(line[14:20]), line[20:]
        chunks = [rest[22 * i: 22 * (i + 1)] for i in range(len(arms))]
        rows[name] = (n, {a: (c[2:8], c[9:15], c[16:22]) for a, c in zip(arms, chunks)})
    return arms, rows


def test_every_cell_of_the_table_is_the_files_float_rounded_as_the_table_rounds_it(ran):
    printed, document = ran
    same_cells(printed, document)


@pytest.mark.slow
def test_an_answerer_without_evidence_has_a_null_recall_where_the_table_prints_a_dash(tmp_path):
    """Plug-ins (``toy_plugins``): an answerer naming no evidence, one naming its turn, a memory."""
    path = tmp_path / "plugins.json"
    printed = run("-arms", "read,toy_plugins:Bare,toy_plugins:Parrot,toy_plugins:first_turns", "-json", str(path))
    document = json.loads(path.read_bytes())
    same_cells(printed, document)
    rows = document["passes"][0]["arms"]
    assert {row["recall"] for row in rows["bare"]["rows"].values()} == {None}
    assert all(isinstance(row["recall"], float) for arm in ("parrot", "first_turns") for row in rows[arm]["rows"].values())
    assert all(row["f1_interval"] is not None for row in rows["bare"]["rows"].values())


def same_cells(printed: str, document: dict) -> None:
    arms, rows = cells(printed)
    (only,) = document["passes"]
    assert list(only["arms"]) == arms
    assert len(rows) == len(results.ROWS) == 7
    for key, _ in results.ROWS:
        name = CATEGORIES[int(key)] if key.isdigit() else key
        n, by_arm = rows[name]
        for arm in arms:
            row = only["arms"][arm]["rows"][key]
            assert row["name"] == name and row["n"] == n
            recall = f"{'-':>6}" if row["recall"] is None else f"{row['recall']:6.3f}"
            assert (f"{row['f1']:6.3f}", recall, f"{100 * row['quiet']:5.0f}%") == by_arm[arm], (key, arm)


@pytest.mark.slow
def test_stdout_is_byte_for_byte_what_the_run_prints_without_json(ran):
    printed, _ = ran
    assert printed == run()


def test_the_files_settings_and_dataset_name_the_run(ran):
    _, document = ran
    assert document["settings"] == {"arms": "main", "k": 5, "floor": 0.3, "span": 4, "band": 0.9, "parts": 2,
                                    "sweep": None, "only": 2, "conversations": None, "limit": 0, "blind": False,
                                    "derived": True, "coref": False, "model": None, "endpoint": None, "closed": False}
    assert document["dataset"]["conversations"] == ["conv-26", "conv-30"]
    assert document["signature"].startswith("locomo-repro:0.1.0|data:") and "|only:2|" in document["signature"]
    assert document["signature"].split("|")[1] == f"data:{document['dataset']['sha256'][:8]}"


def test_each_pass_of_a_sweep_holds_the_figures_of_its_row_of_the_sweep_table(tmp_path):
    path = tmp_path / "sweep.json"
    printed = run("-sweep", "parts", "-json", str(path))
    document = json.loads(path.read_bytes())
    lines = printed.splitlines()
    arms = lines[-6].split()
    values = [p["sweep"]["value"] for p in document["passes"]]
    assert values == [1, 2, 3, 4] and document["settings"]["parts"] is None
    for p, line in zip(document["passes"], lines[-4:]):
        assert int(line[:8]) == p["sweep"]["value"] == p["options"]["parts"]
        for i, arm in enumerate(arms):
            rows = p["arms"][arm]["rows"]
            cell = line[8 + 28 * i: 8 + 28 * (i + 1)]
            want = (f"{rows['answerable']['f1']:6.3f}", f"{rows['5']['f1']:6.3f}", f"{rows['overall']['f1']:6.3f}",
                    f"{100 * rows['overall']['quiet']:4.0f}%")
            assert (cell[2:8], cell[9:15], cell[16:22], cell[23:28]) == want, (p["sweep"], arm)


@pytest.mark.slow
def test_two_worker_processes_write_the_same_results_bytes_as_one(tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert run("-json", str(one)) == run("-json", str(two), "-jobs", "2")
    first, second = (json.loads(path.read_bytes()) for path in (one, two))
    assert first.pop("cost").keys() == second.pop("cost").keys()  # measured: the one part that differs
    assert first == second
