"""A plug-in whose figures rest on another distribution (a model and its weights) names it in ``libraries``, and
the signature names that distribution's installed version beside the plug-in's own: ``dense`` ships inside
locomo-repro, yet its numbers are wordllama's, so its signature names wordllama's version too."""

from __future__ import annotations

import io
import sys
from importlib.metadata import version

import pytest

from locomo_repro import __version__, cli
from locomo_repro.arms import plugin
from locomo_repro.arms.plugin import Conversation


class Backed:
    """A memory whose figures rest on pytest's code (any installed distribution will do)."""

    name = "backed"
    libraries = ("pytest", "no-such-distribution-here")

    def __init__(self, conversation: Conversation) -> None:
        self.ids = [t.id for t in conversation.turns]

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        return [(i, 1.0) for i in self.ids[:k]]


def test_the_libraries_a_factory_names_are_signed_with_their_versions(capsys):
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args(["-arms", f"{__name__}:Backed", "-only", "1", "-quiet", "-jobs", "1"]),
                   out) == 0
    signed = [line for line in capsys.readouterr().err.splitlines() if line.startswith("signature: ")]
    assert signed and f"|plugin:backed={__name__}:Backed (pytest {version('pytest')})" in signed[-1]


def test_dense_is_signed_with_wordllamas_version_beside_the_kits():
    pytest.importorskip("wordllama", reason="the dense extra (wordllama) is not installed")
    loaded = plugin.load("locomo_repro.arms.dense:Dense")  # what the entry point ``dense`` names
    assert loaded.describe() == (f"dense=locomo_repro.arms.dense:Dense (locomo-repro {__version__}, "
                                 f"wordllama {version('wordllama')})")
    assert sys.modules["locomo_repro.arms.dense"].Dense.libraries == ("wordllama",)
