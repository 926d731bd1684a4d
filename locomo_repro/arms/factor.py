"""The two arms that split the graph's advantage into what is indexed and what is reachable.

Matches ``Scoped`` and ``Flat`` of hanzoai/semantic bench/locomo (factor.go):
``scoped`` indexes whole turn lines, filed once under each person a graph
piece of that turn belongs to, and ranks only the question subject's; ``span``
ranks the graph's pieces without the subject filter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..arms.graph import Knowledge
from ..memory.cite import Cite
from ..memory.terms import Vocabulary
from ..memory.kg import fold

if TYPE_CHECKING:
    from ..memory.store import Store


class Scoped:
    """Whole turns, filed under each person the graph read them as being about."""

    name = "scoped"

    def __init__(self, knowledge: Knowledge, vocab: Vocabulary):
        self.knowledge = knowledge
        self.vocab = vocab
        from ..memory.store import SPACE, Store  # here, as where the graph files its pieces

        self.store: Store = Store()
        for key, piece in knowledge.pieces.items():
            self.store.put(key, vocab.weigh_turn(knowledge.turns[piece.turn]), {SPACE: piece.who})

    def recall(self, question: str, k: int) -> list[Cite]:
        who = fold(self.knowledge.subject(question))
        out: list[Cite] = []
        for m in self.store.search(self.vocab.weigh(question), k, space=who or None):
            if m.score <= 0:
                break
            out.append(Cite(self.knowledge.turns[self.knowledge.pieces[m.id].turn], m.score))
        return out


class Span:
    """The graph's pieces ranked without the subject filter (a turn may come back once per person)."""

    name = "span"

    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge

    def recall(self, question: str, k: int) -> list[Cite]:
        return self.knowledge.ranked(question, k, scoped=False)
