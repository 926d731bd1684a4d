"""A SIGHUP or SIGTERM that arrives while the kit writes leaves the old file or the new one, never a half,
and ends the process by that signal (never exit status 0): while the file is staged, while the renames run
(held back until they are done), and while a file is written in place (a FIFO no one reads held the
signal back for ever).  A signal the process was started ignoring (``nohup``) stays ignored."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Writes argv[1] with a pause in the step named by argv[3] (60 s while staging: the signal ends it; 2 s in
#: a rename: the signal waits for it), having made argv[2] to say the pause began.
WRITER = """
import os, signal, sys, time
from locomo_repro.data import atomic
target, ready, step, start = sys.argv[1:5]
# as started: the signals' own ends (the default), or SIGHUP ignored, as nohup starts a process (and as a test
# session started under nohup would start it, whatever is asked)
signal.signal(signal.SIGHUP, signal.SIG_IGN if start == "nohup" else signal.SIG_DFL)
def paused(real):
    def call(*args):
        open(ready, "w").close()
        time.sleep(60 if step == "stage" else 2)
        return real(*args)
    return call
if step == "stage":
    atomic._put = paused(atomic._put)
elif step == "rename":
    atomic.os.replace = paused(os.replace)
atomic.write_atomic(target, b"new" * 1000)
"""


def write_stopped(tmp_path: Path, step: str, signum: int, target: Path, start: str = "plain") -> tuple[int, Path]:
    ready = tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target), str(ready), step, start],
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() and time.monotonic() < deadline:
            assert proc.poll() is None, "the writer ended before it was stopped"
            time.sleep(0.05)
        if step == "in place":
            time.sleep(0.5)  # blocked opening the FIFO, which no one reads
        proc.send_signal(signum)
        return proc.wait(timeout=30), target
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
@pytest.mark.parametrize("step", ["stage", "rename"])
def test_a_signal_during_a_replacing_write_leaves_a_whole_file_and_ends_the_process(step, signum, tmp_path):
    target = tmp_path / "out.json"
    target.write_bytes(b"old")
    code, _ = write_stopped(tmp_path, step, signum, target)
    assert code == -signum
    assert target.read_bytes() in (b"old", b"new" * 1000)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_a_signal_while_a_fifo_waits_for_a_reader_ends_the_process_at_once(signum, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "ready").touch()
    code, _ = write_stopped(tmp_path, "in place", signum, fifo)
    assert code == -signum


def test_a_sighup_the_process_was_started_ignoring_stays_ignored_and_the_write_ends_whole(tmp_path):
    target = tmp_path / "out.json"
    target.write_bytes(b"old")
    code, _ = write_stopped(tmp_path, "rename", signal.SIGHUP, target, start="nohup")
    assert code == 0 and target.read_bytes() == b"new" * 1000
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
