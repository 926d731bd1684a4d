"""Writes are all or nothing and leave nothing behind.

``golden --out`` writes its five files or none (a full disk at the fourth leaves
every old file as it was); a full disk is one line naming the file; SIGTERM in
the middle of a write removes the temporary file; the temporary file a
``kill -9`` leaves is removed by the next write to the same path.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from locomo_repro.data import atomic
from locomo_repro.refined import files as refined_files
from locomo_repro.score import golden

ROOT = Path(__file__).resolve().parents[1]

SLOW_WRITER = """
import sys, time
from locomo_repro.data import atomic
real = atomic._put
def slow(fd, data):
    real(fd, data[:10])
    open(sys.argv[2], "w").close()
    time.sleep(120)
    real(fd, data[10:])
atomic._put = slow
atomic.write_atomic(sys.argv[1], b"x" * 100)
"""


def full_disk_at(monkeypatch, call: int) -> None:
    """Make the ``call``-th write of file contents fail as a full disk does."""
    real = atomic._put
    calls = []

    def put(fd, data):
        calls.append(fd)
        if len(calls) == call:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, data)

    monkeypatch.setattr(atomic, "_put", put)


def litter(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_golden_writes_all_five_files_or_none(tmp_path, monkeypatch):
    out = tmp_path / "golden"
    golden.write(out, {name: f"old {name}\n" for name in golden.FILES})
    full_disk_at(monkeypatch, 4)
    with pytest.raises(golden.GoldenError) as caught:
        golden.write(out, {name: f"new {name}\n" for name in golden.FILES})
    fourth = out / golden.FILES[3]
    assert str(caught.value) == f"{fourth}: cannot write: No space left on device"
    assert {p.name: p.read_text() for p in out.iterdir()} == {name: f"old {name}\n" for name in golden.FILES}


def test_a_full_disk_names_the_file(tmp_path, monkeypatch):
    full_disk_at(monkeypatch, 1)
    target = tmp_path / "out.json"
    with pytest.raises(atomic.WriteError) as caught:
        atomic.write_atomic(target, b"{}")
    assert str(caught.value) == f"{target}: cannot write: No space left on device"
    full_disk_at(monkeypatch, 2)
    with pytest.raises(refined_files.InputError, match=rf"^{tmp_path}/b\.jsonl: cannot write: No space left on device$"):
        refined_files.write_atomic({tmp_path / "a.json": "[]", tmp_path / "b.jsonl": ""})
    assert list(tmp_path.iterdir()) == []


def start_slow_write(tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    target = tmp_path / "x.json"
    ready = tmp_path / "ready"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(target), str(ready)], env=env)
    while not ready.exists():  # the temporary file holds its first bytes
        assert proc.poll() is None, "the writer ended before writing"
        time.sleep(0.05)
    return proc, target


def test_sigterm_in_the_middle_of_a_write_leaves_nothing(tmp_path):
    proc, target = start_slow_write(tmp_path)
    assert len(litter(tmp_path)) == 1
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == -signal.SIGTERM
    assert litter(tmp_path) == [] and not target.exists()


def test_what_kill_9_leaves_is_removed_by_the_next_write_to_that_path(tmp_path):
    proc, target = start_slow_write(tmp_path)
    proc.kill()
    proc.wait(timeout=60)
    left = litter(tmp_path)
    assert len(left) == 1 and left[0].startswith(".x.json.")
    alive = tmp_path / f".x.json.{os.getppid()}-0123abcd.tmp"  # a running process's: not ours to remove
    other = tmp_path / f".y.json.{proc.pid}-0123abcd.tmp"  # another path's
    alive.write_text("")
    other.write_text("")
    atomic.write_atomic(target, b"done")
    assert target.read_bytes() == b"done"
    assert litter(tmp_path) == sorted([alive.name, other.name])


def test_a_folder_is_listed_for_leftovers_once_however_many_files_go_into_it(tmp_path, monkeypatch):
    listed = []
    real = os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: listed.append(path) or real(path))
    for i in range(50):  # the model's memo folder gets one file per answer
        atomic.write_atomic(tmp_path / "memo" / f"{i:02d}", b"answer")
    assert listed == [tmp_path / "memo"]
