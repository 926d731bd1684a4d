"""Plug-ins written as a careless or hostile user might write them: each does one thing to the run around it."""

from __future__ import annotations

import itertools
import numbers
import os
import sys

from locomo_repro.arms.plugin import Conversation


class Wanders:
    """A memory whose factory changes the working folder (to ``$WANDER_TO``) before it recalls the first turn."""

    name = "wanders"

    def __init__(self, conversation: Conversation) -> None:
        os.chdir(os.environ["WANDER_TO"])
        self.first = conversation.turns[0].id

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        return [(self.first, 1.0)]


class _First:
    def __init__(self, conversation: Conversation) -> None:
        self.turn = conversation.turns[0].id


class Exits(_First):
    """A memory whose recall ends the process as a script would."""

    name = "exits"

    def recall(self, question: str, k: int):
        sys.exit(0)


class GeneratorExits(_First):
    name = "generatorexits"

    def recall(self, question: str, k: int):
        raise GeneratorExit


class AnswerExits(_First):
    name = "answerexits"

    def answer(self, question: str):
        raise SystemExit(3)


class FactoryExits:
    name = "factoryexits"

    def __init__(self, conversation: Conversation) -> None:
        sys.exit("no index")


class HugeScore(_First):
    name = "hugescore"

    def recall(self, question: str, k: int):
        return [(self.turn, 10**400)]


class _Broken(Exception):
    pass


class IterationRaises(_First):
    """A recall whose iterable raises as it is iterated."""

    name = "iterationraises"

    def recall(self, question: str, k: int):
        def cites():
            yield self.turn, 1.0
            raise _Broken("the cursor closed")

        return cites()


class _Score:
    """A real number, as far as ``numbers.Real`` says, whose conversion to float raises."""

    def __float__(self):
        raise ValueError("no float here")


numbers.Real.register(_Score)


class FloatRaises(_First):
    name = "floatraises"

    def recall(self, question: str, k: int):
        return [(self.turn, _Score())]


class LookupRaises:
    """A factory that returns an object whose every attribute lookup raises."""

    name = "lookupraises"

    def __init__(self, conversation: Conversation) -> None:
        pass

    def __getattribute__(self, attr: str):
        if attr in ("recall", "answer"):
            raise RuntimeError(f"no {attr} today")
        return object.__getattribute__(self, attr)


class Endless(_First):
    """A recall that never ends: an endless generator of the same cite."""

    name = "endless"

    def recall(self, question: str, k: int):
        return itertools.repeat((self.turn, 1.0))


class Prints(_First):
    """A memory that prints as it recalls (its own debugging left in)."""

    name = "prints"

    def recall(self, question: str, k: int):
        print("NOISE from the plug-in")
        return [(self.turn, 1.0)]


class Forks(_First):
    """A memory whose first recall forks a child that returns into the kit as the parent does."""

    name = "forks"
    forked = False

    def recall(self, question: str, k: int):
        if not Forks.forked:
            Forks.forked = True
            os.fork()
        return [(self.turn, 1.0)]


class Twin(_First):
    name = "twin"

    def recall(self, question: str, k: int):
        return [(self.turn, 1.0)]


class OtherTwin(Twin):
    name = "twin"


class _Reply(str):
    """A reply that is a str whose every method raises once the kit reads it."""

    def _raises(self, *args, **kwargs):
        raise RuntimeError("read outside the guard")

    lower = upper = strip = split = replace = casefold = encode = __iter__ = __len__ = __eq__ = __hash__ = _raises
    __getitem__ = __contains__ = startswith = endswith = translate = _raises


class SlyReply:
    """An answerer whose reply is a :class:`_Reply`."""

    name = "slyreply"

    def __init__(self, conversation: Conversation) -> None:
        pass

    def answer(self, question: str):
        return _Reply("Paris")
