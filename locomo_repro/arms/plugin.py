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

import importlib
import math
import numbers
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..data.dataset import Sample, Turn
from ..memory.cite import Cite

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

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


#: The entry-point group an installed package names its plug-ins in: ``-arms NAME`` finds them there.
GROUP = "locomo_repro.arms"

#: What an arm's name may hold: it becomes a column heading and a key of the predictions file.
_NAME = re.compile(r"[A-Za-z0-9_.-]+\Z")

#: The reader suffix a memory plug-in's arm may carry: ``bm25+set`` is read with the ``+set`` reader.
SET = "+set"


class PluginError(Exception):
    """A plug-in that cannot be loaded or named (not importable, no such attribute): one line, exit 2."""


class PluginFailure(Exception):
    """A plug-in that failed during a run: one line naming the arm, the question and what was wrong (exit 1)."""


@dataclass(frozen=True)
class Plugin:
    """A loaded plug-in: the arm's name, where its factory lives, the package version, and the factory."""

    name: str
    target: str  # "module:attr"
    version: str  # "distribution version", or "" when no installed distribution holds the module
    factory: Callable[[Conversation], object] = field(compare=False, repr=False)

    def describe(self) -> str:
        """How a signature names the plug-in: ``name=module:attr`` and its package version."""
        return f"{self.name}={self.target}" + (f" ({self.version})" if self.version else "")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def installed() -> dict[str, EntryPoint]:
    """The plug-ins installed packages declare in the entry-point group ``locomo_repro.arms``, by name."""
    from importlib.metadata import entry_points  # here: a run of the built-in arms reads no metadata

    return {ep.name: ep for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name)}


def _version(module: str) -> str:
    """The installed distribution that holds ``module`` and its version (``"mypkg 0.3.0"``), or ""."""
    from importlib.metadata import packages_distributions, version

    dists = packages_distributions().get(module.partition(".")[0], [])
    return f"{dists[0]} {version(dists[0])}" if dists else ""


def _imported(module: str, attr: str, spec: str) -> object:
    try:
        found: object = importlib.import_module(module)
    except ImportError as err:
        raise PluginError(f"-arms {spec}: cannot import {module}: {_one_line(str(err))}") from None
    except Exception as err:  # the module's own code failed while it was imported
        raise PluginError(f"-arms {spec}: importing {module} raised {type(err).__name__}: "
                          f"{_one_line(str(err))}") from None
    for part in attr.split("."):
        if not hasattr(found, part):
            raise PluginError(f"-arms {spec}: {module} has no attribute {attr}")
        found = getattr(found, part)
    return found


@lru_cache(maxsize=None)
def load(spec: str) -> Plugin:
    """The plug-in ``spec`` names: ``MODULE:ATTR`` (imported), else an installed entry point's name.

    Raises :class:`PluginError` (one line) when the module cannot be imported, the attribute is not
    there, the factory cannot be called, or the arm's name is not a plain name.  Loaded once per process.
    """
    if ":" in spec:
        module, _, attr = spec.partition(":")
        if not module or not attr:
            raise PluginError(f"-arms {spec}: a plug-in is named MODULE:ATTR")
        fallback, dist_version = attr.rpartition(".")[2], _version(module)
    else:
        found = installed().get(spec)
        if found is None:
            raise PluginError(f"-arms {spec}: no such arm set or installed plug-in (see -arms list)")
        module, _, attr = found.value.partition(":")
        fallback = spec
        dist_version = f"{found.dist.name} {found.dist.version}" if found.dist is not None else _version(module)
    factory = _imported(module, attr, spec)
    if not callable(factory):
        raise PluginError(f"-arms {spec}: {module}:{attr} is a {type(factory).__name__}, not a class or function")
    name = getattr(factory, "name", None)
    name = name if isinstance(name, str) else fallback
    if not _NAME.match(name) or name.endswith(SET):
        raise PluginError(f"-arms {spec}: the arm name {name!r} is not a plain name (letters, digits, _ . -)")
    return Plugin(name, f"{module}:{attr}", dist_version, factory)


@dataclass(frozen=True, slots=True)
class Said:
    """An answerer's answer to one question: the reply, the dialogue ids it drew on and its confidence
    (``None`` where it gave none)."""

    reply: str
    context: tuple[str, ...] | None
    confidence: float | None


def _finite(value: object) -> float | None:
    """``value`` as a float if it is a finite real number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


class _Made:
    """What both kinds share: the arm's name, the conversation's turns, and the one-line failure."""

    def __init__(self, name: str, conversation: Conversation, made: object) -> None:
        self.name = name
        self.conversation = conversation.id
        self.turns = {t.id: t for t in conversation.turns}
        self.made = made

    def failed(self, question: str, what: str) -> PluginFailure:
        return PluginFailure(f"arm {self.name}, {self.conversation}, question {question!r}: {what}")

    def call(self, method: str, question: str, *args: object) -> object:
        try:
            return getattr(self.made, method)(question, *args)
        except Exception as err:  # the plug-in's own failure, named with the question it failed on
            raise self.failed(question, f"{method} raised {type(err).__name__}: {_one_line(str(err))}") from None

    def turn(self, question: str, dia_id: object) -> Turn:
        if not isinstance(dia_id, str):
            raise self.failed(question, f"a dialogue id must be a string, got {type(dia_id).__name__}")
        if dia_id not in self.turns:
            raise self.failed(question, f"{dia_id!r} is not a turn of the conversation")
        return self.turns[dia_id]


class Plugged(_Made):
    """A memory plug-in as the kit's :class:`~locomo_repro.memory.cite.Memory`: its cites checked and made
    the kit's own, so every reader reads them as it reads a built-in memory's."""

    threaded = True  # its calls may run in -concurrency threads

    def recall(self, question: str, k: int) -> list[Cite]:
        got = self.call("recall", question, k)
        if isinstance(got, (str, bytes, Mapping)) or not isinstance(got, Iterable):
            raise self.failed(question, f"recall must return a list of (dia_id, score) pairs, "
                                        f"got {type(got).__name__}")
        cites = []
        for item in got:
            if isinstance(item, Cite):
                dia_id, score = item.turn.id, item.score
            elif isinstance(item, (tuple, list)) and len(item) == 2:
                dia_id, score = item
            else:
                raise self.failed(question, f"a cite must be a (dia_id, score) pair, got {_short(item)}")
            turn = self.turn(question, dia_id)
            value = _finite(score)
            if value is None:
                raise self.failed(question, f"the score of {dia_id!r} must be a finite number, got {_short(score)}")
            cites.append(Cite(turn, value, item.say if isinstance(item, Cite) else ""))
        if len(cites) > k:
            raise self.failed(question, f"recall returned {len(cites)} cites, more than k={k}")
        return cites


class Asked(_Made):
    """An answering plug-in: its answers checked and made :class:`Said` records."""

    threaded = True

    def answer(self, question: str) -> Said:
        got = self.call("answer", question)
        if isinstance(got, str):
            return Said(got, None, None)
        if not (isinstance(got, (tuple, list)) and len(got) == 3 and isinstance(got[0], str)):
            raise self.failed(question, f"answer must return a reply or (reply, dia_ids, confidence), "
                                        f"got {_short(got)}")
        reply, dia_ids, confidence = got
        if isinstance(dia_ids, (str, bytes, Mapping)) or not isinstance(dia_ids, Iterable):
            raise self.failed(question, f"the dialogue ids must be a list of strings, got {type(dia_ids).__name__}")
        context = tuple(self.turn(question, d).id for d in dia_ids)
        value = _finite(confidence)
        if value is None:
            raise self.failed(question, f"the confidence must be a finite number, got {_short(confidence)}")
        return Said(reply, context, value)


def _short(value: object) -> str:
    text = _one_line(repr(value))
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def made(plugin: Plugin, conversation: Conversation) -> Plugged | Asked:
    """The plug-in's object for one conversation, as a memory or an answerer (:class:`PluginFailure` if the
    factory raises or returns neither)."""
    try:
        got = plugin.factory(conversation)
    except Exception as err:
        raise PluginFailure(f"arm {plugin.name}, {conversation.id}: {plugin.target}(conversation) raised "
                            f"{type(err).__name__}: {_one_line(str(err))}") from None
    if isinstance(got, Recalls) and callable(got.recall):
        return Plugged(plugin.name, conversation, got)
    if isinstance(got, Answers) and callable(got.answer):
        return Asked(plugin.name, conversation, got)
    raise PluginFailure(f"arm {plugin.name}, {conversation.id}: {plugin.target}(conversation) returned "
                        f"{_short(got)}, which has neither recall(question, k) nor answer(question)")
