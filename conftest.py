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
    from locomo_repro import dataset

    return dataset.load()


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """Folder holding the reference Go benchmark's outputs (LOCOMO_REFERENCE or ../shared/reference)."""
    path = Path(os.environ.get("LOCOMO_REFERENCE", REFERENCE))
    if not path.is_dir():
        pytest.fail(f"reference outputs not found at {path}: set LOCOMO_REFERENCE")
    return path


class Builds:
    """Memories built once per test session for each (arm set, blind, derive), shared by every test."""

    def __init__(self, samples):
        self.samples = samples
        self._cases: dict[tuple[str, bool, bool], list] = {}

    def cases(self, arms: str = "main", blind: bool = False, derive: bool = True) -> list:
        from locomo_repro import bench

        key = (arms, blind, derive)
        if key not in self._cases:
            self._cases[key] = bench.build(self.samples, arms, blind, derive)
        return self._cases[key]


@pytest.fixture(scope="session")
def builds(samples) -> Builds:
    """The session's cache of built benchmark cases."""
    return Builds(samples)
