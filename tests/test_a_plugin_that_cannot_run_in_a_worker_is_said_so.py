"""Workers import a plug-in by its name. Where a worker starts afresh (the spawn and forkserver start methods:
macOS, Windows, and Linux from Python 3.14) a plug-in that can be imported only in the main process stops the
run in one line that says so and how to run it in one process; with ``-jobs 1`` it runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

# The kit's command line, with worker processes started afresh as they are where fork is not the default.
CHILD = """
import multiprocessing, sys
multiprocessing.set_start_method("spawn", force=True)
from locomo_repro.cli import main
sys.exit(main(sys.argv[1:]))
"""


def kit(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    return subprocess.run([sys.executable, "-c", CHILD, *argv], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.slow
def test_a_plugin_only_the_main_process_can_import_is_said_so_with_jobs(tmp_path):
    done = kit(tmp_path, "-arms", "toy_main_only:Vec", "-only", "2", "-jobs", "2", "-out", "p.json")  # two: in workers
    assert done.returncode == 2 and done.stdout == "" and not (tmp_path / "p.json").exists()
    assert done.stderr == ("locomo-repro: -arms toy_main_only:Vec: cannot import toy_main_only: this memory holds "
                           "a handle that only the main process has (in a worker process: -jobs 1 runs every "
                           "conversation in this one)\n")


@pytest.mark.slow
def test_with_one_job_it_runs(tmp_path):
    done = kit(tmp_path, "-arms", "toy_main_only:Vec", "-only", "1", "-jobs", "1", "-quiet")
    assert done.returncode == 0, done.stderr
