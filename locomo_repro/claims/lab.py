"""The lab: every build, run, predictions file, reach and timing the claims measure, each made once.

A build is made as a run makes it (``bench.stream.outcomes``): in worker
processes, one conversation at a time, each conversation built, asked every
way the lab asks it (``Settings.also``) and let go.  The lab keeps each
conversation's outcome (its build counts and every arm's records per pass),
never the built memories.  Every pass is asked at floor 0 and read at any
floor afterwards (``bench.floor``), so a sweep of the floor is one pass.

The lab's plan names every run it will be asked for (the claims of a
manifest, the report's figures, a test session's commands).  The first run
that needs a pass has it asked, in one build, of every arm set the plan asks
it of (with the same blind, derived facts and coreference: ``-arms`` takes
several sets, and an arm two sets share is built once), together with every
other pass the plan asks of exactly those sets: the publication's arm sets
at the default settings are one build, the default arm set's other settings
(sweeps, k 2000, ...) another.  A run outside the plan is made when asked,
in a build of its own.

Nothing here reads a command line: a run is its settings (``bench.stream.Settings``,
``read.reader.Options``); ``runs`` reads a claim's flags into them.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..bench import experiment as bench
from ..bench import reach as bench_reach
from ..bench import stream
from ..bench.floor import Floors, at_floor
from ..bench.names import ARM_SETS
from ..bench.stream import Outcome, Settings
from ..read.reader import Options
from ..score import official
from ..score.predictions import Predictions, parse
from .runs import Run, cast, parse_run

#: What a build is made with besides its arms: blind, derived facts, coreference.
Flags = tuple[bool, bool, bool]


class NotAtHand(Exception):
    """Something the claim needs is not on this machine (the message names it): the claim is skipped, never
    measured another way."""


def flags_of(settings: Settings) -> Flags:
    """What a run's settings build besides the arms."""
    return (settings.blind, settings.derive, settings.coref)


def _floor0(options: Options) -> Options:
    return replace(options, floor=0.0)


def _named(arm_sets: Sequence[str], flags: Flags) -> str:
    """A build as its flags name it: ``-arms main,walk -blind``."""
    blind, derive, coref = flags
    words = ["-arms", ",".join(arm_sets), *(["-blind"] if blind else []), *([] if derive else ["-no-derived"]),
             *(["-coref"] if coref else [])]
    return " ".join(words)


@dataclass(frozen=True)
class _Asked:
    """One build made and asked: the arm sets it built (together), the passes it asked, every conversation's
    outcome."""

    sets: tuple[str, ...]
    passes: tuple[Options, ...]
    outcomes: list[Outcome]

    def records(self, arm_set: str, at: int) -> Iterator[dict[str, list[bench.Record]]]:
        """Each conversation's records of one pass, for the arms of one of its arm sets, in that set's order."""
        names = ARM_SETS.get(arm_set)
        for o in self.outcomes:
            got = o.records[at]
            yield got if names is None or len(self.sets) == 1 else {name: got[name] for name in names}


def cpu_seconds() -> float:
    """CPU time (user and system) of this process and of its children that have ended, as /usr/bin/time counts
    a command's: the workers of a pool are counted once the pool is shut down."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


class Lab:
    """The kit's measurements over ``samples``, each made once: builds, runs per settings, reach, timings.

    ``plan`` is every run the lab will be asked for (more can be added with
    :meth:`plan`); ``jobs`` the worker processes a build is made in (default:
    the machine's cores; 1 makes it in this process); ``progress`` is told, in
    a line, each measurement made and how long it took.  ``seconds`` records
    the machine-dependent timings: the default run (CPU and wall) and the
    two-conversation reach (wall).
    """

    def __init__(
        self,
        samples: Sequence[Any],
        data_path: str | os.PathLike[str] | None = None,
        plan: Iterable[Settings] = (),
        jobs: int | None = None,
        progress: Callable[[str], None] | None = None,
    ):
        self.samples = list(samples)
        self.data_path = data_path
        self.jobs = jobs or os.cpu_count() or 1
        self.progress = progress
        self._planned: dict[Flags, dict[Options, list[str]]] = {}
        self._asked: dict[tuple[str, Flags, Options], tuple[_Asked, int]] = {}
        self._records: dict[tuple[str, Flags, Options], dict[str, list[bench.Record]]] = {}
        self._floors: dict[tuple[str, Flags, Options], Floors] = {}
        self._reach: dict[int, dict] = {}
        self._cache: dict[tuple, Any] = {}
        self.values: dict[str, Any] = {}
        self.seconds: dict[str, float] = {}
        for settings in plan:
            self.plan(settings)

    def plan(self, settings: Settings) -> None:
        """Ask for a run ahead: the build that first makes one of its passes (at floor 0) makes it for every
        arm set planned to be asked that pass, and asks them every other pass planned for exactly those sets."""
        planned = self._planned.setdefault(flags_of(settings), {})
        for p in map(_floor0, settings.passes()):
            sets = planned.setdefault(p, [])
            if settings.arm_set not in sets:
                sets.append(settings.arm_set)

    def _say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)

    # builds and runs

    def _ask(self, arm_set: str, flags: Flags, passes: Sequence[Options]) -> None:
        """Have ``arm_set`` built with ``flags`` and asked ``passes`` (at floor 0).

        A pass not yet asked is asked of a build made for every arm set that
        the plan asks it and that has not been asked it yet (``-arms`` takes
        several: an arm two sets share is built once), together with every
        other pass the plan asks of exactly those sets.  An ``-arms`` value
        that is not one arm set is built alone.
        """
        planned = self._planned.get(flags, {})

        def pending(p: Options) -> frozenset[str]:
            return frozenset(a for a in planned.get(p, []) if (a, flags, p) not in self._asked)

        for p in passes:
            if (arm_set, flags, p) in self._asked:
                continue
            sets = pending(p) | {arm_set}
            if any(a not in ARM_SETS for a in sets):  # a plug-in or a list of sets: built as it is named
                sets = frozenset({arm_set})
            together = [p, *(q for q in planned if q != p and pending(q) == sets)]
            ordered = tuple(dict.fromkeys(a for a in [*ARM_SETS, arm_set] if a in sets))
            settings = Settings(together[0], ",".join(ordered), *flags, also=tuple(together[1:]))
            wall = time.perf_counter()
            asked = _Asked(ordered, tuple(together), list(stream.outcomes(self.samples, settings, self.jobs)))
            for a in ordered:
                for i, q in enumerate(together):
                    self._asked.setdefault((a, flags, q), (asked, i))
            ways = f"{len(together)} way{'s' if len(together) > 1 else ''}"
            self._say(f"{_named(ordered, flags)}: {len(asked.outcomes)} conversations built and asked {ways} "
                      f"({time.perf_counter() - wall:.1f} s)")

    def _per_conversation(self, arm_set: str, flags: Flags, p: Options) -> tuple[list[Outcome], list[dict]]:
        """The outcomes of the build that asked ``arm_set`` pass ``p`` (at floor 0), and each conversation's
        records of that pass for that arm set's arms."""
        self._ask(arm_set, flags, [p])
        asked, at = self._asked[arm_set, flags, p]
        return asked.outcomes, list(asked.records(arm_set, at))

    def outcomes(self, settings: Settings) -> list[Outcome]:
        """Every conversation's outcome of a run, as ``bench.stream.outcomes`` gives it for ``settings`` (each
        pass's records at its own floor), from the lab's builds."""
        flags, passes = flags_of(settings), settings.passes()
        self._ask(settings.arm_set, flags, [_floor0(p) for p in passes])
        each = [self._per_conversation(settings.arm_set, flags, _floor0(p)) for p in passes]
        base = each[0][0]
        return [
            replace(o, records=tuple(_at(records[c], p.floor) for p, (_, records) in zip(passes, each)))
            for c, o in enumerate(base)
        ]

    def _key(self, run: Run | str, settings: Mapping[str, float]) -> tuple[Run, Options]:
        run = parse_run(run) if isinstance(run, str) else run
        values: dict[str, Any] = {k: cast(k, v) for k, v in settings.items()}
        return run, replace(run.options, **values)

    def records(self, run: Run | str, **settings: float) -> dict[str, list[bench.Record]]:
        """Every arm's graded records for a run, all conversations in order (``settings`` override its
        options, as a sweep row does)."""
        run, options = self._key(run, settings)
        flags = flags_of(run.settings)
        key = (run.arms, flags, options)
        if key not in self._records:
            base = (run.arms, flags, _floor0(options))
            if base not in self._floors:
                joined: dict[str, list[bench.Record]] = {}
                for got in self._per_conversation(*base)[1]:
                    for arm, records in got.items():
                        joined.setdefault(arm, []).extend(records)
                self._floors[base] = Floors(joined)
            floors = self._floors[base]
            self._records[key] = floors.run if options.floor == 0 else floors.at(options.floor)
        return self._records[key]

    def tally(self, run: Run | str, arm: str, **settings: float) -> bench.Tally:
        """One arm's ``bench.Tally`` for a run."""
        records = self.records(run, **settings)
        if arm not in records:
            raise ValueError(f"arm {arm!r} is not in this run (it has {', '.join(sorted(records))})")
        run, options = self._key(run, settings)
        return self.memo(("tally", run.build, options, arm), lambda: bench.Tally(records[arm]))

    def memo(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per key."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def case(self, run: Run | str, sample: str) -> bench.Case:
        """One conversation built alone as a run builds it (for what a claim reads off one built memory)."""
        run = parse_run(run) if isinstance(run, str) else run

        def built() -> bench.Case:
            chosen = [s for s in self.samples if s.id == sample]
            if not chosen:
                raise ValueError(f"no conversation {sample!r}")
            (case,) = bench.build(chosen, *run.build)
            return case

        return self.memo(("case", run.build, sample), built)

    def predictions(self, run: Run | str) -> Predictions:
        """The run's predictions in the official shape, read back as ``-stats`` and the cross-check read them."""
        run = parse_run(run) if isinstance(run, str) else run
        return self.memo(("predictions", run.build, run.options),
                         lambda: parse(stream.predictions(self.samples, self.records(run)), "<run>"))

    def reach(self, conversations: int) -> dict:
        """Evidence reach at one and two hops over the first ``conversations`` conversations (timed)."""
        if conversations not in self._reach:
            wall = time.perf_counter()
            self._reach[conversations] = bench_reach.reach(self.samples[:conversations])
            self.seconds[f"reach-{conversations}-wall"] = time.perf_counter() - wall
            self._say(f"reach over {conversations} conversations ({self.seconds[f'reach-{conversations}-wall']:.1f} s)")
        return self._reach[conversations]

    def default_run(self) -> str:
        """What the default command (``locomo-repro``, no flags) prints on stdout over these samples: its run,
        at the reader's default settings (``Options()``, the command line's defaults), gathered as the
        command gathers it (``bench.stream.Report``)."""

        def printed() -> str:
            settings = Settings(Options())
            report = stream.Report(settings)
            for o in self.outcomes(settings):
                report.add(o)
            return report.text()

        return self.memo(("default-run",), printed)

    def time_default_run(self) -> None:
        """Time the default run as the command makes it (``bench.stream.outcomes`` at the default settings, in
        ``jobs`` worker processes): ``seconds["default-wall"]`` and ``seconds["default-cpu"]``, the CPU of this
        process and its workers.  Once per lab: it is the one measurement made for its own sake."""
        if "default-wall" in self.seconds:
            return
        cpu, wall = cpu_seconds(), time.perf_counter()
        for _ in stream.outcomes(self.samples, Settings(Options()), self.jobs):
            pass
        self.seconds["default-wall"] = time.perf_counter() - wall
        self.seconds["default-cpu"] = cpu_seconds() - cpu
        self._say(f"the default run timed ({self.seconds['default-wall']:.1f} s)")

    def scorer(self) -> official.Scorer:
        """The official ``eval_question_answering``, found as the kit finds it everywhere
        (``$LOCOMO_EVALUATION_PY``, else the cache, else fetched at the pinned commit and sha-checked).

        Raises :class:`NotAtHand` when none can be had, whatever the reason (a named file that cannot be
        read or is not the pinned scorer, no cache, no network: the fetch is tried once per lab), naming
        the reason, as every test needing the scorer skips: the kit's own metric never stands in for it.
        """

        def load() -> official.Scorer | NotAtHand:
            try:
                return official.official_scorer(official.locate())
            except official.OfficialUnavailable as err:
                return NotAtHand(f"the official evaluation.py ({err})")

        found = self.memo(("scorer",), load)
        if isinstance(found, NotAtHand):
            raise NotAtHand(str(found))
        return found

    def check(self, run: Run | str) -> dict:
        """The make-check table of a run: per arm and row, (F1, evidence recall) as the official scorer reports them,
        scored by the official ``evaluation.py`` itself (:meth:`scorer`)."""
        run = parse_run(run) if isinstance(run, str) else run

        def scored() -> dict:
            scorer = self.scorer()
            wall = time.perf_counter()
            table = check_table(self.predictions(run), scorer)
            self._say(f"{_named((run.arms,), flags_of(run.settings))}: scored by the official evaluation.py "
                      f"({time.perf_counter() - wall:.1f} s)")
            return table

        return self.memo(("check", run.build, run.options), scored)


def _at(records: dict[str, list[bench.Record]], floor: float) -> dict[str, list[bench.Record]]:
    return records if floor == 0 else at_floor(records, floor)


def check_table(predictions: Predictions, scorer: official.Scorer) -> dict[str, dict[str, tuple[float, float]]]:
    """F1 and evidence recall per arm and row, as the official scorer reports a predictions file.

    The numbers of ``official.scores``, the computation ``official.report``
    prints (the reference ``score.py``'s feeding, summation order and rows).
    """
    return official.scores(predictions, scorer)
