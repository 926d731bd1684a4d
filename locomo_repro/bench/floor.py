"""Every confidence floor from one run at floor 0.

The floor is the readers' gate on confidence: a reader declines when it has
no cite or the confidence is under the floor, and nothing else in a reply
depends on it (``read.reader``); a record's context, confidence and evidence
recall are the memory's, read before the gate.  So the run at floor 0 gives
the run at any floor: each record whose confidence is under the floor becomes
the declined reply, graded as a declined reply is graded.  The report's
trade-off and the claims' runs take every floor this way (one run where a
sweep made one per floor); the tests hold it to runs made at each floor,
byte for byte against the reference's ``-sweep floor``.
"""

from __future__ import annotations

from dataclasses import replace

from ..score.metric import grade
from ..text.lexicon import DECLINE
from .experiment import Record


def at_floor(run: dict[str, list[Record]], floor: float) -> dict[str, list[Record]]:
    """Every arm's records of ``run`` (made at floor 0) as the same run at ``floor`` makes them."""
    declined: dict[int, float] = {}  # a declined reply's grade per question, the same for every arm
    out: dict[str, list[Record]] = {}
    for arm, records in run.items():
        got = []
        for i, r in enumerate(records):
            if r.sure >= floor:
                got.append(r)
                continue
            if i not in declined:
                declined[i] = grade(r.category, DECLINE, r.answer)
            got.append(replace(r, reply=DECLINE, score=declined[i]))
        out[arm] = got
    return out
