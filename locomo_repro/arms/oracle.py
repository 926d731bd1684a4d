"""The oracle memory: the dataset's own annotated evidence, ranked by cover of the question.

Matches ``Oracle`` of hanzoai/semantic bench/locomo (oracle.go).  Evidence is
looked up by question text, so a question text asked twice in a conversation
takes the evidence of its last occurrence (reference behaviour: conv-30 has
one such text, conv-48 eleven).  Ids are trimmed of brackets; ids naming no
turn are skipped.
"""

from __future__ import annotations

from ..data.dataset import Sample
from ..memory.cite import Cite
from ..memory.terms import Vocabulary
from ..text.reduce import terms


class Oracle:
    """Perfect retrieval: a question's evidence turns, best cover first."""

    name = "oracle"

    def __init__(self, sample: Sample, vocab: Vocabulary):
        self.vocab = vocab
        turns = {t.id: t for t in sample.turns}
        self.evidence = {
            q.text: [turns[e.strip("()")] for e in q.evidence if e.strip("()") in turns]
            for q in sample.questions
        }

    def recall(self, question: str, k: int) -> list[Cite]:
        focus = self.vocab.focus(question)
        cites = [Cite(t, self.vocab.cover(focus, terms(t.text))) for t in self.evidence.get(question, ())]
        cites.sort(key=lambda c: -c.score)
        return cites[:k]
