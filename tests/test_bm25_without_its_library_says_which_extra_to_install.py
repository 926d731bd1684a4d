"""Without bm25s, importing the bm25 arm (as the plug-in loader does) fails with an ImportError whose one-line
message names the extra that installs it."""

from __future__ import annotations

import importlib
import sys

import pytest


def test_importing_the_arm_without_bm25s_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "bm25s", None)  # an import of bm25s now raises ImportError
    monkeypatch.delitem(sys.modules, "locomo_repro.arms.bm25", raising=False)
    with pytest.raises(ImportError) as caught:
        importlib.import_module("locomo_repro.arms.bm25")
    message = str(caught.value)
    assert message == ("the bm25 arm needs the bm25s library: pip install 'locomo-repro[bm25]' "
                       "(from a clone of the kit: pip install '.[bm25]')")
    assert "\n" not in message
