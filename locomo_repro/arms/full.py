"""The full-context baseline, ``-arms full``: the whole conversation as the evidence of every question.

Not retrieval at all: every turn, in the conversation's order, each with the score 1, whatever the question
and whatever ``k`` (the factory says ``bounded = False``, so the kit takes more than ``k`` cites from it).
Read by the extractive reader it shows what the readers make of everything; read by a model (``-model``)
it is the full-context baseline the memory systems are measured against (locomo-audit shows it beating
them).  Its evidence recall is 1 wherever a question names evidence, and its evidence size is the whole
conversation's.
"""

from __future__ import annotations

from .plugin import Conversation


class Full:
    """Every turn of the conversation, in order, for every question."""

    name = "full"
    bounded = False  # returns more than k cites: the whole conversation

    def __init__(self, conversation: Conversation) -> None:
        self.cites = [(t.id, 1.0) for t in conversation.turns]

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        return list(self.cites)
