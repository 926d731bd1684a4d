"""The package declares the bm25 arm in the plug-in entry-point group under the name the arm gives itself,
and the extra the arm asks for installs the library it imports; the main test lane installs that extra."""

from __future__ import annotations

import configparser
import importlib
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_entry_point_bm25_names_the_arm_class():
    assert PROJECT["entry-points"]["locomo_repro.arms"]["bm25"] == "locomo_repro.arms.bm25:BM25"
    pytest.importorskip("bm25s", reason="the bm25 extra (bm25s) is not installed")
    module, _, attr = PROJECT["entry-points"]["locomo_repro.arms"]["bm25"].partition(":")
    assert getattr(importlib.import_module(module), attr).name == "bm25"


def test_the_bm25_extra_installs_bm25s_and_the_main_lane_takes_it():
    assert [r.split(">=")[0] for r in PROJECT["optional-dependencies"]["bm25"]] == ["bm25s"]
    tox = configparser.ConfigParser()
    tox.read(ROOT / "tox.ini", encoding="utf-8")
    assert "bm25" in tox["testenv"]["extras"].split()
