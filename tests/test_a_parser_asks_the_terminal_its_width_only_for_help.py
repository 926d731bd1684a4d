"""``go.flags.Parser``: building the command line's parser and parsing a run's flags asks no terminal for its
width (argparse would, once a flag, importing ``shutil``); help still wraps to the terminal's width, and a
metavar that does not fit its ``nargs`` is still refused when the flag is added."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from locomo_repro.go.flags import Parser

_CHILD = """
import sys
from locomo_repro import cli
cli.parser().parse(["-only", "1", "-arms", "read"])
print("shutil" in sys.modules)
"""


def test_a_parsed_run_imports_no_shutil():
    child = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True)
    assert child.stdout.split() == ["False"]


def _help_lines(columns: int) -> int:
    env = {**os.environ, "COLUMNS": str(columns)}
    child = subprocess.run([sys.executable, "-m", "locomo_repro", "--help"], capture_output=True, text=True,
                           env=env, check=True)
    return len(child.stdout.splitlines())


def test_help_is_wrapped_to_the_terminals_width():
    assert _help_lines(50) > _help_lines(80) > _help_lines(200)


def test_a_metavar_that_does_not_fit_its_nargs_is_refused_when_the_flag_is_added():
    parser = Parser(prog="p")
    with pytest.raises(ValueError, match="length of metavar tuple does not match nargs"):
        parser.add_argument("-x", nargs=2, metavar=("A", "B", "C"))
    parser.add_argument("-y", nargs=2, metavar=("A", "B"))
    assert parser.parse(["-y", "1", "2"]).y == ["1", "2"]
