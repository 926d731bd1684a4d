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

An object with both says which it is by ``kind = "memory"`` or ``"answerer"`` (:func:`kind`); a memory that
returns more than ``k`` cites on purpose (the whole conversation) says ``bounded = False``; a factory whose
figures rest on another distribution's code or weights names it in ``libraries`` (``("wordllama",)``), and the
signature names that distribution's version beside the plug-in's own.  A memory class
that defines ``add(session)`` is fed the conversation session by session (:func:`fed`, :class:`Session`):
its factory gets no turn, then each session in order, then the questions.

A plug-in is named on the command line as ``MODULE:ATTR`` (``-arms main,mypkg.memory:Mine``, imported
with the current folder first on the path) or, once a package that declares it in the entry-point group
``locomo_repro.arms`` is installed, by that entry point's name (``-arms bm25``), either with settings its
factory takes as keyword arguments (``bm25(k1=1.2,b=0.5)``: :func:`set_up`).  Its arm is named by the
factory's ``name`` attribute, else by ``ATTR`` (or the entry point's name), followed by its settings.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import math
import numbers
import os
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TextIO, runtime_checkable

from ..data.dataset import Sample, Turn
from ..memory.cite import Cite
from ..data.records import record

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

#: The version of this protocol; a plug-in written for it keeps working while it stays 1.
PROTOCOL = 1


@record
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


@record
class Session:
    """One session of a conversation as a memory fed session by session gets it (``add(session)``): its
    number, its date (a ``datetime``, or ``None``) and its turns in order."""

    number: int
    date: datetime | None
    turns: tuple[Turn, ...]


def sessions(conversation: Conversation) -> list[Session]:
    """The conversation's sessions in the order their first turns come (each turn in its session, in order)."""
    grouped: dict[int, list[Turn]] = {}
    for t in conversation.turns:
        grouped.setdefault(t.session, []).append(t)
    return [Session(number, turns[0].date, tuple(turns)) for number, turns in grouped.items()]


def fed(factory: object) -> bool:
    """Whether a factory takes the conversation session by session: a class with an ``add`` method."""
    return isinstance(factory, type) and callable(getattr(factory, "add", None))


@runtime_checkable
class Recalls(Protocol):
    """A memory: at most ``k`` cites for a question, best first."""

    def recall(self, question: str, k: int) -> Sequence[tuple[str, float] | Cite]: ...


@runtime_checkable
class Answers(Protocol):
    """An answering system: a reply, or the reply with the dialogue ids it drew on and its confidence."""

    def answer(self, question: str) -> str | tuple[str, Sequence[str], float]: ...


#: The two kinds of plug-in, as a factory's or object's ``kind`` attribute may name them.
KINDS = ("memory", "answerer")


def kind(found: object) -> str:
    """What ``found`` (a plug-in's object, or its class) is: ``"memory"`` (it has ``recall``), ``"answerer"``
    (it has ``answer``), or ``""`` (neither).  One with both says which it is by its ``kind`` attribute
    (``kind = "memory"``); without one it is refused, as is a ``kind`` that is not one of :data:`KINDS` or
    names a method the object lacks: ``ValueError`` with the reason, one line."""
    memory = isinstance(found, Recalls) and callable(found.recall)
    answerer = isinstance(found, Answers) and callable(found.answer)
    declared = getattr(found, "kind", None)
    if declared is None:
        if memory and answerer:
            raise ValueError("it has both recall(question, k) and answer(question): say which it is with "
                             "kind = \"memory\" or kind = \"answerer\"")
        return "memory" if memory else "answerer" if answerer else ""
    if declared not in KINDS:
        raise ValueError(f"its kind is {_short(declared)}, not \"memory\" or \"answerer\"")
    if not (memory if declared == "memory" else answerer):
        raise ValueError(f"its kind is {declared!r} but it has no "
                         f"{'recall(question, k)' if declared == 'memory' else 'answer(question)'}")
    return str(declared)


#: The entry-point group an installed package names its plug-ins in: ``-arms NAME`` finds them there.
GROUP = "locomo_repro.arms"

#: What an arm's name may hold: it becomes a column heading and a key of the predictions file.
_NAME = re.compile(r"[A-Za-z0-9_.-]+\Z")

#: The reader suffix a memory plug-in's arm may carry: ``bm25+set`` is read with the ``+set`` reader.
SET = "+set"


def needs(arm: str, library: str, extra: str) -> str:
    """What a baseline arm says when its optional library is missing: the install that gives it, from a
    package index and from a clone of the kit alike."""
    return (f"the {arm} arm needs the {library} library: pip install 'locomo-repro[{extra}]' "
            f"(from a clone of the kit: pip install '.[{extra}]')")


class _Failed(Exception):
    """A plug-in's failure as one line, with the plug-in's own stack where its code raised (``stack``: the
    formatted traceback, "" for none), which ``-traceback`` prints; a worker process hands both back."""

    def __init__(self, message: str, stack: str = "") -> None:
        super().__init__(message)
        self.stack = stack

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return type(self), (str(self), self.stack)


class PluginError(_Failed):
    """A plug-in that cannot be loaded or named (not importable, no such attribute): one line, exit 2."""


class PluginFailure(_Failed):
    """A plug-in that failed during a run: one line naming the arm, the question and what was wrong (exit 1)."""


def stack(err: BaseException) -> str:
    """The traceback of a plug-in's own exception, as Python prints it (``-traceback``)."""
    return "".join(traceback.format_exception(err))


#: Called after each plug-in call that returned, where a run in this process counts them (``heard``).
_heard: list[Callable[[], None]] = []


def heard(hook: Callable[[], None] | None) -> None:
    """Have ``hook`` called after every plug-in call of this process that returns (None: no more), from
    whatever thread made it: the run's progress counts a slow plug-in's calls within a conversation."""
    _heard[:] = [] if hook is None else [hook]


#: Seconds before the first retry of a failed call (``-retries``); each further one waits twice as long, at most
#: :data:`LONGEST`.
FIRST_WAIT = 1.0
LONGEST = 30.0


@dataclass(frozen=True)
class Plugin:
    """A loaded plug-in: the arm's name, where its factory lives, the package version, the factory, and the
    settings it is called with as keyword arguments (``-arms 'bm25(k1=1.2,b=0.5)'``), which the name ends with."""

    name: str
    target: str  # "module:attr"
    version: str  # "distribution version", or "" when no installed distribution holds the module
    factory: Callable[..., object] = field(compare=False, repr=False)
    settings: tuple[tuple[str, Setting], ...] = ()

    def describe(self) -> str:
        """How a signature names the plug-in: ``name=module:attr`` and its package version."""
        return f"{self.name}={self.target}" + (f" ({self.version})" if self.version else "")


#: A plug-in setting's value: a number, a truth value or a word, as ``-arms 'NAME(key=value)'`` gives it.
Setting = int | float | bool | str

#: A plug-in named with its settings: ``bm25(k1=1.2,b=0.5)``.
_SET_UP = re.compile(r"(?P<spec>[^()]+)\((?P<settings>[^()]*)\)\Z")


def value(text: str) -> Setting:
    """A setting's value as written: an integer, else a finite number, else ``true``/``false``, else the text."""
    for kind in (int, float):
        try:
            number = kind(text)
        except ValueError:
            continue
        if math.isfinite(number):
            return number
    return {"true": True, "false": False}.get(text, text)


def _shown(setting: Setting) -> str:
    return str(setting).lower() if isinstance(setting, bool) else str(setting)


def set_up(spec: str) -> Plugin:
    """The plug-in ``spec`` names, with the settings it may carry in brackets (``bm25(k1=1.2,b=0.5)``):
    :func:`load`, then each ``key=value`` checked against the factory's parameters before any work.  The
    arm's name is the plug-in's followed by its settings as given (``bm25(k1=1.2,b=0.5)``)."""
    found = _SET_UP.match(spec)
    if found is None:
        return load(spec)
    plugin = load(found["spec"])
    settings: list[tuple[str, Setting]] = []
    for item in found["settings"].split(","):
        key, eq, text = item.partition("=")
        if not (eq and key.isidentifier() and text) or key in dict(settings):
            raise PluginError(f"-arms {spec}: a plug-in's settings are key=value, each key once, comma-separated")
        settings.append((key, value(text)))
    return configured(plugin, tuple(settings), f"-arms {spec}")


def configured(plugin: Plugin, settings: tuple[tuple[str, Setting], ...], flag: str) -> Plugin:
    """``plugin`` with further ``settings``, checked against its factory's parameters (``PluginError`` naming
    ``flag`` when it does not take them) and named by all of its settings: ``bm25(k1=1.2,b=0.5)``."""
    every = (*plugin.settings, *settings)
    try:
        inspect.signature(plugin.factory).bind(None, **dict(every))
    except TypeError as err:
        raise PluginError(f"{flag}: {plugin.target} does not take these settings: {err}") from None
    except ValueError:  # a factory whose parameters cannot be read: it is called and tells for itself
        pass
    base = plugin.name.partition("(")[0]
    shown = ",".join(f"{key}={_shown(setting)}" for key, setting in every)
    return Plugin(f"{base}({shown})", plugin.target, plugin.version, plugin.factory, every)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _said(err: BaseException) -> str:
    """What a plug-in's exception says, in one line (``TypeName: message``), whatever its ``__str__`` does."""
    try:
        told = _one_line(str(err))
    except BaseException:  # noqa: BLE001 - a plug-in's own __str__ that fails says nothing more
        told = ""
    return f"{type(err).__name__}: {told}" if told else type(err).__name__


class _Printing:
    """While plug-in code runs in any thread of the process: the stdout it replaced, and how many calls are in."""

    stdout: TextIO | None = None
    inside = 0
    lock = threading.Lock()


class _Guarded:
    """Around every call into a plug-in's code (its import, its factory, ``recall``, ``answer``) and every look
    at what it returned: whatever escapes (``SystemExit`` and ``GeneratorExit`` included; a Ctrl-C's
    KeyboardInterrupt goes on) becomes the one-line error ``fail(said, stack)`` makes (the stack for
    ``-traceback``); what it prints goes to stderr,
    never into the table on stdout; a process it forked that returns into the kit ends here."""

    def __init__(self, fail: Callable[[str, str], Exception]) -> None:
        self.fail = fail
        self.pid = os.getpid()

    def __enter__(self) -> _Guarded:
        with _Printing.lock:
            if not _Printing.inside:
                _Printing.stdout, sys.stdout = sys.stdout, sys.stderr
            _Printing.inside += 1
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if os.getpid() != self.pid:  # a child the plug-in forked: it never runs the rest of the run
            os._exit(0 if value is None else 1)
        with _Printing.lock:
            _Printing.inside -= 1
            if not _Printing.inside and _Printing.stdout is not None:
                sys.stdout = _Printing.stdout
        if value is not None and not isinstance(value, (PluginError, PluginFailure, KeyboardInterrupt)):
            raise self.fail(_said(value), stack(value)) from None


def installed() -> dict[str, EntryPoint]:
    """The plug-ins installed packages declare in the entry-point group ``locomo_repro.arms``, by name."""
    from importlib.metadata import entry_points  # here: a run of the built-in arms reads no metadata

    return {ep.name: ep for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name)}


def _version(module: str) -> str:
    """The installed distribution that holds ``module`` and its version (``"mypkg 0.3.0"``), or ""."""
    from importlib.metadata import packages_distributions, version

    dists = packages_distributions().get(module.partition(".")[0], [])
    return f"{dists[0]} {version(dists[0])}" if dists else ""


def here_first() -> None:
    """The current folder first on the import path, as ``python -m`` and pytest put it: a ``MODULE:ATTR``
    plug-in beside the user (``mymemory.py`` in the folder they run from) is found from the installed
    ``locomo-repro`` command too, whose path starts at the command's own folder instead."""
    here = os.getcwd()
    if sys.path[:1] not in ([""], [here]):
        sys.path.insert(0, here)


def _imported(module: str, attr: str, spec: str) -> object:
    with _Guarded(lambda said, trace: PluginError(f"-arms {spec}: importing {module} raised {said}", trace)):
        try:
            found: object = importlib.import_module(module)
        except ImportError as err:
            raise PluginError(f"-arms {spec}: cannot import {module}: {_one_line(str(err))}", stack(err)) from None
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
        here_first()
        fallback, dist_version = attr.rpartition(".")[2], _version(module)
    else:
        found = installed().get(spec)
        if found is None:
            raise PluginError(f"-arms {spec}: no such arm set or installed plug-in (see -arms list)")
        module, _, attr = found.value.partition(":")
        fallback = spec
        dist_version = f"{found.dist.name} {found.dist.version}" if found.dist is not None else _version(module)
    factory = _imported(module, attr, spec)
    with _Guarded(lambda said, trace: PluginError(f"-arms {spec}: looking at {module}:{attr} raised {said}", trace)):
        if not callable(factory):
            raise PluginError(f"-arms {spec}: {module}:{attr} is a {type(factory).__name__}, not a class or function")
        given = getattr(factory, "name", None)
        name = given if type(given) is str else fallback
        backing = _libraries(factory)
        if isinstance(factory, type):  # a class says its kind before any work; a function's object, once made
            try:
                kind(factory)
            except ValueError as err:
                raise PluginError(f"-arms {spec}: {module}:{attr}: {err}") from None
    if not _NAME.match(name) or name.endswith(SET):
        raise PluginError(f"-arms {spec}: the arm name {name!r} is not a plain name (letters, digits, _ . -)")
    return Plugin(name, f"{module}:{attr}", ", ".join([v for v in (dist_version, *backing) if v]), factory)


def _libraries(factory: object) -> list[str]:
    """The distributions a factory names as backing it (its ``libraries`` attribute: a plug-in shipped inside
    a package whose figures depend on another's, as ``dense`` on wordllama), each with its installed version
    (``"wordllama 0.4.0"``; one not installed is left out)."""
    from importlib.metadata import PackageNotFoundError, version  # here: a run of the built-in arms reads no metadata

    named = getattr(factory, "libraries", ())
    if not isinstance(named, tuple) or not all(isinstance(d, str) for d in named):
        return []
    out = []
    for dist in named:
        try:
            out.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            continue
    return out


@record
class Said:
    """An answerer's answer to one question: the reply, the dialogue ids it drew on and its confidence
    (``None`` where it gave none)."""

    reply: str
    context: tuple[str, ...] | None
    confidence: float | None


def _finite(value: object) -> float | None:
    """``value`` as a float if it is a finite real number (not a bool), else None (an integer too large for a
    float, 10**400, too)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


class _Made:
    """What both kinds share: the arm's name, the conversation's turns, the one-line failure, and what its
    calls cost: the seconds each call took (``calls``, in the order they ended) and how many failed and were
    tried again (``failures``, at most ``retries`` a call)."""

    def __init__(self, name: str, conversation: Conversation, made: object, retries: int = 0,
                 built: float = 0.0) -> None:
        self.name = name
        self.conversation = conversation.id
        self.turns = {t.id: t for t in conversation.turns}
        self.made: Any = made  # a Recalls or an Answers: every use of it is guarded
        self.retries = retries
        self.built = built
        self.calls: list[float] = []
        self.sessions: list[float] = []  # seconds of each add(session), for a memory fed session by session
        self.failures = 0
        self._lock = threading.Lock()

    def failed(self, question: str, what: str, trace: str = "") -> PluginFailure:
        return PluginFailure(f"arm {self.name}, {self.conversation}, question {question!r}: {what}", trace)

    def guarded(self, method: str, question: str) -> _Guarded:
        """The guard around one call of ``method`` and the checks of what it returned, naming the question."""
        return _Guarded(lambda said, trace: self.failed(question, f"{method} raised {said}", trace))

    def retried(self, method: Callable[..., object], *args: object) -> object:
        """``method(*args)``, timed (wall seconds, whatever threads it runs in), tried again after a wait
        (:data:`FIRST_WAIT`, doubling) up to ``retries`` times when it raises an ``Exception``; each failure
        is counted.  Called inside :meth:`guarded`, which makes the last failure one line."""
        for attempt in range(self.retries + 1):
            started = time.perf_counter()
            try:
                got = method(*args)
            except Exception:
                if attempt == self.retries:
                    raise
                with self._lock:
                    self.failures += 1
                time.sleep(min(FIRST_WAIT * 2 ** attempt, LONGEST))
                continue
            spent = time.perf_counter() - started
            with self._lock:
                self.calls.append(spent)
            for hook in _heard:
                hook()
            return got
        raise AssertionError("unreachable")  # the last attempt returns or raises

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
        with self.guarded("recall", question):
            got = self.retried(self.made.recall, question, k)
            bounded = getattr(self.made, "bounded", True)  # a memory that gives every turn says bounded = False
            if isinstance(got, (str, bytes, Mapping)) or not isinstance(got, Iterable):
                raise self.failed(question, f"recall must return a list of (dia_id, score) pairs, "
                                            f"got {type(got).__name__}")
            cites = []
            for item in itertools.islice(got, k + 1) if bounded else got:  # an endless generator is not run to its end
                if isinstance(item, Cite):
                    dia_id, score = item.turn.id, item.score
                elif isinstance(item, (tuple, list)) and len(item) == 2:
                    dia_id, score = item
                else:
                    raise self.failed(question, f"a cite must be a (dia_id, score) pair, got {_short(item)}")
                turn = self.turn(question, dia_id)
                value = _finite(score)
                if value is None:
                    raise self.failed(question, f"the score of {dia_id!r} must be a finite number, "
                                                f"got {_short(score)}")
                cites.append(Cite(turn, value, item.say if isinstance(item, Cite) else ""))
            if len(cites) > k and bounded:
                raise self.failed(question, f"recall returned more than k={k} cites")
            return cites


class Asked(_Made):
    """An answering plug-in: its answers checked and made :class:`Said` records."""

    threaded = True

    def answer(self, question: str) -> Said:
        with self.guarded("answer", question):
            got = self.retried(self.made.answer, question)
            if isinstance(got, str):
                return Said(str.__str__(got), None, None)  # a plain str (numpy's str_ too): read outside the guard
            if not (isinstance(got, (tuple, list)) and len(got) == 3 and isinstance(got[0], str)):
                raise self.failed(question, f"answer must return a reply or (reply, dia_ids, confidence), "
                                            f"got {_short(got)}")
            reply, dia_ids, confidence = str.__str__(got[0]), got[1], got[2]
            if isinstance(dia_ids, (str, bytes, Mapping)) or not isinstance(dia_ids, Iterable):
                raise self.failed(question, f"the dialogue ids must be a list of strings, "
                                            f"got {type(dia_ids).__name__}")
            context = tuple(self.turn(question, d).id for d in dia_ids)
            value = _finite(confidence)
            if value is None:
                raise self.failed(question, f"the confidence must be a finite number, got {_short(confidence)}")
            return Said(reply, context, value)


def _short(value: object) -> str:
    text = _one_line(repr(value))
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def made(plugin: Plugin, conversation: Conversation, retries: int = 0) -> Plugged | Asked:
    """The plug-in's object for one conversation, as a memory or an answerer (:class:`PluginFailure` if the
    factory raises or returns neither); its calls are tried ``retries`` more times when they raise, and the
    seconds the factory took are its ``built``.

    A factory fed session by session (:func:`fed`) is called with the conversation's id and speakers and no
    turn, then its ``add`` once per session, in order (:func:`sessions`); ``built`` is then the factory and
    every ``add``, and the seconds of each ``add`` are the object's ``sessions``.  Every call into the
    plug-in, and every look at what it returned, is guarded (:class:`_Guarded`)."""
    def failure(what: str) -> Callable[[str, str], Exception]:
        return lambda said, trace: PluginFailure(f"arm {plugin.name}, {conversation.id}: {what} raised {said}", trace)

    by_session = fed(plugin.factory)
    started = time.perf_counter()
    with _Guarded(failure(f"{plugin.target}(conversation)")):
        given = Conversation(conversation.id, conversation.speakers, ()) if by_session else conversation
        got = plugin.factory(given, **dict(plugin.settings))
    added = []
    for session in sessions(conversation) if by_session else ():
        at = time.perf_counter()
        with _Guarded(failure(f"add(session {session.number})")):
            got.add(session)  # type: ignore[attr-defined]  # fed() saw it
        added.append(time.perf_counter() - at)
    built = time.perf_counter() - started
    with _Guarded(failure(f"{plugin.target}(conversation)")):
        try:
            found = kind(got)
        except ValueError as err:
            raise PluginFailure(f"arm {plugin.name}, {conversation.id}: {plugin.target}(conversation) returned "
                                f"{_short(got)}: {err}") from None
        if found in KINDS:
            kept = (Plugged if found == "memory" else Asked)(plugin.name, conversation, got, retries, built)
            kept.sessions = added
            return kept
        raise PluginFailure(f"arm {plugin.name}, {conversation.id}: {plugin.target}(conversation) returned "
                            f"{_short(got)}, which has neither recall(question, k) nor answer(question)")
