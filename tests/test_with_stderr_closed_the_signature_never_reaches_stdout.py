"""With stderr closed (``2>&-``) what goes to stderr (the signature, the notes) never lands in stdout among
the results: the interpreter's ``sys.stderr`` is None then, and ``print(file=None)`` writes to stdout."""

from __future__ import annotations

import subprocess
import sys

import pytest

import kit_child


def closed_stderr(argv, cwd) -> subprocess.CompletedProcess:
    """The kit run with descriptor 2 closed, as ``locomo-repro ... 2>&-`` runs it."""
    return subprocess.run(["sh", "-c", 'exec "$@" 2>&-', "sh", sys.executable, "-m", "locomo_repro", *argv],
                          cwd=cwd, env=kit_child.environment(), capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("closed")
    data = kit_child.tiny(folder / "data.json")
    done = kit_child.run(["-data", str(data), "-quiet", "-jobs", "1", "-out", "p.json", "-json", "r.json"], folder)
    assert done.returncode == 0, done.stderr
    return folder


@pytest.mark.parametrize("argv", [
    ["-data", "data.json", "-quiet", "-jobs", "1"],
    ["-stats", "p.json"],
    ["compare", "r.json", "p.json"],
    ["official", "--kit", "p.json"],
], ids=["run", "stats", "compare", "official"])
def test_with_stderr_closed_nothing_of_stderr_reaches_stdout(argv, made):
    done = closed_stderr(argv, made)
    assert done.returncode == 0 and done.stdout, done.stdout
    assert "signature:" not in done.stdout and "note:" not in done.stdout
