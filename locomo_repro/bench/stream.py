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
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import asdict, dataclass
from typing import Protocol, TextIO

from ..arms.plugin import PluginError
from ..data.dataset import Sample
from ..data.stop import Threads, workers
from ..go.json import dumps
from ..read.reader import Options
from ..score import results as saved
from ..text.reduce import forget, load_stems
from . import experiment as bench


@dataclass(frozen=True, slots=True)
class Settings:
    """What a run builds and asks: the arm set (an ``-arms`` value: sets and plug-ins), the ablations, the
    reader settings, the swept setting, and how many threads a plug-in's calls may run in at once."""

    options: Options
    arm_set: str = "main"
    blind: bool = False
    derive: bool = True
    coref: bool = False
    sweep: str | None = None
    concurrency: int = 1
    also: tuple[Options, ...] = ()  # further settings to ask each built conversation with (not printed)

    def passes(self) -> list[Options]:
        """The settings each conversation is asked with: one, or one per swept value; then ``also``."""
        return [*(bench.swept(self.options, self.sweep) if self.sweep else [self.options]), *self.also]


@dataclass(frozen=True, slots=True)
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


def outcome(case: bench.Case, settings: Settings, pool: Executor | None = None) -> Outcome:
    """A built conversation asked every pass (``pool`` asks its remote arms: see ``Case.ask``)."""
    k = case.knowledge
    speaker, known, _ = bench.subjects([case])
    return Outcome(
        sample=case.sample.id,
        sessions=case.sample.sessions,
        questions=len(case.sample.questions),
        built=(len(case.sample.turns), k.claims, k.nodes, k.edges, k.derived),
        terms=case.vocab.size,
        bound=k.bound if settings.coref else None,
        subjects=(speaker, known),
        records=tuple(case.ask(each, pool) for each in settings.passes()),
    )


def conversation(sample: Sample, settings: Settings) -> Outcome:
    """Build one conversation's memories and arms, ask every question, and return what the report needs.

    The conversation is let go before this returns: the memos of its texts
    are emptied and a full collection frees what is left of it (in a worker
    process some thousands of objects a conversation are only freed that
    way), so a process keeps no more for having asked many conversations
    than for one: the ×10 dataset peaks within 1.05× of locomo10.  While
    it is built and asked, the collector does not run on its own: that one
    collection is what finds its cycles, and the collector is left as it was.
    """
    collecting = gc.isenabled()
    gc.disable()  # the collection below is the one that finds this conversation's cycles
    try:
        (case,) = bench.build([sample], settings.arm_set, settings.blind, derive=settings.derive,
                              coref=settings.coref)
        if settings.concurrency > 1 and any(getattr(a.memory, "threaded", False) or a.answerer for a in case.arms):
            with Threads(settings.concurrency, "plugin") as pool:
                done = outcome(case, settings, pool)
        else:
            done = outcome(case, settings)
        del case
    finally:
        if collecting:
            gc.enable()
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
    gc.collect()
    gc.freeze()
    try:
        def ready(sample: Sample) -> Outcome | None:  # kept by an earlier run
            return kept.get(sample.id) if kept is not None else None

        def keep(outcome: Outcome) -> Outcome:
            if kept is not None:
                kept.put(outcome)
            return outcome

        def done(got: Outcome | Future) -> Outcome:
            if isinstance(got, Outcome):
                return got
            try:
                return keep(got.result())
            except PluginError as err:  # loaded here, but not in the worker (which imports it by name)
                raise PluginError(f"{err} (in a worker process: -jobs 1 runs every conversation in this one)"
                                  ) from None

        if jobs == 1:
            for sample in samples:
                yield ready(sample) or keep(conversation(sample, settings))
            return
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
    return dumps([item])[2:-3].encode()


class Report:
    """What a run prints, gathered from its conversations' outcomes in dataset order.

    ``show`` keeps that many questions per category for ``-show``;
    ``predictions`` keeps the ``-out`` file's text, written as the list
    ``dumps`` would write it one conversation at a time; ``sums`` keeps each
    conversation's sums per pass and arm for the ``-json`` file.
    """

    def __init__(self, settings: Settings, show: int = 0, quiet: bool = False, predictions: bool = False,
                 sums: bool = False) -> None:
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
        self.spool = tempfile.TemporaryFile() if predictions else None
        self.sums: list[tuple[str, list[dict[str, saved.Sums]]]] | None = [] if sums else None

    def add(self, o: Outcome) -> None:
        """Take one conversation's outcome (the next in dataset order); keep only what the report needs."""
        self.conversations += 1
        self.sessions += o.sessions
        self.turns += o.built[0]
        self.questions += o.questions
        self.lines.append(bench._build_line(o.sample, o.built, str(o.terms)))
        self.totals = [a + b for a, b in zip(self.totals, o.built)]
        if o.bound is not None:
            self.hit, self.said = self.hit + o.bound[0], self.said + o.bound[1]
        self.speaker += o.subjects[0]
        self.known += o.subjects[1]
        for tallies, records in zip(self.tallies, o.records):
            for arm, got in records.items():
                tally = tallies.setdefault(arm, bench.Tally())
                for r in got:
                    tally.add(r)
        if self.sums is not None:
            self.sums.append((o.sample, [{arm: saved.sums(got) for arm, got in each.items()} for each in o.records]))
        records = o.records[0]
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
                for value in bench.STEPS[self.settings.sweep]:
                    print(f"locomo-repro: {self.settings.sweep}={value:g} done", file=progress)
            out.append(bench.sweep_table(self.settings.sweep, self.tallies))
            return "".join(out)
        out.append(f"\n{bench.header(self.settings.options)}\n\n")
        out.append(bench.tally_table(self.tallies[0]))
        if self.show > 0:
            out.append(bench.show(self.shown, self.show))
        return "".join(out)

    def results(self, settings: dict[str, object], sha256: str, signature: str) -> saved.Results:
        """The ``-json`` file's results: every pass's tallies, the very ones the tables print, and each
        conversation's sums (a report made with ``sums``); ``settings``, the dataset's ``sha256`` and the
        run's ``signature`` name what was run."""
        assert self.sums is not None, "a report made without sums"
        passes = [(asdict(each), tallies) for each, tallies in zip(self.settings.passes(), self.tallies)]
        return saved.run(settings, sha256, signature, self.settings.sweep, passes, self.sums)

    def predictions(self) -> bytes:
        """The ``-out`` file: every conversation's predictions, as ``dumps`` writes the list (once: the
        spool is closed)."""
        assert self.spool is not None, "a report made without predictions"
        with self.spool as spool:
            spool.write(b"\n]\n" if spool.tell() else b"[]\n")
            spool.seek(0)
            return spool.read()
