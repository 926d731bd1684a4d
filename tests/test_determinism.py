"""The run's output does not depend on Python's string hashing (set and dict-of-set order).

The reference's output is deterministic (per-conversation results merged in
order, every sort with a total tie-break); the port must be too, whatever
PYTHONHASHSEED is.  Two conversations keep the runs short.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ("1", "12345")
COMMAND = ("-only", "2", "-out", "answers.json")


def environment(seed: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = seed
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_the_seeds_do_change_set_order():
    # Otherwise the comparison below could not fail.
    probe = "print(list({'graph', 'vector', 'oracle', 'edge', 'walk', 'span', 'scoped', 'path'}))"
    orders = {
        subprocess.run([sys.executable, "-c", probe], env=environment(seed), capture_output=True,
                       text=True, check=True).stdout
        for seed in SEEDS
    }
    assert len(orders) == 2


@pytest.mark.slow
def test_stdout_and_predictions_are_byte_identical_under_two_hash_seeds(tmp_path):
    runs = {}
    for seed in SEEDS:
        cwd = tmp_path / f"seed-{seed}"
        cwd.mkdir()
        runs[seed] = (cwd, subprocess.Popen(
            [sys.executable, "-m", "locomo_repro", *COMMAND],
            cwd=cwd, env=environment(seed), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        ))
    results = {}
    for seed, (cwd, proc) in runs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
        results[seed] = (out, (cwd / "answers.json").read_bytes())
    (out1, file1), (out2, file2) = results.values()
    assert out1.startswith(b"2 conversations, 38 sessions, 788 turns, 304 questions\n")
    assert b"predictions: answers.json (graph, graph+edge, oracle, vector)" in out1
    assert out1 == out2
    assert file1 == file2
