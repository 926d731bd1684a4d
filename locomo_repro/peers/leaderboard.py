"""Every public LoCoMo answer file, like with like, in one table: ``locomo-repro leaderboard [FILE…]``.

One row per system and run: every system of ``peers.yaml`` (its file from ``LOCOMO_PEERS``, else the cache
``peers fetch`` fills, fetched at its pinned commit when missing), every file named (a predictions file in the
official shape, each arm a row; a results file, each pass and arm a row; a judged file of any shape
``judge.files`` reads, each arm a row) and the kit's own arms (``--arms``, by default ``main,bm25``: vector,
graph, graph+edge, oracle and the BM25 baseline, run through ``bench.stream`` at the default settings).  Each
row is scored like every other, whatever its file's own harness said:

* ``f1``: the official F1 over the answerable questions (categories 1-4, which every system answers), with its
  exact 95% percentile bootstrap interval over conversations (``score.stats``); the rows are ranked by it;
* ``adversarial_f1`` (category 5, where the file answers it) and ``overall_f1`` (with its interval), as
  ``official --kit --json`` gives them; ``recall``, the official evidence recall over every question, where
  the file gives turn ids;
* ``diff``: the row's answerable F1 minus the next row's, paired question by question (by the dataset's
  question: sample and text, ``score.key.found``) and pooled per conversation, with its exact bootstrap
  interval (a results file keeps only each conversation's sums: it pairs with a row over the same questions
  per conversation); ``tied`` when that interval holds 0, and tied rows form one group;
* ``rank_low``, ``rank_high``: the 2.5% and 97.5% quantiles of the row's rank (1 + the rows whose F1 is
  above its own) over the same exact resamples of conversations, weighted by their multinomial counts;
* ``j``, ``j_overall``, ``j_failed``: the file's own judge, J over the answerable and over every question
  (``judge.measures.j``: both denominators), its failed judgements apart; ``rejudged``: J by the one judge of
  a ``--judged`` file, over the questions it judged with the row's very reply; ``audited_f1`` (``-key
  audited``): the answerable F1 of the same replies against locomo-audit's corrected key (``score.key``);
* ``headline``, ``published``, ``kit``, ``verdict``: for a ``peers.yaml`` system, its published headline
  cell (the Overall of its README's table), what the kit measures for that cell under the system's own rules
  (``manifest.printed``) and the verdict ``peers check`` gives it;
* ``answer_model``, ``answer_prompt``, ``judge_model``, ``judge_prompt``, ``retrieval``: the row's disclosure
  as far as its file says (``unknown`` otherwise);
* ``missing``: why a row has no figures (its file cannot be had): listed, never dropped.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NoReturn

import numpy as np

from ..data.dataset import ANSWERABLE, Sample
from ..data.progress import Progress
from ..go import flags
from ..judge import measures
from ..judge.files import Judged
from ..judge.files import kind as judged_kind
from ..judge.files import read as read_judged
from ..judge import stats as judge_stats
from ..judge.verdicts import JudgedError, Verdict
from ..score import convert, official, results, signature, stats
from ..score.signature import Signature
from ..score import key as answer_key
from ..score.compare import FORMATS, tabulated
from ..score.figures import figures
from ..score.formats import PeersError, Reply, Source
from ..score.formats import read as read_format
from ..score.predictions import Predictions, parse
from . import fetch, manifest, plus, sources

#: The row the table is ranked by (every system answers it), and the others shown.
RANKED = "answerable"
ADVERSARIAL = (stats.ADVERSARIAL,)
EVERY = (*ANSWERABLE, stats.ADVERSARIAL)

#: A disclosure not said by the file.
UNKNOWN = "unknown"

#: The output's fields, in order (``--format json`` gives them as keys).
FIELDS = ("place", "name", "source", "n", "f1", "low", "high", "rank_low", "rank_high", "diff", "diff_low",
          "diff_high", "tied", "adversarial_n", "adversarial_f1", "overall_n", "overall_f1", "overall_low",
          "overall_high", "recall", "j", "j_overall", "j_failed", "rejudged", "rejudged_n", "rejudged_failed",
          "audited_f1", "headline", "published", "kit", "verdict", "answer_model", "answer_prompt", "judge_model",
          "judge_prompt", "retrieval", "missing")

#: ``--format json``'s schema and version.
SCHEMA = "locomo-repro/leaderboard"
VERSION = 1

Question = tuple[str, int]  # (sample id, question position) in the dataset


@dataclass(frozen=True)
class Disclosure:
    """What a row's file (or the kit) says of how its replies and verdicts were made."""

    answer_model: str = UNKNOWN
    answer_prompt: str = UNKNOWN
    judge_model: str = UNKNOWN
    judge_prompt: str = UNKNOWN
    retrieval: str = UNKNOWN


@dataclass(frozen=True)
class Entry:
    """One row's replies before scoring: a predictions file's arm (with its file's own judge verdicts where
    read), a results file's pass and arm, or a file that could not be had (``missing``)."""

    name: str
    source: str
    arm: str = ""
    predictions: Predictions | None = None
    results: results.Arm | None = None
    conversations: tuple[str, ...] = ()
    verdicts: tuple[Verdict, ...] = ()
    disclosure: Disclosure = Disclosure()
    system: str = ""
    missing: str = ""
    signature: Signature | None = None  # what its figures are a function of: its file's digest, or the kit's run


@dataclass
class Row:
    """One row of the table: its figures (None: not measured), with what pairs it with another row."""

    name: str
    source: str
    arm: str = ""
    n: int = 0
    f1: float | None = None
    low: float | None = None
    high: float | None = None
    adversarial_n: int = 0
    adversarial_f1: float | None = None
    overall_n: int = 0
    overall_f1: float | None = None
    overall_low: float | None = None
    overall_high: float | None = None
    recall: float | None = None
    j: measures.Figure | None = None
    j_overall: measures.Figure | None = None
    rejudged: measures.Figure | None = None
    audited_f1: float | None = None
    headline: str = ""
    published: str = ""
    kit: str = ""
    verdict: str = ""
    disclosure: Disclosure = Disclosure()
    missing: str = ""
    signature: Signature | None = None
    marks: dict[Question, float] | None = None  # the answerable grades by question (None: a results file)
    replies: dict[Question, str] = field(default_factory=dict)
    sums: dict[str, tuple[int, float]] = field(default_factory=dict)  # answerable (n, Σ grade) per conversation


@dataclass(frozen=True)
class Placed:
    """A row in the table's order with what the table says about it beside its own figures."""

    row: Row
    place: int
    rank_low: int | None = None
    rank_high: int | None = None
    diff: float | None = None
    diff_low: float | None = None
    diff_high: float | None = None
    tied: bool = False
    group: int = 0


class LeaderboardError(Exception):
    """An input the leaderboard cannot use; the message is one line."""


# --- the rows' sources ----------------------------------------------------------------------------------------


def _parsed(matched: Sequence[convert.Matched], samples: Sequence[Sample], name: str) -> Predictions:
    """Matched replies as a predictions file in the official shape (``convert.predictions``), read back."""
    return parse(convert.predictions(matched, samples), name)


def peers(peers_manifest: manifest.Manifest, root: Path | None, samples: Sequence[Sample],
          why: str = "") -> list[Entry]:
    """Every system of ``peers.yaml``, its file from ``root`` (None: not to be had, ``why``), imported by the
    importer's rules, with its own judge's verdicts (``judge.files``)."""
    out = []
    for name, (format, path) in peers_manifest.systems.items():
        if root is None:
            out.append(Entry(name, "peers.yaml", name, system=name, missing=why))
            continue
        spec = str(root / path)
        try:
            matched = convert.match(name, read_format(name, spec, format), samples)
        except (PeersError, OSError, ValueError) as err:
            out.append(Entry(name, "peers.yaml", name, system=name, missing=" ".join(str(err).split())))
            continue
        try:  # its own judge, where its shape has one (an official-shape file has none)
            judged = read_judged(spec, lambda: samples)
            verdicts, signed = judged.verdicts, judge_stats.signature(judged)
        except JudgedError:
            verdicts, signed = (), signature.Signature((("peer", format), ("scorer", signature.KIT)))
        out.append(Entry(name, "peers.yaml", name, _parsed([matched], samples, name), verdicts=verdicts,
                         disclosure=_judged_disclosure(verdicts), system=name, signature=signed))
    return out


#: The other publications' judged runs, each a row (``sources``: pinned, fetched into the cache unless their
#: variable names a copy), with the name a missing one is listed by: locomo-audit's four full-context runs and
#: LoCoMo-Plus's judged run.
RUNS: tuple[tuple[sources.Publication, str, str], ...] = (
    *((sources.AUDIT, f"fc-baseline/results/{run}/eval_results.json", run)
      for run in ("gpt-4o-mini-memos", "gpt-4o-mini-cot", "gpt-4.1-mini-memos", "gpt-4.1-mini-cot")),
    (sources.PLUS, plus.JUDGED_V2, "judged_v2"),
)


def runs(samples: Sequence[Sample]) -> list[Entry]:
    """Each of :data:`RUNS` as rows (``load_file``: each arm of the judged file), its source the publication; a
    run not at hand (not in its variable's folder, not fetched) a missing row naming it."""
    out: list[Entry] = []
    for publication, local, shown in RUNS:
        try:
            path = sources.locate(publication, local)
        except sources.Missing as err:
            out.append(Entry(f"{publication.name} {shown}", publication.name, missing=str(err)))
            continue
        out += [replace(e, source=publication.name) for e in load_file(str(path), publication.name, samples)]
    return out


def peers_root() -> tuple[Path | None, str]:
    """The peers' files: ``LOCOMO_PEERS`` as given, else the cache, fetched at the pinned commits when a file
    is missing; (None, why) when they cannot be had."""
    if os.environ.get(fetch.ENV):
        return fetch.root(), ""
    try:
        return fetch.fetch(), ""
    except (PeersError, OSError) as err:
        return None, " ".join(str(err).split())


def _judged_disclosure(verdicts: Sequence[Verdict]) -> Disclosure:
    """The judge a file's verdicts name (its model, its prompt's digest), ``unknown`` where none says."""
    def said(values: set[str]) -> str:
        values.discard("")
        return ", ".join(sorted(values)) or UNKNOWN
    return Disclosure(judge_model=said({v.model for v in verdicts}),
                      judge_prompt=said({v.prompt_sha256[:8] for v in verdicts}))


def stated(data: object) -> dict[str, str]:
    """What a judged file says of its run beside its verdicts: locomo-audit's (EverMemOS's) ``metadata``
    ``answer_model``, ``answer_prompt`` and ``judge_model``, where they are strings."""
    meta = data.get("metadata") if isinstance(data, dict) else None
    if not isinstance(meta, dict):
        return {}
    return {k: meta[k] for k in ("answer_model", "answer_prompt", "judge_model") if isinstance(meta.get(k), str)}


def of_judged(judged: Judged, label: str, samples: Sequence[Sample], said: dict[str, str] | None = None
              ) -> list[Entry]:
    """Each arm of a judged file as a row: its replies (the first repeat's) on the dataset's questions, and
    its verdicts (with what the file ``said`` of its run, :func:`stated`); a probe arm is no system and no
    row."""
    by_arm: dict[str, list[Verdict]] = {}
    for v in judged.verdicts:
        if not measures.is_probe(v.arm):
            by_arm.setdefault(v.arm, []).append(v)
    where = {s.id: i for i, s in enumerate(samples)}
    out = []
    for arm, verdicts in by_arm.items():
        replies: dict[tuple[int, int], Reply] = {}
        for v in verdicts:
            if v.sample_id in where and (where[v.sample_id], v.qa) not in replies:
                replies[(where[v.sample_id], v.qa)] = Reply(v.sample_id, v.question, v.reply)
        name = f"{label} {arm}"
        if not replies:
            out.append(Entry(name, "file", arm, missing=f"{judged.path}: no reply to a question of the dataset"))
            continue
        matched = convert.Matched(arm, Source(judged.shape, judged.path, tuple(replies.values())), replies, ())
        out.append(Entry(name, "file", arm, _parsed([matched], samples, judged.path), verdicts=tuple(verdicts),
                         disclosure=replace(_judged_disclosure(verdicts), **(said or {})),
                         signature=judge_stats.signature(judged)))
    return out


def of_predictions(got: Predictions, label: str) -> list[Entry]:
    """Each arm of a predictions file as a row, signed by the file's digest and the kit's scorer."""
    signed = signature.predictions(got.path, signature.KIT, sha256=got.sha256)
    return [Entry(f"{label} {arm}", "file", arm, got, signature=signed) for arm in got.arms]


def of_results(got: results.Results, label: str, sha256: str) -> list[Entry]:
    """Each pass and arm of a results file as a row, with the settings its run names, signed by the digest of
    the bytes read (``sha256``): its figures are its own."""
    signed = signature.Signature((("results", sha256[:signature.PREFIX]),))
    settings = got.settings
    model = settings.get("model")
    out = []
    for p in got.passes:
        swept = [] if p.sweep is None else [f"{p.sweep[0]}={p.sweep[1]:g}"]
        told = Disclosure(answer_model=str(model) if model else "none (the kit's extractive reader)",
                          answer_prompt=UNKNOWN if model else "none", judge_model="none", judge_prompt="none",
                          retrieval=" ".join(f"{o}={v:g}" for o, v in p.options.items()))
        for arm, a in p.arms.items():
            out.append(Entry(" ".join([label, *swept, arm]), "file", arm, results=a,
                               conversations=got.conversations, disclosure=told, signature=signed))
    return out


def kit(arm_set: str, samples: Sequence[Sample], jobs: int, data: str) -> list[Entry]:
    """The kit's own arms, ``arm_set`` (an ``-arms`` value) run over ``samples`` (the dataset whose digest is
    ``data``) at the default settings through ``bench.stream``, in one run, each arm a row signed by the run; a
    part of the set that cannot be loaded (bm25 without its library) is a missing row saying why."""
    from ..arms.plugin import PluginError
    from ..bench import experiment, stream
    from ..read.reader import Options

    options = Options()
    told = Disclosure(answer_model="none (the kit's extractive reader)", answer_prompt="none", judge_model="none",
                      judge_prompt="none", retrieval=experiment.header(options))
    out: list[Entry] = []
    parts = []
    for part in arm_set.split(","):
        try:
            experiment.choose(part)
            parts.append(part)
        except (PluginError, ImportError) as err:
            out.append(Entry(f"kit {part}", "kit", part, missing=" ".join(str(err).split())))
    if not parts:
        return out
    records: dict[str, list] = {}
    with Progress(f"leaderboard: -arms {','.join(parts)}", len(samples), verb="asked") as progress:
        for o in stream.outcomes(samples, stream.Settings(options, arm_set=",".join(parts)), jobs=jobs):
            for arm, got in o.records[0].items():
                records.setdefault(arm, []).extend(got)
            progress.advance()
    read = parse(stream.predictions(samples, records), f"kit {arm_set}")
    settings = [(name, getattr(options, name)) for name in ("k", "floor", "span", "band", "parts")]
    signed = signature.run(data, ",".join(parts), settings)
    return [Entry(f"kit {arm}", "kit", arm, read, disclosure=told, signature=signed) for arm in read.arms] + out


# --- scoring a row --------------------------------------------------------------------------------------------


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def measured(src: Entry, samples: Sequence[Sample], audited: answer_key.Key | None,
             keyed: Sequence[Sample]) -> Row:
    """One row's figures (see the module), from a predictions file's arm or a results file's."""
    row = Row(src.name, src.source, src.arm, disclosure=src.disclosure, missing=src.missing,
              signature=src.signature)
    if src.missing:
        return row
    if src.results is not None:
        return _of_results(row, src.results, src.conversations)
    got = src.predictions
    assert got is not None
    one = replace(got, arms=(src.arm,))
    table = official.recorded(one, official.kit_eval_question_answering)[src.arm]
    counts = official.counts(one)
    grades = stats.grades(one)[src.arm]
    row.n, row.adversarial_n, row.overall_n = counts[RANKED], counts["adversarial"], counts["overall"]
    if row.n:
        row.f1 = table[RANKED][0]
        _, row.low, row.high = _bounds(one, grades, ANSWERABLE)
    if row.adversarial_n:
        row.adversarial_f1 = table["adversarial"][0]
    if row.overall_n:
        row.overall_f1 = table["overall"][0]
        _, row.overall_low, row.overall_high = _bounds(one, grades, EVERY)
        if src.arm not in official.blind(one):
            row.recall = _finite(table["overall"][1])
    where = [None if at is None else (samples[at[0]].id, at[1]) for at in answer_key.found(one, samples)]
    row.marks = {at: mark for q, at, mark in zip(one.questions, where, grades)
                 if at is not None and q.category in ANSWERABLE}
    row.replies = {at: q.predictions[src.arm].reply for q, at in zip(one.questions, where) if at is not None}
    for q, mark in zip(one.questions, grades):
        if q.category in ANSWERABLE:
            n, total = row.sums.get(q.sample, (0, 0.0))
            row.sums[q.sample] = (n + 1, total + mark)
    if src.verdicts:
        row.j, row.j_overall = measures.j(src.verdicts, ANSWERABLE), measures.j(src.verdicts, EVERY)
    if audited is not None and row.n:
        regraded, _ = audited.predictions(one, keyed)
        row.audited_f1 = _finite(official.recorded(regraded, official.kit_eval_question_answering)[src.arm][RANKED][0])
    return row


def _bounds(got: Predictions, grades: Sequence[float], kinds: Sequence[int]) -> tuple[float, float | None,
                                                                                     float | None]:
    """``stats.pooled`` of the grades over ``kinds``, without an interval past twelve conversations."""
    if stats.unenumerable(len(got.conversations)):
        return math.nan, None, None
    return stats.pooled(got, grades, kinds)


def _of_results(row: Row, arm: results.Arm, conversations: Sequence[str]) -> Row:
    """A results file's row: its own figures and intervals, and each conversation's sums."""
    ranked, adversarial, overall = arm.rows[RANKED], arm.rows[str(stats.ADVERSARIAL)], arm.rows["overall"]
    row.n, row.adversarial_n, row.overall_n = ranked.n, adversarial.n, overall.n
    if ranked.n:
        row.f1 = ranked.f1
        row.low, row.high = ranked.f1_interval or (None, None)
    if adversarial.n:
        row.adversarial_f1 = adversarial.f1
    if overall.n:
        row.overall_f1, row.recall = overall.f1, overall.recall
        row.overall_low, row.overall_high = overall.f1_interval or (None, None)
    row.sums = {sample: s[RANKED] for sample, s in zip(conversations, (s for _, s in arm.conversations))}
    return row


def rejudge(rows: Sequence[Row], judged: Sequence[Judged]) -> None:
    """Each row's J by the judges of ``--judged`` files: the verdicts on the row's arm whose reply is the row's
    very reply (``judge.measures.j`` over the answerable questions)."""
    every = [v for j in judged for v in j.verdicts]
    for row in rows:
        mine = [v for v in every if v.arm == row.arm and row.replies.get((v.sample_id, v.qa)) == v.reply]
        if mine:
            row.rejudged = measures.j(mine, ANSWERABLE)


def headline(peers_manifest: manifest.Manifest, row: Row, src: Entry) -> None:
    """A ``peers.yaml`` system's headline beside the kit's: the Overall cell of the first published table it
    has a row in (else its first overall cell), the figure its file gives that cell under the system's own
    rules, and the cell's verdict as ``peers check`` gives it."""
    cells = {c.id: c for c in peers_manifest.cells}
    mine = [cells[i] for t in peers_manifest.tables for r in t.rows for i in r.cells if cells[i].system == src.system]
    mine += [c for c in peers_manifest.cells if c.system == src.system]
    cell = next((c for c in mine if c.category == "overall"), None)
    if cell is None or src.predictions is None:
        return
    figures_of = figures(src.predictions, official.kit_eval_question_answering)[src.system]
    row.headline = f"{cell.where} ({cell.metric}{', %' if cell.unit == 'percent' else ''})"
    row.published, row.kit = cell.published, manifest.printed(cell, figures_of)
    row.verdict = cell.status if manifest.agrees(cell, figures_of) else f"{cell.status} [FAILING]"


# --- what can be told apart -----------------------------------------------------------------------------------


def _paired(one: Row, two: Row, conversations: Sequence[str]) -> tuple[list[float], list[float]] | None:
    """Per conversation, the summed differences of ``one``'s answerable grades minus ``two``'s and their count:
    question by question where both rows have their grades, else by each conversation's sums when the two
    rows hold the same number of questions in every conversation; None when they cannot be paired."""
    at = {sample: i for i, sample in enumerate(conversations)}
    diff, size = [0.0] * len(at), [0.0] * len(at)
    if one.marks is not None and two.marks is not None:
        for question, mark in one.marks.items():
            if question in two.marks:
                diff[at[question[0]]] += mark - two.marks[question]
                size[at[question[0]]] += 1
        return (diff, size) if any(size) else None
    if {s: n for s, (n, _) in one.sums.items()} != {s: n for s, (n, _) in two.sums.items()}:
        return None
    for sample, (n, total) in one.sums.items():
        diff[at[sample]] = total - two.sums[sample][1]
        size[at[sample]] = float(n)
    return diff, size


def placed(rows: Sequence[Row], conversations: Sequence[str]) -> list[Placed]:
    """The rows in the table's order (answerable F1, highest first; rows without one, then missing ones, after),
    with rank intervals, adjacent differences and tie groups over the exact resamples of ``conversations``."""
    scored = sorted((r for r in rows if r.f1 is not None), key=lambda r: (-(r.f1 or 0.0), r.name))
    rest = [r for r in rows if r.f1 is None and not r.missing] + [r for r in rows if r.missing]
    ranks = rank_intervals(scored, conversations)
    out: list[Placed] = []
    group = 1
    for i, row in enumerate(scored):
        diff = low = high = None
        if i + 1 < len(scored) and not stats.unenumerable(len(conversations)):
            pair = _paired(row, scored[i + 1], conversations)
            if pair is not None:
                diff, low, high = stats.interval(*pair)
        tied = low is not None and high is not None and low <= 0 <= high
        out.append(Placed(row, i + 1, *ranks[i], diff, low, high, tied, group))
        if not tied:
            group += 1
    return out + [Placed(row, 0) for row in rest]


def _totals(row: Row, conversations: Sequence[str]) -> tuple[list[float], list[float]]:
    """Each conversation's answerable Σ grade and count for the row (0 where it has none)."""
    return ([row.sums.get(s, (0, 0.0))[1] for s in conversations],
            [float(row.sums.get(s, (0, 0.0))[0]) for s in conversations])


def rank_intervals(rows: Sequence[Row], conversations: Sequence[str]) -> list[tuple[int | None, int | None]]:
    """Each row's rank interval: the 2.5% and 97.5% weighted quantiles (``stats.quantiles``) of its rank, 1 + the
    rows whose answerable F1 in the resample is above its own, over every resample of ``conversations``
    (``stats.resampled``, each weighted by its multinomial count); a resample where the row has no question
    leaves it out.  None past twelve conversations."""
    if not rows or stats.unenumerable(len(conversations)):
        return [(None, None)] * len(rows)
    resampled = [stats.resampled(*_totals(row, conversations)) for row in rows]
    values = np.vstack([r[0] for r in resampled])
    weights = resampled[0][1]
    out: list[tuple[int | None, int | None]] = []
    for i in range(len(rows)):
        rank = 1.0 + np.sum(values > values[i], axis=0)
        kept = ~np.isnan(values[i])
        low, high = stats.quantiles(rank[kept], weights[kept], (stats.TAIL, 1 - stats.TAIL))
        out.append((int(low), int(high)) if kept.any() else (None, None))
    return out


# --- the table ------------------------------------------------------------------------------------------------


def record(p: Placed) -> dict[str, object]:
    """One row of the table as the output's fields."""
    r = p.row
    d = r.disclosure

    def value(figure: measures.Figure | None) -> float | None:
        return None if figure is None else figure.value

    return {
        "place": p.place or None, "name": r.name, "source": r.source, "n": r.n, "f1": r.f1, "low": r.low,
        "high": r.high, "rank_low": p.rank_low, "rank_high": p.rank_high, "diff": p.diff, "diff_low": p.diff_low,
        "diff_high": p.diff_high, "tied": p.tied, "adversarial_n": r.adversarial_n,
        "adversarial_f1": r.adversarial_f1, "overall_n": r.overall_n, "overall_f1": r.overall_f1,
        "overall_low": r.overall_low, "overall_high": r.overall_high, "recall": r.recall, "j": value(r.j),
        "j_overall": value(r.j_overall), "j_failed": None if r.j_overall is None else r.j_overall.failed,
        "rejudged": value(r.rejudged), "rejudged_n": None if r.rejudged is None else r.rejudged.n,
        "rejudged_failed": None if r.rejudged is None else r.rejudged.failed, "audited_f1": r.audited_f1,
        "headline": r.headline or None, "published": r.published or None, "kit": r.kit or None,
        "verdict": r.verdict or None, "answer_model": d.answer_model, "answer_prompt": d.answer_prompt,
        "judge_model": d.judge_model, "judge_prompt": d.judge_prompt, "retrieval": d.retrieval,
        "missing": r.missing or None,
    }


def _f(value: object, signed: bool = False) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:+.3f}" if signed else f"{value:.3f}"
    return str(value)


def _bracket(table: Sequence[Placed], i: int) -> str:
    """The tie bracket of a row: ``[`` opening a group of tied rows, ``|`` inside it, ``]`` closing it."""
    p = table[i]
    if not p.place:
        return " "
    before = i > 0 and table[i - 1].place and table[i - 1].group == p.group
    after = i + 1 < len(table) and table[i + 1].place and table[i + 1].group == p.group
    return "|" if before and after else "[" if after else "]" if before else " "


def text(table: Sequence[Placed], conversations: int) -> str:
    """The table as text: the figures, then each row's headline and disclosure, then the missing rows."""
    width = max([len("system"), *(len(p.row.name) for p in table if not p.row.missing)])
    head = (f"  {'#':>3}  {'system':<{width}}  {'n':>5}  {'F1 1-4':>6} {'95% interval':>15}  {'rank':>7}  "
            f"{'diff next':>27}  {'adv F1':>6}  {'overall':>7}  {'recall':>6}  {'J 1-4':>6}  {'J all':>6}  "
            f"{'failed':>6}  {'rejudged':>8}  {'audited':>7}")
    lines = [f"answerable F1 (categories 1-4) ranked; exact 95% bootstrap over {conversations} conversations; "
             f"[ ] brackets rows whose adjacent differences hold 0", "", head]
    for i, p in enumerate(table):
        r = p.row
        if r.missing:
            continue
        interval = f"[{_f(r.low)}, {_f(r.high)}]" if r.low is not None else "-"
        rank = f"{p.rank_low}-{p.rank_high}" if p.rank_low is not None and p.rank_high is not None else "-"
        diff = (f"{_f(p.diff, True)} [{_f(p.diff_low, True)}, {_f(p.diff_high, True)}]" if p.diff_low is not None
                else _f(p.diff, True) if p.diff is not None else "-")
        failed = "-" if r.j_overall is None else str(r.j_overall.failed)
        rejudged = "-" if r.rejudged is None else _f(r.rejudged.value)
        lines.append(f"{_bracket(table, i)} {p.place or '-':>3}  {r.name:<{width}}  {r.n:>5}  {_f(r.f1):>6} "
                     f"{interval:>15}  {rank:>7}  {diff:>27}  {_f(r.adversarial_f1):>6}  {_f(r.overall_f1):>7}  "
                     f"{_f(r.recall):>6}  {_f(record(p)['j']):>6}  {_f(record(p)['j_overall']):>6}  {failed:>6}  "
                     f"{rejudged:>8}  {_f(r.audited_f1):>7}")
    lines += ["", "headline and disclosure:"]
    for p in table:
        r, d = p.row, p.row.disclosure
        if r.missing:
            continue
        said = (f"published {r.published}, the kit {r.kit} under the system's own rules: {r.verdict} ({r.headline})"
                if r.published else "no published figure in peers.yaml")
        lines.append(f"  {r.name}: {said}; answer model {d.answer_model}, answer prompt {d.answer_prompt}, judge "
                     f"model {d.judge_model}, judge prompt {d.judge_prompt}, retrieval {d.retrieval}")
    missing = [p.row for p in table if p.row.missing]
    if missing:
        lines += ["", "missing (no file to score):"]
        lines += [f"  {r.name} ({r.source}): {r.missing}" for r in missing]
    return "\n".join(lines) + "\n"


def render(table: Sequence[Placed], fmt: str, conversations: int, head: dict[str, object]) -> str:
    """The table in ``fmt``: ``text`` (the default), or one of ``compare``'s formats."""
    if fmt == "text":
        return text(table, conversations)
    return tabulated([record(p) for p in table], FIELDS, fmt, head,
                     signed=("diff", "diff_low", "diff_high"),
                     left=("name", "source", "headline", "verdict", "answer_model", "answer_prompt", "judge_model",
                           "judge_prompt", "retrieval", "missing"))


def say(text: str) -> None:
    print(f"locomo-repro leaderboard: {text}", file=sys.stderr, flush=True)


# --- the command line -----------------------------------------------------------------------------------------


PROG = "locomo-repro leaderboard"

#: The kit's arms measured by default: the publication's main set and the BM25 baseline.
KIT_ARMS = "main,bm25"


class _Parser(flags.Parser):
    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise LeaderboardError(f"{self.prog}: {message} (see {self.prog} --help)")


def parser() -> argparse.ArgumentParser:
    """This command's flags (the docs' commands are parsed with it)."""
    p = _Parser(prog=PROG, allow_abbrev=False,
                description="Every public LoCoMo answer file, like with like: the official F1 (answerable, "
                            "adversarial, overall), recall, judges, exact bootstrap and rank intervals, ties, "
                            "each system's headline beside the kit's and its disclosure.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="a predictions file (official shape), a results file (-json) or a judged file of any shape "
                        "judge stats reads: each arm a row")
    p.add_argument("-format", "--format", choices=("text", *FORMATS), default="text",
                   help="text (the default), markdown or latex (figures to three places), csv or json (exact)")
    p.add_argument("-arms", "--arms", default=KIT_ARMS, metavar="SET",
                   help=f"the kit's arms measured as rows (an -arms value; default {KIT_ARMS}; none: no kit row)")
    p.add_argument("-no-peers", "--no-peers", dest="no_peers", action="store_true",
                   help="leave out the published files: peers.yaml's systems, locomo-audit's and LoCoMo-Plus's runs")
    p.add_argument("-manifest", "--manifest", metavar="PATH", help="peers.yaml (default: the kit's own)")
    p.add_argument("-judged", "--judged", action="append", default=[], metavar="FILE",
                   help="a judged file of one pinned judge (judge run): its J of every row whose replies it judged")
    answer_key.flag(p)
    p.add_argument("-data", "--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    p.add_argument("-jobs", "--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="worker processes the kit's arms are run in (default: the machine's cores)")
    return p


def load_file(spec: str, label: str, samples: Sequence[Sample]) -> list[Entry]:
    """The rows of one named file, read once: a results file, a predictions file, or a judged file."""
    from ..score.compare import IMPORT
    from ..score.predictions import PredictionsError, decode, source

    data: object = None
    if Path(spec).is_dir() or any(c in spec for c in "*?[") or spec.endswith(".jsonl"):
        read_once: list = []
    else:
        try:
            read_once = [source(spec)]
            data = decode(read_once[0])
        except PredictionsError as err:
            raise LeaderboardError(str(err)) from None
        if results.is_results(data):
            return of_results(results.parse(data, spec), label, read_once[0].sha256)
        if judged_kind(data) is None:
            if isinstance(data, list):
                return of_predictions(parse(data, spec, read_once[0].sha256), label)
            raise LeaderboardError(f"{spec}: neither a results file, predictions in the official shape nor a judged "
                                   f"file; {IMPORT}")
    try:
        return of_judged(read_judged(spec, lambda: samples, read_once), label, samples, stated(data))
    except JudgedError as err:
        raise LeaderboardError(str(err)) from None


def build(args: argparse.Namespace) -> tuple[list[Placed], list[str], list[str]]:
    """The table for parsed arguments, the conversations it is over and its notes (every input read and
    checked before the kit's arms are run)."""
    from ..data.dataset import load, resolve
    from ..score.compare import labels

    samples = load(args.data)
    entries: list[Entry] = []
    for spec, label in zip(args.files, labels(args.files)):
        entries += load_file(spec, label, samples)
    try:
        judged = [read_judged(spec, lambda: samples) for spec in args.judged]
    except JudgedError as err:
        raise LeaderboardError(str(err)) from None
    audited = None if args.key == answer_key.OFFICIAL else answer_key.load(args.key)
    peers_manifest = None
    if not args.no_peers:
        peers_manifest = manifest.load(Path(args.manifest) if args.manifest else manifest.default_path())
        root, why = peers_root()
        say(f"reading the peers' files ({root or why}) and the publications' runs")
        entries = peers(peers_manifest, root, samples, why) + runs(samples) + entries
    if args.arms != "none":
        say(f"running the kit's arms {args.arms} over {len(samples)} conversations")
        entries += kit(args.arms, samples, args.jobs, signature.file_digest(resolve(args.data)))
    if not entries:
        raise LeaderboardError(f"{PROG}: no row: name a FILE, or leave the peers or the kit's arms in")
    return tabulate(entries, samples, peers_manifest, audited, judged)


def tabulate(entries: Sequence[Entry], samples: Sequence[Sample], peers_manifest: manifest.Manifest | None,
             audited: answer_key.Key | None = None, judged: Sequence[Judged] = ()
             ) -> tuple[list[Placed], list[str], list[str]]:
    """The rows of ``entries`` measured (``audited``: with the F1 under that key; ``judged``: re-judged),
    with the headlines of ``peers_manifest``'s systems, placed: the table, the conversations it is over and
    its notes."""
    keyed = audited.samples(samples) if audited is not None else []
    rows = []
    for entry in entries:
        row = measured(entry, samples, audited, keyed)
        if peers_manifest is not None and entry.system and not entry.missing:
            headline(peers_manifest, row, entry)
        rows.append(row)
    rejudge(rows, judged)
    order = {s.id: i for i, s in enumerate(samples)}
    held = {sample for row in rows for sample in row.sums}
    conversations = sorted(held, key=lambda s: (order.get(s, len(order)), s))
    notes = []
    if problem := stats.unenumerable(len(conversations)):
        notes.append(f"{problem}: no intervals, no rank intervals")
    for row in rows:
        if row.sums and len(row.sums) < len(conversations):
            notes.append(f"{row.name}: answers in {len(row.sums)} of the {len(conversations)} conversations: its rank "
                         f"and its differences are over the resamples of them all")
    return placed(rows, conversations), conversations, notes


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro leaderboard [FILE…]``: the table on stdout, progress and notes on stderr; bad input is one
    line on stderr and exit status 2, with nothing on stdout."""
    from ..data.audit import AuditError
    from ..data.dataset import DatasetError
    from ..score.predictions import PredictionsError

    try:
        args = parser().parse_args(argv)
        if args.jobs < 1:
            raise LeaderboardError(f"{PROG}: -jobs must be at least 1, got {args.jobs}")
        table, conversations, notes = build(args)
    except (LeaderboardError, PredictionsError, results.ResultsError, PeersError, AuditError, DatasetError) as err:
        print(err, file=sys.stderr)
        return 2
    extra = (("bootstrap", "exact-95"), *answer_key.load(args.key).signed())
    signed = {p.row.name: str(p.row.signature.plus(*extra)) for p in table if p.row.signature is not None}
    head = {"schema": SCHEMA, "version": VERSION, "conversations": list(conversations), "key": args.key,
            "signatures": signed, "notes": notes}
    sys.stdout.write(render(table, args.format, len(conversations), head))
    for line in notes:
        print(f"note: {line}", file=sys.stderr)
    for sig in dict.fromkeys(signed.values()):
        print(f"signature: {sig}", file=sys.stderr)
    return 0
