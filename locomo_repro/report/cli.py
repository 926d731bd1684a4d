"""``locomo-repro report`` / ``locomo-repro report``: write the one-page HTML report.

    locomo-repro report [-o report.html] [--data PATH] [--only N] [--predictions FILE ...]
                        [--judged FILE ...] [--results FILE ...] [--claims recorded|measure | --verdicts FILE]
                        [--manifest PATH]

Builds the main and the walk arm sets once each, in worker processes, asked at
floor 0 (which gives every floor of the trade-off and the default run),
scores every arm per category with bootstrap intervals, reads any other
system's predictions files, and writes one self-contained HTML file.  The path
written goes to stdout; progress to stderr.  Claims are shown as claims.yaml
records them by default (seconds); ``--claims measure`` measures all of them
again, as ``locomo-repro claims`` does (minutes); ``--verdicts FILE``
reads what ``locomo-repro claims --json FILE`` wrote.  Needs matplotlib,
the ``report`` extra: ``pip install 'locomo-repro[report]'`` (from a clone: ``pip install '.[report]'``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from ..go import flags
from ..score import key as answer_key

if TYPE_CHECKING:
    from .. import claims
    from ..data.dataset import Sample
    from ..judge.files import Judged
    from ..score.results import Results
    from ..score.predictions import Predictions
    from . import page

PROG = "locomo-repro report"

#: The arm sets whose trade-off and intervals the report shows.
ARM_SETS = ("main", "walk")


class ReportError(Exception):
    """A command line or an input the report cannot use; the message is one line."""


class _Parser(flags.Parser):
    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise ReportError(f"{message} (see {PROG} --help)")


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Write one self-contained HTML page: claims, trade-off, intervals.")
    p.add_argument("-o", "--out", default="report.html", metavar="FILE", help="the HTML file (default report.html)")
    p.add_argument("--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    p.add_argument("--only", type=int, default=0, metavar="N", help="use only the first N conversations")
    p.add_argument("--predictions", nargs="+", default=[], metavar="FILE",
                   help="other systems' predictions files in the official shape, shown per category too")
    p.add_argument("--judged", nargs="+", default=[], metavar="FILE",
                   help="judged files of the --predictions files' replies (judge run's), paired with them in order: "
                        "J beside the F1, the judge's leniency and its agreement with each file's own verdicts")
    p.add_argument("--results", nargs="+", default=[], metavar="FILE",
                   help="results files (-json): each arm's F1 against what it cost, beside the kit's own arms")
    p.add_argument("--claims", choices=("recorded", "measure"), default="recorded",
                   help="claims as claims.yaml records them (default, seconds) or measured again (minutes)")
    p.add_argument("--verdicts", metavar="FILE",
                   help="the claims as measured by locomo-repro claims --json FILE (instead of --claims)")
    p.add_argument("--manifest", metavar="PATH", help="claims.yaml (default: $LOCOMO_CLAIMS, else the kit's own)")
    p.add_argument("--leaderboard", action="store_true",
                   help="add the leaderboard: every peers.yaml system, locomo-audit's and LoCoMo-Plus's runs, the "
                        "--predictions files and the main arms, "
                        "ranked with their intervals and ties (the peers' files: LOCOMO_PEERS, else fetched)")
    answer_key.flag(p)
    return p


def _progress(text: str) -> None:
    print(f"{PROG}: {text}", file=sys.stderr, flush=True)


def build(args: argparse.Namespace) -> str:
    """The page for parsed arguments (inputs are all read and checked before anything is built)."""
    from .. import claims
    from ..data import dataset, jsonio
    from ..judge import files as judged_files
    from ..read.reader import Options
    from ..score import predictions as predictions_file
    from ..score import results as results_file
    from ..score import signature, stats
    from ..score.figures import verdicts as own_judge
    from . import figures, page, plots

    graded = answer_key.load(args.key)  # the arms and the files graded under it; the claims under the official key
    if len(args.judged) > len(args.predictions):
        raise ReportError(f"--judged names {len(args.judged)} files for {len(args.predictions)} --predictions files "
                          f"(each judged file goes with the predictions file in its place)")
    rejudged = [judged_files.read(path, lambda: dataset.load(args.data)) for path in args.judged]
    others = []
    for path in args.predictions:
        read, _ = answer_key.keyed(args.key, predictions_file.read(path), args.data)
        stats.bootstrappable(read)
        others.append((path, read, own_judge(read)))
    spent = [(path, results_file.read(path)) for path in args.results]
    manifest = claims.load(args.manifest)
    manifest_path = Path(args.manifest) if args.manifest else claims.default_path()
    verdicts_file = jsonio.read(args.verdicts) if args.verdicts else None  # read once: read, then signed
    verdicts = figures.read_verdicts(verdicts_file, manifest) if verdicts_file else None
    published = dataset.load(args.data)
    full = samples = graded.samples(published)
    if args.only > 0:
        samples = samples[: args.only]
    data = signature.file_digest(dataset.resolve(args.data))
    options = Options()
    settings = [(name, getattr(options, name)) for name in ("k", "floor", "span", "band", "parts")]
    bootstrap = signature.EXACT

    lab = claims.Lab(samples, args.data, progress=_progress)
    runs = [claims.parse_run(f"-arms {arms}") for arms in ARM_SETS]
    for run in runs:  # one build each, asked once at floor 0: every floor of the trade-off and the default run
        lab.plan(run.settings)
    tradeoffs, sources = [], []
    for arms, run in zip(ARM_SETS, runs):
        _progress(f"building the {arms} arm set over {len(samples)} conversations")
        points = figures.tradeoff(lab.records(run, floor=0.0), progress=sys.stderr)
        sweep = signature.run(data, arms, settings, sweep="floor", only=args.only).plus(("floors", "0:1:0.05"),
                                                                                         *graded.signed())
        name = f"tradeoff-{arms}"
        title = f"-arms {arms}: F1 against the share declined, floor 0 to 1"
        tradeoffs.append(page.Tradeoff(name, title, str(sweep), tuple(points), plots.tradeoff(points, name, title)))
        sig = signature.run(data, arms, settings, only=args.only).plus(bootstrap, *graded.signed())
        made = graded.predictions(lab.predictions(run), samples)[0]  # the held-apart questions in no category
        sources.append(_source(arms, f"-arms {arms}, default settings", str(sig), made))
    files: list[page.Source] = []
    for i, (path, read, judged) in enumerate(others):
        _progress(f"scoring {path}")
        sig = signature.predictions(path, signature.KIT, bootstrap, *graded.signed(), sha256=read.sha256)
        again = rejudged[i] if i < len(rejudged) else None
        if again is not None:
            sig = sig.plus(("judged", again.sha256[: signature.PREFIX]))
        title = f"{Path(path).name} (predictions {read.sha256[: signature.PREFIX]}, {len(read.conversations)} conversations)"
        files.append(_source(f"file-{len(files) + 1}", title, str(sig), read, judged, again))

    manifest_sig = ("claims", signature.file_digest(manifest_path))
    if verdicts is not None and verdicts_file is not None:
        view = verdicts
        claims_sig = signature.Signature((manifest_sig, ("verdicts", verdicts_file.sha256[: signature.PREFIX])))
    elif args.claims == "measure":
        _progress(f"measuring {len(manifest.claims)} claims (minutes)")
        every = (lab if len(samples) == len(full) and graded.official
                 else claims.Lab(published, args.data, progress=_progress))
        view = figures.measured_claims(manifest, every, sys.stderr)
        claims_sig = signature.Signature((("data", data), manifest_sig, ("verdicts", "measured")))
    else:
        view = figures.recorded_claims(manifest)
        claims_sig = signature.Signature((manifest_sig, ("verdicts", "recorded")))
    board = _leaderboard(args, published, lab.predictions(runs[0]), others, data) if args.leaderboard else ""
    costs = _costs(spent, lab, runs, data, settings, args.only, graded.signed()) if spent else []
    return page.render(view, str(claims_sig), tradeoffs, sources, files, board, costs)


def _costs(spent: Sequence[tuple[str, Results]], lab: claims.Lab, runs: Sequence[claims.Run], data: str,
           settings: Sequence[tuple[str, float]], only: int, signed: Sequence[tuple[str, str]]) -> list[page.Costs]:
    """Quality against cost: each results file as it records its arms, then each of the kit's arm sets as the
    report's own run measured it (its builds and calls timed on this machine, at the default settings)."""
    from ..bench import stream
    from ..score import signature
    from . import figures, page, plots

    out = []
    for i, (path, got) in enumerate(spent, 1):
        digest = signature.file_digest(path)
        title = f"{Path(path).name} (results {digest}, {len(got.conversations)} conversations)"
        sig = signature.Signature((("results", digest), ("run", got.signature)))
        points = tuple(figures.spending(got))
        out.append(page.Costs(f"results-{i}", title, str(sig), points, plots.spending(points, f"cost-results-{i}", title)))
    for arms, run in zip(ARM_SETS, runs):
        made = stream.Report(run.settings, sums=True)
        for outcome in lab.outcomes(run.settings):
            made.add(outcome)
        sig = signature.run(data, arms, settings, only=only).plus(*signed)
        title = f"-arms {arms}, default settings, measured by this report's run"
        points = tuple(figures.spending(made.results({}, "", str(sig))))
        out.append(page.Costs(arms, title, str(sig), points, plots.spending(points, f"cost-{arms}", title)))
    return out


def _leaderboard(args: argparse.Namespace, samples: Sequence[Sample], kit: Predictions,
                 others: Sequence[tuple[str, Predictions, object]], data: str) -> str:
    """The leaderboard's section: the peers' systems, the publications' runs, the user's files and the kit's main
    arms (``kit``, the report's own run), as ``locomo-repro leaderboard`` measures them under the official key."""
    from ..peers import leaderboard, manifest
    from ..score import signature
    from ..score.compare import labels
    from . import page, plots

    _progress("measuring the leaderboard")
    peers_manifest = manifest.load(manifest.default_path())
    root, why = leaderboard.peers_root()
    entries = leaderboard.peers(peers_manifest, root, samples, why) + leaderboard.runs(samples)
    for (path, read, _), label in zip(others, labels([path for path, _, _ in others])):
        entries += leaderboard.of_predictions(read, label)
    entries += [leaderboard.Entry(f"kit {arm}", "kit", arm, kit) for arm in kit.arms]
    table, conversations, _ = leaderboard.tabulate(entries, samples, peers_manifest)
    shown = [(p.row.name, p.row.f1, p.row.low, p.row.high, p.group) for p in table if p.row.f1 is not None]
    svg = plots.forest(shown, "leaderboard", "every answer file like with like")
    sig = signature.Signature((("data", data), ("scorer", signature.KIT), ("bootstrap", "exact-95")))
    return page.leaderboard_section(table, svg, str(sig), len(conversations))


def _source(name: str, title: str, sig: str, predictions: Predictions,
            judged: dict[str, list[int | None]] | None = None, again: Judged | None = None) -> page.Source:
    """One set of arms per category: estimates (with the file's own judge, ``judged``, where it has one; with
    the J of the judged file ``again``, its leniency and agreement), paired differences (when there are two
    arms or more), figures."""
    from . import figures, page, plots

    made = None if again is None else list(again.verdicts)
    estimates = tuple(figures.categories(predictions, judged, made))
    diffs = tuple(figures.differences(predictions))
    source = None if again is None else f"{Path(again.path).name} ({again.sha256[:8]})"
    return page.Source(
        name, title, sig, estimates, diffs,
        plots.intervals(estimates, f"intervals-{name}", title),
        plots.differences(diffs, f"differences-{name}", f"{title}: paired differences") if diffs else "",
        None if made is None or source is None else figures.rejudged(predictions, made, source),
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Write the report; bad input is one line on stderr and exit 2, with nothing written."""
    from .. import claims
    from ..data.atomic import unwritable, unwritable_all, write_atomic
    from ..data.audit import AuditError
    from ..data.dataset import DatasetError
    from ..data.jsonio import InputError
    from ..score.predictions import PredictionsError
    from ..score.results import ResultsError
    from .figures import VerdictsError

    try:
        args = parser().parse_args(argv)
        if args.only < 0:
            raise ReportError("--only takes a count of 0 or more")
        if args.leaderboard and args.key != answer_key.OFFICIAL:
            raise ReportError("--leaderboard grades under the official key (the audited F1: locomo-repro "
                              "leaderboard -key audited)")
        if args.verdicts and args.claims == "measure":
            raise ReportError("--verdicts and --claims measure exclude each other")
        if importlib.util.find_spec("matplotlib") is None:
            raise ReportError("matplotlib is not installed: pip install 'locomo-repro[report]' "
                              "(from a clone of the kit: pip install '.[report]')")
        out = Path(args.out)
        inputs = [*(("--predictions", p) for p in args.predictions), *(("--results", p) for p in args.results),
                  ("--verdicts", args.verdicts),
                  ("--data", args.data or os.environ.get("LOCOMO_DATA")), ("--manifest", args.manifest)]
        if problem := unwritable(out):  # before any work
            raise ReportError(f"{out}: {problem}")
        if problem := unwritable_all([("-o", out)], inputs):  # never over an input
            raise ReportError(problem)
        text = build(args)
        write_atomic(out, text.encode("utf-8"))
    except (ReportError, DatasetError, PredictionsError, ResultsError, claims.ManifestError, VerdictsError,
            InputError, AuditError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    print(out)
    return 0
