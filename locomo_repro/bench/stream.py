"""A run one conversation at a time: built, asked and tallied, then let go; with ``-jobs``, in worker processes.

``conversation`` is a plain function over plain data: one sample and the run's
``Settings`` in, that conversation's ``Outcome`` (its build counts and every
arm's graded records) out.  Any executor can run it; ``outcomes`` gives it to
a ``ProcessPoolExecutor`` and hands the outcomes back in dataset order.
``Report`` takes them in that order and keeps only what the printed tables,
``-show``, ``-out`` and ``-json`` need: a running tally per arm (fed record by record in
the order ``experiment.table`` adds them, so every sum is the same float), the
first ``-show`` questions per category, the predictions as encoded text in
an anonymous temporary file (nothing is left behind if the run stops), and
each conversation's summed scores per arm and category (``score.results.sums``).
The printed result is byte for byte what ``experiment``'s functions print over
all the cases at once.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Protocol, TextIO

from ..data.dataset import Sample
from ..read.reader import Options
from ..score.costs import cost, mean_evidence, variant
from ..score.metric import in_turn
from ..score.key import Key
from ..text.reduce import forget, load_stems
from . import experiment as bench
from .names import plugin_sweep, steps
from ..data.records import record

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from ..score import ceiling
    from ..score import results as saved


@record
class Settings:
    """What a run builds and asks: the arm set (an ``-arms`` value: sets and plug-ins), the ablations, the
    reader settings, the swept setting, how many threads a plug-in's calls may run in at once, and how many
    more times a call that raised is tried."""

    options: Options
    arm_set: str = "main"
    blind: bool = False
    derive: bool = True
    coref: bool = False
    sweep: str | None = None
    concurrency: int = 1
    also: tuple[Options, ...] = ()  # further settings to ask each built conversation with (not printed)
    retries: int = 0  # more tries of a plug-in's call that raised

    def passes(self) -> list[Options]:
        """The settings each conversation is asked with: one, or one per swept value; then ``also``."""
        if self.sweep and plugin_sweep(self.sweep):  # a plug-in's setting: the reader's settings every pass
            return [*[self.options] * len(steps(self.sweep)[1]), *self.also]
        return [*(bench.swept(self.options, self.sweep) if self.sweep else [self.options]), *self.also]


@record
class Outcome:
    """One conversation's part of a run: its sizes, build counts and each pass's records per arm."""

    sample: str
    sessions: int
    questions: int
    built: tuple[int, int, int, int, int]  # turns, claims, nodes, edges, derived facts
    terms: int
    bound: tuple[int, int] | None  # statement sentences whose subject coreference decided, of all (-coref)
    subjects: tuple[int, int]  # questions naming a speaker, questions resolving to a known name
    records: tuple[dict[str, list[bench.Record]], ...]
    spent: dict[str, Spent]  # by arm: what it cost (measured)
    evidence: tuple[dict[str, Evidence], ...]  # per pass, by arm: the evidence handed to its reader


@record
class Spent:
    """What one arm cost over one conversation, measured: seconds building its memory (a plug-in's factory;
    for a built-in arm, the kit's whole build of the conversation, which its arms share), seconds per call
    in the order the calls ended (a memory's ``recall``, an answerer's ``answer``, a model's read), the
    calls that failed and were tried again, and ``of``: the memory or plug-in the calls are of (two arms
    reading one memory share its calls); for a memory fed session by session, the seconds of each ``add``."""

    built: float
    calls: tuple[float, ...]
    failures: int
    of: str
    sessions: tuple[float, ...] = ()  # seconds of each add(session): a memory fed session by session


#: The evidence an arm handed its reader over one conversation: questions with evidence, and the turns,
#: characters and words of that evidence summed over them (the turns' texts, as the readers read them).
Evidence = tuple[int, int, int, int]


def spent(case: bench.Case) -> dict[str, Spent]:
    """Every arm's cost over a case asked, in the case's arm order; a swept plug-in's variant of each pass
    under ``results.variant``."""
    out = {}
    for arm in case.arms:
        made = arm.answerer if arm.answerer is not None else arm.memory
        key = variant(arm.name, arm.at or 0)  # a swept plug-in: each value's variant its own
        if key in out:
            continue
        if bench.plugged(made):
            out[key] = Spent(made.built, tuple(made.calls), made.failures, made.name, tuple(made.sessions))
        elif arm.remote:
            out[arm.name] = Spent(0.0, tuple(case.timed.get(arm.name, ())), 0, arm.name)
        else:
            out[arm.name] = Spent(case.built, tuple(case.timed.get(arm.memory.name, ())), 0, arm.memory.name)
    return out


def evidence(case: bench.Case, records: dict[str, list[bench.Record]]) -> dict[str, Evidence]:
    """Each arm's evidence over one pass of a case (an arm that named none, a bare answerer, left out)."""
    texts = {t.id: t.text for t in case.sample.turns}
    sizes: dict[str, tuple[int, int]] = {}  # each turn cited counted once
    out = {}
    for arm, got in records.items():
        named = [r.context for r in got if r.context is not None]
        if len(named) < len(got):
            continue
        turns = chars = words = 0
        for context in named:
            for dia_id in context:
                size = sizes.get(dia_id)
                if size is None:
                    text = texts[dia_id]
                    size = sizes[dia_id] = (len(text), len(text.split()))
                turns, chars, words = turns + 1, chars + size[0], words + size[1]
        out[arm] = (len(named), turns, chars, words)
    return out


def outcome(case: bench.Case, settings: Settings, pool: Executor | None = None) -> Outcome:
    """A built conversation asked every pass (``pool`` asks its remote arms: see ``Case.ask``)."""
    k = case.knowledge
    speaker, known, _ = bench.subjects([case])
    records = tuple(case.ask(each, pool, at) for at, each in enumerate(settings.passes()))
    return Outcome(
        sample=case.sample.id,
        sessions=case.sample.sessions,
        questions=len(case.sample.questions),
        built=(len(case.sample.turns), k.claims, k.nodes, k.edges, k.derived),
        terms=case.vocab.size,
        bound=k.bound if settings.coref else None,
        subjects=(speaker, known),
        records=records,
        spent=spent(case),
        evidence=tuple(evidence(case, each) for each in records),
    )


def conversation(sample: Sample, settings: Settings, *, last: bool = False) -> Outcome:
    """Build one conversation's memories and arms, ask every question, and return what the report needs.

    The conversation is let go before this returns: the memos of its texts
    are emptied and a full collection frees what is left of it in reference
    cycles (the kit's own memories leave none; a plug-in's may), so a
    process keeps no more for having asked many conversations than for one:
    the ×10 dataset peaks at 1.09× locomo10's default table.  While
    it is built and asked, the collector does not run on its own: that one
    collection is what finds its cycles, and the collector is left as it was.
    The ``last`` conversation of a run asked in this process is let go only
    as far as its memories: no conversation follows to need the room, and
    emptying the memos and collecting (some 6 ms of a one-conversation run)
    would only do early what the process's end or the collector's own next
    run does.
    """
    collecting = gc.isenabled()
    gc.disable()  # the collection below is the one that finds this conversation's cycles
    try:
        (case,) = bench.build([sample], settings.arm_set, settings.blind, derive=settings.derive,
                              coref=settings.coref, retries=settings.retries, sweep=settings.sweep)
        if settings.concurrency > 1 and any(getattr(a.memory, "threaded", False) or a.answerer for a in case.arms):
            from ..data.stop import Threads  # here: only a plug-in's calls run in threads

            with Threads(settings.concurrency, "plugin") as pool:
                done = outcome(case, settings, pool)
        else:
            done = outcome(case, settings)
        del case
    finally:
        if collecting:
            gc.enable()
    if not last:
        forget()
        gc.collect()
    return done


class Keeps(Protocol):
    """Where finished conversations are kept for a run to resume (``resume.Kept``)."""

    def get(self, sample: str) -> Outcome | None: ...

    def put(self, outcome: Outcome) -> None: ...


def outcomes(samples: Iterable[Sample], settings: Settings, jobs: int = 1, kept: Keeps | None = None
             ) -> Iterator[Outcome]:
    """Every conversation's outcome in dataset order: here with one job, else in ``jobs`` worker processes.

    With ``kept``, a conversation kept by an earlier run of the same settings is read back instead of
    asked, and each one asked is kept as soon as it is done.

    At most two conversations per worker are handed out ahead of the one
    awaited, so neither samples nor outcomes pile up.  What is loaded before
    the first conversation (the modules, the stems) lives for the whole run: it is
    frozen out of the garbage collector's sight for the run, so the collection
    after each conversation looks at that conversation alone (a fortieth of
    the time), in this process and in the workers forked from it.  The workers
    die with this process and leave Ctrl-C to it; one that cannot be started
    or that dies is a ``stop.WorkerError`` (``data.stop``).
    """
    load_stems()  # the shipped stems are read once, here, and forked workers inherit them
    gc.freeze()  # with the few cycles the imports left: collecting them first would cost more than they hold
    try:
        def ready(sample: Sample) -> Outcome | None:  # kept by an earlier run
            return kept.get(sample.id) if kept is not None else None

        def keep(outcome: Outcome) -> Outcome:
            if kept is not None:
                kept.put(outcome)
            return outcome

        if jobs == 1:
            ahead = iter(samples)
            sample = next(ahead, None)
            while sample is not None:
                following = next(ahead, None)
                yield ready(sample) or keep(conversation(sample, settings, last=following is None))
                sample = following
            return
        from ..arms.plugin import PluginError  # here: a run in this process starts no pool and hears from no worker
        from ..data.stop import workers

        def done(got: Outcome | Future) -> Outcome:
            if isinstance(got, Outcome):
                return got
            try:
                return keep(got.result())
            except PluginError as err:  # loaded here, but not in the worker (which imports it by name)
                raise PluginError(f"{err} (in a worker process: -jobs 1 runs every conversation in this one)",
                                  err.stack) from None

        # A bad sample further on, a stop or Ctrl-C: the workers are ended, not waited for (``stop.workers``).
        with workers(jobs, preload=(__name__, *bench.imported(settings.arm_set))) as pool:
            gc.freeze()  # what the pool imported for its workers too (they are forked at the first submit)
            waiting: deque = deque()
            for sample in samples:
                waiting.append(ready(sample) or pool.submit(conversation, sample, settings))
                if len(waiting) > 2 * jobs:
                    yield done(waiting.popleft())
            while waiting:
                yield done(waiting.popleft())
    finally:
        gc.unfreeze()


def _seconds(value: float | None) -> str:
    """A measured time as a person reads it: milliseconds below a second, else seconds."""
    if value is None:
        return "-"
    return f"{1000 * value:.3g} ms" if value < 1 else f"{value:.2f} s"


def _percent(part: int, whole: int, places: int) -> str:
    """``100 * part / whole`` as the reference's ``%.Nf`` prints it: "NaN" for no questions at all (Go's 0/0)."""
    return f"{100 * part / whole:.{places}f}" if whole else "NaN"


def prediction(sample: str, records: dict[str, list[bench.Record]]) -> dict:
    """One conversation in the official scorer's predictions shape: every arm's reply, context and
    confidence per question (the reference's keys, sorted as Go writes a map).  An arm that named no
    evidence or gave no confidence (an answering plug-in) has no context or confidence key there, as a
    file of another system without them."""
    arms = list(records)
    qa = []
    for i, first in enumerate(records[arms[0]] if arms else ()):
        item: dict[str, object] = {
            "question": first.question, "answer": first.answer, "category": first.category,
            "evidence": list(first.evidence),
        }
        for arm in arms:
            r = records[arm][i]
            item[f"{arm}_prediction"] = r.reply
            if r.context is not None:
                item[f"{arm}_prediction_context"] = list(r.context)
            if r.sure is not None:
                item[f"{arm}_prediction_confidence"] = r.sure
        qa.append(dict(sorted(item.items())))
    return {"sample_id": sample, "qa": qa}


def predictions(samples: Iterable[Sample], records: dict[str, list[bench.Record]]) -> list[dict]:
    """Every conversation's :func:`prediction` from every arm's records of a whole run (in dataset order)."""
    out = []
    at = 0
    for s in samples:
        n = len(s.questions)
        out.append(prediction(s.id, {arm: rs[at: at + n] for arm, rs in records.items()}))
        at += n
    return out


def encoded(item: object) -> bytes:
    """``item`` as ``dumps`` writes it one level inside a list, without the separator before it."""
    from ..go.json import dumps  # here: a run that writes no predictions encodes none

    return dumps([item])[2:-3].encode()


class Report:
    """What a run prints, gathered from its conversations' outcomes in dataset order.

    ``show`` keeps that many questions per category for ``-show``;
    ``predictions`` keeps the ``-out`` file's text, written as the list
    ``dumps`` would write it one conversation at a time; ``sums`` keeps each
    conversation's sums per pass and arm for the ``-json`` file; ``wrong`` (the audited key, ``-wrong-gold``)
    keeps each arm's scores to give the share of its F1 from questions whose gold is wrong (``score.ceiling``).
    """

    def __init__(self, settings: Settings, show: int = 0, quiet: bool = False, predictions: bool = False,
                 sums: bool = False, wrong: Key | None = None) -> None:
        self.settings = settings
        self.show = show
        self.quiet = quiet
        self.conversations = self.sessions = self.turns = self.questions = 0
        self.lines: list[str] = []
        self.totals = [0, 0, 0, 0, 0]
        self.hit = self.said = self.speaker = self.known = 0
        self.tallies: list[dict[str, bench.Tally]] = [{} for _ in settings.passes()]
        self.shown: dict[str, list[bench.Record]] = {}
        self.picked: dict[int, int] = {}
        if predictions:
            import tempfile  # here: a run that writes no predictions spools none
        self.spool = tempfile.TemporaryFile() if predictions else None
        self.sums: list[tuple[str, list[dict[str, saved.Sums]]]] | None = [] if sums else None
        self.spent: dict[str, list[Spent]] = {}  # by arm, per conversation in dataset order
        self.evidence: list[dict[str, Evidence]] = [{} for _ in settings.passes()]  # per pass, by arm: summed
        self.sizes: list[tuple[str, int]] = []  # each conversation's turns, in dataset order
        self.wrong = wrong
        self.graded: dict[str, tuple[list[float], list[int], list[bool]]] = {}  # per arm: scores, categories, wrong

    def add(self, o: Outcome) -> None:
        """Take one conversation's outcome (the next in dataset order); keep only what the report needs."""
        self.conversations += 1
        self.sessions += o.sessions
        self.turns += o.built[0]
        self.questions += o.questions
        self.lines.append(bench._build_line(o.sample, o.built, str(o.terms)))
        self.sizes.append((o.sample, o.built[0]))
        self.totals = [a + b for a, b in zip(self.totals, o.built)]
        if o.bound is not None:
            self.hit, self.said = self.hit + o.bound[0], self.said + o.bound[1]
        self.speaker += o.subjects[0]
        self.known += o.subjects[1]
        for name, paid in o.spent.items():
            self.spent.setdefault(name, []).append(paid)
        for summed, each in zip(self.evidence, o.evidence):
            for arm, (n, turns, chars, words) in each.items():
                was = summed.get(arm, (0, 0, 0, 0))
                summed[arm] = (was[0] + n, was[1] + turns, was[2] + chars, was[3] + words)
        for tallies, records in zip(self.tallies, o.records):
            for arm, got in records.items():
                tally = tallies.setdefault(arm, bench.Tally())
                for r in got:
                    tally.add(r)
        if self.sums is not None:
            from ..score import results as saved  # here: a run without -json imports no results file

            self.sums.append((o.sample, [{arm: saved.sums(got) for arm, got in each.items()} for each in o.records]))
        records = o.records[0]
        if self.wrong is not None:
            from ..score import ceiling  # here: only -wrong-gold's shares need the ceilings

            for arm, got in records.items():
                marks, kinds, wrong = self.graded.setdefault(arm, ([], [], []))
                marks += [r.score for r in got]
                kinds += [r.category for r in got]
                wrong += ceiling.wrong_gold(self.wrong, self.conversations - 1, len(got))
        if self.show > 0 and records:
            arms = sorted(records)
            for i, r in enumerate(records[arms[0]]):
                if self.picked.get(r.category, 0) < self.show:
                    self.picked[r.category] = self.picked.get(r.category, 0) + 1
                    for a in arms:
                        self.shown.setdefault(a, []).append(records[a][i])
        if self.spool is not None:
            self.spool.write(b",\n" if self.spool.tell() else b"[\n")
            self.spool.write(encoded(prediction(o.sample, records)))

    def whole(self) -> list[str]:
        """One note per ``k`` of the run that reaches a conversation's size: there a memory may return every
        turn, so its evidence is the whole conversation and retrieval measures nothing (for stderr)."""
        notes = []
        for k in sorted({each.k for each in self.settings.passes()}):
            reached = [f"{sample} ({turns} turns)" for sample, turns in self.sizes if turns <= k]
            if reached:
                shown = ", ".join(reached[:3]) + (f" and {len(reached) - 3} more" if len(reached) > 3 else "")
                notes.append(f"k={k} reaches the size of {len(reached)} of {len(self.sizes)} conversations "
                             f"({shown}): there a memory may return every turn, and retrieval measures nothing")
        return notes

    def costs(self) -> list[str]:
        """One line per arm of what it cost (measured: for stderr, never stdout) and the evidence it handed its
        reader a question, in table order."""
        lines = []
        plugged = plugin_sweep(self.settings.sweep) if self.settings.sweep else None
        for at, arm in self._costed(len(plugged.values) if plugged else 1):
            got = cost(self.spent.get(variant(arm, at), ()))
            each = f"{_seconds(got.build / max(len(got.conversations), 1))} a conversation"
            if got.sessions is not None:
                added = [s for per in got.sessions for s in per]
                each += f", {_seconds(in_turn(added) / max(len(added), 1))} a session added"
            said = [f"build {_seconds(got.build)} ({each})"]
            if got.calls:
                said.append(f"{got.calls} calls, p50 {_seconds(got.p50)}, p95 {_seconds(got.p95)}, "
                            f"p99 {_seconds(got.p99)}")
            shown = mean_evidence(self.evidence[at].get(arm))
            if shown is not None:
                said.append(f"evidence {shown.turns:.1f} turns, {shown.characters:.0f} characters, "
                            f"{shown.words:.0f} words a question")
            value = f" ({plugged.key}={plugged.values[at]:g})" if plugged and variant(arm, 1) in self.spent else ""
            lines.append(f"cost of {arm}{value}: " + "; ".join(said))
        return lines

    def _costed(self, values: int) -> list[tuple[int, str]]:
        """The (pass, arm) whose cost is said, in table order: each arm once, and in a sweep over ``values``
        values of a plug-in's setting the swept arm once per value (each value's variant is built and costs
        its own)."""
        out = []
        for arm in self.arms:
            out += [(at, arm) for at in range(values if variant(arm, 1) in self.spent else 1)]
        return out

    @property
    def arms(self) -> list[str]:
        """The arms' names in table order."""
        return sorted(self.tallies[0])

    def text(self, progress: TextIO | None = None) -> str:
        """The run's stdout (without the ``-out`` and cost lines); a sweep says each value is done on ``progress``."""
        out = [f"{self.conversations} conversations, {self.sessions} sessions, {self.turns} turns, "
               f"{self.questions} questions\n\n"]
        if not (self.quiet or self.settings.sweep):
            out.append("\n".join([*self.lines, bench._build_line("total", self.totals, "")]) + "\n")
        if self.settings.coref:
            share = 100 * self.hit / self.said if self.said else 0.0
            out.append(f"coreference decides the subject of {self.hit}/{self.said} statement sentences "
                       f"({share:.1f}%)\n")
        total = self.questions
        out.append(
            f"questions naming a speaker {self.speaker}/{total} ({_percent(self.speaker, total, 1)}%), "
            f"resolving to any known name {self.known}/{total} ({_percent(self.known, total, 2)}%)\n"
        )
        if self.settings.sweep:
            if progress:
                label, values = steps(self.settings.sweep)
                for value in values:
                    print(f"locomo-repro: {label}={value:g} done", file=progress)
            out.append(bench.sweep_table(self.settings.sweep, self.tallies))
            return "".join(out)
        out.append(f"\n{bench.header(self.settings.options)}\n\n")
        out.append(bench.tally_table(self.tallies[0]))
        if self.wrong is not None:
            from ..score import ceiling

            out.append("\n" + ceiling.share_table(ceiling.SHARES, self.shares()))
        if self.show > 0:
            out.append(bench.show(self.shown, self.show))
        return "".join(out)

    def results(self, settings: dict[str, object], sha256: str, signature: str) -> saved.Results:
        """The ``-json`` file's results: every pass's tallies, the very ones the tables print, and each
        conversation's sums (a report made with ``sums``); ``settings``, the dataset's ``sha256`` and the
        run's ``signature`` name what was run."""
        assert self.sums is not None, "a report made without sums"
        from ..score import results as saved

        passes = [(asdict(each), tallies) for each, tallies in zip(self.settings.passes(), self.tallies)]
        sweep = self.settings.sweep
        plugged = plugin_sweep(sweep) if sweep else None
        swept = None if sweep is None else (plugged.setting, plugged.values) if plugged else (
            sweep, [options[sweep] for options, _ in passes])
        made = saved.run(settings, sha256, signature, swept, passes, self.sums, self.evidence, self.spent)
        return made if self.wrong is None else replace(made, wrong_gold=saved.wrong_gold(self.shares()))

    def shares(self) -> dict[str, ceiling.Share]:
        """Each arm's answerable F1 and the share of it from questions whose gold is wrong, in table order."""
        from ..score import ceiling

        return {arm: ceiling.share(*self.graded[arm]) for arm in sorted(self.graded)}

    def predictions(self) -> bytes:
        """The ``-out`` file: every conversation's predictions, as ``dumps`` writes the list (once: the
        spool is closed)."""
        assert self.spool is not None, "a report made without predictions"
        with self.spool as spool:
            spool.write(b"\n]\n" if spool.tell() else b"[]\n")
            spool.seek(0)
            return spool.read()
