"""Results files: a run's figures per arm and category, for scripts and for ``compare`` (``-json FILE``).

Schema ``locomo-repro/results``, version 2 (version 1 still read), documented in ``docs/results.md``.  Per pass of the run (one,
or one per swept value with ``-sweep``), per arm and per row of the printed table (each category by its
number, then ``answerable`` and ``overall``): the questions ``n``, the mean score ``f1``, the mean
evidence recall ``recall`` (null where no record has one), the share declined ``quiet`` -- each exactly
the float the table rounds -- and ``f1_interval``, the 95% percentile bootstrap interval of the F1 over
conversations that ``-stats`` computes (``stats.bootstrap``: exact up to 12 conversations, else seeded
Monte Carlo).  Per conversation, arm and row it keeps
the questions and the summed score, in question order, which is what pairs two files question by question
(``compare``); and it names the dataset (sha256), the settings, the kit's version and the run's signature.

The run gives each arm's running tally (``Tallied``: the table's own ``Tally``) and each conversation's
``sums``; this module knows nothing of how they were made.

A run with ``-judge`` adds an optional member, absent otherwise (a file without it is read and written as
before): the judge's facts at the top (``judge``) and per arm its J rows (``Judgement``: per row the questions
judged, the failed judgements, J and its interval, and how far the judge parts from the F1), with each judged
question's score per conversation, which is what pairs J in ``compare``.  The figures are made above this
module (``judge.figures``); this module only keeps and checks them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from .. import __version__
from ..data import jsonio
from ..data.dataset import ANSWERABLE, CATEGORIES, LOCOMO
from ..go.flags import has_control
from .costs import Cost as Cost, Evidence as Evidence, Measured as Measured  # re-exported: results.Cost
from .costs import cost as cost, mean_evidence as mean_evidence, percentile as percentile, variant as variant
from .predictions import PredictionsError, _kind, decoded
from ..data.records import record

SCHEMA = "locomo-repro/results"
VERSION = 2

#: The versions this kit reads: version 1 files (no evidence, no cost) read as ever.
READS = (1, 2)

#: The rows of a results file and the categories each adds up, in the printed table's order: each category
#: by its number (4, 1, 2, 3, 5), then answerable and overall (every category: ``()``, as the table's tally
#: takes it).
ROWS: tuple[tuple[str, tuple[int, ...]], ...] = (
    *((str(kind), (kind,)) for kind in LOCOMO),
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

    @property
    def held(self) -> bool: ...


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
    adds a conversation's grades); a question the answer key holds apart is in no row, as in the table."""
    out = {key: (0, 0.0) for key, _ in ROWS}
    for r in records:
        if r.held:
            continue
        for key, kinds in ROWS:  # overall's F1, like the table's, over the categories with a gold answer
            if r.category in (kinds or LOCOMO):
                n, total = out[key]
                out[key] = (n + 1, total + r.score)
    return out


@record
class Row:
    """One arm's figures on one row: questions, mean score, mean recall (None: absent), share declined, and
    the exact 95% bootstrap interval of the mean score over conversations (None: no question, or too many
    conversations to enumerate)."""

    n: int
    f1: float
    recall: float | None
    quiet: float
    f1_interval: tuple[float, float] | None


@record
class Tokens:
    """The tokens a ``-model`` run's endpoint reported for the replies it gave (replies read back from the memo
    folder cost none): the model, prompt and completion tokens summed, and the replies that said any."""

    model: str
    prompt: int
    completion: int
    replies: int


@record
class JudgeRow:
    """One arm's judge figures on one row: the questions with a verdict ``n``, the failed judgements left out,
    J (None: no verdict) and its exact 95% bootstrap interval over conversations (None: fewer than two or more
    than twelve conversations), the ROC AUC of the official F1 for the verdict and the J of the replies whose
    F1 is 0 and 1 (None where there is nothing to measure)."""

    n: int
    failed: int
    j: float | None
    j_interval: tuple[float, float] | None
    f1_auc: float | None
    j_at_f1_0: float | None
    j_at_f1_1: float | None


#: One conversation's judged questions: (index in its ``qa`` list, category, score; None a failed judgement).
Scores = tuple[tuple[int, int, float | None], ...]


@record
class Judgement:
    """One arm's judge figures: per row key, and per conversation (in run order) each judged question's score."""

    rows: dict[str, JudgeRow]
    conversations: tuple[tuple[str, Scores], ...]


@record
class Arm:
    """One arm of one pass: its figures per row key, per conversation (in run order) its sums, and the evidence
    it handed its reader (None: it named none, or a version 1 file); with ``-judge``, its judge figures."""

    rows: dict[str, Row]
    conversations: tuple[tuple[str, Sums], ...]
    evidence: Evidence | None = None
    judge: Judgement | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass of a run: the swept setting and its value (None without ``-sweep``), the reader's settings
    it was asked with, and its arms in table order; in a sweep over a plug-in's setting, what the swept arms'
    variant of this pass's value cost (the plug-in is built once per value; empty otherwise)."""

    sweep: tuple[str, float] | None
    options: dict[str, float]
    arms: dict[str, Arm]
    costs: dict[str, Cost] = field(default_factory=dict)  # a plug-in sweep's: each swept arm's variant, by arm


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
    costs: dict[str, Cost] = field(default_factory=dict)  # by arm (none in a version 1 file)
    version: int = VERSION
    tokens: Tokens | None = None  # what the model's endpoint reported (-model), else None
    judge: dict[str, object] | None = None  # the judge's facts (-judge), else None
    #: ``-wrong-gold``'s figures per arm (of the first pass, under the official key): the answerable questions
    #: ``n``, their mean ``f1``, the ``wrong`` ones (the audit finds their gold wrong) and the ``share`` of the
    #: F1's sum those give (null where it is 0); None (no field in the file) without the flag.
    wrong_gold: dict[str, dict[str, float | int | None]] | None = None

    def cost(self, at: int, arm: str) -> Cost | None:
        """What ``arm`` cost in pass ``at``: its variant's in a sweep over its own plug-in's setting, else the
        run's (None: not measured, or a version 1 file)."""
        return self.passes[at].costs.get(arm) or self.costs.get(arm)

    @property
    def unavailable(self) -> str | None:
        """Why no interval could be taken (None when they were)."""
        return None if self.conversations else "no conversation to resample"


def arm(tally: Tallied, conversations: Sequence[tuple[str, Sums]]) -> Arm:
    """An arm's results from its tally over the run and each conversation's sums (in run order)."""
    from .stats import bootstrap  # here, as everywhere in this module: a run without -json needs no numpy

    rows = {}
    for key, kinds in ROWS:
        n = tally.count(kinds)
        bounds = None
        if n and conversations:
            _, low, high = bootstrap([s[key][1] for _, s in conversations], [float(s[key][0]) for _, s in conversations])
            bounds = (low, high)
        rows[key] = Row(n=n, f1=tally.mean(kinds), recall=tally.reach(kinds), quiet=tally.quiet_share(kinds),
                        f1_interval=bounds)
    return Arm(rows=rows, conversations=tuple((sample, dict(s)) for sample, s in conversations))


def _evidence(got: Evidence | None) -> dict | None:
    return None if got is None else {"questions": got.questions, "turns": got.turns, "characters": got.characters,
                                     "words": got.words}


def _cost(got: Cost) -> dict:
    return {"build": {"seconds": got.build, "conversations": list(got.conversations),
                      "sessions": None if got.sessions is None else [list(s) for s in got.sessions]},
            "calls": {"n": got.calls, "seconds": got.seconds, "p50": got.p50, "p95": got.p95, "p99": got.p99},
            "failures": got.failures}


def judgement(j: Judgement) -> dict:
    """The JSON value of an arm's judge figures (``…arms.<arm>.judge``)."""
    return {
        "rows": {key: {"name": name(key), "n": row.n, "failed": row.failed, "j": row.j,
                       "j_interval": None if row.j_interval is None else list(row.j_interval), "f1_auc": row.f1_auc,
                       "j_at_f1_0": row.j_at_f1_0, "j_at_f1_1": row.j_at_f1_1} for key, row in j.rows.items()},
        "conversations": [{"sample": sample, "qa": [q for q, _, _ in each], "categories": [c for _, c, _ in each],
                           "scores": [s for _, _, s in each]} for sample, each in j.conversations],
    }


def document(results: Results) -> dict:
    """The JSON value of a results file (schema ``locomo-repro/results``, version 2; the judge's members only
    where the run had a judge)."""
    from .stats import TAIL, method

    n = len(results.conversations)
    judged = {} if results.judge is None else {"judge": results.judge}
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "kit_version": results.kit_version,
        "signature": results.signature,
        "dataset": {"sha256": results.sha256, "conversations": list(results.conversations)},
        "settings": results.settings,
        "bootstrap": {
            "over": "conversations", "level": 1 - 2 * TAIL, **method(n), "unavailable": results.unavailable,
        },
        **judged,
        "passes": [
            {
                "sweep": None if p.sweep is None else {"setting": p.sweep[0], "value": p.sweep[1]},
                **({"cost": {arm_name: _cost(got) for arm_name, got in p.costs.items()}} if p.costs else {}),
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
                        "evidence": _evidence(a.evidence),
                        **({} if a.judge is None else {"judge": judgement(a.judge)}),
                    }
                    for arm_name, a in p.arms.items()
                },
            }
            for p in results.passes
        ],
        "cost": {arm_name: _cost(got) for arm_name, got in results.costs.items()},
        "tokens": None if results.tokens is None else {
            "model": results.tokens.model, "prompt": results.tokens.prompt, "completion": results.tokens.completion,
            "replies": results.tokens.replies},
        **({} if results.wrong_gold is None else {"wrong_gold": results.wrong_gold}),
    }


class Shared(Protocol):
    """One arm's share of its F1 from questions whose gold is wrong (``score.ceiling.Share``)."""

    @property
    def n(self) -> int: ...

    @property
    def f1(self) -> float: ...

    @property
    def wrong(self) -> int: ...

    @property
    def share(self) -> float | None: ...


def wrong_gold(shares: Mapping[str, Shared]) -> dict[str, dict[str, float | int | None]]:
    """The results file's ``wrong_gold`` field from each arm's share."""
    return {arm: {"n": s.n, "f1": s.f1, "wrong": s.wrong, "share": s.share} for arm, s in shares.items()}


def encode(results: Results) -> bytes:
    """A results file's bytes: its JSON value indented by two, UTF-8, ending in a newline."""
    return (jsonio.dumps(document(results), indent=2, ensure_ascii=False) + "\n").encode()


def run(
    settings: Mapping[str, object], sha256: str, signature: str, sweep: tuple[str, Sequence[float]] | None,
    passes: Sequence[tuple[Mapping[str, float], Mapping[str, Tallied]]],
    conversations: Sequence[tuple[str, Sequence[Mapping[str, Sums]]]],
    evidence: Sequence[Mapping[str, tuple[int, int, int, int]]] = (),
    spent: Mapping[str, Sequence[Measured]] = {},
) -> Results:
    """A run's results: ``passes`` its reader settings and each arm's tally per pass (arms in any order: the
    file keeps them in name order, as the table), ``conversations`` each conversation's sums per pass and arm;
    ``sweep`` the swept setting's name and its value in each pass (None without ``-sweep``); ``evidence`` per
    pass each arm's evidence summed (questions, turns, characters, words), ``spent`` each arm's cost in each
    conversation (a swept plug-in's variant of pass ``i`` under :func:`variant`: each pass then has its own)."""
    made = []
    for i, (options, tallies) in enumerate(passes):
        summed = evidence[i] if i < len(evidence) else {}
        arms = {a: replace(arm(tallies[a], [(sample, each[i][a]) for sample, each in conversations]),
                           evidence=mean_evidence(summed.get(a))) for a in sorted(tallies)}
        swept = None if sweep is None else (sweep[0], sweep[1][i])
        variants = {a: cost(spent[variant(a, i)]) for a in arms if variant(a, 1) in spent and variant(a, i) in spent}
        made.append(Pass(sweep=swept, options={o: options[o] for o in OPTIONS}, arms=arms, costs=variants))
    return Results(sha256=sha256, conversations=tuple(sample for sample, _ in conversations), settings=dict(settings),
                   signature=signature, kit_version=__version__, passes=tuple(made),
                   costs={a: cost(spent[a]) for a in sorted(spent) if a in made[0].arms} if made else {})


def judged(results: Results, facts: dict[str, object], arms: Mapping[str, Judgement]) -> Results:
    """A run's results with its judge's ``facts`` and each arm's judge figures (a run of one pass: ``-judge``
    is refused with ``-sweep``)."""
    (only,) = results.passes
    marked = {name: replace(a, judge=arms.get(name)) for name, a in only.arms.items()}
    return replace(results, judge=dict(facts), passes=(replace(only, arms=marked),))


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

    def plain(self, text: str, what: str, where: str) -> str:
        """``text`` (``what`` names it), which is printed: no control character (the signature's own rule, so a
        newline cannot forge a second ``signature:`` line nor an escape reach the terminal), never shown."""
        if has_control(text):
            code = ord(next(c for c in text if has_control(c)))
            raise self.fail(where, f"{what} holds a control character (U+{code:04X}); it is not shown")
        return text

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
    """Check decoded JSON against the results schema, version 1 or 2 (:data:`READS`); ``path`` labels
    messages."""
    r = _Reader(path)
    if not is_results(data):
        raise r.fail("", f"not a results file (no \"schema\": \"{SCHEMA}\")")
    version = r.field(data, "version", "")
    if isinstance(version, bool) or version not in READS:
        raise r.fail("", f"results version {json.dumps(version)}; this kit reads versions "
                         f"{', '.join(map(str, READS))}")
    dataset = r.mapping(data, "dataset", "")
    sha256 = r.text(dataset, "sha256", "dataset")
    if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
        raise r.fail("dataset", f"sha256 {sha256!r} is not 64 lowercase hex digits")
    conversations = r.listed(dataset, "conversations", "dataset")
    if not all(isinstance(c, str) for c in conversations):
        raise r.fail("dataset", "conversations is not a list of sample ids")
    settings = r.mapping(data, "settings", "")
    signature = r.plain(r.text(data, "signature", ""), "'signature'", "")
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
            at = f"{where} arm {r.plain(arm_name, 'an arm name', where)}"
            rows = {}
            for key, row in r.rows(a, "rows", at).items():
                cell = f"{at} row {key}"
                rows[key] = Row(n=r.count(row, "n", cell), f1=r.number(row, "f1", cell),
                                recall=r.optional(row, "recall", cell), quiet=r.number(row, "quiet", cell),
                                f1_interval=_bounds(r, row, "f1_interval", cell))
            each = []
            for j, c in enumerate(r.listed(a, "conversations", at)):
                place = f"{at} conversations[{j}]"
                sample = r.text(c, "sample", place)
                kept = {key: (r.count(s, "n", f"{place} row {key}"), r.number(s, "score", f"{place} row {key}"))
                        for key, s in r.rows(c, "rows", place).items()}
                each.append((sample, kept))
            if [sample for sample, _ in each] != conversations:
                raise r.fail(at, "its conversations are not the dataset's conversations in order")
            shown = r.field(a, "evidence", at) if version >= 2 else None
            evidence = None if shown is None else Evidence(
                questions=r.count(shown, "questions", f"{at} evidence"),
                **{k: r.number(shown, k, f"{at} evidence") for k in ("turns", "characters", "words")})
            mark = a.get("judge") if isinstance(a, dict) else None
            arms[arm_name] = Arm(rows=rows, conversations=tuple(each), evidence=evidence,
                                 judge=None if mark is None else _judgement(r, mark, f"{at} judge", conversations))
        passes.append(Pass(sweep=swept, options=options, arms=arms))
        if version >= 2 and "cost" in p:  # a sweep over a plug-in's setting: its variant's cost in each pass
            passes[-1] = replace(passes[-1], costs=_costs(r, r.mapping(p, "cost", where), f"{where} cost",
                                                          len(conversations)))
    costs = _costs(r, r.mapping(data, "cost", ""), "cost", len(conversations)) if version >= 2 else {}
    said = r.field(data, "tokens", "") if version >= 2 else None
    tokens = None if said is None else Tokens(model=r.text(said, "model", "tokens"),
                                              **{k: r.count(said, k, "tokens") for k in ("prompt", "completion", "replies")})
    facts = data.get("judge") if isinstance(data, dict) else None
    if facts is not None and not isinstance(facts, dict):
        raise r.fail("", f"'judge' is {_kind(facts)}, not an object")
    wrong = None
    if isinstance(data, dict) and "wrong_gold" in data:
        wrong = {}
        for arm_name, got in r.mapping(data, "wrong_gold", "").items():
            at = f"wrong_gold arm {arm_name}"
            wrong[arm_name] = {"n": r.count(got, "n", at), "f1": r.number(got, "f1", at),
                               "wrong": r.count(got, "wrong", at), "share": r.optional(got, "share", at)}
    return Results(sha256=sha256, conversations=tuple(conversations), settings=settings, signature=signature,
                   kit_version=kit_version, passes=tuple(passes), path=path, costs=costs, version=version, tokens=tokens,
                   judge=facts, wrong_gold=wrong)


def _costs(r: _Reader, given: dict, where: str, conversations: int) -> dict[str, Cost]:
    """The costs by arm of a ``cost`` object (the run's, or a pass's), each checked."""
    costs = {}
    for arm_name, c in given.items():
        at = f"{where} {arm_name}"
        build, calls = r.mapping(c, "build", at), r.mapping(c, "calls", at)
        per = r.listed(build, "conversations", f"{at} build")
        if len(per) != conversations or not all(
                isinstance(s, (int, float)) and not isinstance(s, bool) for s in per):
            raise r.fail(f"{at} build", "'conversations' is not a number per conversation")
        added = r.field(build, "sessions", f"{at} build")
        if added is not None and not (isinstance(added, list) and len(added) == conversations and all(
                isinstance(s, list) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in s)
                for s in added)):
            raise r.fail(f"{at} build", "'sessions' is neither null nor a list of numbers per conversation")
        costs[arm_name] = Cost(build=r.number(build, "seconds", f"{at} build"), conversations=tuple(per),
                               sessions=None if added is None else tuple(tuple(s) for s in added),
                               calls=r.count(calls, "n", f"{at} calls"), seconds=r.number(calls, "seconds", f"{at} calls"),
                               p50=r.optional(calls, "p50", f"{at} calls"), p95=r.optional(calls, "p95", f"{at} calls"),
                               p99=r.optional(calls, "p99", f"{at} calls"), failures=r.count(c, "failures", at))
    return costs


def _bounds(r: _Reader, row: object, key: str, where: str) -> tuple[float, float] | None:
    bounds = r.field(row, key, where)
    if bounds is not None and not (isinstance(bounds, list) and len(bounds) == 2 and all(
            isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds)):
        raise r.fail(where, f"{key!r} is neither null nor two numbers")
    return None if bounds is None else (float(bounds[0]), float(bounds[1]))


def _judgement(r: _Reader, obj: object, at: str, conversations: list) -> Judgement:
    """An arm's judge figures checked (``…arms.<arm>.judge``)."""
    rows = {}
    for key, row in r.rows(obj, "rows", at).items():
        cell = f"{at} row {key}"
        rows[key] = JudgeRow(n=r.count(row, "n", cell), failed=r.count(row, "failed", cell), j=r.optional(row, "j", cell),
                             j_interval=_bounds(r, row, "j_interval", cell), f1_auc=r.optional(row, "f1_auc", cell),
                             j_at_f1_0=r.optional(row, "j_at_f1_0", cell), j_at_f1_1=r.optional(row, "j_at_f1_1", cell))
    each = []
    for i, c in enumerate(r.listed(obj, "conversations", at)):
        place = f"{at} conversations[{i}]"
        qa, kinds, scores = (r.listed(c, name, place) for name in ("qa", "categories", "scores"))
        if len(qa) != len(kinds) or len(qa) != len(scores):
            raise r.fail(place, "'qa', 'categories' and 'scores' are not of one length")
        for j, (q, kind, mark) in enumerate(zip(qa, kinds, scores)):
            if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (q, kind)) or not (
                    mark is None or (isinstance(mark, (int, float)) and not isinstance(mark, bool)
                                     and 0 <= mark <= 1)):
                raise r.fail(place, f"question {j}: qa and category are counts and score null or in [0, 1]")
        each.append((r.text(c, "sample", place), tuple(zip(qa, kinds, scores))))
    if [sample for sample, _ in each] != conversations:
        raise r.fail(at, "its conversations are not the dataset's conversations in order")
    return Judgement(rows=rows, conversations=tuple(each))


def read(path: str | Path) -> Results:
    """Read and check a results file; ``path`` is kept as given for messages."""
    try:
        data = decoded(path)
    except PredictionsError as err:
        raise ResultsError(str(err)) from None
    return parse(data, str(path))
