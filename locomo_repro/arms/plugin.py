"""Bring your own memory: the protocol a memory or answering system of a user's own follows to be measured.

Version 1 of the plug-in protocol.  A plug-in is a *factory*, a class or a function, called once per
conversation with a :class:`Conversation` (the conversation's id, its two speakers and its turns; never
its questions, answers or evidence).  What it returns is one of two kinds:

- a **memory** (:class:`Recalls`): ``recall(question, k)`` gives at most ``k`` cites, best first, each a
  ``(dia_id, score)`` pair or the kit's :class:`~locomo_repro.memory.cite.Cite`.  The kit's readers read
  them exactly as they read the built-in ``vector`` memory's: the confidence is the best cover of the
  question by a cited turn's text, the floor, the extractive reader, the ``+set`` reader and ``-model``
  apply unchanged, and evidence recall is counted from the cited ids;
- an **answerer** (:class:`Answers`): ``answer(question)`` gives the reply, or ``(reply, dia_ids,
  confidence)``.  The reply is taken as given (the floor applies only when a confidence is returned); its
  context is the ids it returns, and with none evidence recall is absent, not 1.

A plug-in is named on the command line as ``MODULE:ATTR`` (``-arms main,mypkg.memory:Mine``) or, once a
package that declares it in the entry-point group ``locomo_repro.arms`` is installed, by that entry
point's name (``-arms bm25``).  Its arm is named by the factory's ``name`` attribute, else by ``ATTR``
(or the entry point's name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..data.dataset import Sample, Turn
from ..memory.cite import Cite

#: The version of this protocol; a plug-in written for it keeps working while it stays 1.
PROTOCOL = 1


@dataclass(frozen=True, slots=True)
class Conversation:
    """One conversation as a plug-in sees it: its sample id, its two speakers and its turns in order.

    Each turn has its dialogue id (``id``, the dataset's ``dia_id``), ``session``, ``date``,
    ``speaker`` and ``text``, exactly as the built-in memories see them; ``Turn.line()`` is the turn as
    the ``vector`` memory indexes it (date and speaker included).
    """

    id: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]

    @classmethod
    def of(cls, sample: Sample) -> Conversation:
        """The conversation of a dataset sample, without its questions."""
        return cls(sample.id, sample.speakers, sample.turns)


@runtime_checkable
class Recalls(Protocol):
    """A memory: at most ``k`` cites for a question, best first."""

    def recall(self, question: str, k: int) -> Sequence[tuple[str, float] | Cite]: ...


@runtime_checkable
class Answers(Protocol):
    """An answering system: a reply, or the reply with the dialogue ids it drew on and its confidence."""

    def answer(self, question: str) -> str | tuple[str, Sequence[str], float]: ...
