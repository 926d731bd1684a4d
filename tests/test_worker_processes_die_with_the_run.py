"""A ``-jobs`` run's worker processes never outlive it: ``kill -9`` of the main process ends them too (before,
both were left running for good, waiting for work that would never come)."""

from __future__ import annotations

import os
import signal
import sys

import pytest
from kit_child import children, finish, left, start, tiny, until

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"),
                                                   reason="finds the workers in /proc (Linux)")]


def test_kill_9_of_the_main_process_ends_its_workers(tmp_path):
    data = tiny(tmp_path / "d.json", samples=200, turns=40)
    child = start(["-data", str(data), "-jobs", "2", "-quiet"], tmp_path)
    try:
        workers = until(lambda: len(found := children(child.pid)) == 2 and found)
        assert workers, "the run never had its two workers"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        assert until(lambda: not left(child.pid), timeout=30), f"still running: {left(child.pid)}"
    finally:
        finish(child)
