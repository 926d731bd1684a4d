"""What every memory returns: cited turns, best first, and the confidence taken over them.

Matches ``Cite``, ``Memory`` and ``Sure`` of hanzoai/semantic bench/locomo
(memory.go).  The confidence is computed over the cited turns' own texts, so it
means the same thing whatever unit a memory indexes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..data.records import record
from ..data.dataset import Turn
from ..memory.terms import Vocabulary
from ..text.reduce import terms


@record
class Cite:
    """One turn a memory offers, its score, and the phrase it matched inside it ("" if none)."""

    turn: Turn
    score: float
    say: str = ""


class Memory(Protocol):
    """A conversation remembered some way, asked for up to ``k`` cites per question."""

    name: str

    def recall(self, question: str, k: int) -> list[Cite]: ...


def sure(vocab: Vocabulary, question: str, cites: Sequence[Cite]) -> float:
    """Best cover of the question's focus by any cited turn's text (0 with no cites)."""
    focus = vocab.focus(question)
    return max((vocab.cover(focus, terms(c.turn.text)) for c in cites), default=0.0)


def ids(cites: Sequence[Cite]) -> list[str]:
    """The dialogue ids of the cited turns, in order."""
    return [c.turn.id for c in cites]
