"""The test run's summary says why each test did not run, under ``-q`` too (which hides skip reasons): each
skip's reason with its count, the tests left out for a variable not set, and the browser tests that
``-m "not browser"`` deselects, left to ``tox -e browser``.  A child pytest runs a small suite under the
kit's own conftest.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SUITE = '''
import pytest

def test_no_chromium():
    pytest.skip("chromium not found")

def test_no_chromium_either():
    pytest.skip("chromium not found")

def test_no_full_device():
    pytest.skip("no /dev/full")

@pytest.mark.browser
def test_in_a_browser():
    pass

@pytest.mark.browser
def test_in_a_browser_too():
    pass

@pytest.mark.outside("LOCOMO_NOWHERE")
def test_over_a_file_not_shipped():
    pass

def test_runs():
    pass
'''


@pytest.mark.slow
def test_skips_are_counted_by_reason_and_the_browser_lane_is_named(tmp_path):
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    browser: b\n    outside(variable): o\n")
    (tmp_path / "test_suite.py").write_text(SUITE)
    env = {k: v for k, v in os.environ.items() if k != "LOCOMO_NOWHERE"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not browser"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    summary = lines[lines.index("skipped: 2 tests: chromium not found"):][:4]
    assert summary == [
        "skipped: 2 tests: chromium not found",
        "skipped: 1 test: no /dev/full",
        "left out: 1 test over files the kit does not ship (LOCOMO_NOWHERE not set)",
        "left out: 2 browser tests left to `tox -e browser`",
    ]
