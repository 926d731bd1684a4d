"""The vector memory: one unit vector per turn line, nearest turns by inner product.

Matches ``Vector`` of hanzoai/semantic bench/locomo (vector.go): each turn is
indexed as ``Turn.line()`` (date and speaker included, as the official RAG
harness embeds it), and recall stops at the first score ≤ 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from ..data.dataset import Turn
from ..memory.cite import Cite
from ..memory.terms import Vocabulary

if TYPE_CHECKING:
    from ..memory.store import Store


class VectorMemory:
    """A conversation kept as one vector per turn."""

    name = "vector"

    def __init__(self, turns: Sequence[Turn], vocab: Vocabulary):
        self.vocab = vocab
        self.turns = {t.id: t for t in turns}

    @cached_property
    def store(self) -> Store:
        """Every turn line's vector, made when first searched: an arm set without the vector arm never is (nor
        imports ``memory.store`` and numpy)."""
        from ..memory.store import Store

        store = Store()
        for id, t in self.turns.items():
            store.put(id, self.vocab.weigh_turn(t))
        return store

    def recall(self, question: str, k: int) -> list[Cite]:
        out: list[Cite] = []
        for m in self.store.near(self.vocab.weigh(question), k):
            if m.score <= 0:
                break
            out.append(Cite(self.turns[m.id], m.score))
        return out
