"""The kit from Python, for notebooks and scripts: ``from locomo_repro import api``.

Each function does what a command does and returns the record that command writes, instead of printing:

- :func:`run` -- the benchmark (``locomo-repro -arms ... -json FILE``): the results record
  (``score.results.Results``, schema ``locomo-repro/results``), its figures, evidence and cost;
- :func:`score` -- a predictions file's figures per arm and category (``locomo-repro official FILE --kit
  --json``, or with the official ``evaluation.py``);
- :func:`judge` -- what judged files' verdicts measure (``locomo-repro judge stats FILE... --format json``);
- :func:`compare` -- files side by side with paired differences (``locomo-repro compare ... --format json``);
- :func:`read` and :func:`write` -- a results file read back and written, as ``-json`` writes it.

Settings are the command line's flags as keyword arguments, checked by the functions the command line checks
them with (the command line is a thin layer over the same subpackages; nothing here reads one); bad input
raises the kit's one-line errors (``go.flags.UsageError``, ``data.dataset.DatasetError``,
``data.audit.AuditError``, ``arms.plugin.PluginError``, ``judge.verdicts.JudgedError``,
``score.predictions.PredictionsError``, ``score.results.ResultsError``, ``score.compare.CompareError``) and
a plug-in that fails in a run ``arms.plugin.PluginFailure``.  Documented with examples that run as tests in
``docs/api.md``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .bench import plan
from .data.atomic import write_files
from .go.flags import UsageError
from .read.reader import Options
from .score import results as saved
from .score.key import OFFICIAL, load as load_key

#: The command line's flags that write, print or read with a model: not what :func:`run` does.
_NOT_RUN = ("out", "json", "stats", "show", "resume", "model", "closed", "base", "memo", "traceback")

_DEFAULT = Options()  # the one source of the reader settings' defaults


def run(arms: str = "main", *, data: str | Path | None = None, k: int = _DEFAULT.k, floor: float = _DEFAULT.floor,
        span: int = _DEFAULT.span, band: float = _DEFAULT.band, parts: int = _DEFAULT.parts,
        sweep: str | None = None, only: int = 0, conversations: str | Sequence[str] = (), limit: int = 0,
        blind: bool = False, no_derived: bool = False, coref: bool = False, concurrency: int = 1,
        retries: int = 0, key: str = OFFICIAL, jobs: int = os.cpu_count() or 1, **others: object) -> saved.Results:
    """The benchmark over ``arms`` (an ``-arms`` value: arm sets, single arms, plug-ins with their settings)
    with the command line's other run flags as keywords (``k=10``, ``sweep="floor"``, ``only=2``,
    ``conversations=["conv-26"]``, ``limit=5``, ``no_derived=True``, ``jobs=1``, ``retries=2``,
    ``key="audited"``, ``data=...``), as ``locomo-repro -arms ARMS ... -json FILE`` runs it (``bench.plan``):
    the results record that file would hold, its signature the one the command prints."""
    if others:
        name = next(iter(others))
        raise UsageError(f"api.run does not take -{name.replace('_', '-')}: it returns the results record "
                         f"(api.write writes it)" if name in _NOT_RUN else f"api.run has no setting {name!r}")
    from .bench import stream

    settings = stream.Settings(Options(k=k, floor=floor, span=span, band=band, parts=parts), arm_set=arms,
                               blind=blind, derive=not no_derived, coref=coref, sweep=sweep,
                               concurrency=concurrency, retries=retries)
    picked = conversations.split(",") if isinstance(conversations, str) else conversations
    scope = plan.Scope(data=str(Path.cwd() / data) if data else None, conversations=tuple(picked), only=only,
                       limit=limit, jobs=jobs)
    if problem := plan.problem(settings, scope):
        raise UsageError(problem)
    plugins = plan.loaded(settings, scope)
    answer_key = load_key(key)
    report = stream.Report(settings, sums=True)
    for got in stream.outcomes(scope.samples(answer_key), settings, scope.workers):
        report.add(got)
    signed = plan.drawn(plan.signed(settings, scope, plugins, answer_key), report.conversations)
    return plan.results(report, scope, signed, answer_key)


def write(results: saved.Results, path: str | Path) -> None:
    """Write a results record as ``-json`` writes it (the kit's one writer: whole, or not at all)."""
    write_files([(Path(path), saved.encode(results))])


def read(path: str | Path) -> saved.Results:
    """A results file read back and checked (either version)."""
    return saved.read(path)


def score(path: str | Path, official: bool = False) -> dict[str, dict[str, dict[str, object]]]:
    """A predictions file's figures per arm and category (``"1"``..``"5"``, ``"overall"``: ``n``, ``f1``,
    ``recall``, ``judge``, ``mem0_f1``, ``mem0_bleu``), as ``locomo-repro official FILE --json`` gives them:
    by the kit's metric, or with ``official`` by the LoCoMo authors' own ``evaluation.py`` (found as the
    ``official`` command finds it)."""
    from .score.figures import figures
    from .score.official import kit_eval_question_answering, official_scorer
    from .score.predictions import read as predictions

    return figures(predictions(str(path)), official_scorer() if official else kit_eval_question_answering)


def judge(*paths: str | Path, wrong: str | Path | None = None, data: str | Path | None = None,
          key: str = OFFICIAL) -> dict[str, object]:
    """What the verdicts of judged files (any shape ``judge stats`` reads) measure, as ``locomo-repro judge stats
    FILE... --format json`` gives it (schema ``locomo-repro/judge-stats``: ``files`` with each one's shape and
    signature, ``notes``, ``rows`` of ``file``, ``arm``, ``figure``, ``row``, ``n``, ``failed``, ``value``,
    ``low``, ``high``); ``wrong`` an answer key the replies were written to be wrong against (their leniency),
    ``data`` the dataset the files without question ids are matched to, ``key`` the answer key (``-key``: under
    ``audited`` the questions it holds apart are left out and its corrected gold's share of J given).  No
    endpoint is asked."""
    from .judge.stats import measured

    if not paths:
        raise UsageError("api.judge takes one judged file or more")
    return measured([str(p) for p in paths], None if wrong is None else str(wrong),
                    None if data is None else str(data), key).document()


def compare(*paths: str | Path, baseline: str | None = None) -> dict[str, object]:
    """Results and predictions files side by side, as ``locomo-repro compare ... --format json`` gives them
    (schema ``locomo-repro/compare``: ``rows`` with each column's figures and paired difference from the
    ``baseline`` column, default the first, ``notes``, ``files``, ``costs``)."""
    from .score.compare import compared

    return compared([str(p) for p in paths], baseline).document()


__all__: Sequence[str] = ("run", "write", "read", "score", "judge", "compare")
