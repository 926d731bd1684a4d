"""A ``-jobs`` run whose worker is killed (``kill -9``, the out-of-memory killer) ends in one line saying so,
exit status 2, instead of an 18-line ``BrokenProcessPool`` traceback; Ctrl-C of the whole process group
(what a terminal sends) is the parent's to act on: the workers ignore it, so the run prints
``interrupted`` and exits 130 with no traceback (before, the workers printed theirs).  Nothing is left
running either way."""

from __future__ import annotations

import os
import signal
import sys

import pytest
from kit_child import children, finish, interruptible, left, start, tiny, until

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"),
                                                   reason="finds the workers in /proc (Linux)")]


def running(tmp_path):
    """A -jobs 2 run, once both its workers run, with them."""
    data = tiny(tmp_path / "d.json", samples=200, turns=40)
    child = start(["-data", str(data), "-jobs", "2", "-quiet"], tmp_path)
    workers = until(lambda: len(found := children(child.pid)) == 2 and found)
    if not workers:
        finish(child)
        pytest.fail("the run never had its two workers")
    return child, workers


def test_a_killed_worker(tmp_path):
    child, workers = running(tmp_path)
    try:
        os.kill(workers[0], signal.SIGKILL)
        out, err = child.communicate(timeout=60)
        assert not left(child.pid), f"still running: {left(child.pid)}"
    finally:
        finish(child)
    assert child.returncode == 2 and out == ""
    assert err == "locomo-repro: a worker process died (killed by SIGKILL)\n"


def test_ctrl_c_of_the_process_group(tmp_path):
    with interruptible():
        child, workers = running(tmp_path)
        try:
            os.killpg(child.pid, signal.SIGINT)
            out, err = child.communicate(timeout=60)
            assert not left(child.pid), f"still running: {left(child.pid)}"
        finally:
            finish(child)
    assert child.returncode == 130 and out == ""
    assert err == "locomo-repro: interrupted\n"
