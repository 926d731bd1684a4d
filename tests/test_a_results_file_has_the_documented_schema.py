"""A results file has every field ``docs/results.md`` documents, each of its type; the documented example
is itself a results file the kit reads back, and a file written and read back is the same results."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from locomo_repro import cli
from locomo_repro.score import results

DOCS = Path(__file__).resolve().parent.parent / "docs" / "results.md"
ROW_KEYS = ["4", "1", "2", "3", "5", "answerable", "overall"]


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("schema") / "results.json"
    argv = ["-only", "2", "-jobs", "1", "-quiet", "-json", str(path)]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    return path


def number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check(document: dict) -> None:
    """Every documented field present and typed."""
    assert document["schema"] == "locomo-repro/results" and document["version"] == 2
    assert isinstance(document["kit_version"], str) and isinstance(document["signature"], str)
    assert re.fullmatch("[0-9a-f]{64}", document["dataset"]["sha256"])
    conversations = document["dataset"]["conversations"]
    assert conversations and all(isinstance(c, str) for c in conversations)
    settings = document["settings"]
    assert list(settings) == ["arms", "k", "floor", "span", "band", "parts", "sweep", "only", "conversations", "limit",
                              "blind", "derived", "coref", "model", "endpoint", "closed"]
    assert all(isinstance(settings[k], bool) for k in ("blind", "derived", "coref", "closed"))
    boot = document["bootstrap"]
    assert boot["over"] == "conversations" and boot["level"] == 0.95 and isinstance(boot["resamples"], int)
    assert boot["unavailable"] is None or isinstance(boot["unavailable"], str)
    assert document["passes"]
    for p in document["passes"]:
        assert p["sweep"] is None or (isinstance(p["sweep"]["setting"], str) and number(p["sweep"]["value"]))
        assert list(p["options"]) == ["k", "floor", "span", "band", "parts"] and all(map(number, p["options"].values()))
        assert p["arms"] and list(p["arms"]) == sorted(p["arms"])
        for arm in p["arms"].values():
            assert list(arm["rows"]) == ROW_KEYS
            for row in arm["rows"].values():
                assert isinstance(row["name"], str) and isinstance(row["n"], int)
                assert number(row["f1"]) and number(row["quiet"]) and 0 <= row["quiet"] <= 1
                assert row["recall"] is None or number(row["recall"])
                bounds = row["f1_interval"]
                assert bounds is None or (len(bounds) == 2 and all(map(number, bounds)) and bounds[0] <= bounds[1])
            assert [c["sample"] for c in arm["conversations"]] == conversations
            for c in arm["conversations"]:
                assert list(c["rows"]) == ROW_KEYS
                assert all(isinstance(s["n"], int) and number(s["score"]) for s in c["rows"].values())
            shown = arm["evidence"]
            assert shown is None or (list(shown) == ["questions", "turns", "characters", "words"]
                                     and isinstance(shown["questions"], int) and all(map(number, shown.values())))
    for cost in document["cost"].values():
        assert list(cost) == ["build", "calls", "failures"] and isinstance(cost["failures"], int)
        assert number(cost["build"]["seconds"]) and len(cost["build"]["conversations"]) == len(conversations)
        calls = cost["calls"]
        assert list(calls) == ["n", "seconds", "p50", "p95", "p99"] and isinstance(calls["n"], int)
        assert all(calls[q] is None or number(calls[q]) for q in ("p50", "p95", "p99"))


def test_a_written_file_has_every_documented_field_of_its_type(written):
    document = json.loads(written.read_bytes())
    check(document)
    assert written.read_bytes().startswith(b'{\n  "schema": "locomo-repro/results",\n') and written.read_bytes().endswith(b"}\n")


def test_the_per_conversation_counts_add_up_to_each_rows_n(written):
    document = json.loads(written.read_bytes())
    for arm in document["passes"][0]["arms"].values():
        for key in ROW_KEYS:
            assert sum(c["rows"][key]["n"] for c in arm["conversations"]) == arm["rows"][key]["n"]
        for c in arm["conversations"]:
            rows = c["rows"]
            assert rows["answerable"]["n"] == sum(rows[k]["n"] for k in "1234")
            assert rows["overall"]["n"] == rows["answerable"]["n"] + rows["5"]["n"]


def test_the_documented_example_is_a_results_file(tmp_path):
    example = re.search(r"```json\n(.*?)```", DOCS.read_text(), re.S).group(1)
    document = json.loads(example)
    check(document)
    read = results.parse(document, "example")
    assert read.passes[0].arms["oracle"].rows["overall"].n == 199


def test_every_arm_of_a_run_has_its_evidence_and_cost(written):
    document = json.loads(written.read_bytes())
    arms = document["passes"][0]["arms"]
    assert list(document["cost"]) == list(arms)
    for name, arm in arms.items():
        assert arm["evidence"]["questions"] == arm["rows"]["overall"]["n"]
        assert 0 < arm["evidence"]["turns"] <= 5  # k=5
        calls = document["cost"][name]["calls"]
        assert calls["n"] == arm["rows"]["overall"]["n"] and calls["p50"] <= calls["p95"] <= calls["p99"]


def test_a_version_1_file_is_still_read(written):
    document = json.loads(written.read_bytes())
    document["version"] = 1
    del document["cost"]
    for arm in document["passes"][0]["arms"].values():
        del arm["evidence"]
    old, new = results.parse(document, "v1"), results.read(written)
    assert old.version == 1 and old.costs == {} and old.passes[0].arms["vector"].evidence is None
    assert old.passes[0].arms["vector"].rows == new.passes[0].arms["vector"].rows


def test_a_file_read_back_and_written_again_is_the_same_bytes(written):
    read = results.read(written)
    assert results.encode(read) == written.read_bytes()
