"""Results files: a run's figures per arm and category, for scripts and for ``compare`` (``-json FILE``).

Schema ``locomo-repro/results``, version 1, documented in ``docs/results.md``.  Per pass of the run (one,
or one per swept value with ``-sweep``), per arm and per row of the printed table (each category by its
number, then ``answerable`` and ``overall``): the questions ``n``, the mean score ``f1``, the mean
evidence recall ``recall`` (null where no record has one), the share declined ``quiet`` -- each exactly
the float the table rounds -- and ``f1_interval``, the exact 95% percentile bootstrap interval of the F1
over conversations that ``-stats`` computes (``stats.interval``).  Per conversation, arm and row it keeps
the questions and the summed score, in question order, which is what pairs two files question by question
(``compare``); and it names the dataset (sha256), the settings, the kit's version and the run's signature.

The run gives each arm's running tally (``Tallied``: the table's own ``Tally``) and each conversation's
``sums``; this module knows nothing of how they were made.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .. import __version__
from ..data import jsonio
from ..data.dataset import ANSWERABLE, CATEGORIES
from .predictions import PredictionsError, _kind, decoded

SCHEMA = "locomo-repro/results"
VERSION = 1

#: The rows of a results file and the categories each adds up, in the printed table's order: each category
#: by its number (4, 1, 2, 3, 5), then answerable and overall (every category: ``()``, as the table's tally
#: takes it).
ROWS: tuple[tuple[str, tuple[int, ...]], ...] = (
    *((str(kind), (kind,)) for kind in CATEGORIES),
    ("answerable", ANSWERABLE),
    ("overall", ()),
)

#: The reader's settings a pass is asked with, in flag order.
OPTIONS = ("k", "floor", "span", "band", "parts")

#: One conversation's questions and summed score per row key.
Sums = dict[str, tuple[int, float]]


class ResultsError(ValueError):
    """A results file that cannot be read; the message is one line naming the file."""


class Graded(Protocol):
    """A graded question: its category and its score (the run's ``Record``)."""

    @property
    def category(self) -> int: ...

    @property
    def score(self) -> float: ...


class Tallied(Protocol):
    """One arm's running sums over a run (the run's ``Tally``): the figures the table prints, by categories."""

    def count(self, kinds: Sequence[int] = ()) -> int: ...

    def mean(self, kinds: Sequence[int] = ()) -> float: ...

    def reach(self, kinds: Sequence[int] = ()) -> float | None: ...

    def quiet_share(self, kinds: Sequence[int] = ()) -> float: ...


def name(key: str) -> str:
    """A row's name: the official category name for a category's number, else the key itself."""
    return CATEGORIES[int(key)] if key.isdigit() else key


def sums(records: Iterable[Graded]) -> Sums:
    """One conversation's questions and summed score per row, added in question order (as ``stats.pooled``
    adds a conversation's grades)."""
    out = {key: (0, 0.0) for key, _ in ROWS}
    for r in records:
        for key, kinds in ROWS:
            if not kinds or r.category in kinds:
                n, total = out[key]
                out[key] = (n + 1, total + r.score)
    return out


@dataclass(frozen=True, slots=True)
class Row:
    """One arm's figures on one row: questions, mean score, mean recall (None: absent), share declined, and
    the exact 95% bootstrap interval of the mean score over conversations (None: no question, or too many
    conversations to enumerate)."""

    n: int
    f1: float
    recall: float | None
    quiet: float
    f1_interval: tuple[float, float] | None


@dataclass(frozen=True, slots=True)
class Arm:
    """One arm of one pass: its figures per row key, and per conversation (in run order) its sums."""

    rows: dict[str, Row]
    conversations: tuple[tuple[str, Sums], ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass of a run: the swept setting and its value (None without ``-sweep``), the reader's settings
    it was asked with, and its arms in table order."""

    sweep: tuple[str, float] | None
    options: dict[str, float]
    arms: dict[str, Arm]


@dataclass(frozen=True, slots=True)
class Results:
    """A whole results file: what it was run over and with, and its passes.

    ``path`` is the file it was read from ("" for a run's own)."""

    sha256: str
    conversations: tuple[str, ...]
    settings: dict[str, object]
    signature: str
    kit_version: str
    passes: tuple[Pass, ...]
    path: str = ""

    @property
    def unavailable(self) -> str | None:
        """Why no interval could be taken (None when they were)."""
        from .stats import unenumerable  # here, as everywhere in this module: a run without -json needs no numpy

        return unenumerable(len(self.conversations))


def arm(tally: Tallied, conversations: Sequence[tuple[str, Sums]]) -> Arm:
    """An arm's results from its tally over the run and each conversation's sums (in run order)."""
    from .stats import interval, unenumerable

    blocked = unenumerable(len(conversations))
    rows = {}
    for key, kinds in ROWS:
        n = tally.count(kinds)
        bounds = None
        if n and blocked is None:
            _, low, high = interval([s[key][1] for _, s in conversations], [float(s[key][0]) for _, s in conversations])
            bounds = (low, high)
        rows[key] = Row(n=n, f1=tally.mean(kinds), recall=tally.reach(kinds), quiet=tally.quiet_share(kinds),
                        f1_interval=bounds)
    return Arm(rows=rows, conversations=tuple((sample, dict(s)) for sample, s in conversations))


def document(results: Results) -> dict:
    """The JSON value of a results file (schema ``locomo-repro/results``, version 1)."""
    from .stats import TAIL, draw_count

    n = len(results.conversations)
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "kit_version": results.kit_version,
        "signature": results.signature,
        "dataset": {"sha256": results.sha256, "conversations": list(results.conversations)},
        "settings": results.settings,
        "bootstrap": {
            "over": "conversations", "level": 1 - 2 * TAIL, "resamples": draw_count(n) if n else 0,
            "unavailable": results.unavailable,
        },
        "passes": [
            {
                "sweep": None if p.sweep is None else {"setting": p.sweep[0], "value": p.sweep[1]},
                "options": p.options,
                "arms": {
                    arm_name: {
                        "rows": {
                            key: {"name": name(key), "n": row.n, "f1": row.f1, "recall": row.recall,
                                  "quiet": row.quiet,
                                  "f1_interval": None if row.f1_interval is None else list(row.f1_interval)}
                            for key, row in a.rows.items()
                        },
                        "conversations": [
                            {"sample": sample, "rows": {key: {"n": n, "score": score} for key, (n, score) in s.items()}}
                            for sample, s in a.conversations
                        ],
                    }
                    for arm_name, a in p.arms.items()
                },
            }
            for p in results.passes
        ],
    }


def encode(results: Results) -> bytes:
    """A results file's bytes: its JSON value indented by two, UTF-8, ending in a newline."""
    return (jsonio.dumps(document(results), indent=2, ensure_ascii=False) + "\n").encode()


def run(
    settings: Mapping[str, object], sha256: str, signature: str, sweep: str | None,
    passes: Sequence[tuple[Mapping[str, float], Mapping[str, Tallied]]],
    conversations: Sequence[tuple[str, Sequence[Mapping[str, Sums]]]],
) -> Results:
    """A run's results: ``passes`` its reader settings and each arm's tally per pass (arms in any order: the
    file keeps them in name order, as the table), ``conversations`` each conversation's sums per pass and arm."""
    made = []
    for i, (options, tallies) in enumerate(passes):
        arms = {a: arm(tallies[a], [(sample, each[i][a]) for sample, each in conversations]) for a in sorted(tallies)}
        swept = None if sweep is None else (sweep, options[sweep])
        made.append(Pass(sweep=swept, options={o: options[o] for o in OPTIONS}, arms=arms))
    return Results(sha256=sha256, conversations=tuple(sample for sample, _ in conversations), settings=dict(settings),
                   signature=signature, kit_version=__version__, passes=tuple(made))


# --- reading a results file back ----------------------------------------------------------------------------


def is_results(data: object) -> bool:
    """Whether decoded JSON says it is a results file (of any version)."""
    return isinstance(data, dict) and data.get("schema") == SCHEMA


class _Reader:
    """Typed access to decoded JSON, every problem a ResultsError naming the file and the place."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, where: str, problem: str) -> ResultsError:
        return ResultsError(f"{self.path}: {where}: {problem}" if where else f"{self.path}: {problem}")

    def field(self, obj: object, key: str, where: str) -> object:
        if not isinstance(obj, dict):
            raise self.fail(where, f"{_kind(obj)}, not an object")
        if key not in obj:
            raise self.fail(where, f"no {key!r}")
        return obj[key]

    def typed(self, obj: object, key: str, where: str, kind: type, word: str) -> Any:
        """``obj[key]``, which must be a ``kind`` (``word`` names it in the message)."""
        value = self.field(obj, key, where)
        if not isinstance(value, kind):
            raise self.fail(where, f"{key!r} is {_kind(value)}, not {word}")
        return value

    def text(self, obj: object, key: str, where: str) -> str:
        return self.typed(obj, key, where, str, "a string")

    def number(self, obj: object, key: str, where: str) -> float:
        value = self.field(obj, key, where)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail(where, f"{key!r} is {_kind(value)}, not a number")
        return value  # an integer stays one: a file read back is written again byte for byte

    def optional(self, obj: object, key: str, where: str) -> float | None:
        return None if self.field(obj, key, where) is None else self.number(obj, key, where)

    def count(self, obj: object, key: str, where: str) -> int:
        value = self.field(obj, key, where)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(where, f"{key!r} is {_kind(value)}, not a count")
        return value

    def mapping(self, obj: object, key: str, where: str) -> dict:
        return self.typed(obj, key, where, dict, "an object")

    def listed(self, obj: object, key: str, where: str) -> list:
        return self.typed(obj, key, where, list, "a list")

    def rows(self, obj: object, key: str, where: str) -> dict:
        value = self.mapping(obj, key, where)
        keys = [k for k, _ in ROWS]
        if list(value) != keys:
            raise self.fail(where, f"{key!r} has the rows {', '.join(value) or 'none'}, not {', '.join(keys)}")
        return value


def parse(data: object, path: str) -> Results:
    """Check decoded JSON against the results schema, version 1; ``path`` labels messages."""
    r = _Reader(path)
    if not is_results(data):
        raise r.fail("", f"not a results file (no \"schema\": \"{SCHEMA}\")")
    version = r.field(data, "version", "")
    if isinstance(version, bool) or version != VERSION:
        raise r.fail("", f"results version {json.dumps(version)}; this kit reads version {VERSION}")
    dataset = r.mapping(data, "dataset", "")
    sha256 = r.text(dataset, "sha256", "dataset")
    if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
        raise r.fail("dataset", f"sha256 {sha256!r} is not 64 lowercase hex digits")
    conversations = r.listed(dataset, "conversations", "dataset")
    if not all(isinstance(c, str) for c in conversations):
        raise r.fail("dataset", "conversations is not a list of sample ids")
    settings = r.mapping(data, "settings", "")
    signature = r.text(data, "signature", "")
    kit_version = r.text(data, "kit_version", "")
    passes = []
    for i, p in enumerate(r.listed(data, "passes", "")):
        where = f"passes[{i}]"
        sweep = r.field(p, "sweep", where)
        swept = None if sweep is None else (r.text(sweep, "setting", f"{where} sweep"),
                                            r.number(sweep, "value", f"{where} sweep"))
        options = {o: r.number(r.mapping(p, "options", where), o, f"{where} options") for o in OPTIONS}
        arms = {}
        for arm_name, a in r.mapping(p, "arms", where).items():
            at = f"{where} arm {arm_name}"
            rows = {}
            for key, row in r.rows(a, "rows", at).items():
                cell = f"{at} row {key}"
                bounds = r.field(row, "f1_interval", cell)
                if bounds is not None and not (isinstance(bounds, list) and len(bounds) == 2 and all(
                        isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds)):
                    raise r.fail(cell, "'f1_interval' is neither null nor two numbers")
                rows[key] = Row(n=r.count(row, "n", cell), f1=r.number(row, "f1", cell),
                                recall=r.optional(row, "recall", cell), quiet=r.number(row, "quiet", cell),
                                f1_interval=None if bounds is None else (float(bounds[0]), float(bounds[1])))
            each = []
            for j, c in enumerate(r.listed(a, "conversations", at)):
                place = f"{at} conversations[{j}]"
                sample = r.text(c, "sample", place)
                kept = {key: (r.count(s, "n", f"{place} row {key}"), r.number(s, "score", f"{place} row {key}"))
                        for key, s in r.rows(c, "rows", place).items()}
                each.append((sample, kept))
            if [sample for sample, _ in each] != conversations:
                raise r.fail(at, "its conversations are not the dataset's conversations in order")
            arms[arm_name] = Arm(rows=rows, conversations=tuple(each))
        passes.append(Pass(sweep=swept, options=options, arms=arms))
    return Results(sha256=sha256, conversations=tuple(conversations), settings=settings, signature=signature,
                   kit_version=kit_version, passes=tuple(passes), path=path)


def read(path: str | Path) -> Results:
    """Read and check a results file; ``path`` is kept as given for messages."""
    try:
        data = decoded(path)
    except PredictionsError as err:
        raise ResultsError(str(err)) from None
    return parse(data, str(path))
