"""A benchmark run as a function of its settings, never of a command line: which conversations and questions
it asks, the plug-ins it loads, what its results file records of it, its signature, its results record.

``stream.Settings`` says what each conversation builds and answers; :class:`Scope` adds what the run as a
whole asks (the dataset, ``-conversations``, ``-only``, ``-limit``, the model beside, the worker processes).
The command line (``cli``) and the kit from Python (``api``) both build these two and call the functions
here, so a run from either is the same run, under the same signature, recorded the same way.  Imports of the
memories are made inside the functions: a refused setting loads none.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..data.dataset import DatasetError, Sample, items, load_each, resolve
from ..go.flags import UsageError
from ..read.endpoint import DEFAULT_BASE_URL
from ..score import signature
from ..score.key import Key
from .names import STEPS, plugin_sweep
from ..data import records

if TYPE_CHECKING:
    from ..arms.plugin import Plugin
    from ..judge.figures import Judging
    from ..score.results import Results
    from .stream import Report, Settings

#: The reader's settings, in flag order, as the signature and the results file name them.
READER = ("k", "floor", "span", "band", "parts")


@records.record
class Scope:
    """What a run asks beyond each conversation's settings: the dataset (a path; None: ``LOCOMO_DATA``, else
    the cache), the sample ids of ``-conversations`` (none: every one), the first ``only`` conversations and
    ``limit`` questions of each (0: all), the model read beside the memories (``-model``), its endpoint and
    ``-closed``, and ``jobs``, the worker processes (the results do not depend on them)."""

    data: str | None = None
    conversations: tuple[str, ...] = ()
    only: int = 0
    limit: int = 0
    model: str | None = None
    base: str = DEFAULT_BASE_URL
    closed: bool = False
    jobs: int = 1

    def problem(self) -> str | None:
        """Why the run cannot be asked for (one line, in the command line's words), or None."""
        if self.only < 0 or self.limit < 0:
            return "-show, -only and -limit take a count of 0 or more"
        if not all(self.conversations) or len(set(self.conversations)) < len(self.conversations):
            return f"-conversations takes distinct sample ids separated by commas, got {','.join(self.conversations)!r}"
        if self.jobs < 1:
            return f"-jobs must be at least 1, got {self.jobs}"
        return None

    @property
    def workers(self) -> int:
        """The worker processes the run starts: ``jobs``, but never more than the conversations asked for
        (``-only``, ``-conversations``): ``-only 1`` runs in this process."""
        return min(self.jobs, self.only or len(self.conversations) or self.jobs)

    def samples(self, answer_key: Key = Key()) -> Iterator[Sample]:
        """The conversations the run asks, one at a time, under ``answer_key`` (applied by each one's place in
        the whole dataset): those ``conversations`` names (each checked to be in the dataset before any is
        handed out), the first ``only`` of them, each with its first ``limit`` questions."""
        ids = self.conversations
        if ids:
            known = {s.id for s in load_each(self.data)}
            if missing := [i for i in ids if i not in known]:
                raise UsageError(f"-conversations: {', '.join(missing)}: no such sample id in the dataset")
        handed = 0
        read = 0 if ids else self.only
        for sample in answer_key.each(load_each(self.data, read), read):
            if ids and sample.id not in ids:
                continue
            if self.only and handed == self.only:
                continue  # the rest still read (but the pinned dataset's): a bad file is refused whatever -only says
            handed += 1
            yield replace(sample, questions=sample.questions[: self.limit]) if self.limit else sample

    def asked(self) -> int | None:
        """How many questions the run asks (:meth:`samples`'), counted from the dataset's items without
        building them, for the progress line's time left; None where the file is not one the count can follow
        (the run says why)."""
        ids, n, handed = set(self.conversations), 0, 0
        try:
            for item in items(resolve(self.data)):
                if ids and item.get("sample_id") not in ids:  # type: ignore[attr-defined]
                    continue
                if self.only and handed == self.only:
                    break
                handed += 1
                qa = len(item.get("qa", ()))  # type: ignore[attr-defined]
                n += min(qa, self.limit) if self.limit else qa
        except (ValueError, OSError, RecursionError, AttributeError, TypeError, DatasetError):
            return None
        return n


def sweep_problem(text: str) -> str | None:
    """Why ``text`` names no setting a run can sweep (a reader setting's name, or a plug-in's setting with its
    values: ``names.plugin_sweep``), or None."""
    if text in STEPS or plugin_sweep(text):
        return None
    return (f"invalid choice: {text!r} (choose from {', '.join(sorted(STEPS))}, or a plug-in's setting as "
            f"'ARM(KEY=V1,V2,...)', each value a number)")


def problem(settings: Settings, scope: Scope) -> str | None:
    """Why a run with these settings cannot be run (one line, in the command line's words), or None."""
    if found := settings.options.problem() or (settings.sweep and sweep_problem(settings.sweep)) or scope.problem():
        return found
    if settings.concurrency < 1:
        return f"-concurrency must be at least 1, got {settings.concurrency}"
    if settings.retries < 0:
        return f"-retries must be 0 or more, got {settings.retries}"
    return None


def loaded(settings: Settings, scope: Scope) -> list[Plugin]:
    """The plug-ins the arm set names, loaded and checked before any work (a sweep over a setting of one of
    them included); a plug-in read by two readers (bm25, bm25+set) is named once."""
    from . import experiment as bench  # here: a refused setting needs no memory

    parts = bench.choose(settings.arm_set)
    plugins = list({part[0].name: part[0] for part in parts if not isinstance(part, str)}.values())
    if settings.sweep and (swept := plugin_sweep(settings.sweep)):
        if scope.model:
            raise UsageError(f"-sweep {settings.sweep}: a plug-in's setting is swept without -model")
        bench.swept_part(parts, swept)
    return plugins


def record(settings: Settings, scope: Scope, answer_key: Key = Key()) -> dict[str, object]:
    """What a results file records of the run's settings (docs/results.md): the arm set, the reader's settings
    (the swept one null: each pass names its value), the ablations, ``-only``, the model, and an answer key
    other than the official one (its name and its errors file's sha256)."""
    opts, sweep = settings.options, settings.sweep
    made: dict[str, object] = {"arms": settings.arm_set}
    made.update({name: None if name == sweep else getattr(opts, name) for name in READER})
    made.update(sweep=sweep, only=scope.only, conversations=list(scope.conversations) or None, limit=scope.limit,
                blind=settings.blind, derived=settings.derive, coref=settings.coref,
                model=scope.model, endpoint=signature.endpoint(scope.base) if scope.model else None,
                closed=scope.closed)
    if not answer_key.official:
        made.update(key=answer_key.name, key_sha256=answer_key.sha256)
    return made


def signed(settings: Settings, scope: Scope, plugins: Sequence[Plugin] = (), answer_key: Key = Key(),
           judge: Judging | None = None, wrong: Key | None = None) -> signature.Signature:
    """The signature of the numbers a run prints (``signature.run`` over its settings), naming every plug-in
    with where its factory lives and its package's version, an answer key other than the official, the judge
    of ``-judge`` (its name, model and prompt's sha256, as ``judge run`` signs them) and the errors file
    ``-wrong-gold`` reads (``wrong``, the audited key)."""
    return signature.run(
        signature.file_digest(resolve(scope.data)), settings.arm_set,
        [(name, getattr(settings.options, name)) for name in READER], sweep=settings.sweep, blind=settings.blind,
        derive=settings.derive, coref=settings.coref, only=scope.only, conversations=scope.conversations,
        limit=scope.limit, model=scope.model, base=scope.base, closed=scope.closed,
        plugins=[p.describe() for p in plugins],
    ).plus(*answer_key.signed()).plus(*(() if judge is None else (
        ("judge", judge.judge.name), ("judge-model", judge.client.model),
        ("judge-prompt", judge.judge.prompt_sha256[:signature.PREFIX])))).plus(
        *(() if wrong is None else (("wrong-gold", wrong.sha256[:8]),)))


def drawn(signed: signature.Signature, conversations: int) -> signature.Signature:
    """A run's signature, naming the Monte Carlo bootstrap its results file's intervals take (its resamples
    and seed) where it has more conversations than the exact bootstrap enumerates; as it was otherwise."""
    from ..score import resamples  # counting only: a run without -json imports no numpy

    if resamples.method(conversations)["method"] == "exact":
        return signed
    return signed.plus(resamples.signed(conversations))


def results(report: Report, scope: Scope, signed: signature.Signature, answer_key: Key = Key()) -> Results:
    """The results record of a run gathered in ``report`` (made with ``sums``), as ``-json`` writes it: its
    tallies, the settings it records, the dataset's sha256 and the run's ``signed`` signature."""
    return report.results(record(report.settings, scope, answer_key), signature.file_sha256(resolve(scope.data)),
                          str(signed))
