"""Results printed to a full disk (stdout on ``/dev/full``) end in one line on stderr and exit 2, no traceback:
in refined and every subcommand of ``locomo-repro`` (``cli.ended``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def child_env() -> dict[str, str]:
    """The kit in a child interpreter, stdout buffered as a user's is (PYTHONUNBUFFERED would hide a failure
    that comes only with the last flush)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return {**env, "PYTHONPATH": str(ROOT)}


@pytest.fixture
def full():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system (a device that reports every write as a full disk)")
    with open("/dev/full", "w") as handle:
        yield handle


def test_refined_export_to_a_full_stdout(tmp_path, full):
    data = tmp_path / "d.json"
    data.write_text(json.dumps([{"sample_id": "s", "qa": [], "conversation": {"speaker_a": "A", "speaker_b": "B"}}]))
    done = subprocess.run([sys.executable, "-m", "locomo_repro.refined", "export", "--data", str(data),
                           "--out", str(tmp_path / "o")], stdout=full, stderr=subprocess.PIPE, text=True,
                          env=child_env(), timeout=120)
    assert done.returncode == 2
    assert done.stderr == "error: standard output: No space left on device\n"


PREDICTIONS = [{"sample_id": "s1", "qa": [{
    "question": "Where did Ann go?", "answer": "Paris", "category": 4, "evidence": ["D1:1"],
    "graph_prediction": "Paris", "graph_prediction_context": ["D1:1"], "graph_prediction_confidence": 0.9,
    "vector_prediction": "Rome", "vector_prediction_context": [], "vector_prediction_confidence": 0.1}]}]
DATASET = [{"sample_id": "s1", "qa": [{"question": "Where did Ann go?", "answer": "Paris", "category": 4,
                                       "evidence": ["D1:1"]}],
            "conversation": {"speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023",
                             "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I went to Paris."}]}}]


@pytest.mark.parametrize(("module", "args"), [
    ("official", ["--kit", "{p}"]),
    ("stats", ["{p}"]),
    ("reach", ["--data", "{d}"]),
])
@pytest.mark.slow
def test_a_subcommand_to_a_full_stdout(tmp_path, full, module, args):
    (tmp_path / "p.json").write_text(json.dumps(PREDICTIONS))
    (tmp_path / "d.json").write_text(json.dumps(DATASET))
    argv = [a.format(p=tmp_path / "p.json", d=tmp_path / "d.json") for a in args]
    done = subprocess.run([sys.executable, "-m", "locomo_repro", module, *argv], stdout=full,
                          stderr=subprocess.PIPE, text=True, env=child_env(), timeout=300)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"locomo-repro {module}: standard output: No space left on device"
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_the_command_line_to_a_full_stdout_and_out_on_a_full_device(tmp_path, full):
    (tmp_path / "d.json").write_text(json.dumps(DATASET))
    env = child_env()
    run = [sys.executable, "-m", "locomo_repro", "-data", str(tmp_path / "d.json"), "-quiet"]
    done = subprocess.run(run, stdout=full, stderr=subprocess.PIPE, text=True, env=env, timeout=300)
    assert (done.returncode, done.stderr.splitlines()[-1]) == (2, "locomo-repro: standard output: No space left on device")
    done = subprocess.run(run + ["-out", "/dev/full"], capture_output=True, text=True, env=env, timeout=300)
    assert (done.returncode, done.stderr.splitlines()[-1]) == (2, "locomo-repro: /dev/full: cannot write: No space left on device")
    assert "Traceback" not in done.stderr
