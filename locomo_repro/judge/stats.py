"""``locomo-repro judge stats FILE…``: what the verdicts of judged files measure, as one table; no endpoint.

Every file is read by :mod:`.files` (any shape it knows) and measured by :mod:`.measures`.  One row per
file, arm, figure and row of questions (each category, answerable 1-4, overall 1-5), with ``n`` the
questions measured, ``failed`` the failed judgements left out, the value and, where taken, its exact 95%
bootstrap interval over conversations.  The figures, per arm:

* ``J``; with repeats, ``J repeat <r>`` (from 1), ``majority``, ``unanimous``, ``any``, ``flip rate``,
  ``fleiss kappa``;
* ``f1 auc``, ``J at f1=0``, ``J at f1=1`` (the official F1 of the same replies);
* with ``--wrong KEY`` (an answer key the file's replies were written to be wrong against, as locomo-audit's
  ap-baseline), ``leniency``: the J of the replies known wrong;
* of the probe arms (``probe.wrong-gold``, ``probe.restated``, ``probe.empty``, ``probe.gold``),
  ``acceptance`` of each, of the wrong ones together (arm ``probes.wrong``) and ``sensitivity`` (the gold);
* for every file after the first, per arm it shares with the first (or its one arm against the first's
  one): ``agreement``, ``cohen kappa`` and ``J difference`` (this file's J minus the first's, paired);
* with ``--key audited`` (locomo-audit's corrections, ``score.key``): the verdicts on the questions it holds
  apart (ambiguous) left out of every figure, and per arm ``J wrong gold``, the J of the questions whose gold
  it corrects, and ``J share wrong gold``, the share of the arm's J that comes from them.

Notes on stderr say how many judgements failed and why, and which aggregation gives each figure a file
states of itself (locomo-audit's ``correct`` and ``accuracy``).  Bad input is one line, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache, partial

from ..data.dataset import DatasetError, Sample, load
from ..go import flags
from ..data.audit import AMBIGUOUS, AuditError
from ..score import key as answer_key
from ..score.compare import FORMATS, labels, tabulated
from ..score.signature import KIT, PREFIX, Signature
from . import measures as m
from .files import Judged, cause, read, read_key
from .verdicts import JudgedError, Verdict
from ..data.records import record

PROG = "locomo-repro judge stats"

#: The table's fields, in order (``--format json`` gives them as keys).
FIELDS = ("file", "arm", "figure", "row", "n", "failed", "value", "low", "high")

#: ``--format json``'s schema and version.
SCHEMA = "locomo-repro/judge-stats"
VERSION = 1

Row = dict[str, object]

#: How the notes name the figures of repeats a file's own figure may be.
AGGREGATIONS = {"J": "mean of its repeats (J)", "majority": "majority of its repeats",
                "unanimous": "unanimous repeats", "any": "any of its repeats"}


def _row(label: str, arm: str, figure: str, row: str, got: m.Figure) -> Row:
    return {"file": label, "arm": arm, "figure": figure, "row": row, "n": got.n, "failed": got.failed,
            "value": got.value, "low": got.low, "high": got.high}


def _arms(verdicts: Sequence[Verdict]) -> dict[str, list[Verdict]]:
    out: dict[str, list[Verdict]] = {}
    for v in verdicts:
        out.setdefault(v.arm, []).append(v)
    return out


def _shown(got: m.Figure) -> bool:
    return bool(got.n or got.failed)


@dataclass(frozen=True)
class Audited:
    """What an answer key says of the verdicts' questions (conversation id, index): those it holds apart
    (ambiguous) and those whose gold it corrects."""

    held: frozenset[tuple[str, int]] = frozenset()
    wrong: frozenset[tuple[str, int]] = frozenset()


def audited(key: answer_key.Key, samples: Sequence[Sample]) -> Audited:
    """The questions of the dataset ``samples`` the key holds apart and those whose gold it corrects (the
    score-corrupting errors but the ambiguous ones; a citation-only error leaves the gold right)."""
    ids = [s.id for s in samples]
    held = {(ids[at], qa) for (at, qa), e in key.errors.items() if at < len(ids) and e.type == AMBIGUOUS}
    wrong = {(ids[at], qa) for (at, qa), e in key.errors.items()
             if at < len(ids) and e.corrupting and e.type != AMBIGUOUS}
    return Audited(frozenset(held), frozenset(wrong))


def arm_rows(label: str, arm: str, verdicts: Sequence[Verdict], key: dict[tuple[str, int], str] | None,
             audit: Audited | None = None) -> list[Row]:
    """The figures of one arm of a file, on every row (with ``audit``, those of its questions whose gold is
    wrong)."""
    measured: list[tuple[str, Callable[[Sequence[int]], m.Figure]]] = [("J", lambda k: m.j(verdicts, k))]
    if len({v.repeat for v in verdicts}) > 1:
        measured += [(f"J repeat {r + 1}", partial(m.of_repeat, verdicts, r=r))
                     for r in sorted({v.repeat for v in verdicts})]
        measured += [(rule, partial(m.aggregate, verdicts, rule=rule)) for rule in ("majority", "unanimous", "any")]
        measured += [("flip rate", lambda k: m.flip_rate(verdicts, k)),
                     ("fleiss kappa", lambda k: m.fleiss_kappa(verdicts, k))]
    measured += [("f1 auc", lambda k: m.f1_auc(verdicts, k)),
                 ("J at f1=0", lambda k: m.j_at_f1(verdicts, k, 0.0)),
                 ("J at f1=1", lambda k: m.j_at_f1(verdicts, k, 1.0))]
    if key is not None:
        wrong = m.known_wrong(verdicts, key)
        measured.append(("leniency", lambda k: m.j(wrong, k)))
    if audit is not None:
        corrected = [v for v in verdicts if (v.sample_id, v.qa) in audit.wrong]
        measured += [("J wrong gold", lambda k: m.j(corrected, k)),
                     ("J share wrong gold", lambda k: m.share_from(verdicts, k, set(audit.wrong)))]
    out = []
    for figure, measure in measured:
        for name, kinds in m.rows(verdicts):
            if _shown(got := measure(kinds)):
                out.append(_row(label, arm, figure, name, got))
    return out


def probe_rows(label: str, by_arm: dict[str, list[Verdict]]) -> list[Row]:
    """The leniency of the probe arms a file holds: acceptance of each wrong probe and of the three together,
    sensitivity of the gold."""
    every = [v for arm in (*m.WRONG_PROBES, m.GOLD_PROBE) for v in by_arm.get(arm, ())]
    out = []
    for name, kinds in m.rows(every):
        for arm, got in m.leniency(by_arm, kinds).items():
            if _shown(got):
                out.append(_row(label, arm, "sensitivity" if arm == m.GOLD_PROBE else "acceptance", name, got))
    return out


def pairs(first: dict[str, list[Verdict]], other: dict[str, list[Verdict]]) -> list[tuple[str, str]]:
    """The arms of ``other`` paired with the first file's: by name, else its one arm with the first's one."""
    mine = [a for a in other if not m.is_probe(a)]
    theirs = [a for a in first if not m.is_probe(a)]
    named = [(a, a) for a in mine if a in theirs]
    if named or len(mine) != 1 or len(theirs) != 1:
        return named
    return [(mine[0], theirs[0])]


def same_replies(one: Sequence[Verdict], two: Sequence[Verdict]) -> tuple[list[Verdict], list[Verdict]]:
    """The verdicts of each set on the questions both judged with the same reply."""
    theirs = {(v.sample_id, v.qa): v.reply for v in two}
    mine = {(v.sample_id, v.qa): v.reply for v in one}
    return ([v for v in one if theirs.get((v.sample_id, v.qa)) == v.reply],
            [v for v in two if mine.get((v.sample_id, v.qa)) == v.reply])


def paired_rows(label: str, first_label: str, first: dict[str, list[Verdict]],
                other: dict[str, list[Verdict]]) -> list[Row]:
    """Agreement, Cohen's kappa and the paired J difference of each arm of a file with the first file's, over
    the questions both judged with the same reply (none: no row)."""
    out = []
    for arm, base in pairs(first, other):
        shown = f"{arm} vs {first_label} {base}"
        one, two = same_replies(other[arm], first[base])
        for figure, measure in (("agreement", m.agreement), ("cohen kappa", m.cohen_kappa),
                                ("J difference", m.difference)):
            for name, kinds in m.rows([*one, *two]):
                if (got := measure(one, two, kinds)).n:
                    out.append(_row(label, shown, figure, name, got))
    return out


def failure_note(judged: Judged) -> str | None:
    """How many of a file's judgements failed, and why; None when none did."""
    lost = [v for v in judged.verdicts if v.failed]
    if not lost:
        return None
    why = ", ".join(f"{n:,} {c}" for c, n in Counter(cause(v) for v in lost).most_common())
    return (f"{judged.path}: {len(lost):,} of {len(judged.verdicts):,} judgements failed ({why}); they are "
            f"left out of every figure, never counted correct")


def stated_notes(judged: Judged, table: Sequence[Row]) -> list[str]:
    """Which aggregation of the file's verdicts gives each figure the file states of itself: a share equal to
    the figure's value (to 1e-9), a count equal to its value times n, rounded."""
    mine = [r for r in table if r["row"] == "overall" and r["file"] == table[0]["file"] and r["value"] is not None]
    out = []
    for name, said in judged.stated.items():
        if name == "total_questions":
            continue
        shown = f"{said:g}" if said > 1 else f"{said:.6f}"
        if said > 1:
            found = [r for r in mine if isinstance(r["value"], float) and isinstance(r["n"], int)
                     and round(r["value"] * r["n"]) == said]
        else:
            found = [r for r in mine if isinstance(r["value"], float) and abs(r["value"] - said) <= 1e-9]
        which = "; ".join(f"{AGGREGATIONS.get(str(r['figure']), r['figure'])} {r['value']:.6f} of {r['n']:,}"
                          for r in found if r["figure"] != "leniency")
        out.append(f"{judged.path}: states {name} {shown}: " + (f"the {which}" if which else "no aggregation gives it"))
    return out


def signature(judged: Judged, key: answer_key.Key | None = None) -> Signature:
    """The signature of a file's figures: its bytes' digest, the shape it was read as, the kit's measures, and
    an answer key other than the official."""
    return Signature((("judged", judged.sha256[:PREFIX]), ("shape", judged.shape), ("scorer", KIT),
                      *(key.signed() if key is not None else ())))


def parser() -> argparse.ArgumentParser:
    """This command's flags (the docs' commands are parsed with it)."""
    p = flags.Parser(prog=PROG, description="What the verdicts of judged files measure: J per category with both "
                                            "denominators and exact bootstrap intervals, repeats, agreement, "
                                            "the official F1 beside, leniency.")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="a judged file (the kit's, mem0's harness, zep-papers', Backboard's folder, locomo-audit's "
                        "eval_results.json, LoCoMo-Plus's judged*.json, Refined's judge output)")
    p.add_argument("-format", "--format", choices=FORMATS, default=FORMATS[0],
                   help="markdown (the default, figures to three places), csv or json (exact), or latex")
    p.add_argument("-wrong", "--wrong", metavar="KEY",
                   help="an answer key the files' replies were written to be wrong against (locomo-audit's "
                        "ap-baseline answer_key.json): their leniency")
    p.add_argument("-data", "--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    answer_key.flag(p)
    return p


@record
class Measured:
    """The table of judged files: each file's path, shape and signature, the notes, the rows."""

    files: list[dict[str, str]]
    notes: list[str]
    rows: list[Row]

    def head(self) -> dict[str, object]:
        """What ``--format json`` gives before the rows (schema ``locomo-repro/judge-stats``)."""
        return {"schema": SCHEMA, "version": VERSION, "files": self.files, "notes": self.notes}

    def document(self) -> dict[str, object]:
        """The table as ``--format json`` gives it."""
        return {**self.head(), "rows": self.rows}


def measured(paths: Sequence[str], wrong: str | None = None, data: str | None = None,
             key: str = answer_key.OFFICIAL) -> Measured:
    """What the verdicts of the judged files at ``paths`` measure, the table ``judge stats`` prints;
    ``wrong`` an answer key the replies were written to be wrong against, ``data`` the dataset the files
    without question ids are matched to, ``key`` the answer key graded under (``-key``).  Raises
    ``JudgedError``, ``DatasetError``, ``AuditError`` or ``UsageError`` (one line) for bad input."""

    @lru_cache(maxsize=1)
    def dataset() -> tuple[Sample, ...]:
        return tuple(load(data))

    read_files = [read(path, dataset) for path in paths]
    wrong_key = read_key(wrong, dataset()) if wrong else None
    graded = answer_key.load(key)
    audit = None if graded.official else audited(graded, graded.samples(list(dataset())))
    names = labels(paths)
    table: list[Row] = []
    notes: list[str] = []
    first = _arms(read_files[0].verdicts)
    if audit is not None:
        kept = []
        for judged in read_files:
            out = [v for v in judged.verdicts if (v.sample_id, v.qa) not in audit.held]
            if apart := len(judged.verdicts) - len(out):
                asked = len({(v.sample_id, v.qa) for v in judged.verdicts} & audit.held)
                notes.append(f"{judged.path}: {apart:,} verdicts on {asked:,} ambiguous questions held apart (the "
                             f"audited key leaves their answer open)")
            kept.append(replace(judged, verdicts=tuple(out)))
        read_files = kept
        first = _arms(read_files[0].verdicts)
    for judged, label in zip(read_files, names):
        by_arm = _arms(judged.verdicts)
        mine: list[Row] = []
        for arm, verdicts in by_arm.items():
            if not m.is_probe(arm):
                mine += arm_rows(label, arm, verdicts, wrong_key, audit)
        mine += probe_rows(label, by_arm)
        if judged is not read_files[0]:
            mine += paired_rows(label, names[0], first, by_arm)
        if note := failure_note(judged):
            notes.append(note)
        notes += stated_notes(judged, mine) if mine else []
        table += mine
    return Measured([{"path": j.path, "shape": j.shape, "signature": str(signature(j, graded))} for j in read_files],
                    notes, table)


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro judge stats FILE…``: the table on stdout, notes on stderr; bad input one line, exit 2."""
    try:
        args = parser().parse_args(argv)
        got = measured(args.files, args.wrong, args.data, args.key)
    except (flags.UsageError, JudgedError, DatasetError, AuditError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    sys.stdout.write(tabulated(got.rows, FIELDS, args.format, got.head(), signed=(),
                               left=("file", "arm", "figure", "row")))
    for line in got.notes:
        print(f"note: {line}", file=sys.stderr)
    for each in got.files:
        print(f"signature: {each['signature']}", file=sys.stderr)
    return 0
