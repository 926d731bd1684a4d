"""Shared pytest fixtures: the dataset and the reference outputs the port is compared with."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
REFERENCE = ROOT.parent / "shared" / "reference"


@pytest.fixture(scope="session")
def samples():
    """The whole dataset, read once (LOCOMO_DATA, else the cache, else a fetch)."""
    from locomo_repro.data import dataset

    return dataset.load()


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """Folder holding the reference Go benchmark's outputs (LOCOMO_REFERENCE or ../shared/reference)."""
    path = Path(os.environ.get("LOCOMO_REFERENCE", REFERENCE))
    if not path.is_dir():
        pytest.fail(f"reference outputs not found at {path}: set LOCOMO_REFERENCE")
    return path


@pytest.fixture(scope="session")
def builds(samples):
    """The session's cache of built benchmark cases (``claims.Builds``): each (arm set, blind, derive, coref)
    is built once, for the parity tests and the claims alike."""
    from locomo_repro.claims import Builds

    return Builds(samples)
