"""The numbers behind every figure of the report, computed with the kit's own machinery (no plotting here).

* :func:`tradeoff`: each arm's answerable and adversarial F1 and the share of
  questions it declines, as the confidence floor sweeps from 0 to 1 — a finer
  grid than ``-sweep floor``, from one run at floor 0 (``bench.floor``).
* :func:`categories`: each arm's F1 per category, answerable and overall, with
  the exact 95% percentile bootstrap interval over conversations of ``-stats``
  (``stats.pooled``).
* :func:`differences`: every pair of arms' paired difference on the adversarial
  and the answerable half, exactly the numbers ``-stats`` prints.
* :func:`recorded_claims` and :func:`measured_claims`: claims per status and
  every refuted one, published against measured.
* :func:`spending`: each arm's answerable and overall F1 beside what it cost, from
  a results file (``-json``) or the report's own run: the evidence handed to its
  reader a question (words) and the median seconds of one call.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from .. import claims
from ..bench import experiment as bench
from ..bench.floor import Floors
from ..data import jsonio
from ..data.progress import Progress
from ..data.dataset import ANSWERABLE, CATEGORIES, LOCOMO
from ..judge import measures
from ..judge.figures import on_replies, own
from ..judge.measures import Figure
from ..judge.verdicts import Verdict
from ..score import results as saved
from ..score import stats
from ..score.predictions import Predictions
from ..data.records import record

#: The floors of the trade-off: 0 to 1 in steps of 0.05 (the published sweep's values among them).
FLOORS: tuple[float, ...] = tuple(i / 20 for i in range(21))

#: The rows of the per-category view, categories by number, then answerable and overall:
#: ``(key, label, categories)``.
ROWS: tuple[tuple[str, str, tuple[int, ...]], ...] = (
    *((str(c), f"{c} {CATEGORIES[c]}", (c,)) for c in sorted(LOCOMO)),
    ("answerable", "answerable (1-4)", ANSWERABLE),
    ("overall", "overall", tuple(sorted(LOCOMO))),
)


@record
class Point:
    """One arm at one floor: share of all questions declined, answerable F1, adversarial F1."""

    arm: str
    floor: float
    quiet: float
    answerable: float
    adversarial: float


@record
class Estimate:
    """One arm's mean F1 over one row's questions, with its 95% bootstrap interval; for a file that carries
    its own judge's verdicts (``<arm>_judge``), ``judge`` is the share true over the row's questions that have
    one (None: no verdict in the row)."""

    arm: str
    row: str
    label: str
    n: int
    point: float
    low: float
    high: float
    judge: float | None = None
    j: Figure | None = None


@record
class Agreement:
    """One arm's re-judged verdicts against the file's own: the questions both judged, the share on which they
    agree, and Cohen's kappa (None: nothing to measure)."""

    arm: str
    n: int
    agreement: float | None
    kappa: float | None


@record
class Rejudged:
    """What a judged file of a predictions file's very replies says beside its F1: the judge (name, model),
    the file it was read from (base name and digest), the failed judgements, the judge's leniency over the
    answerable questions (the acceptance of each probe arm it holds, of the wrong ones together and of the
    gold: ``judge.measures.leniency``) and each arm's agreement with the file's own verdicts."""

    judge: str
    model: str
    source: str
    failed: int
    leniency: tuple[tuple[str, Figure], ...]
    agreements: tuple[Agreement, ...]


@record
class Difference:
    """Arm ``one`` minus arm ``two`` on one half (adversarial or answerable), with its 95% bootstrap interval."""

    one: str
    two: str
    half: str
    point: float
    low: float
    high: float


@record
class Spending:
    """One arm of one pass beside its cost: its label (the arm, with the swept value in a sweep), answerable and
    overall F1 (the results file's floats), the words of evidence handed to its reader a question on average
    (None: it named none), and the median wall seconds of one of its calls with their count (None: no call
    measured)."""

    label: str
    answerable: float
    overall: float
    words: float | None
    p50: float | None
    calls: int


@record
class ClaimRow:
    """A claim that is not simply reproduced: published against measured, and why."""

    id: str
    status: str
    published: str
    measured: str
    why: str
    holds: bool


@record
class Claims:
    """The reproduction at a glance: claims per status (in ``claims.STATUSES`` order) and the refuted ones.

    ``measured`` tells whether the values were measured now (``verdict``) or
    read as claims.yaml records them; ``failing`` names the claims whose
    measurement disagrees with their entry (only known when measured).
    """

    measured: bool
    counts: tuple[tuple[str, int], ...]
    refuted: tuple[ClaimRow, ...]
    failing: tuple[str, ...] = ()

    def groups(self) -> list[tuple[str, str, tuple[ClaimRow, ...]]]:
        """The refuted claims grouped by status and reason, ``(status, why, rows)``, in the order each group
        first appears: claims refuted for one reason are one row of the page."""
        out: dict[tuple[str, str], list[ClaimRow]] = {}
        for r in self.refuted:
            out.setdefault((r.status, r.why), []).append(r)
        return [(status, why, tuple(rows)) for (status, why), rows in out.items()]


def tradeoff(run: dict[str, list[bench.Record]], floors: Sequence[float] = FLOORS,
             progress: TextIO | None = None) -> list[Point]:
    """Every arm at every floor, from its records at floor 0 (``run``; other settings as the run's): what
    ``-sweep floor`` prints, on a finer grid.

    One run at floor 0 gives every floor (``bench.floor``: a record under the
    floor is declined and graded as declined).  The rows at the published
    floors equal ``-sweep floor``'s (tested).
    """
    out: list[Point] = []
    each = Floors(run)
    with Progress("report: floors", len(floors), progress) as shown:  # a bar on a terminal, else a line a 10 s
        for floor in floors:
            at = each.at(floor)
            for arm in sorted(at):
                t = bench.Tally(at[arm])
                out.append(Point(arm, float(floor), t.quiet_share(), t.mean(ANSWERABLE), t.mean((stats.ADVERSARIAL,))))
            shown.advance()
    return out


def categories(predictions: Predictions, judged: Mapping[str, Sequence[int | None]] | None = None,
               made: Sequence[Verdict] | None = None) -> list[Estimate]:
    """Every arm's F1 per row of :data:`ROWS` with its exact bootstrap interval over conversations; rows
    without a question are left out.  ``judged``: each arm's own judge verdict per question, in file order
    (``score.figures.verdicts`` of a file; None for a run of the kit, which has no judge).  ``made``: a judged
    file's verdicts, whose J over the file's very replies (``judge.measures.j``: its questions with a verdict,
    its interval) each row carries."""
    stats.bootstrappable(predictions)
    marks = stats.grades(predictions)
    per = Counter(q.category for q in predictions.questions)
    mine = on_replies(predictions, made) if made is not None else None
    out = []
    for arm in predictions.arms:
        again = None if mine is None else [v for v in mine if v.arm == arm]
        for key, label, kinds in ROWS:
            n = sum(per[k] for k in kinds)
            if n:
                point, low, high = stats.pooled(predictions, marks[arm], kinds)
                out.append(Estimate(arm, key, label, n, point, low, high, _judge(predictions, judged, arm, kinds),
                                    None if again is None else measures.j(again, kinds)))
    return out


def rejudged(predictions: Predictions, made: Sequence[Verdict], source: str) -> Rejudged:
    """What the judged file ``source`` (its verdicts ``made``) says of a predictions file beside its F1: see
    :class:`Rejudged`; the probes are those about the file's questions."""
    mine = on_replies(predictions, made)
    asked = {(q.sample, q.index) for q in predictions.questions}
    probes: dict[str, list[Verdict]] = {}
    for v in made:
        if measures.is_probe(v.arm) and (v.sample_id, v.qa) in asked:
            probes.setdefault(v.arm, []).append(v)
    agreements = []
    for arm in predictions.arms:
        again, theirs = [v for v in mine if v.arm == arm], own(predictions, arm)
        said = measures.agreement(again, theirs, ROWS[-1][2])
        kappa = measures.cohen_kappa(again, theirs, ROWS[-1][2])
        agreements.append(Agreement(arm, said.n, said.value, kappa.value))
    first = next(iter(mine), None)
    return Rejudged(first.judge if first else "", first.model if first else "", source, measures.failed(mine),
                    tuple(measures.leniency(probes, ANSWERABLE).items()), tuple(agreements))


def _judge(predictions: Predictions, judged: Mapping[str, Sequence[int | None]] | None, arm: str,
           kinds: Sequence[int]) -> float | None:
    """The share of the arm's own verdicts that are true over the questions of ``kinds`` that have one."""
    if judged is None:
        return None
    got = [j for q, j in zip(predictions.questions, judged[arm]) if q.category in kinds and j is not None]
    return math.fsum(got) / len(got) if got else None


def differences(predictions: Predictions) -> list[Difference]:
    """Every pair of arms in name order, each half the file has questions of: the paired differences
    ``-stats`` prints (a half without a question, such as the adversarial one of a file without category 5,
    is left out rather than shown as NaN)."""
    stats.bootstrappable(predictions)
    marks = stats.grades(predictions)
    arms = predictions.arms
    present = {q.category for q in predictions.questions}
    halves = [(half, kinds) for half, kinds in stats.HALVES if present.intersection(kinds)]
    out = []
    for i, one in enumerate(arms):
        for two in arms[i + 1 :]:
            diff = [a - b for a, b in zip(marks[one], marks[two])]
            for half, kinds in halves:
                out.append(Difference(one, two, half, *stats.pooled(predictions, diff, kinds)))
    return out


def spending(results: saved.Results) -> list[Spending]:
    """Every arm of every pass of a run's results, in the file's order, beside what it cost: F1 from its
    ``answerable`` and ``overall`` rows, words from its ``evidence``, the median call from its ``cost``
    (``Results.cost``: a swept plug-in's variant its own), each exactly the file's float; an arm whose cost
    was not measured (a version 1 file) has neither words nor a median."""
    out = []
    for at, p in enumerate(results.passes):
        for arm, a in p.arms.items():
            label = arm if p.sweep is None else f"{arm} {p.sweep[0]}={p.sweep[1]:g}"
            spent = results.cost(at, arm)
            out.append(Spending(label, a.rows["answerable"].f1, a.rows["overall"].f1,
                                None if a.evidence is None else a.evidence.words,
                                None if spent is None else spent.p50, 0 if spent is None else spent.calls))
    return out


def _one_line(text: Any) -> str:
    """A recorded value or reason on one line (a recorded flag as the claims print it: true, false)."""
    if isinstance(text, bool):
        return str(text).lower()
    return " ".join(str("" if text is None else text).split())


def recorded_claims(manifest: Any) -> Claims:
    """Claims per status and every refuted one as claims.yaml records them (the claims tests check each record)."""
    counts = Counter(c.status for c in manifest.claims)
    rows = tuple(
        ClaimRow(c.id, c.status, c.published, _one_line(c.measured), _one_line(c.reason), True)
        for c in manifest.claims
        if c.status in claims.REFUTING
    )
    return Claims(False, tuple((s, counts.get(s, 0)) for s in claims.STATUSES), rows)


class VerdictsError(ValueError):
    """A verdicts file that is not what ``locomo-repro claims --json`` writes for this manifest (one line)."""


def read_verdicts(source: str | jsonio.Source, manifest: Any) -> Claims:
    """Claims per status and every refuted one from a verdicts file of ``locomo-repro claims --json``.

    The file must hold exactly one verdict per claim of ``manifest``, with the
    manifest's status: verdicts of another manifest are refused, not shown.
    """
    try:
        if isinstance(source, str):
            source = jsonio.read(source)
        path = source.name
        data = jsonio.loads(source)
    except jsonio.InputError as err:
        raise VerdictsError(str(err)) from None
    rows = data.get("verdicts") if isinstance(data, dict) else None
    keys = {"id": str, "status": str, "published": str, "measured": str, "ok": bool, "reason": str}
    if not isinstance(rows, list) or not all(
        isinstance(r, dict) and all(isinstance(r.get(k), t) for k, t in keys.items()) for r in rows
    ):
        raise VerdictsError(f"{path}: not a verdicts file of locomo-repro claims --json")
    statuses = {c.id: c.status for c in manifest.claims}
    got = {r["id"]: r for r in rows}
    if len(got) != len(rows) or set(got) != set(statuses):
        raise VerdictsError(f"{path}: its claims are not the manifest's ({len(got)} verdicts for {len(statuses)} claims)")
    moved = next((i for i, r in got.items() if r["status"] != statuses[i]), None)
    if moved is not None:
        raise VerdictsError(f"{path}: {moved} is {got[moved]['status']}, the manifest says {statuses[moved]}")
    ordered = [got[c.id] for c in manifest.claims]
    counts = Counter(r["status"] for r in ordered)
    refuted = tuple(
        ClaimRow(r["id"], r["status"], r["published"], r["measured"], r["reason"], r["ok"])
        for r in ordered
        if r["status"] in claims.REFUTING
    )
    failing = tuple(r["id"] for r in ordered if not r["ok"])
    return Claims(True, tuple((s, counts.get(s, 0)) for s in claims.STATUSES), refuted, failing)


def measured_claims(manifest: Any, lab: claims.Lab, progress: TextIO | None) -> Claims:
    """Every claim measured now, as ``locomo-repro claims`` measures it (``claims.measured``), by
    ``lab`` (the report's own, so the builds it made already serve the claims too): a minute or so;
    ``progress`` is told how far (``data.progress``)."""
    if progress is None:
        verdicts = claims.measured(manifest, lab.samples, lab.data_path, None, lab)
    else:
        with Progress("claims", len(manifest.claims), progress, verb="measured") as shown:
            verdicts = claims.measured(manifest, lab.samples, lab.data_path, shown, lab)
    counts = Counter(v.claim.status for v in verdicts)
    rows = tuple(
        ClaimRow(v.claim.id, v.claim.status, v.claim.published, v.shown, _one_line(v.claim.reason), v.ok)
        for v in verdicts
        if v.claim.status in claims.REFUTING
    )
    failing = tuple(v.claim.id for v in verdicts if not v.ok)
    return Claims(True, tuple((s, counts.get(s, 0)) for s in claims.STATUSES), rows, failing)
