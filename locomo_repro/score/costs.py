"""What a run's arms cost, measured, and the evidence they handed their readers: each arm's cost over a run
from its cost in each conversation (its build, its calls' count and percentiles, its failures), and a
question's evidence on average.

Kept apart from ``results`` (which records them in a results file, and re-exports them) because every run
says them on stderr, with ``-json`` or without: a run that writes no results file imports no results file's
machinery.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

from .metric import in_turn
from ..data.records import record


@record
class Evidence:
    """What an arm handed its reader, a question on average over the questions it named evidence for: turns,
    characters and words of those turns' texts."""

    questions: int
    turns: float
    characters: float
    words: float


@record
class Cost:
    """What an arm cost over a run, measured in wall seconds on the machine that ran it: building its memory
    (in all, and per conversation in run order), its calls (how many, in all, and the 50th, 95th and 99th
    percentiles of one call: None without calls), and the calls that failed and were tried again; for a
    memory fed session by session, the seconds of each ``add`` per conversation."""

    build: float
    conversations: tuple[float, ...]
    sessions: tuple[tuple[float, ...], ...] | None  # per conversation, each add(session)'s seconds (None: not fed so)
    calls: int
    seconds: float
    p50: float | None
    p95: float | None
    p99: float | None
    failures: int


class Measured(Protocol):
    """One arm's cost over one conversation (the run's ``Spent``)."""

    @property
    def built(self) -> float: ...

    @property
    def calls(self) -> Sequence[float]: ...

    @property
    def failures(self) -> int: ...

    @property
    def sessions(self) -> Sequence[float]: ...


def percentile(ordered: Sequence[float], q: float) -> float | None:
    """The ``q``-th quantile (0 < q <= 1) of values sorted ascending by the nearest rank: the value at rank
    ceil(q * n) (None for no values)."""
    return ordered[max(math.ceil(q * len(ordered)), 1) - 1] if ordered else None


def variant(arm: str, at: int) -> str:
    """Where a run keeps what pass ``at``'s variant of a swept plug-in's arm cost, among its arms' costs: the
    arm's own name for the first pass (and for any arm not swept), ``arm@2`` for the third (no arm name holds
    an ``@``)."""
    return f"{arm}@{at}" if at else arm


def cost(each: Sequence[Measured]) -> Cost:
    """An arm's cost over a run from its cost in each conversation (in run order)."""
    calls = sorted(c for m in each for c in m.calls)
    fed = any(m.sessions for m in each)
    return Cost(build=in_turn(m.built for m in each), conversations=tuple(m.built for m in each),
                sessions=tuple(tuple(m.sessions) for m in each) if fed else None, calls=len(calls),
                seconds=in_turn(calls), p50=percentile(calls, 0.5), p95=percentile(calls, 0.95),
                p99=percentile(calls, 0.99), failures=sum(m.failures for m in each))


def mean_evidence(summed: tuple[int, int, int, int] | None) -> Evidence | None:
    """The evidence a question on average from its sums over a run (questions, turns, characters, words)."""
    if summed is None or not summed[0]:
        return None
    n, turns, chars, words = summed
    return Evidence(questions=n, turns=turns / n, characters=chars / n, words=words / n)
