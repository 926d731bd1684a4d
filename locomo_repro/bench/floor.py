"""Every confidence floor from one run at floor 0.

The floor is the readers' gate on confidence: a reader declines when it has
no cite or the confidence is under the floor, and nothing else in a reply
depends on it (``read.reader``); a record's context, confidence and evidence
recall are the memory's, read before the gate.  So the run at floor 0 gives
the run at any floor: each record whose confidence is under the floor becomes
the declined reply, graded as a declined reply is graded.  A reply given
without a confidence (an answering plug-in's) is never declined, as a run
takes it (``experiment.taken``).  The report's
trade-off and the claims' runs take every floor this way (one run where a
sweep made one per floor); the tests hold it to runs made at each floor,
byte for byte against the reference's ``-sweep floor``.
"""

from __future__ import annotations

from ..score.metric import grade
from ..text.lexicon import DECLINE
from .experiment import Record


class Floors:
    """A run made at floor 0 (every arm's records, the arms asked the same questions in the same order),
    read at any floor; each record's declined form is made once, however many floors decline it."""

    def __init__(self, run: dict[str, list[Record]]):
        self.run = run
        self._grades: dict[int, float] = {}  # a declined reply's grade per question, the same for every arm
        self._declined: dict[str, dict[int, Record]] = {arm: {} for arm in run}

    def _decline(self, arm: str, i: int, r: Record) -> Record:
        got = self._declined[arm].get(i)
        if got is None:
            if i not in self._grades:
                self._grades[i] = grade(r.category, DECLINE, r.answer)
            got = self._declined[arm][i] = Record(r.sample, r.question, r.answer, r.category, r.evidence, DECLINE,
                                                  r.context, r.sure, self._grades[i], r.recall, r.held)
        return got

    def at(self, floor: float) -> dict[str, list[Record]]:
        """Every arm's records as the same run at ``floor`` makes them."""
        return {arm: [r if r.sure is None or r.sure >= floor else self._decline(arm, i, r)
                      for i, r in enumerate(records)]
                for arm, records in self.run.items()}


def at_floor(run: dict[str, list[Record]], floor: float) -> dict[str, list[Record]]:
    """Every arm's records of ``run`` (made at floor 0) as the same run at ``floor`` makes them."""
    return Floors(run).at(floor)
