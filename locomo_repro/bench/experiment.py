"""The experiment: every arm asked every question, graded, tallied and tabulated.

Matches ``Build``, ``Run``, ``Tally``, ``Table``, ``Show`` and the sweeps of
hanzoai/semantic bench/locomo (bench.go, main.go).  An arm is a memory and a
reader; a memory is asked once per question however many readers share it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from time import perf_counter
from typing import TYPE_CHECKING, Any, TextIO, TypeGuard

from ..data.records import record
from ..data.dataset import ANSWERABLE, CATEGORIES, COGNITIVE, LOCOMO, Question, Sample
from ..go.strings import to_lower
from ..arms.graph import NAMING, Knowledge
from ..memory.cite import Cite, Memory, ids, sure
from ..score.metric import DECLINE, declined, grade, in_turn, recall
from ..arms.oracle import Oracle
from ..read.reader import Options, Reader, gather, recite, reply
from ..memory.talk import mentions
from ..memory.terms import Vocabulary
from ..arms.vector import VectorMemory
from .names import ARM_SETS as ARM_SETS, MEMORIES, STEPS, PluginSweep, plugin_sweep, steps  # ARM_SETS re-exported: bench.ARM_SETS

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from ..arms.plugin import Asked, Plugged, Plugin, Said
    from ..read.model import Model


def plugged(made: object) -> TypeGuard[Plugged | Asked]:
    """Whether ``made`` is a plug-in's memory or answerer (``arms.plugin``'s ``Plugged`` or ``Asked``, which time
    their own calls).  That module is imported by whatever loads a plug-in, so where it is not, nothing is one."""
    plugin = sys.modules.get("locomo_repro.arms.plugin")
    return plugin is not None and isinstance(made, (plugin.Plugged, plugin.Asked))


@record
class Arm:
    """An arm of the experiment: a memory, the reader of its evidence, and the column name.

    A ``remote`` arm's reader waits on the network (the model reader): given a
    pool, ``Case.ask`` puts all its reads to the pool at once.  An arm with an
    ``answerer`` (an answering plug-in) has no memory or reader of the kit's: its
    replies are taken as given.  An arm with ``at`` answers in that pass only: the
    plug-in built with the ``at``-th value of a swept setting (``-sweep 'bm25(k1=…)'``).
    """

    name: str
    memory: Memory
    read: Reader
    remote: bool = False
    answerer: Asked | None = None
    at: int | None = None  # the one pass it is asked in: a swept plug-in's value (None: every pass)


@record
class Record:
    """One question answered by one arm, graded.

    ``context`` and ``recall`` are None where the arm named no evidence (an answering plug-in that
    returned a bare reply: its evidence recall is absent, not 1), ``sure`` where it gave no confidence;
    ``held`` where the answer key holds the question apart (``score.key``).
    """

    sample: str
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]
    reply: str
    context: tuple[str, ...] | None
    sure: float | None
    score: float
    recall: float | None
    held: bool = False


@dataclass
class Case:
    """One conversation with its vocabulary, its graph and the arms built over it.

    Measured, never printed on stdout: ``built``, the seconds building the kit's own memories took (the
    vocabulary, the vector memory, the graph, the arm sets; not the plug-ins', which time themselves), and
    ``timed``, the seconds of each call of a built-in memory's ``recall`` and of a remote arm's read, by
    memory or arm name."""

    sample: Sample
    vocab: Vocabulary
    knowledge: Knowledge
    arms: list[Arm]
    recalled: dict[tuple[str, int], list[tuple[list[Cite], float]]] = field(default_factory=dict)
    built: float = 0.0
    timed: dict[str, list[float]] = field(default_factory=dict)
    scored: dict[tuple[int, str, str], float] = field(default_factory=dict)  # a reply several arms gave: graded once

    def clocked(self, name: str, call: Callable[..., Any], *args: Any) -> Any:
        """``call(*args)``, its wall seconds kept under ``name`` (from any thread)."""
        started = perf_counter()
        got = call(*args)
        self.timed.setdefault(name, []).append(perf_counter() - started)  # list.append holds the GIL: safe
        return got

    def recall(self, memory: Memory, k: int, pool: Executor | None = None) -> list[tuple[list[Cite], float]]:
        """Every question's cites and confidence from one memory at one k, computed once (with ``pool``, a
        plug-in memory's calls run in its threads; the cites come back in question order)."""
        key = (memory.name, k)
        if key not in self.recalled:
            texts = [q.text for q in self.sample.questions]
            asked = memory.recall
            if pool is not None and getattr(memory, "threaded", False):
                got = list(pool.map(asked, texts, [k] * len(texts)))
            elif plugged(memory):  # it times its own calls, retries apart
                got = [asked(text, k) for text in texts]
            else:
                got = [self.clocked(memory.name, asked, text, k) for text in texts]
            self.recalled[key] = [(cites, sure(self.vocab, text, cites)) for text, cites in zip(texts, got)]
        return self.recalled[key]

    def answered(self, arm: Arm, options: Options, pool: Executor | None = None) -> list[Record]:
        """An answering plug-in's records: its replies as given, declined below the floor only where it gave
        a confidence, its evidence recall counted from the ids it gave (absent where it gave none)."""
        assert arm.answerer is not None
        questions = self.sample.questions
        texts = [q.text for q in questions]
        said = list(pool.map(arm.answerer.answer, texts)) if pool is not None else [
            arm.answerer.answer(text) for text in texts]
        return [self.graded(q, taken(got, options), got.context, got.confidence) for q, got in zip(questions, said)]

    def said(self, arm: Arm, question: str, options: Options) -> str:
        """One arm's reply to one question of this conversation, as ``ask`` gives it."""
        if arm.answerer is not None:
            return taken(arm.answerer.answer(question), options)
        cites = arm.memory.recall(question, options.k)
        return arm.read(question, cites, sure(self.vocab, question, cites), self.vocab, options)

    def ask(self, options: Options, pool: Executor | None = None, at: int = 0) -> dict[str, list[Record]]:
        """Every question of this conversation put to every arm (of pass ``at``: see ``Arm.at``).

        With ``pool``, every read of a remote arm is submitted first, so those
        reads run at once while the other arms read; the records are the same,
        in question order, whatever order the reads finish in.
        """
        arms = [arm for arm in self.arms if arm.at is None or arm.at == at]
        pending = [
            [pool.submit(self.clocked, arm.name, arm.read, q.text, cites, confidence, self.vocab, options)
             for q, (cites, confidence) in zip(self.sample.questions, self.recall(arm.memory, options.k, pool))]
            if pool is not None and arm.remote else None
            for arm in arms
        ]
        out: dict[str, list[Record]] = {}
        for arm, submitted in zip(arms, pending):
            if arm.answerer is not None:
                out[arm.name] = self.answered(arm, options, pool)
                continue
            records = out.setdefault(arm.name, [])
            recalled = self.recall(arm.memory, options.k, pool)
            for i, (q, (cites, confidence)) in enumerate(zip(self.sample.questions, recalled)):
                answer = (submitted[i].result() if submitted is not None
                          else arm.read(q.text, cites, confidence, self.vocab, options))
                context = tuple(ids(cites))
                records.append(self.graded(q, answer, context, confidence))
        return out

    def graded(self, q: Question, reply: str, context: tuple[str, ...] | None, confidence: float | None) -> Record:
        """One question's reply graded, its evidence recall counted from ``context`` (absent without one)."""
        said = (q.category, reply, q.answer)
        score = self.scored.get(said)
        if score is None:
            score = self.scored[said] = grade(q.category, reply, q.answer)
        return Record(
            sample=self.sample.id, question=q.text, answer=q.answer, category=q.category, evidence=q.evidence,
            reply=reply, context=context, sure=confidence, score=score,
            # The reference trims brackets off evidence ids before matching.
            recall=None if context is None else recall([e.strip("()") for e in q.evidence], context),
            held=q.held,
        )


def taken(said: Said, options: Options) -> str:
    """An answering plug-in's reply as the run takes it: as given, declined only under the floor where the
    plug-in gave a confidence."""
    return DECLINE if said.confidence is not None and said.confidence < options.floor else said.reply


class Tally:
    """Sums of score, evidence recall and declines per category, for one arm (recall over the records that
    have one: every record of a memory's arm); the records an answer key holds apart are tallied in
    ``apart``, in no category."""

    def __init__(self, records: Iterable[Record] = ()):
        self.n: dict[int, int] = {}
        self.score: dict[int, float] = {}
        self.recall: dict[int, float] = {}
        self.recalled: dict[int, int] = {}
        self.quiet: dict[int, float] = {}
        self.apart: Tally | None = None
        for r in records:
            self.add(r)

    def add(self, r: Record) -> None:
        if r.held:
            if self.apart is None:
                self.apart = Tally()
            self.apart.add(replace(r, held=False))
            return
        c = r.category
        self.n[c] = self.n.get(c, 0) + 1
        self.score[c] = self.score.get(c, 0.0) + r.score
        if r.recall is not None:
            self.recall[c] = self.recall.get(c, 0.0) + r.recall
            self.recalled[c] = self.recalled.get(c, 0) + 1
        self.quiet[c] = self.quiet.get(c, 0.0) + (1.0 if declined(r.reply) else 0.0)

    def count(self, kinds: Sequence[int] = ()) -> int:
        return sum(self.n.get(k, 0) for k in (kinds or sorted(self.n)))

    def _mean(self, sums: dict[int, float], kinds: Sequence[int], n: int | None = None) -> float:
        n = self.count(kinds) if n is None else n
        if not n:
            return 0.0
        # Over all categories the reference adds in a Go map's order, which is
        # undefined; the kit adds them in category order, in turn.
        return in_turn(sums.get(k, 0.0) for k in kinds or sorted(sums)) / n

    def graded(self, kinds: Sequence[int] = ()) -> tuple[int, ...]:
        """The given categories (all asked when none) that hold a gold answer for the F1 to grade against:
        LoCoMo's five, never cognitive (LoCoMo-Plus's, judged alone)."""
        return tuple(k for k in (kinds or sorted(self.n)) if k in LOCOMO)

    def mean(self, kinds: Sequence[int] = ()) -> float:
        """Mean score over the given categories (all when none) that hold a gold answer (``graded``); 0 where
        none does."""
        graded = self.graded(kinds)
        return self._mean(self.score, graded) if graded else 0.0

    def reach(self, kinds: Sequence[int] = ()) -> float | None:
        """Mean evidence recall over the given categories' records that have one (None where none has)."""
        n = sum(self.recalled.get(k, 0) for k in (kinds or sorted(self.n)))
        if self.count(kinds) and not n:
            return None
        return self._mean(self.recall, kinds, n)

    def quiet_share(self, kinds: Sequence[int] = ()) -> float:
        """Share of declined replies over the given categories."""
        return self._mean(self.quiet, kinds)



def build(
    samples: Sequence[Sample],
    arm_set: str = "main",
    blind: bool = False,
    derive: bool = True,
    coref: bool = False,
    retries: int = 0,
    sweep: str | None = None,
) -> list[Case]:
    """Build every conversation's vocabulary, memories and arms.

    ``blind`` empties each graph after it is built; ``derive=False`` gives the
    reasoner no rule (the derived-facts ablation); ``coref`` lets the dialogue
    reader bind third-person pronouns per session (the README's coreference
    experiment, reconstructed: ``talk.third_person``).  ``arm_set`` is an ``-arms``
    value: names of :data:`ARMS` and plug-ins, comma-separated (:func:`choose`); a plug-in's calls are
    tried ``retries`` more times when they raise (``-retries``).  With ``sweep`` over a plug-in's setting
    (``names.plugin_sweep``), that plug-in is built once per value, each answering in its own pass.
    """
    parts = choose(arm_set)
    swept = plugin_sweep(sweep) if sweep else None
    if swept is not None:
        swept_part(parts, swept)
    cases: list[Case] = []
    for sample in samples:
        started = perf_counter()
        vocab = Vocabulary([t.text for t in sample.turns])
        vector = VectorMemory(sample.turns, vocab)
        graph = Knowledge(sample, vocab, (NAMING,) if derive else (), coref=coref)
        if blind:
            graph.blind()
        arms: dict[tuple[str, int | None], Arm] = {}
        mades: dict[str, Plugged | Asked] = {}
        for part in parts:
            if isinstance(part, str) and part in ARMS:
                got = ARMS[part](sample, vocab, vector, graph)
            elif isinstance(part, str):  # one arm: built by the first set that names it, alone
                got = [arm for arm in ARMS[ONE[part]](sample, vocab, vector, graph) if arm.name == part]
            else:
                from ..arms.plugin import Conversation, configured, made

                plugin, gathered = part
                variants = [(None, plugin)] if swept is None or not swept_part([part], swept, refuse=False) else [
                    (i, configured(plugin, ((swept.key, v),), "-sweep")) for i, v in enumerate(swept.values)]
                got = []
                for at, variant in variants:
                    if variant.name not in mades:
                        mades[variant.name] = made(variant, Conversation.of(sample), retries)
                    got.append(replace(_plugged(plugin.name, mades[variant.name], gathered), at=at))
            for arm in got:  # an arm two sets share (vector in main and walk) is the same arm: kept once
                arms.setdefault((arm.name, arm.at), arm)
        built = perf_counter() - started - sum(m.built for m in mades.values())
        cases.append(Case(sample, vocab, graph, list(arms.values()), built=built))
    return cases


#: The memories' modules an arm set imports when it is built rather than with this module: only it uses them.
BUILT = {"factor": ("locomo_repro.arms.factor",), "walk": ("locomo_repro.arms.path",),
         "hops": ("locomo_repro.arms.path",)}


def imported(arm_set: str) -> tuple[str, ...]:
    """The modules building and asking ``arm_set`` imports when it first needs them rather than with this one:
    those of its sets (:data:`BUILT`; a single arm's, its set's), and the vector store, and numpy with it, unless
    every arm of every part reads the oracle's evidence (a plug-in may search a store).  A run imports them
    before it forks its workers (``stream.outcomes``)."""
    parts = arm_set.split(",")
    built = [module for part in parts for module in BUILT.get(ONE.get(part, part), ())]
    oracle_only = all(arm.startswith("oracle") for part in parts for arm in ARM_SETS.get(part, ("",)))
    return (*dict.fromkeys(built), *(() if oracle_only else ("locomo_repro.memory.store",)))


def _plugged(name: str, plugged: Plugged | Asked, gathered: bool) -> Arm:
    """A plug-in's arm: a memory read by the extractive reader (or the ``+set`` reader), or an answerer."""
    from ..arms.plugin import SET, Asked, PluginError
    from ..read.model import Nothing

    if isinstance(plugged, Asked):
        if gathered:
            raise PluginError(f"-arms {name}{SET}: {name} is an answerer; only a memory is read by a reader")
        return Arm(name, Nothing(), reply, answerer=plugged)
    return Arm(name + SET if gathered else name, plugged, gather if gathered else reply)


def choose(arm_set: str) -> list[str | tuple[Plugin, bool]]:
    """The parts of an ``-arms`` value, in order: built-in arm set names (:data:`ARMS`), single built-in arms
    (:data:`ONE`: ``vector``, ``oracle+set``, … as an arm set names them) and plug-ins.

    A part that is not an arm set's name is a plug-in, ``MODULE:ATTR`` or an installed entry point's name
    (``arms.plugin.load``), optionally with settings in brackets (``bm25(k1=1.2,b=0.5)``: ``plugin.set_up``;
    the commas inside them are the settings') and ``+set`` (its memory read by the ``+set`` reader).  Raises
    ``PluginError`` (one line) for a plug-in that cannot be loaded, whose name is a built-in memory's, or
    whose name another plug-in of the run (an installed entry point's included) gives too.
    """
    parts: list[str | tuple[Plugin, bool]] = []
    named: dict[str, Plugin] = {}
    for part in re.split(r",(?![^()]*\))", arm_set):
        if part in ARMS or part in ONE:
            parts.append(part)
            continue
        from ..arms.plugin import SET, PluginError, kind as kind_of, set_up  # here: the built-in arms load no plug-in

        gathered = part.endswith(SET)
        plugin = set_up(part[: -len(SET)] if gathered else part)
        if plugin.name.partition("(")[0] in MEMORIES:
            raise PluginError(f"-arms {part}: the arm name {plugin.name!r} is a built-in memory's; give the "
                              f"factory another name attribute")
        if named.setdefault(plugin.name, plugin).target != plugin.target:  # bm25 and bm25+set are one plug-in
            raise PluginError(f"-arms {part}: the arm name {plugin.name!r} is also {named[plugin.name].target}'s; "
                              f"two plug-ins of one run give two names")
        if gathered and isinstance(plugin.factory, type) and kind_of(plugin.factory) == "answerer":
            raise PluginError(f"-arms {part}: {plugin.name} is an answerer; only a memory is read by a reader")
        parts.append((plugin, gathered))
    return parts


def swept_part(parts: Sequence[str | tuple[Plugin, bool]], swept: PluginSweep, refuse: bool = True) -> bool:
    """Whether ``parts`` hold the plug-in a plug-in sweep names (by its arm's name or as ``-arms`` names it),
    without that setting of its own; with ``refuse``, ``PluginError`` (one line) when not."""
    from ..arms.plugin import PluginError, configured

    for part in parts:
        if not isinstance(part, str) and swept.arm in (part[0].name, part[0].name.partition("(")[0],
                                                        part[0].target):
            if swept.key in dict(part[0].settings):
                raise PluginError(f"-sweep {swept.arm}({swept.key}=...): -arms already sets {swept.key}")
            configured(part[0], ((swept.key, swept.values[0]),), f"-sweep {swept.arm}({swept.key}=...)")
            return True
    if refuse:
        raise PluginError(f"-sweep {swept.arm}({swept.key}=...): no plug-in of -arms is named {swept.arm}")
    return False


def add_model_arms(cases: Sequence[Case], model: Model, closed: bool = False) -> None:
    """Add a model's arms to every built case: its twins and, with ``closed``, the no-evidence control.

    The arms go after the built ones, so each model column reads the very
    memory of the deterministic column it twins (``-model``, ``-closed``).
    """
    from ..read.model import Nothing

    for case in cases:
        added = [replace(arm, remote=True) for arm in twin(case.arms, model.read)]
        if closed:
            added.append(Arm("closed", Nothing(), model.alone, remote=True))
        case.arms.extend(added)


def twin(arms: Sequence[Arm], read: Reader) -> list[Arm]:
    """One ``<memory>+model`` arm per distinct memory of ``arms``, in first-seen order (reference ``twin``).

    Two arms over one memory return the same evidence, so one model arm reads it.
    """
    seen: set[str] = set()
    out: list[Arm] = []
    for arm in arms:
        if arm.answerer is None and arm.memory.name not in seen:
            seen.add(arm.memory.name)
            out.append(Arm(f"{arm.memory.name}+model", arm.memory, read))
    return out


def build_lines(cases: Sequence[Case]) -> str:
    """Per conversation and in total: turns, vocabulary size, claims, nodes, edges, derived facts."""
    lines = []
    totals = [0, 0, 0, 0, 0]
    for case in cases:
        k = case.knowledge
        counts = (len(case.sample.turns), k.claims, k.nodes, k.edges, k.derived)
        lines.append(_build_line(case.sample.id, counts, str(case.vocab.size)))
        totals = [a + b for a, b in zip(totals, counts)]
    lines.append(_build_line("total", totals, ""))
    return "\n".join(lines) + "\n"


def _build_line(name: str, counts: Sequence[int], terms: str) -> str:
    turns, claims, nodes, edges, derived = counts
    return (
        f"{name:<10} {turns:4d} turns  {terms:>5} terms  {claims:6d} claims  "
        f"{nodes:5d} nodes  {edges:6d} edges  {derived:4d} derived"
    )


#: Every built-in arm by name, with the first arm set that builds it: ``-arms vector,mine`` asks that one arm
#: beside a plug-in (an arm's name means one memory and one reader in every set).
ONE: dict[str, str] = {arm: name for name, arms in reversed(ARM_SETS.items()) for arm in arms}

#: One conversation's arms of an arm set, from its sample, vocabulary, vector memory and graph.
ArmSet = Callable[[Sample, Vocabulary, VectorMemory, Knowledge], list[Arm]]

#: Every arm set by name, filled by :func:`arm_set` where each is defined, in the order of ``names.ARM_SETS``
#: (the names the command line offers without importing this module).
ARMS: dict[str, ArmSet] = {}


def arm_set(name: str) -> Callable[[ArmSet], ArmSet]:
    """Register the decorated function as the arm set ``name``, one of the names ``names.ARM_SETS`` offers."""

    def register(function: ArmSet) -> ArmSet:
        if name not in ARM_SETS or name in ARMS:
            raise ValueError(f"arm set {name!r} is not offered by names.ARM_SETS, or is registered twice")
        ARMS[name] = function
        return function

    return register


@arm_set("main")
def _main(sample: Sample, vocab: Vocabulary, vector: VectorMemory, graph: Knowledge) -> list[Arm]:
    return [
        Arm("vector", vector, reply),
        Arm("graph", graph, reply),
        Arm("graph+edge", graph, recite),
        Arm("oracle", Oracle(sample, vocab), reply),
    ]


@arm_set("factor")
def _factor(sample: Sample, vocab: Vocabulary, vector: VectorMemory, graph: Knowledge) -> list[Arm]:
    from ..arms.factor import Scoped, Span  # here: only this set builds them (``BUILT``)

    return [
        Arm("vector", vector, reply),
        Arm("scoped", Scoped(graph, vocab), reply),
        Arm("span", Span(graph), reply),
        Arm("graph", graph, reply),
    ]


@arm_set("walk")
def _walk(sample: Sample, vocab: Vocabulary, vector: VectorMemory, graph: Knowledge) -> list[Arm]:
    from ..arms.path import Path  # here: only this set and hops build it (``BUILT``)

    path, oracle = Path(graph), Oracle(sample, vocab)
    return [
        Arm("vector", vector, reply),
        Arm("vector+set", vector, gather),
        Arm("graph", graph, reply),
        Arm("path", path, reply),
        Arm("path+set", path, gather),
        Arm("oracle", oracle, reply),
        Arm("oracle+set", oracle, gather),
    ]


@arm_set("read")
def _read(sample: Sample, vocab: Vocabulary, vector: VectorMemory, graph: Knowledge) -> list[Arm]:
    oracle = Oracle(sample, vocab)
    return [Arm("oracle", oracle, reply), Arm("oracle+set", oracle, gather)]


@arm_set("gather")
def _gather(sample: Sample, vocab: Vocabulary, vector: VectorMemory, graph: Knowledge) -> list[Arm]:
    # The graph read with the +set reader: the README's "How far to walk"
    # graph column, which the reference measured outside its arm sets.
    return [Arm("graph", graph, reply), Arm("graph+set", graph, gather)]


@arm_set("hops")
def _hops(sample: Sample, vocab: Vocabulary, vector: VectorMemory, graph: Knowledge) -> list[Arm]:
    # The README's "How far to walk": every column read with Gather, the
    # walk taken one, two and three hops, guided (path<h>) and not (walk<h>).
    # Not in the reference's source; see path.Path.  The README heads the
    # first two columns graph and path; an arm's name means one memory and
    # one reader in every set, so here they are graph+set and path+set.
    from ..arms.path import Path

    return [
        Arm("graph+set", graph, gather),
        Arm("path+set", Path(graph), gather),
        Arm("path2", Path(graph, 2), gather),
        Arm("path3", Path(graph, 3), gather),
        Arm("walk2", Path(graph, 2, guided=False), gather),
        Arm("walk3", Path(graph, 3, guided=False), gather),
    ]


def subjects(cases: Sequence[Case]) -> tuple[int, int, int]:
    """Questions naming a speaker, questions resolving to any known name, and all questions."""
    speaker = known = asked = 0
    for case in cases:
        names = [to_lower(s) for s in case.sample.speakers]
        for q in case.sample.questions:
            asked += 1
            low = to_lower(q.text)
            speaker += any(mentions(low, n) for n in names)
            known += case.knowledge.subject(q.text) != ""
    return speaker, known, asked


def run(cases: Sequence[Case], options: Options, pool: Executor | None = None) -> dict[str, list[Record]]:
    """Every arm's records, conversation by conversation, in question order (``pool``: see ``Case.ask``)."""
    records: dict[str, list[Record]] = {}
    for case in cases:
        for arm, got in case.ask(options, pool).items():
            records.setdefault(arm, []).extend(got)
    return records


ROWS: tuple[tuple[str, tuple[int, ...]], ...] = (
    *((name, (kind,)) for kind, name in CATEGORIES.items()),
    ("answerable", ANSWERABLE),
    ("overall", ()),
)


def header(options: Options) -> str:
    return (
        f"k={options.k} floor={options.floor:.2f} span={options.span} "
        f"band={options.band:.2f} parts={options.parts}"
    )


def table(records: dict[str, list[Record]]) -> str:
    """The results table: a row per category, answerable and overall; arms in name order."""
    return tally_table({a: Tally(rs) for a, rs in records.items()})


def tally_table(tallies: dict[str, Tally]) -> str:
    """``table`` over each arm's tally."""
    arms = sorted(tallies)
    lines = [f"{'':<14}" + "".join(f"  {a:>20}" for a in arms)]
    lines.append(f"{'category':<14}{'n':>6}" + f"  {'F1':>6} {'recall':>6} {'quiet':>6}" * len(arms))
    lines += [_row(name, kinds, [tallies[a] for a in arms]) for name, kinds in ROWS
              if kinds[:1] in ((), *((k,) for k in LOCOMO)) or tallies[arms[0]].count(kinds)]  # cognitive if asked
    apart = [tallies[a].apart or Tally() for a in arms]
    if any(t.count() for t in apart):  # the questions an answer key holds apart: a row of their own
        lines.append(_row("ambiguous", (), apart))
    first = tallies[arms[0]] if arms else Tally()
    if first.count((COGNITIVE,)):  # the overall row's F1 leaves cognitive out: said in its row and under it
        at = next(i for i, line in enumerate(lines) if line.startswith("overall "))
        lines[at] = "overall*" + lines[at][len("overall*"):]
        graded = first.graded()
        lines.append(f"* F1 over the {first.count(graded) if graded else 0} questions with a gold answer: "
                     f"cognitive has none (its J alone counts: locomo-repro judge)")
    return "\n".join(lines) + "\n"


def _row(name: str, kinds: Sequence[int], tallies: Sequence[Tally]) -> str:
    """One row of the table: questions, then each arm's F1, recall and share declined over ``kinds``."""
    row = f"{name:<14}{tallies[0].count(kinds):6d}"
    for t in tallies:
        reach = t.reach(kinds)
        cell = f"{'-':>6}" if reach is None else f"{reach:6.3f}"
        f1 = f"{t.mean(kinds):6.3f}" if t.graded(kinds) else f"{'-':>6}"  # no gold answer to score
        row += f"  {f1} {cell} {100 * t.quiet_share(kinds):5.0f}%"
    return row


def show(records: dict[str, list[Record]], n: int) -> str:
    """Up to ``n`` questions per category, each arm's reply and score side by side."""
    arms = sorted(records)
    first = records[arms[0]] if arms else []  # a dataset without questions: the headings alone
    out: list[str] = []
    for kind, name in CATEGORIES.items():
        picked = [i for i, r in enumerate(first) if r.category == kind][:n]
        if not picked and kind not in LOCOMO:
            continue
        out.append(f"\n== {name} ==\n")
        for i in picked:
            out.append(f"\n  Q {first[i].question}\n  A {first[i].answer}\n")
            out.extend(f"  {a:<11} {records[a][i].score:.2f}  {records[a][i].reply}\n" for a in arms)
    return "".join(out)


def swept(options: Options, setting: str) -> list[Options]:
    """The settings of a sweep: ``options`` with ``setting`` at each of its ``STEPS`` values."""
    passes = []
    for value in STEPS[setting]:
        change: dict[str, Any] = {setting: int(value) if setting in ("k", "span", "parts") else float(value)}
        passes.append(replace(options, **change))
    return passes


def sweep(cases: Sequence[Case], options: Options, setting: str, progress: TextIO | None = None,
          pool: Executor | None = None) -> str:
    """One row per value of ``setting``: answerable, adversarial and overall F1 and overall quiet per arm."""
    tallies = []
    for value, each in zip(STEPS[setting], swept(options, setting)):
        records = run(cases, each, pool)
        if progress:
            print(f"locomo-repro: {setting}={value:g} done", file=progress)
        tallies.append({a: Tally(rs) for a, rs in records.items()})
    return sweep_table(setting, tallies)


def sweep_table(setting: str, tallies: Sequence[dict[str, Tally]]) -> str:
    """``sweep``'s table over each value's tally per arm (values in ``STEPS`` order; a plug-in's setting,
    ``names.plugin_sweep``, headed by its key, in its values' order)."""
    lines: list[str] = []
    setting, values = steps(setting)
    for value, tally in zip(values, tallies):
        arms = sorted(tally)
        if not lines:
            lines.append(f"{'':8}" + "".join(f"  {a:>26}" for a in arms))
            lines.append(f"{setting:>8}" + f"  {'1-4':>6} {'adv':>6} {'all':>6} {'quiet':>5}" * len(arms))
        row = f"{value:8g}"
        for a in arms:
            t = tally[a]
            row += f"  {t.mean(ANSWERABLE):6.3f} {t.mean((5,)):6.3f} {t.mean():6.3f} {100 * t.quiet_share():4.0f}%"
        lines.append(row)
    return "\n".join(lines) + "\n"
