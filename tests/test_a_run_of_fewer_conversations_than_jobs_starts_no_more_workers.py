"""A run never starts more worker processes than the conversations it is asked to read: ``-only 1`` is read in
the run's own process whatever ``-jobs`` says (behavioural: a child interpreter counts its forks)."""

from __future__ import annotations

import subprocess
import sys

import pytest

_CHILD = """
import io, os, sys
from locomo_repro import cli
forks = []
os.register_at_fork(after_in_parent=lambda: forks.append(1))
cli.run(cli.parser().parse_args(sys.argv[1:]), io.StringIO())
print(len(forks), file=sys.stderr)
"""


def forks(*argv: str) -> int:
    child = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, check=True)
    return int(child.stderr.splitlines()[-1])


def test_one_conversation_is_read_in_the_runs_own_process():
    assert forks("-only", "1", "-jobs", "4", "-arms", "read") == 0


@pytest.mark.slow
def test_two_conversations_take_two_workers_of_four():
    """The count above can fail: two conversations with -jobs 4 fork two workers, not four."""
    assert forks("-only", "2", "-jobs", "4", "-arms", "read") == 2
