"""A run starts no OpenBLAS thread pool: the kit does no linear algebra, so the command line asks numpy's
OpenBLAS for one thread before numpy is imported, unless the caller already chose a number."""

from __future__ import annotations

import os
import subprocess
import sys

_CHILD = "import locomo_repro.cli, os, sys; print(os.environ['OPENBLAS_NUM_THREADS'], 'numpy' in sys.modules)"


def child(env: dict[str, str]) -> str:
    return subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True,
                          check=True).stdout.split()


def test_the_command_line_asks_for_one_blas_thread_before_numpy_is_loaded():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert child(env) == ["1", "False"]


def test_a_number_the_caller_chose_is_kept():
    assert child({**os.environ, "OPENBLAS_NUM_THREADS": "3"}) == ["3", "False"]
