"""A user's plug-ins (``toy_plugins``: a memory, a function factory, two answerers) run end to end through
every command: the tables, ``-show``, ``-out``, ``-stats``, ``-sweep``, ``-jobs``, ``-resume``, ``-model``,
``-arms list``, ``refined predict --arm`` and the report; the signature names each plug-in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from locomo_repro.score.metric import DECLINE

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
TOYS = "main,toy_plugins:Vec,toy_plugins:first_turns,toy_plugins:Parrot,toy_plugins:Bare,toy_plugins:Vec+set"


def kit(cwd: Path, *argv: str, env: dict | None = None, module: str = "locomo_repro") -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)]), **(env or {})}
    return subprocess.run([sys.executable, "-m", module, *argv], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=600)


def table(stdout: str) -> dict[str, list[str]]:
    """The results table's rows by name, and its arms under ``""``."""
    lines = stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("category"))
    rows = {"": lines[at - 1].split()}
    for line in lines[at + 1: at + 8]:
        name = line[:14].strip()
        rows[name] = line[14:].split()
    return rows


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One run of every kind of plug-in beside main over two conversations, with -out and -show."""
    here = tmp_path_factory.mktemp("toys")
    done = kit(here, "-arms", TOYS, "-only", "2", "-show", "1", "-out", "p.json")
    assert done.returncode == 0, done.stderr
    return here, done


@pytest.mark.slow
def test_the_table_has_a_column_per_plugin_arm_and_absent_recall_for_a_bare_answerer(run):
    _, done = run
    rows = table(done.stdout)
    assert rows[""] == ["bare", "first_turns", "graph", "graph+edge", "oracle", "parrot", "vec", "vec+set", "vector"]
    for name in ("single hop", "overall"):
        bare = rows[name][1:4]
        assert bare[1] == "-" and bare[2] == "0%"  # recall absent; a bare reply is never declined by the floor
    assert rows["overall"][0] == "304"


@pytest.mark.slow
def test_out_keeps_what_each_arm_gave(run, samples):
    here, _ = run
    last = {s.id: s.turns[-1] for s in samples[:2]}
    for sample in json.loads((here / "p.json").read_text()):
        for q in sample["qa"]:
            assert "bare_prediction_context" not in q and "bare_prediction_confidence" not in q
            assert q["bare_prediction"] == next(s for s in samples if s.id == sample["sample_id"]).speakers[0]
            assert q["parrot_prediction"] == last[sample["sample_id"]].text
            assert q["parrot_prediction_context"] == [last[sample["sample_id"]].id]
            assert q["parrot_prediction_confidence"] == 0.5
            assert len(q["first_turns_prediction_context"]) == 5
            assert q["vec+set_prediction_context"] == q["vec_prediction_context"]


@pytest.mark.slow
def test_show_prints_every_plugin_arm_beside_the_built_in_ones(run):
    _, done = run
    shown = done.stdout[done.stdout.index("== single hop =="):]
    for arm in ("bare", "first_turns", "parrot", "vec", "vec+set", "vector"):
        assert f"\n  {arm:<11} " in shown


@pytest.mark.slow
def test_the_signature_names_each_plugin_once(run):
    _, done = run
    sig, *costs = done.stderr.splitlines()  # a short run, not on a terminal: no progress line; then the costs
    assert all(line.startswith("locomo-repro: cost of ") for line in costs)
    assert f"|arms:{TOYS}|" in sig
    for field in ("plugin:vec=toy_plugins:Vec", "plugin:first_turns=toy_plugins:first_turns",
                  "plugin:parrot=toy_plugins:Parrot", "plugin:bare=toy_plugins:Bare"):
        assert sig.count(f"|{field}|") == 1


@pytest.mark.slow
def test_stats_and_official_read_the_plugin_file_back(run):
    here, _ = run
    stats = kit(here, "stats", "p.json")
    assert stats.returncode == 0 and "\nvec+set " in stats.stdout and "bare       - first_turns" in stats.stdout
    official = kit(here, "official", "p.json", "--kit")
    assert official.returncode == 0 and "parrot" in official.stdout


@pytest.mark.slow
def test_a_sweep_and_two_jobs_print_what_one_job_prints(tmp_path):
    one = kit(tmp_path, "-arms", "toy_plugins:Vec,toy_plugins:Parrot", "-only", "2", "-sweep", "floor", "-jobs", "1")
    two = kit(tmp_path, "-arms", "toy_plugins:Vec,toy_plugins:Parrot", "-only", "2", "-sweep", "floor", "-jobs", "2")
    assert one.returncode == two.returncode == 0 and one.stdout == two.stdout
    rows = [line.split() for line in one.stdout.splitlines()[-8:]]
    assert [row[0] for row in rows] == ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.8"]
    # parrot's confidence is 0.5: at floors above it every reply is declined, at or below none is
    assert [row[4] for row in rows] == ["0%"] * 6 + ["100%"] * 2


@pytest.mark.slow
def test_threads_give_the_same_bytes_and_a_stopped_run_resumes_conversation_by_conversation(tmp_path):
    first = kit(tmp_path, "-arms", TOYS, "-only", "2", "-resume", "kept", "-concurrency", "4", "-out", "a.json")
    assert first.returncode == 0, first.stderr
    assert len(list((tmp_path / "kept").iterdir())) == 2
    (tmp_path / "kept" / sorted(os.listdir(tmp_path / "kept"))[0]).unlink()  # as if stopped after one
    again = kit(tmp_path, "-arms", TOYS, "-only", "2", "-resume", "kept", "-out", "b.json")
    assert again.returncode == 0 and "1 conversations read back from kept" in again.stderr
    assert again.stdout.replace("b.json", "a.json") == first.stdout
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    other = kit(tmp_path, "-arms", TOYS, "-only", "2", "-resume", "kept", "-k", "3")  # other settings: none read
    assert other.returncode == 0 and "read back" not in other.stderr


@pytest.mark.slow
def test_the_model_reads_a_plugin_memory_and_not_an_answerer(tmp_path):
    from stub_server import Stub, completion

    with Stub(lambda body, n: (200, completion("Caroline"), 0)) as stub:
        done = kit(tmp_path, "-arms", "toy_plugins:Vec,toy_plugins:Bare", "-only", "1", "-model", "stub",
                   "-base", stub.base_url, "-memo", "", "-out", "m.json", env={"HANZO_API_KEY": "test-key"})
    assert done.returncode == 0, done.stderr
    assert table(done.stdout)[""] == ["bare", "vec", "vec+model"]
    for q in json.loads((tmp_path / "m.json").read_text())[0]["qa"]:
        assert q["vec+model_prediction_context"] == q["vec_prediction_context"]
        assert q["vec+model_prediction"] in ("Caroline", DECLINE)


@pytest.mark.slow
def test_refined_predict_answers_with_a_plugin(tmp_path, samples):
    q = samples[0].questions[0]
    (tmp_path / "q.jsonl").write_text(json.dumps(
        {"qa_id": "a", "sample_id": samples[0].id, "question": q.text, "answer": [q.answer], "category": "1"}) + "\n")
    for arm in ("toy_plugins:Vec", "toy_plugins:Parrot"):
        done = kit(tmp_path, "predict", "--arm", arm, "--questions", "q.jsonl", "--out", "p.jsonl",
                   module="locomo_repro.refined")
        assert done.returncode == 0, done.stderr
        (said,) = [json.loads(line) for line in (tmp_path / "p.jsonl").read_text().splitlines()]
        if arm.endswith("Parrot"):
            assert said["predicted_answer"] == samples[0].turns[-1].text
    bad = kit(tmp_path, "predict", "--arm", "toy_plugins:Missing", "--questions", "q.jsonl", "--out", "x.jsonl",
              module="locomo_repro.refined")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "has no attribute Missing" in bad.stderr


@pytest.mark.slow
def test_the_report_reads_a_plugin_runs_predictions(run, tmp_path):
    pytest.importorskip("matplotlib")
    here, _ = run
    done = kit(here, "report", "--predictions", "p.json", "--only", "2", "--out", str(tmp_path / "r.html"))
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "r.html").read_text()
    assert "vec+set" in page and "parrot" in page
