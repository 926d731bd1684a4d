"""No published run imports numpy: the vector store is pure Python, imported when a memory first searches one
and, with workers, before they are forked so that they inherit it; a run whose arms all read the annotated
evidence (``-arms read``) imports not even the store.  numpy comes only with a command that uses it: the
bootstrap of ``-json``, BM25, the dense memory, the leaderboard (behavioural: a child interpreter reports its
modules)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

_CHILD = """
import io, json, sys
from locomo_repro import cli
cli.run(cli.parser().parse_args(sys.argv[1:]), io.StringIO())
print(json.dumps(["numpy" in sys.modules, "locomo_repro.memory.store" in sys.modules]), file=sys.stderr)
"""


def holds(*argv: str) -> list[bool]:
    child = subprocess.run([sys.executable, "-c", _CHILD, "-only", "2", "-quiet", *argv],
                           capture_output=True, text=True, check=True)
    return json.loads(child.stderr.splitlines()[-1])


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_read_arms_import_neither_numpy_nor_the_store(jobs):
    assert holds("-arms", "read", "-jobs", jobs) == [False, False]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_that_searches_a_store_imports_it_here_and_no_numpy(jobs):
    assert holds("-jobs", jobs) == [False, True]


def test_a_run_that_bootstraps_does_import_numpy(tmp_path):
    """The checks above can fail: ``-json``'s bootstrap draws with numpy."""
    assert holds("-json", str(tmp_path / "run.json")) == [True, True]
