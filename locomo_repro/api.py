"""The kit from Python, for notebooks and scripts: ``from locomo_repro import api``.

Each function does what a command does and returns the record that command writes, instead of printing:

- :func:`run` -- the benchmark (``locomo-repro -arms ... -json FILE``): the results record
  (``score.results.Results``, schema ``locomo-repro/results``), its figures, evidence and cost;
- :func:`score` -- a predictions file's figures per arm and category (``locomo-repro official FILE --kit
  --json``, or with the official ``evaluation.py``);
- :func:`compare` -- files side by side with paired differences (``locomo-repro compare ... --format json``);
- :func:`read` and :func:`write` -- a results file read back and written, as ``-json`` writes it.

Settings are the command line's flags as keyword arguments, checked as the command line checks them; bad
input raises the kit's one-line errors (``go.flags.UsageError``, ``data.dataset.DatasetError``,
``arms.plugin.PluginError``, ``score.predictions.PredictionsError``, ``score.results.ResultsError``,
``score.compare.CompareError``) and a plug-in that fails in a run ``arms.plugin.PluginFailure``.
Documented with examples that run as tests in ``docs/api.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from . import cli
from .data.atomic import write_files
from .data.dataset import resolve
from .go.flags import UsageError
from .score import results as saved
from .score import signature

#: Flags of the command line that write, print or read with a model: not what :func:`run` does.
_NOT_RUN = ("out", "json", "stats", "show", "resume", "model", "closed", "base", "memo", "traceback")


def _argv(flags: dict[str, object]) -> list[str]:
    """Keyword settings as the command line's flags: ``no_derived=True`` is ``-no-derived``, a list is
    comma-separated, a value is its text."""
    argv: list[str] = []
    for key, value in flags.items():
        flag = f"-{key.replace('_', '-')}"
        if key in _NOT_RUN:
            raise UsageError(f"api.run does not take {flag}: it returns the results record (api.write writes it)")
        if value is True:
            argv.append(flag)
        elif value is not False and value is not None:
            argv += [flag, ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)]
    return argv


def run(arms: str = "main", **flags: object) -> saved.Results:
    """The benchmark over ``arms`` (an ``-arms`` value: arm sets, single arms, plug-ins with their settings)
    with the command line's other flags as keywords (``k=10``, ``sweep="floor"``, ``only=2``,
    ``conversations=["conv-26"]``, ``limit=5``, ``no_derived=True``, ``jobs=1``, ``retries=2``, ``data=...``),
    as ``locomo-repro -arms ARMS ... -json FILE`` runs it: the results record that file would hold, its
    signature the one the command prints.  Progress goes to stderr as the command's does."""
    from .bench import stream

    args = cli.parser().parse_args(["-arms", arms, *_argv(flags)])
    opts = cli.options(args)
    plugins = cli.loaded(args)
    settings = cli.run_settings(args, opts)
    report = stream.Report(settings, sums=True)
    for got in stream.outcomes(cli.chosen(args), settings, args.jobs):
        report.add(got)
    signed = cli.drawn(cli.run_signature(args, opts, plugins), report.conversations)
    return report.results(cli.run_settings_record(args, opts), signature.file_sha256(resolve(args.data)), str(signed))


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


def compare(*paths: str | Path, baseline: str | None = None) -> dict[str, object]:
    """Results and predictions files side by side, as ``locomo-repro compare ... --format json`` gives them
    (schema ``locomo-repro/compare``: ``rows`` with each column's figures and paired difference from the
    ``baseline`` column, default the first, ``notes``, ``files``, ``costs``)."""
    from .score.compare import compared

    return compared([str(p) for p in paths], baseline).document()


__all__: Sequence[str] = ("run", "write", "read", "score", "compare")
