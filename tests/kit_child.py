"""The kit run as a user runs it: ``python -m locomo_repro ...`` in a child process, for tests of what a
whole process does (its output streams, its exit, the processes it leaves, the signals it gets).

``tiny`` writes a small hand-made dataset; ``start`` starts the kit in a session of its own (so a test can
signal the whole group as a terminal's Ctrl-C does, and find every process the run started); ``left``
lists the processes of that session still running; ``finish`` kills them, for a test's cleanup.
Every wait is bounded.  Linux only where ``/proc`` is read.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The variables that hold an API key, none of which a child inherits unless given.
KEYS = ("HANZO_API_KEY", "OPENAI_API_KEY", "EVALUATOR_API_KEY")


def tiny(path: Path, samples: int = 1, turns: int = 2) -> Path:
    """A dataset of ``samples`` conversations of ``turns`` turns and three questions each."""
    data = []
    for s in range(samples):
        session = [{"speaker": "Ann" if t % 2 == 0 else "Bob", "dia_id": f"D1:{t + 1}",
                    "text": f"I went to Paris {t} times with my dog Rex{s} and saw museum {7 * t}."}
                   for t in range(turns)]
        data.append({
            "sample_id": f"s{s}",
            "qa": [{"question": f"Where did Ann go with Rex{s} the {q}th time?", "answer": "Paris", "category": 4,
                    "evidence": ["D1:1"]} for q in range(3)],
            "conversation": {"speaker_a": "Ann", "speaker_b": "Bob",
                             "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": session},
        })
    path.write_text(json.dumps(data))
    return path


def environment(extra: Mapping[str, str] = {}) -> dict[str, str]:
    """This environment without any API key, the kit importable, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in KEYS and k != "PYTHONUNBUFFERED"}
    return {**env, "PYTHONPATH": str(ROOT), **extra}


def run(argv: Sequence[str], cwd: Path, extra: Mapping[str, str] = {}, timeout: float = 120,
        module: str = "locomo_repro") -> subprocess.CompletedProcess:
    """``python -m module argv`` to its end (at most ``timeout`` seconds), output captured as text."""
    return subprocess.run([sys.executable, "-m", module, *argv], cwd=cwd, env=environment(extra),
                          capture_output=True, text=True, timeout=timeout)


def start(argv: Sequence[str], cwd: Path, extra: Mapping[str, str] = {}, module: str = "locomo_repro",
          wrap: Sequence[str] = (), before: Callable[[], None] | None = None) -> subprocess.Popen:
    """``python -m module argv`` started in a session of its own (its id is the child's pid); ``wrap`` goes
    before it (``bash -c 'ulimit ...; exec "$@"' --``), ``before`` runs in the child before it starts."""
    return subprocess.Popen([*wrap, sys.executable, "-m", module, *argv], cwd=cwd, env=environment(extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=before)


def _stat(pid: str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, session, ...)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def left(session: int) -> list[int]:
    """The processes of ``session`` still running (zombies, which are gone but not yet reaped, excluded)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(entry)) and int(fields[3]) == session and fields[0] != "Z":
            out.append(int(entry))
    return sorted(out)


def children(pid: int) -> list[int]:
    """The running child processes of ``pid``."""
    return sorted(int(e) for e in os.listdir("/proc")
                  if e.isdigit() and (f := _stat(e)) and int(f[1]) == pid and f[0] != "Z")


def until(found: Callable[[], object], timeout: float = 60, every: float = 0.02) -> object:
    """``found()``'s first true value, asked every ``every`` seconds for at most ``timeout`` seconds (else None)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := found():
            return value
        time.sleep(every)
    return None


def finish(child: subprocess.Popen) -> None:
    """Kill whatever of the child's session is still running, and reap the child (a test's cleanup)."""
    for pid in left(child.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        child.communicate(timeout=30)
    except (subprocess.TimeoutExpired, ValueError):
        child.kill()


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Children started inside act on SIGINT: were it ignored here (pytest started in the background of a
    shell without job control), they would inherit that and ignore it too."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
