"""Plug-ins the tests run through the protocol: a user's code, written as a user would write it.

``Vec`` re-implements the built-in ``vector`` memory with the kit's own vocabulary and store; the
answerers answer from the turns; the rest are broken in one way each.
"""

from __future__ import annotations

import math

from locomo_repro.arms.plugin import Conversation
from locomo_repro.memory.store import Store
from locomo_repro.memory.terms import Vocabulary


class Vec:
    """The ``vector`` memory through the protocol: one unit vector per turn line, nearest by inner product."""

    name = "vec"

    def __init__(self, conversation: Conversation) -> None:
        self.vocab = Vocabulary([t.text for t in conversation.turns])
        self.store = Store()
        for t in conversation.turns:
            self.store.put(t.id, self.vocab.weigh(t.line()))

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        out = []
        for m in self.store.near(self.vocab.weigh(question), k):
            if m.score <= 0:
                break
            out.append((m.id, m.score))
        return out


def first_turns(conversation: Conversation):
    """A function factory (no name attribute: the arm is named ``first_turns``): the first k turns, score 1."""

    class First:
        def recall(self, question: str, k: int) -> list[tuple[str, float]]:
            return [(t.id, 1.0) for t in conversation.turns[:k]]

    return First()


class Parrot:
    """An answerer that names its evidence: the last turn's text, the last turn's id, confidence 0.5."""

    name = "parrot"

    def __init__(self, conversation: Conversation) -> None:
        self.last = conversation.turns[-1]

    def answer(self, question: str) -> tuple[str, list[str], float]:
        return self.last.text, [self.last.id], 0.5


class Bare:
    """An answerer that gives a bare reply: no evidence, no confidence."""

    name = "bare"

    def __init__(self, conversation: Conversation) -> None:
        self.speaker = conversation.speakers[0]

    def answer(self, question: str) -> str:
        return self.speaker


class _Broken:
    def __init__(self, conversation: Conversation) -> None:
        self.turn = conversation.turns[0].id


class Raises(_Broken):
    name = "raises"

    def recall(self, question: str, k: int):
        raise RuntimeError("the index is down")


class NotATurn(_Broken):
    name = "notaturn"

    def recall(self, question: str, k: int):
        return [("D99:99", 1.0)]


class NanScore(_Broken):
    name = "nanscore"

    def recall(self, question: str, k: int):
        return [(self.turn, math.nan)]


class WrongType(_Broken):
    name = "wrongtype"

    def recall(self, question: str, k: int):
        return "D1:1"


class TooMany(_Broken):
    name = "toomany"

    def recall(self, question: str, k: int):
        return [(self.turn, 1.0)] * (k + 1)


class BadAnswer(_Broken):
    name = "badanswer"

    def answer(self, question: str):
        return 42


class AnswerNotATurn(_Broken):
    name = "answernotaturn"

    def answer(self, question: str):
        return "Paris", [self.turn, "D99:99"], 0.5


class AnswerNumberId(_Broken):
    name = "answernumberid"

    def answer(self, question: str):
        return "Paris", [1], 0.5


class TrueScore(_Broken):
    name = "truescore"

    def recall(self, question: str, k: int):
        return [(self.turn, True)]


class TrueConfidence(_Broken):
    name = "trueconfidence"

    def answer(self, question: str):
        return "Paris", [self.turn], True


class FactoryRaises:
    name = "factoryraises"

    def __init__(self, conversation: Conversation) -> None:
        raise ValueError("no model file")


class Neither:
    name = "neither"

    def __init__(self, conversation: Conversation) -> None:
        pass


class Plus:
    name = "bad+name"

    def __init__(self, conversation: Conversation) -> None:
        pass


class Vector(Vec):
    name = "vector"


NOT_CALLABLE = 3


class Both(Vec):
    """A memory that can also answer, without saying which it is: refused."""

    name = "both"

    def answer(self, question: str) -> str:
        return "both"


class BothAsMemory(Both):
    """The same, saying it is a memory: measured by its recall."""

    name = "both_memory"
    kind = "memory"


class BothAsAnswerer(Both):
    """The same, saying it is an answerer: measured by its answer."""

    name = "both_answerer"
    kind = "answerer"


class KindWithout(Vec):
    """A memory that calls itself an answerer but has no answer: refused."""

    name = "kind_without"
    kind = "answerer"


def both_made(conversation: Conversation) -> Both:
    """A function factory whose object has both methods and no kind: refused once it is made."""
    return Both(conversation)


class Flaky(Vec):
    """A remote memory whose first call for each question fails, as a service that times out now and then."""

    name = "flaky"

    def __init__(self, conversation: Conversation) -> None:
        super().__init__(conversation)
        self.asked: set[str] = set()

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        if question not in self.asked:
            self.asked.add(question)
            raise TimeoutError("the service did not answer in time")
        return super().recall(question, k)


class Firsts:
    """A memory with settings: the first ``first`` turns (at most k), each scored ``score``; ``backwards`` turns
    them the other way round."""

    name = "firsts"

    def __init__(self, conversation: Conversation, first: int = 3, score: float = 1.0, backwards: bool = False,
                 tag: str = "") -> None:
        turns = list(conversation.turns[:first])
        self.turns = turns[::-1] if backwards else turns
        self.score = score
        self.tag = tag

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        return [(t.id, self.score) for t in self.turns[:k]]


class Diary:
    """A memory fed session by session that forgets: it keeps the turns of its last two sessions only, and
    recalls the latest of them; it records what it was given, to be checked."""

    name = "diary"
    seen: list[tuple[str, int, int, object]] = []  # (conversation, session, turns, date), in the order added

    def __init__(self, conversation: Conversation) -> None:
        if conversation.turns:  # the turns come session by session, none up front
            raise ValueError("a memory fed session by session was given the turns up front")
        self.conversation = conversation.id
        self.kept: list = []

    def add(self, session) -> None:
        Diary.seen.append((self.conversation, session.number, len(session.turns), session.date))
        self.kept = [*self.kept, session][-2:]

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        turns = [t for s in self.kept for t in s.turns]
        return [(t.id, 1.0) for t in reversed(turns[-k:])]
