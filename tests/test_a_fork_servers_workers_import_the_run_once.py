"""Where workers are started by a fork server (the forkserver start method), the server imports the run's modules
before it forks any worker, so that a worker starts with them and does not import them again (behavioural: a
child interpreter asks its workers what they hold before their first conversation is unpickled)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_PROBE = """
import sys


def holds() -> bool:
    return "locomo_repro.bench.experiment" in sys.modules
"""

_CHILD = """
import multiprocessing
multiprocessing.set_start_method("forkserver", force=True)
from locomo_repro.bench import stream  # noqa: F401  (the run's modules, as the command line imports them)
from locomo_repro.data.stop import workers
import probe

with workers(2, preload=("locomo_repro.bench.stream",)) as pool:
    print(pool.submit(probe.holds).result())
with workers(1) as pool:
    print(pool.submit(probe.holds).result())
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no fork server on Windows")
def test_a_worker_of_a_preloaded_fork_server_holds_the_modules(tmp_path):
    (tmp_path / "probe.py").write_text(_PROBE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    child = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, env=env, timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == ["True", "True"]  # one server for the run: the second pool's workers too


def test_without_a_preload_a_fork_servers_worker_starts_bare(tmp_path):
    """The check above can fail: a fork server told nothing to import starts workers without the modules."""
    (tmp_path / "probe.py").write_text(_PROBE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    bare = _CHILD.replace('preload=("locomo_repro.bench.stream",)', "")
    child = subprocess.run([sys.executable, "-c", bare], capture_output=True, text=True, env=env, timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == ["False", "False"]
