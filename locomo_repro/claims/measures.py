"""What each kind of claim measures, registered where it is defined.

A claim's ``measures`` names a kind and its parameters (``{kind: table, run:
'-arms walk', arm: path, row: multi hop, metric: F1}``).  Each kind is a
function of the parameters, the :class:`~.lab.Lab` and the manifest, declared
with :func:`kind` together with the keys its entry must and may have: the one
registry :data:`KINDS` is both the manifest's schema and the table of
measurements.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ..bench import experiment as bench
from ..data import dataset, timewords
from ..data.dataset import ANSWERABLE, CATEGORIES, LOCOMO
from ..memory import kg
from ..score import golden, official, resamples, stats
from ..score.metric import DECLINE, grade
from ..text.reduce import normalise
from . import expr
from .lab import Lab
from .runs import Run, parse_run

if TYPE_CHECKING:
    from .records import Claim, Manifest

METRICS = ("F1", "recall", "quiet", "n", "declined")
COLUMNS = ("1-4", "adv", "all", "quiet")

#: The README's row names and the categories each covers (all when empty).
ROWS: dict[str, tuple[int, ...]] = {
    **{CATEGORIES[kind]: (kind,) for kind in LOCOMO},  # LoCoMo's five: the README has no cognitive row
    "answerable": ANSWERABLE,
    "overall": (),
}
CATEGORY_NAMES = {name: kinds[0] for name, kinds in ROWS.items() if len(kinds) == 1}

#: A measurement: (the claim's ``measures``, the lab, the manifest) -> a float, a tuple of floats, text or a flag.
Measure = Callable[[Mapping, Lab, "Manifest"], Any]


@dataclass(frozen=True)
class Kind:
    """A kind of measurement: the keys its entry must and may have (``kind`` aside) and the function measuring it.

    ``measurable`` is false for the kind that names what no code measures: its
    claims are ``unverifiable``.
    """

    required: frozenset[str]
    optional: frozenset[str]
    measure: Measure
    measurable: bool = True


#: Every kind of measurement by name, filled by :func:`kind` where each is defined.
KINDS: dict[str, Kind] = {}


def kind(name: str, required: Sequence[str] = (), optional: Sequence[str] = (), *, measurable: bool = True):
    """Register the decorated function as the measurement of kind ``name``, with its entry's keys."""

    def register(function: Measure) -> Measure:
        if name in KINDS:
            raise ValueError(f"measure kind {name!r} is registered twice")
        KINDS[name] = Kind(frozenset(required), frozenset(optional), function, measurable)
        return function

    return register


class Unverifiable(Exception):
    """The claim cannot be measured: the kit has no definition or code for it (the message says why)."""


def runs(manifest: Manifest) -> list[Run]:
    """Every run the manifest's claims measure, in manifest order: each claim's run or runs, and the default
    run, whose build the build, subjects and option claims read."""
    flags = [""]
    for claim in manifest.claims:
        m = claim.measures
        flags += [m["run"]] if "run" in m else m.get("runs", [])
    return [parse_run(f) for f in dict.fromkeys(flags)]


def measure(claim: Claim, lab: Lab, manifest: Manifest) -> Any:
    """The value the kit measures for a claim: a float, a tuple of floats, text or a flag.

    Raises :class:`Unverifiable` for a claim the kit cannot measure, and
    ``lab.NotAtHand`` for one that needs what this machine lacks.
    """
    if claim.id in lab.values:
        return lab.values[claim.id]
    m = claim.measures
    value = KINDS[m["kind"]].measure(m, lab, manifest)
    lab.values[claim.id] = value
    return value


@kind("dataset", required=("field",), optional=("categories", "index"))
def _dataset(m: Mapping, lab: Lab, manifest: Manifest) -> Any:

    samples = lab.samples
    got = m["field"]
    questions = [q for s in samples for q in s.questions if q.category in m.get("categories", (1, 2, 3, 4, 5))]
    if got == "conversations":
        return len(samples)
    if got == "sessions":
        return sum(s.sessions for s in samples)
    if got == "turns":
        return sum(len(s.turns) for s in samples)
    if got == "questions":
        return len(questions)
    if got == "list-answers":
        return sum("," in q.answer for q in questions)
    if got == "sample-id":
        return samples[m["index"]].id
    path = dataset.resolve(lab.data_path)
    if got == "bytes":
        return path.stat().st_size
    if got == "sha256":
        return hashlib.sha256(path.read_bytes()).hexdigest()
    raise ValueError(f"unknown dataset field {got!r}")


#: What a conversation's build line counts, in ``Outcome.built`` order.
BUILT = ("turns", "claims", "nodes", "edges", "derived")


@kind("build", required=("conversation", "field"))
def _build(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """A count of the default build's line for one conversation or the total (``Outcome.built``, ``terms``)."""
    outcomes = lab.outcomes(parse_run("").settings)
    pick = outcomes if m["conversation"] == "total" else [o for o in outcomes if o.sample == m["conversation"]]
    if not pick:
        raise ValueError(f"no conversation {m['conversation']!r}")
    got = m["field"]
    if got == "terms":
        return sum(o.terms for o in pick)
    if got not in BUILT:
        raise ValueError(f"unknown build field {got!r}")
    return sum(o.built[BUILT.index(got)] for o in pick)


@kind("subjects", required=("field",), optional=("share",))
def _subjects(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """Questions naming a speaker, resolving to a known name, neither, or all, in the default build."""
    outcomes = lab.outcomes(parse_run("").settings)
    speaker, known = (sum(o.subjects[i] for o in outcomes) for i in (0, 1))
    asked = sum(o.questions for o in outcomes)
    got = {"speaker": speaker, "known": known, "unresolved": asked - known, "asked": asked}[m["field"]]
    return got / asked if m.get("share") else got


@kind("table", required=("metric", "row", "run"), optional=("arm",))
def _table(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    kinds = ROWS[m["row"]]
    metric = m["metric"]
    if metric == "n":
        records = lab.records(m["run"])
        return lab.tally(m["run"], next(iter(sorted(records)))).count(kinds)
    if isinstance(m["arm"], list):
        return tuple(_table({**m, "arm": arm}, lab, manifest) for arm in m["arm"])
    t = lab.tally(m["run"], m["arm"])
    if metric == "F1":
        return t.mean(kinds)
    if metric == "recall":
        return t.reach(kinds)
    if metric == "quiet":
        return t.quiet_share(kinds)
    return round(t.quiet_share(kinds) * t.count(kinds))  # declined: a count


@kind("sweep", required=("arm", "column", "run"), optional=("reduce", "value"))
def _sweep(m: Mapping, lab: Lab, manifest: Manifest) -> Any:

    run = parse_run(m["run"])
    if run.sweep is None:
        raise ValueError(f"run {m['run']!r} is not a sweep")
    values = bench.STEPS[run.sweep] if m.get("value", "all") == "all" else (m["value"],)
    out = [_column(lab.tally(run, m["arm"], **{run.sweep: v}), m["column"]) for v in values]
    return _reduce(out, m.get("reduce"))


def _column(t: Any, column: str) -> float:
    """A sweep row's cell: F1 over answerable (1-4), adversarial (adv) or all questions, or the quiet share."""
    if column == "1-4":
        return t.mean((1, 2, 3, 4))
    if column == "adv":
        return t.mean((5,))
    return t.mean() if column == "all" else t.quiet_share()


@kind("check", required=("metric", "row", "run"), optional=("arm",))
def _check(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """A cell of the make-check table: F1 and recall from the official scorer (:meth:`Lab.check`), n counted
    from the predictions file as ``score.py`` counts it."""

    if m["metric"] == "n":
        return official.counts(lab.predictions(m["run"]))[m["row"]]
    f1, recall = lab.check(m["run"])[m["arm"]][m["row"]]
    return {"F1": f1, "recall": recall}[m["metric"]]


def _answer(q: Any) -> str:
    """The answer ``-stats`` grades against (a non-string answer grades as "", as the reference reads it)."""
    return q.answer if isinstance(q.answer, str) else ""


@kind("stats", required=("run", "stat"), optional=("arm", "arms", "bound", "half", "row"))
def _stats(m: Mapping, lab: Lab, manifest: Manifest) -> float:

    preds = lab.predictions(m["run"])
    stat = m["stat"]
    if stat == "draws":
        return resamples.draw_count(len(preds.conversations))
    if stat == "abstention":
        kinds = ROWS[m["row"]] or (1, 2, 3, 4, 5)
        chosen = [q for q in preds.questions if q.category in kinds]
        return sum(grade(q.category, DECLINE, _answer(q)) for q in chosen) / len(chosen)
    if stat == "auc":
        answerable = [q.predictions[m["arm"]].confidence for q in preds.questions if q.category != 5]
        adversarial = [q.predictions[m["arm"]].confidence for q in preds.questions if q.category == 5]
        return stats.auc(answerable, adversarial)
    if stat == "paired":
        one, two = m["arms"]
        kinds = (5,) if m["half"] == "adversarial" else (1, 2, 3, 4)
        at = {c: i for i, c in enumerate(preds.conversations)}
        diff = [0.0] * len(at)
        size = [0.0] * len(at)
        for q in preds.questions:
            if q.category in kinds:
                a = grade(q.category, q.predictions[one].reply, _answer(q))
                b = grade(q.category, q.predictions[two].reply, _answer(q))
                diff[at[q.sample]] += a - b
                size[at[q.sample]] += 1
        point, low, high = stats.interval(diff, size)
        return {"point": point, "low": low, "high": high}[m["bound"]]
    raise ValueError(f"unknown stat {stat!r}")


@kind("reach", required=("conversations",), optional=("category", "hops", "reduce", "shape"))
def _reach(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    found = lab.reach(m["conversations"])
    if m.get("shape"):
        # The shape reach_test.go asserts: one hop reaches at least 0.80 of every answerable
        # category's evidence and at most 0.55 of the adversarial; two hops at least 0.85 of it.
        return all(found[1][k] >= 0.80 for k in (1, 2, 3, 4)) and found[1][5] <= 0.55 and found[2][5] >= 0.85
    names = m["category"] if isinstance(m["category"], list) else [m["category"]]
    got = [found[m["hops"]][CATEGORY_NAMES[name]] for name in names]
    return _reduce(got, m.get("reduce"))


def _reduce(values: Sequence[float], how: str | None) -> Any:
    if how == "range":
        return (min(values), max(values))
    if how is not None:
        raise ValueError(f"unknown reduce {how!r}")
    return values[0] if len(values) == 1 else tuple(values)


@kind("example", required=("field", "question", "run", "sample"), optional=("arm", "turn"))
def _example(m: Mapping, lab: Lab, manifest: Manifest) -> Any:

    at = 0
    for sample in lab.samples:
        if sample.id == m["sample"]:
            break
        at += len(sample.questions)
    else:
        raise ValueError(f"no conversation {m['sample']!r}")
    question = sample.questions[m["question"]]
    got = m["field"]
    if got == "evidence":
        return " ".join(question.evidence)
    if got == "piece":  # that one conversation built alone, as the run builds it
        knowledge = lab.case(m["run"], sample.id).knowledge
        return f"{kg.fold(knowledge.subject(question.text))}@{m['turn']}" in knowledge.pieces
    record = lab.records(m["run"])[m["arm"]][at + m["question"]]
    if got == "reply":
        return record.reply
    if got == "context":
        return " ".join(record.context)
    if got == "first":
        return record.context[0] if record.context else ""
    if got == "cited":
        return m["turn"] in record.context
    raise ValueError(f"unknown example field {got!r}")


@kind("golden", required=("list",))
def _golden(m: Mapping, lab: Lab, manifest: Manifest) -> float:

    data = lab.memo(("golden",), lambda: golden.read_dataset(dataset.resolve(lab.data_path)))
    got = m["list"]
    if got == "stems":
        return len(golden.stem_words(data, normalise))
    if got == "corpus-words":
        return len({w for text in golden.texts(data) for w in normalise(text).split()})
    if got == "normalise":
        return len(golden.distinct_texts(data))
    if got == "grade":
        return len(golden.grade_cases(data))
    raise ValueError(f"unknown golden list {got!r}")


@kind("option", required=("name",))
def _option(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """One setting as the default run prints it on its settings line (``k=5 floor=0.30 span=4 band=0.90 parts=2``,
    ``bench.header``): the line of :meth:`Lab.default_run` made only of ``name=value`` words."""
    for line in lab.default_run().splitlines():
        words = [word.partition("=") for word in line.split()]
        if words and all(name and sep for name, sep, _ in words):
            settings = {name: value for name, _, value in words}
            if m["name"] in settings:
                return float(Decimal(settings[m["name"]]))
    raise ValueError(f"the default run prints no setting {m['name']!r}")


@kind("arms", required=("runs",))
def _arms(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    return len({arm for run in m["runs"] for arm in lab.records(run)})


@kind("identical", required=("arms", "runs"))
def _identical(m: Mapping, lab: Lab, manifest: Manifest) -> bool:
    first, *rest = (lab.records(run) for run in m["runs"])
    return all(other[arm] == first[arm] for other in rest for arm in m["arms"])


@kind("agrees", required=("runs",))
def _agrees(m: Mapping, lab: Lab, manifest: Manifest) -> bool:
    """Whether the make-check table prints every F1 and recall of the run's own table, at three decimals."""
    for run in m["runs"]:
        checked = lab.check(run)
        for arm in lab.records(run):
            t = lab.tally(run, arm)
            for row, kinds in ROWS.items():
                f1, recall = checked[arm][row]
                if f"{f1:.3f}" != f"{t.mean(kinds):.3f}" or f"{recall:.3f}" != f"{t.reach(kinds):.3f}":
                    return False
    return True


#: The ``Tally`` method that reads each metric of a table cell.
_READ = {"F1": "mean", "recall": "reach", "quiet": "quiet_share"}


@kind("shift", required=("metrics", "runs"), optional=("places", "rows"))
def _shift(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """The largest change of any listed cell between two runs (unrounded, or at ``places`` decimals)."""
    one, two = m["runs"]
    rows = m.get("rows", list(ROWS))
    places = m.get("places")
    largest = 0.0
    for arm in lab.records(one):
        a, b = lab.tally(one, arm), lab.tally(two, arm)
        for row in rows:
            kinds = ROWS[row]
            for metric in m["metrics"]:
                x, y = getattr(a, _READ[metric])(kinds), getattr(b, _READ[metric])(kinds)
                if places is not None:
                    x, y = float(f"{x:.{places}f}"), float(f"{y:.{places}f}")
                largest = max(largest, abs(x - y))
    return largest


@kind("gains", required=("above", "pairs", "run"))
def _gains(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """How many categories in which every (arm, other arm) pair gains more than ``above`` F1."""

    return sum(
        all(lab.tally(m["run"], b).mean((k,)) - lab.tally(m["run"], a).mean((k,)) > m["above"] for a, b in m["pairs"])
        for k in LOCOMO
    )


@kind("expr", required=("expr",))
def _expr(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    values = {ref: measure(manifest.claim(ref), lab, manifest) for ref in expr.refs(m["expr"])}
    return expr.evaluate(m["expr"], values)


@kind("timing", required=("of",))
def _timing(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    if m["of"] in ("default-cpu", "default-wall"):
        lab.time_default_run()
    elif m["of"] == "reach-2-wall":
        lab.reach(2)
    return lab.seconds[m["of"]]


@kind("same", required=("metrics", "pairs", "run"), optional=("places", "rows"))
def _same(m: Mapping, lab: Lab, manifest: Manifest) -> bool:
    """Whether each pair of arms of one run prints the same listed cells (at ``places`` decimals, default 3)."""
    places = m.get("places", 3)
    for one, two in m["pairs"]:
        a, b = lab.tally(m["run"], one), lab.tally(m["run"], two)
        for row in m.get("rows", list(ROWS)):
            for metric in m["metrics"]:
                x, y = getattr(a, _READ[metric])(ROWS[row]), getattr(b, _READ[metric])(ROWS[row])
                if f"{x:.{places}f}" != f"{y:.{places}f}":
                    return False
    return True


@kind("delta", required=("arm", "metric", "row", "runs"))
def _delta(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """One table cell of the first run less the same cell of the second, unrounded."""
    first, second = (_table({**m, "run": run}, lab, manifest) for run in m["runs"])
    return first - second


@kind("bound", required=("run",))
def _bound(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """The share of statement sentences whose subject a pronoun bound by coreference decided (``Knowledge.bound``)."""
    bound = [o.bound for o in lab.outcomes(parse_run(m["run"]).settings)]
    counted = [b for b in bound if b is not None]
    if len(counted) < len(bound):
        raise ValueError(f"run {m['run']!r} builds no coreference (add -coref)")
    return sum(hit for hit, _ in counted) / sum(said for _, said in counted)


@kind("timewords")
def _timewords(m: Mapping, lab: Lab, manifest: Manifest) -> int:
    """Multi-hop questions holding a word about time, by the kit's own list (``timewords.timed``)."""

    return timewords.timed(lab.samples)[0]


@kind("empty-context")
def _empty_context(m: Mapping, lab: Lab, manifest: Manifest) -> str:
    """What the official ``eval_question_answering`` makes of an arm that returned nothing, its context an empty
    list (no ``score.py`` placeholder): the recall it gives, printed to one decimal, or the error it raises.

    The row is answerable (single hop) with one piece of evidence, as every
    predictions file the reference writes holds the context key.
    """
    row = {"question": "q", "answer": "a", "category": 4, "evidence": ["D1:1"],
           "prediction": "No information available", "prediction_context": []}
    scorer = lab.scorer()
    try:
        _, _, recalls = scorer([row], "prediction")
    except Exception as err:  # what the official code does here is the measurement
        return f"{type(err).__name__}: {err}"
    return f"{recalls[0]:.1f}"


@kind("undefined", required=("what",), measurable=False)
def _undefined(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    raise Unverifiable(m["what"])
