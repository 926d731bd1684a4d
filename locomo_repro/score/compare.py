"""``locomo-repro compare A B ...``: runs and systems side by side, with paired differences over conversations.

Each file gives columns: a results file (``-json``, ``score.results``) one per arm (and per swept value), a
predictions file in the official shape (``-out``, ``locomo-repro import``) one per arm.  A column is named
by its file's basename (with ``#<place on the command line>`` where two files share one), the swept
value if any, and the arm.  For every row of the table (each category by its number, then answerable and
overall) and column the output gives ``n``, ``f1`` (mean score), ``recall`` (mean evidence recall, empty
where the column has none) and ``quiet`` (share declined), and for every column but the first, ``diff``:
the column's F1 minus the first column's, question by question and pooled per conversation, with ``low``
and ``high``, its 95% percentile bootstrap interval over conversations (``stats.bootstrap``, the
paired intervals of ``-stats``: exact up to 12 conversations, a seeded Monte Carlo one past that).

A results file's figures are its own (the run's table); a predictions file's are the kit's metric over
it as ``official --kit`` computes them, every reply graded as ``-stats`` grades it.

The files must be over the same questions: results files over the same dataset (sha256), predictions
files with the same sample ids, questions and answers in the same order, and every file with the same
questions per conversation and category.  Files that are not are refused in one line (exit status 2),
as is a file in another system's format (``locomo-repro import`` converts it first).  Results files run
with different settings are compared, and a note on stderr names every setting that differs.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import NamedTuple, NoReturn

from . import key as answer_key, official, results, signature
from .metric import declined
from ..data import jsonio
from ..data.audit import AuditError
from ..data.dataset import DatasetError
from ..go import flags
from .predictions import Predictions, PredictionsError, decode, parse, source
from .shapes import foreign
from .stats import RESAMPLES, SEED, bootstrap, grades, method
from ..data.records import record

PROG = "locomo-repro compare"

#: The output formats (tabulate's for the tables); the first is the default.
FORMATS = ("markdown", "csv", "latex", "json")

#: The output's fields, in order (``--format json`` gives them as keys).
FIELDS = ("category", "name", "n", "column", "f1", "recall", "quiet", "diff", "low", "high")
#: The fields added where a column has judge figures (a ``-judge`` run's results file).
J_FIELDS = ("j_n", "j", "j_diff", "j_low", "j_high")

#: ``--format json``'s schema and version.
SCHEMA = "locomo-repro/compare"
VERSION = 1

IMPORT = "another system's answers are converted to the official shape with `locomo-repro import` first"


class CompareError(Exception):
    """Files that cannot be compared, or a bad command line; the message is one line."""


class _Parser(flags.Parser):
    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise CompareError(f"{self.prog}: {message} (see {self.prog} --help)")


class _Mark(NamedTuple):
    """One question's category and grade, for ``results.sums``."""

    category: int
    score: float
    held: bool = False


@record
class Figures:
    """One column's figures on one row (None: nothing to measure, or no recall at all)."""

    n: int
    f1: float | None
    recall: float | None
    quiet: float | None


@record
class Column:
    """One arm of one file (and pass): its label, figures per row key and per conversation its sums."""

    label: str
    file: str
    rows: dict[str, Figures]
    conversations: tuple[tuple[str, results.Sums], ...]
    evidence: results.Evidence | None = None  # a results file's (version 2), for the cost table
    cost: results.Cost | None = None
    judge: results.Judgement | None = None  # a results file's of a -judge run


def load(path: str) -> results.Results | Predictions:
    """A results file or a predictions file, told apart by its content."""
    read_once = source(path)  # read once by the kit's one reader: parsed, then signed
    try:
        data = decode(read_once)
    except PredictionsError as err:
        if _lines_of_json(read_once):
            raise CompareError(f"{path}: JSON lines, neither a results file nor predictions in the official "
                               f"shape; {IMPORT}") from None
        raise CompareError(str(err)) from None
    if results.is_results(data):
        return results.parse(data, path)
    if said := foreign(data, path):  # another system's format, named
        raise CompareError(said)
    if isinstance(data, list):
        return parse(data, path, read_once.sha256)
    raise CompareError(f"{path}: neither a results file (no \"schema\": \"{results.SCHEMA}\") nor predictions "
                       f"in the official shape (a list of samples); {IMPORT}")


def _keyed(got: results.Results | Predictions, name: str) -> results.Results | Predictions:
    """A predictions file's gold under the key ``name``; a results file, graded when it was run, only if its
    run's key is ``name`` (else a CompareError)."""
    if isinstance(got, Predictions):
        return answer_key.keyed(name, got)[0]
    ran = got.settings.get("key") or answer_key.OFFICIAL
    if ran != name:
        raise CompareError(f"{got.path}: graded against the {ran} answer key, not the {name} one (-key {name})")
    return got


def _lines_of_json(read_once: jsonio.Source) -> bool:
    """Whether the bytes read hold a JSON object on their first line (a JSONL file, as LoCoMo-Refined writes),
    parsed by the kit's one reader."""
    first = read_once.raw.split(b"\n", 1)[0]
    try:
        return isinstance(jsonio.parse(first.decode("utf-8"), read_once.name), dict)
    except (UnicodeDecodeError, jsonio.InputError):
        return False


def _columns_of_results(got: results.Results, label: str) -> list[Column]:
    out = []
    for at, p in enumerate(got.passes):
        swept = [] if p.sweep is None else [f"{p.sweep[0]}={p.sweep[1]:g}"]
        for arm, a in p.arms.items():
            rows = {key: Figures(row.n, *((row.f1, row.recall, row.quiet) if row.n else (None, None, None)))
                    for key, row in a.rows.items()}
            out.append(Column(" ".join([label, *swept, arm]), got.path, rows, a.conversations, a.evidence,
                              got.cost(at, arm), a.judge))  # a swept plug-in's variant: its own cost
    return out


def _columns_of_predictions(got: Predictions, label: str) -> list[Column]:
    table = official.scores(got, official.kit_eval_question_answering)
    counts = official.counts(got)
    marks = grades(got)
    out = []
    for arm in got.arms:
        has_context = any(q.predictions[arm].context is not None for q in got.questions)
        by_sample: dict[str, list[_Mark]] = {}
        for q, mark in zip(got.questions, marks[arm]):
            by_sample.setdefault(q.sample, []).append(_Mark(q.category, mark))
        quiet = results.sums(_Mark(q.category, float(declined(q.predictions[arm].reply))) for q in got.questions)
        rows = {}
        for key, _ in results.ROWS:
            n = counts[results.name(key)]
            f1, recall = table[arm][results.name(key)]
            rows[key] = Figures(n, *((f1, recall if has_context else None, quiet[key][1] / n) if n else (None, None, None)))
        out.append(Column(f"{label} {arm}", got.path, rows,
                          tuple((sample, results.sums(each)) for sample, each in by_sample.items())))
    return out


def labels(paths: Sequence[str]) -> list[str]:
    """Each file's label: its basename, with ``#<place>`` (from 1) where two files share one."""
    names = [os.path.basename(p) or p for p in paths]
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names, start=1)]


def _counts(column: Column) -> list[tuple[str, dict[str, int]]]:
    return [(sample, {key: n for key, (n, _) in s.items()}) for sample, s in column.conversations]


def aligned(files: Sequence[results.Results | Predictions], columns: Sequence[Column]) -> None:
    """Refuse (CompareError, one line) files that are not over the same questions as the first one."""
    first_results = next((f for f in files if isinstance(f, results.Results)), None)
    first_predictions = next((f for f in files if isinstance(f, Predictions)), None)
    for f in files:
        if isinstance(f, results.Results) and first_results is not None and f.sha256 != first_results.sha256:
            raise CompareError(f"{f.path}: over another dataset than {first_results.path} (sha256 {f.sha256[:12]}... "
                               f"against {first_results.sha256[:12]}...)")
        if isinstance(f, Predictions) and first_predictions is not None:
            _same_questions(first_predictions, f)
    base = _counts(columns[0])
    for column in columns[1:]:
        here = _counts(column)
        if here == base:
            continue
        if [s for s, _ in here] != [s for s, _ in base]:
            problem = f"conversations {', '.join(s for s, _ in here) or 'none'} against {', '.join(s for s, _ in base)}"
        else:
            sample, mine, theirs = next((s, a, b) for (s, a), (_, b) in zip(here, base) if a != b)
            key = next(k for k in mine if mine[k] != theirs[k])
            problem = f"{sample} has {mine[key]} {results.name(key)} questions against {theirs[key]}"
        raise CompareError(f"{column.file}: not over the same questions as {columns[0].file}: {problem}")


def _same_questions(one: Predictions, two: Predictions) -> None:
    if len(one.questions) != len(two.questions):
        raise CompareError(f"{two.path}: not over the same questions as {one.path}: {len(two.questions)} questions "
                           f"against {len(one.questions)}")
    for a, b in zip(one.questions, two.questions):
        for what in ("sample", "question", "category", "answer", "adversarial_answer"):
            if getattr(a, what) != getattr(b, what):
                raise CompareError(f"{two.path}: not over the same questions as {one.path}: {b.where}: "
                                   f"the {what.replace('_', ' ')} differs")


def baseline_first(columns: Sequence[Column], name: str) -> list[Column]:
    """The columns with the one ``name`` labels first (its whole label, else the one label ending in
    `` name``); CompareError when none or several are."""
    found = [c for c in columns if c.label == name] or [c for c in columns if c.label.endswith(f" {name}")]
    if len(found) != 1:
        said = "no column is" if not found else f"{len(found)} columns are ({', '.join(c.label for c in found)})"
        raise CompareError(f"{PROG}: --baseline {name}: {said} labelled so; the columns: "
                           f"{', '.join(c.label for c in columns)}")
    return [found[0], *(c for c in columns if c is not found[0])]


def setting_notes(files: Sequence[results.Results | Predictions], names: Sequence[str]) -> list[str]:
    """One note naming every setting (and kit version) in which the results files differ; none when they agree."""
    ran = [(name, {**f.settings, "kit_version": f.kit_version})
           for f, name in zip(files, names) if isinstance(f, results.Results)]
    keys = list(dict.fromkeys(k for _, s in ran for k in s))
    differ = [k for k in keys if len({json.dumps(s.get(k)) for _, s in ran}) > 1]
    if not differ:
        return []
    said = "; ".join(f"{k} " + ", ".join(f"{json.dumps(s.get(k))} ({name})" for name, s in ran) for k in differ)
    return [f"the results files' settings differ: {said}"]


def judged_gaps(one: results.Judgement, two: results.Judgement, kinds: Sequence[int]) -> tuple[list[float], list[float]]:
    """Per conversation (the files' shared order), the summed J difference of ``one`` from ``two`` and the
    questions of ``kinds`` (every category when empty) both scored, question by question."""
    gaps, sizes = [], []
    for (_, mine), (_, theirs) in zip(one.conversations, two.conversations):
        base = {qa: score for qa, _, score in theirs}
        pairs = [(score, other) for qa, kind, score in mine
                 if (not kinds or kind in kinds) and score is not None and (other := base.get(qa)) is not None]
        gap = 0.0
        for a, b in pairs:  # added in question order, as a conversation's F1 sums are
            gap += a - b
        gaps.append(gap)
        sizes.append(float(len(pairs)))
    return gaps, sizes


def judged(columns: Sequence[Column]) -> bool:
    """Whether any column has judge figures (a results file of a ``-judge`` run): J fields are added."""
    return any(c.judge is not None for c in columns)


def rows(columns: Sequence[Column]) -> list[dict[str, object]]:
    """Every row key and column: the figures and, past the first column, the paired F1 difference from it;
    where a column has judge figures, its J (``j_n`` questions judged) and, past the first column and where
    it has them too, the paired J difference over the questions both scored."""
    base = columns[0]
    with_j = judged(columns)
    out: list[dict[str, object]] = []
    for key, kinds in results.ROWS:
        for i, column in enumerate(columns):
            got = column.rows[key]
            diff = low = high = None
            if i and got.n:
                gaps = [mine[key][1] - theirs[key][1] for (_, mine), (_, theirs) in zip(column.conversations,
                                                                                        base.conversations)]
                sizes = [float(s[key][0]) for _, s in base.conversations]
                diff, low, high = bootstrap(gaps, sizes)
            row = {"category": key, "name": results.name(key), "n": got.n, "column": column.label,
                   "f1": got.f1, "recall": got.recall, "quiet": got.quiet, "diff": diff, "low": low, "high": high}
            if with_j:
                mark = column.judge.rows[key] if column.judge is not None else None
                j_diff = j_low = j_high = None
                if i and column.judge is not None and base.judge is not None:
                    gaps, sizes = judged_gaps(column.judge, base.judge, kinds)
                    if sum(sizes):
                        j_diff, j_low, j_high = bootstrap(gaps, sizes)
                row.update({"j_n": None if mark is None else mark.n, "j": None if mark is None else mark.j,
                            "j_diff": j_diff, "j_low": j_low, "j_high": j_high})
            out.append(row)
    return out


#: The cost table's fields, in order: per column, what its arm handed its reader a question, and what it cost
#: (measured, in seconds; a results file of version 2 has them, other files none).
COST_FIELDS = ("column", "evidence_turns", "evidence_characters", "evidence_words", "build_seconds", "calls",
               "p50_seconds", "p95_seconds", "p99_seconds", "failures")


def costs(columns: Sequence[Column]) -> list[dict[str, object]]:
    """Every column's evidence and cost (None where its file has none); no row when no column has any."""
    if all(c.evidence is None and c.cost is None for c in columns):
        return []
    out = []
    for c in columns:
        e, m = c.evidence, c.cost
        out.append(dict(zip(COST_FIELDS, (
            c.label, *((e.turns, e.characters, e.words) if e else (None,) * 3),
            *((m.build, m.calls, m.p50, m.p95, m.p99, m.failures) if m else (None,) * 6)))))
    return out


def _cost_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _cell(value: object, signed: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:+.3f}" if signed else f"{value:.3f}"
    return str(value)


def _escaped(cells: list[list[str]], fmt: str) -> list[list[str]]:
    """Table cells as ``fmt`` shows them: in markdown a ``|`` in a label would end its cell, so it is escaped
    (tabulate escapes LaTeX's specials itself)."""
    return [[cell.replace("|", "\\|") for cell in row] for row in cells] if fmt == "markdown" else cells


def tabulated(table: Sequence[dict[str, object]], fields: Sequence[str], fmt: str, head: dict[str, object],
              signed: Sequence[str] = (), left: Sequence[str] = ()) -> str:
    """Rows of ``fields`` in one of ``FORMATS``: markdown and latex rounded to three places (``signed`` fields
    with their sign, ``left`` fields aligned left, the others right), csv and json exact; json is ``head``
    (schema, version ...) with the rows."""
    if fmt == "json":
        return jsonio.dumps({**head, "rows": list(table)}, indent=2) + "\n"
    if fmt == "csv":
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(fields)
        writer.writerows([["" if row[f] is None else repr(row[f]) if isinstance(row[f], float) else row[f]
                           for f in fields] for row in table])
        return text.getvalue()
    from tabulate import tabulate

    cells = _escaped([[_cell(row[f], f in signed) for f in fields] for row in table], fmt)
    align = ["left" if f in left else "right" for f in fields]
    return tabulate(cells, headers=list(fields), tablefmt="github" if fmt == "markdown" else "latex_booktabs",
                    disable_numparse=True, colalign=align) + "\n"


def render(table: list[dict[str, object]], fmt: str, baseline: str, notes: Sequence[str],
           files: Sequence[dict[str, str]], spent: Sequence[dict[str, object]] = ()) -> str:
    """The rows in one of ``FORMATS`` (:func:`tabulated`; the J fields where the rows have them); with
    ``spent`` (:func:`costs`), json has them as ``costs`` and markdown and latex a second table of them, four
    significant digits (csv keeps the one table of figures)."""
    if fmt == "json":
        return jsonio.dumps(Compared(table, baseline, list(notes), list(files), list(spent)).document(),
                            indent=2) + "\n"
    fields = FIELDS + J_FIELDS if table and "j" in table[0] else FIELDS
    page = tabulated(table, fields, fmt, {}, signed=("diff", "low", "high", "j_diff", "j_low", "j_high"),
                     left=("category", "name", "column"))
    if spent and fmt != "csv":
        from tabulate import tabulate

        cells = _escaped([[_cost_cell(row[f]) for f in COST_FIELDS] for row in spent], fmt)
        page += "\n" + tabulate(cells, headers=list(COST_FIELDS), disable_numparse=True,
                                tablefmt="github" if fmt == "markdown" else "latex_booktabs",
                                colalign=["left", *["right"] * (len(COST_FIELDS) - 1)]) + "\n"
    return page


def parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG, allow_abbrev=False,
        description="Compare results files (-json) and predictions files (-out, import) over the same questions: "
                    "each arm's n, F1, recall and quiet per category, and the paired F1 difference from the first "
                    "column with its exact 95% bootstrap interval over conversations.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="a results file or a predictions file in the official shape")
    p.add_argument("-baseline", "--baseline", metavar="COLUMN",
                   help="the column the others are differenced from (default: the first): its whole label "
                        "(\"bm25.json bm25\") or the last words of exactly one label (\"bm25\")")
    p.add_argument("-format", "--format", choices=FORMATS, default=FORMATS[0],
                   help="markdown (the default: a GitHub table, figures to three places), csv or json (exact "
                        "figures), or latex (a booktabs table)")
    answer_key.flag(p)
    return p


@record
class Compared:
    """Files compared: the rows, the baseline column's label, the notes, each file's path, kind and
    signature, and each column's evidence and cost (``--format json`` gives them as they are)."""

    rows: list[dict[str, object]]
    baseline: str
    notes: list[str]
    files: list[dict[str, str]]
    costs: list[dict[str, object]]

    def document(self) -> dict[str, object]:
        """The ``--format json`` value: schema ``locomo-repro/compare``, version 1."""
        return {"schema": SCHEMA, "version": VERSION, "baseline": self.baseline, "files": self.files,
                "notes": self.notes, "rows": self.rows, "costs": self.costs}


def compared(paths: Sequence[str], baseline: str | None = None, key: str = answer_key.OFFICIAL) -> Compared:
    """Results and predictions files side by side (see the module), graded under the answer ``key``;
    ``CompareError``, ``PredictionsError``, ``ResultsError``, ``AuditError`` or ``DatasetError`` (one line)
    for files that cannot be compared."""
    files = [_keyed(load(path), key) for path in paths]
    names = labels(paths)
    columns: list[Column] = []
    for got, label in zip(files, names):
        columns += (_columns_of_results(got, label) if isinstance(got, results.Results)
                    else _columns_of_predictions(got, label))
    if not columns:
        raise CompareError(f"{PROG}: no arm in {', '.join(paths)}")
    if baseline is not None:
        columns = baseline_first(columns, baseline)
    aligned(files, columns)
    table = rows(columns)
    notes = setting_notes(files, names)
    if method(n := len(columns[0].conversations))["method"] != "exact":
        notes.append(f"{n} conversations, too many to enumerate every resample: the intervals are a Monte Carlo "
                     f"bootstrap of {RESAMPLES:,} resamples, seed {SEED}")
    made = [{"path": path, "kind": "results" if isinstance(got, results.Results) else "predictions",
             "signature": got.signature if isinstance(got, results.Results)
             else str(signature.predictions(path, signature.KIT, *answer_key.load(key).signed(),
                                             sha256=got.sha256))}
            for path, got in zip(paths, files)]
    return Compared(table, columns[0].label, notes, made, costs(columns))


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro compare FILE... [--format F]``: the table on stdout, notes and signatures on stderr;
    bad input is one line on stderr and exit status 2, with nothing on stdout."""
    try:
        args = parser().parse_args(argv)
        got = compared(args.files, args.baseline, args.key)
    except (CompareError, PredictionsError, results.ResultsError, AuditError, DatasetError) as err:
        print(err, file=sys.stderr)
        return 2
    sys.stdout.write(render(got.rows, args.format, got.baseline, got.notes, got.files, got.costs))
    for line in got.notes:
        print(f"note: {line}", file=sys.stderr)
    for each in got.files:
        print(f"signature: {each['signature']}", file=sys.stderr)
    return 0
