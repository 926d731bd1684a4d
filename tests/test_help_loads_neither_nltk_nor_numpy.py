"""Small commands start fast: ``--help`` and a refused flag load neither NLTK nor numpy, nor the memories.

Behavioural, not timed: a child interpreter runs the command line as
``python -m locomo_repro`` does and reports which modules it ended up holding.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Runs the command line as ``python -m locomo_repro`` would, then prints the loaded top-level
# packages of interest and the kit's modules on the last line of stderr.
_CHILD = """
import json, runpy, sys
sys.argv = ["locomo-repro", *sys.argv[1:]]
try:
    runpy.run_module("locomo_repro", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("nltk", "numpy", "locomo_repro"))),
      file=sys.stderr)
"""


def loaded(*argv: str) -> list[str]:
    child = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, check=True)
    return json.loads(child.stderr.splitlines()[-1])


@pytest.mark.parametrize("argv", [["--help"], ["-k", "0"]], ids=["help", "refused-flag"])
def test_small_command_loads_neither_nltk_nor_numpy_nor_the_memories(argv):
    modules = loaded(*argv)
    assert "locomo_repro.cli" in modules  # the command line did run
    assert not [m for m in modules if m.split(".")[0] in ("nltk", "numpy")], modules
    assert not [m for m in modules if m.startswith(("locomo_repro.arms", "locomo_repro.bench.experiment"))], modules


@pytest.mark.slow
def test_a_run_does_load_them(tmp_path):
    """The check above can fail: a command that runs the benchmark holds the arms (numpy comes with the first
    store a memory searches: tests/test_a_run_that_searches_no_store_imports_no_numpy.py)."""
    data = tmp_path / "missing.json"
    modules = loaded("-data", str(data), "-only", "1")  # refused after the memories are imported
    assert "locomo_repro.bench.experiment" in modules and "locomo_repro.arms.graph" in modules
