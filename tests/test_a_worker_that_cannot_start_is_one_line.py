"""A ``-jobs`` run whose workers cannot all be started (a limit on open files or on processes) ends in one
line naming the cause, exit status 2, with nothing left running.  (Before, the line blamed "standard
output" and the run hung with the workers already started waiting for work.)

Root is held to no limit on processes, so as root the limited child runs under the real user id of nobody,
keeping root's effective id (it reads the interpreter and the kit wherever root put them) but not the two
capabilities that lift the limit (``CAP_SYS_ADMIN``, ``CAP_SYS_RESOURCE``)."""

from __future__ import annotations

import ctypes
import os
import pwd
import resource
import shutil
import sys
from collections.abc import Callable

import pytest
from kit_child import finish, left, start, tiny

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("bash"),
                                 reason="limits a child with bash's ulimit and reads /proc (Linux)")]


#: ``prctl``'s request to drop a capability from the bounding set, and the capabilities that lift RLIMIT_NPROC.
PR_CAPBSET_DROP, CAP_SYS_ADMIN, CAP_SYS_RESOURCE = 24, 21, 24


def own_processes(uid: int) -> int:
    """How many processes run under the real user id ``uid``."""
    count = 0
    for entry in os.listdir("/proc"):
        try:
            status = open(f"/proc/{entry}/status").read() if entry.isdigit() else ""
        except OSError:
            continue
        real = next((line.split()[1] for line in status.splitlines() if line.startswith("Uid:")), None)
        count += real == str(uid)
    return count


def limited(tmp_path, cause: str, wrap=(), before: Callable[[], None] | None = None) -> None:
    data = tiny(tmp_path / "d.json")
    child = start(["-data", str(data), "-jobs", "1000", "-quiet"], tmp_path, wrap=wrap, before=before)
    try:
        out, err = child.communicate(timeout=120)
        assert not left(child.pid), f"still running: {left(child.pid)}"
    finally:
        finish(child)
    assert child.returncode == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith("locomo-repro: cannot start worker process ") and " of 1000: " in line
    assert line.endswith(cause)


def held_to(uid: int, processes: int) -> Callable[[], None]:
    """What the child runs before the kit: at most ``processes`` processes for its real user, ``uid``, which
    for a child of root is nobody's (see the module's docstring)."""
    libc = ctypes.CDLL(None, use_errno=True)  # loaded here: the child only calls it

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
        if os.getuid() != uid:
            for capability in (CAP_SYS_ADMIN, CAP_SYS_RESOURCE):
                if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
                    raise OSError(ctypes.get_errno(), f"cannot drop capability {capability}")
            os.setresuid(uid, 0, 0)

    return limit


def test_a_limit_on_open_files(tmp_path):
    limited(tmp_path, "Too many open files", wrap=["bash", "-c", 'ulimit -n 64 && exec "$@"', "bash"])


def test_a_limit_on_processes(tmp_path):
    uid = pwd.getpwnam("nobody").pw_uid if os.getuid() == 0 else os.getuid()
    limited(tmp_path, "Resource temporarily unavailable", before=held_to(uid, own_processes(uid) + 16))
