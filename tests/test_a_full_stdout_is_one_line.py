"""Results printed to a full disk (stdout on ``/dev/full``) end in one line on stderr and exit 2, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def full():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system (a device that reports every write as a full disk)")
    with open("/dev/full", "w") as handle:
        yield handle


def test_refined_export_to_a_full_stdout(tmp_path, full):
    data = tmp_path / "d.json"
    data.write_text(json.dumps([{"sample_id": "s", "qa": [], "conversation": {"speaker_a": "A", "speaker_b": "B"}}]))
    done = subprocess.run([sys.executable, "-m", "locomo_repro.refined", "export", "--data", str(data),
                           "--out", str(tmp_path / "o")], stdout=full, stderr=subprocess.PIPE, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert done.returncode == 2
    assert done.stderr == "error: standard output: No space left on device\n"
