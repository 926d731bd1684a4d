"""The lab: every build, run, predictions file and reach the claims measure, each made once.

:class:`Builds` builds the conversations once per (arm set, blind, derived
facts, coreference); a test session shares one between the parity tests and
the claims.  :class:`Lab` runs them per settings, reads the predictions back,
scores them with the official scorer, and times what the publication timed.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import cli
from ..bench import experiment as bench
from ..bench import reach as bench_reach
from ..read.reader import Options
from ..score import official
from ..score.predictions import Predictions, parse
from .runs import Run, cast, parse_run


class NotAtHand(Exception):
    """Something the claim needs is not on this machine (the message names it): the claim is skipped, never
    measured another way."""


class Builds:
    """Every conversation built once per (arm set, blind, derive, coref): ``bench.build``, cached.

    One instance can serve a whole test session (conftest's ``builds``
    fixture hands the same one to the parity tests and to the claims' ``Lab``).
    ``seconds`` holds the (CPU, wall) seconds each build took when it was made.
    """

    def __init__(self, samples: Sequence[Any]):
        self.samples = list(samples)
        self._cases: dict[tuple[str, bool, bool, bool], list] = {}
        self.seconds: dict[tuple[str, bool, bool, bool], tuple[float, float]] = {}

    def cases(self, arms: str = "main", blind: bool = False, derive: bool = True, coref: bool = False) -> list:
        key = (arms, blind, derive, coref)
        if key not in self._cases:
            cpu, wall = time.process_time(), time.perf_counter()
            self._cases[key] = bench.build(self.samples, arms, blind, derive=derive, coref=coref)
            self.seconds[key] = (time.process_time() - cpu, time.perf_counter() - wall)
        return self._cases[key]


#: The default build: ``Builds.cases()``.
_DEFAULT_BUILD = ("main", False, True, False)


class Lab:
    """The kit's measurements, each made once: builds (through :class:`Builds`), runs per settings.

    ``builds`` may be shared with other users of the same samples (a test
    session).  ``seconds`` records machine-dependent timings: the default build
    with its default run (CPU and wall), and the two-conversation reach (wall).
    """

    def __init__(
        self,
        samples: Sequence[Any],
        data_path: str | os.PathLike[str] | None = None,
        builds: Builds | None = None,
    ):
        self.samples = list(samples)
        self.data_path = data_path
        self.builds = builds if builds is not None else Builds(self.samples)
        self._records: dict[tuple, dict] = {}
        self._reach: dict[int, dict] = {}
        self._predictions: dict[tuple, Predictions] = {}
        self._check: dict[tuple, dict] = {}
        self._cache: dict[tuple, Any] = {}
        self.values: dict[str, Any] = {}
        self.seconds: dict[str, float] = {}

    # builds and runs

    def cases(self, arms: str = "main", blind: bool = False, derive: bool = True, coref: bool = False) -> list:
        """Every conversation built for one arm set (once).  The default build is timed with its default run."""
        key = (arms, blind, derive, coref)
        cases = self.builds.cases(*key)
        if key == _DEFAULT_BUILD and "default-wall" not in self.seconds:
            cpu, wall = time.process_time(), time.perf_counter()
            self._records[key, Options()] = bench.run(cases, Options())
            built_cpu, built_wall = self.builds.seconds[key]
            self.seconds["default-cpu"] = built_cpu + time.process_time() - cpu
            self.seconds["default-wall"] = built_wall + time.perf_counter() - wall
        return cases

    def _key(self, run: Run | str, settings: Mapping[str, float]) -> tuple[Run, tuple]:
        run = parse_run(run) if isinstance(run, str) else run
        values: dict[str, Any] = {k: cast(k, v) for k, v in settings.items()}
        options = replace(run.options, **values)
        return run, (run.build, options)

    def records(self, run: Run | str, **settings: float) -> dict:
        """Every arm's graded records for a run (``settings`` override its options, as a sweep row does)."""
        run, key = self._key(run, settings)
        if key not in self._records:
            cases = self.cases(*run.build)
            if key not in self._records:  # building the default arm set runs the default settings
                self._records[key] = bench.run(cases, key[1])
        return self._records[key]

    def tally(self, run: Run | str, arm: str, **settings: float) -> bench.Tally:
        """One arm's ``bench.Tally`` for a run."""
        records = self.records(run, **settings)
        if arm not in records:
            raise ValueError(f"arm {arm!r} is not in this run (it has {', '.join(sorted(records))})")
        return self.memo(("tally", self._key(run, settings)[1], arm), lambda: bench.Tally(records[arm]))

    def memo(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per key."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def predictions(self, run: Run | str) -> Predictions:
        """The run's predictions in the official shape, read back as ``-stats`` and the cross-check read them."""
        run = parse_run(run) if isinstance(run, str) else run
        key = (run.build, run.options)
        if key not in self._predictions:
            self._predictions[key] = parse(cli.predictions(self.samples, self.records(run)), "<run>")
        return self._predictions[key]

    def reach(self, conversations: int) -> dict:
        """Evidence reach at one and two hops over the first ``conversations`` conversations (timed)."""
        if conversations not in self._reach:
            wall = time.perf_counter()
            self._reach[conversations] = bench_reach.reach(self.samples[:conversations])
            self.seconds[f"reach-{conversations}-wall"] = time.perf_counter() - wall
        return self._reach[conversations]

    def default_run(self) -> str:
        """What the default command (``locomo-repro``, no flags) prints over these samples: the kit's own
        parser reads the empty command line and its own report prints the run, on the lab's build."""
        def printed() -> str:
            args = cli.parser().parse_args([])
            out = io.StringIO()
            cases = self.cases(args.arms, args.blind, not args.no_derived, args.coref)
            cli.report(self.samples, cases, args, cli.options(args), out)
            return out.getvalue()

        return self.memo(("default-run",), printed)

    def scorer(self) -> official.Scorer:
        """The official ``eval_question_answering``, found as the kit finds it everywhere
        (``$LOCOMO_EVALUATION_PY``, else the cache, else fetched at the pinned commit and sha-checked).

        Raises :class:`NotAtHand` when none can be had (the fetch is tried once per lab): the kit's own
        metric never stands in for it.  A file that is named or cached but is not the pinned scorer is a
        ValueError naming it.
        """

        def load() -> official.Scorer | NotAtHand:
            named = official.locate()
            try:
                return official.official_scorer(named)
            except official.OfficialUnavailable as err:
                if named is not None:
                    raise ValueError(str(err)) from None
                return NotAtHand(f"the official evaluation.py ({err})")

        found = self.memo(("scorer",), load)
        if isinstance(found, NotAtHand):
            raise NotAtHand(str(found))
        return found

    def check(self, run: Run | str) -> dict:
        """The make-check table of a run: per arm and row, (F1, evidence recall) as the official scorer reports them,
        scored by the official ``evaluation.py`` itself (:meth:`scorer`)."""
        run = parse_run(run) if isinstance(run, str) else run
        key = (run.build, run.options)
        if key not in self._check:
            scorer = self.scorer()
            self._check[key] = check_table(self.predictions(run), scorer)
        return self._check[key]


def check_table(predictions: Predictions, scorer: official.Scorer) -> dict[str, dict[str, tuple[float, float]]]:
    """F1 and evidence recall per arm and row, as the official scorer reports a predictions file.

    The numbers of ``official.scores``, the computation ``official.report``
    prints (the reference ``score.py``'s feeding, summation order and rows).
    """
    return official.scores(predictions, scorer)
