"""A ``-jobs`` run whose workers cannot all be started (a limit on open files or on processes) ends in one
line naming the cause, exit status 2, with nothing left running.  (Before, the line blamed "standard
output" and the run hung with the workers already started waiting for work.)"""

from __future__ import annotations

import os
import shutil
import sys

import pytest
from kit_child import finish, left, start, tiny

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("bash"),
                                 reason="limits a child with bash's ulimit and reads /proc (Linux)")]


def own_processes() -> int:
    """How many processes run under this real user id."""
    count = 0
    for entry in os.listdir("/proc"):
        try:
            status = open(f"/proc/{entry}/status").read() if entry.isdigit() else ""
        except OSError:
            continue
        uid = next((line.split()[1] for line in status.splitlines() if line.startswith("Uid:")), None)
        count += uid == str(os.getuid())
    return count


def limited(tmp_path, limit: str, cause: str) -> None:
    data = tiny(tmp_path / "d.json")
    child = start(["-data", str(data), "-jobs", "1000", "-quiet"], tmp_path,
                  wrap=["bash", "-c", f'ulimit {limit} && exec "$@"', "bash"])
    try:
        out, err = child.communicate(timeout=120)
        assert not left(child.pid), f"still running: {left(child.pid)}"
    finally:
        finish(child)
    assert child.returncode == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith("locomo-repro: cannot start worker process ") and " of 1000: " in line
    assert line.endswith(cause)


def test_a_limit_on_open_files(tmp_path):
    limited(tmp_path, "-n 64", "Too many open files")


@pytest.mark.skipif(os.getuid() == 0, reason="root is held to no limit on processes")
def test_a_limit_on_processes(tmp_path):
    limited(tmp_path, f"-u {own_processes() + 16}", "Resource temporarily unavailable")
