"""Command line of the kit: ``locomo-repro`` / ``python -m locomo_repro``.

Accepts the reference's flag spellings (``-k 5 -floor 0.3 -arms walk -blind``,
Go's flag package) and the same with two dashes.  The result goes to stdout;
notes and progress go to stderr.  Bad input is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO
from pathlib import Path

from . import __version__
from .bench.names import ARM_SETS, STEPS
from .data.atomic import flushed, silence_stdout, unwritable_all, write_files
from .data.progress import Progress
from .go.flags import Parser, UsageError
from .data.dataset import DatasetError, load, load_each, resolve
from .data.stop import Threads, WorkerError
from .read.model import DEFAULT_BASE_URL, DEFAULT_MEMO, KEY_VARIABLES, Model, api_key, open_model, probe
from .read.reader import Options
from .score import signature

if TYPE_CHECKING:
    from .arms.plugin import Plugin
    from .bench import stream

PROG = "locomo-repro"

# The kit does no linear algebra, yet numpy starts OpenBLAS's thread pool when it is first imported
# (by a run, not by --help), and those threads cost a tenth of a second of CPU a process for nothing.
# One thread, unless the caller chose otherwise; the workers of -jobs inherit it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _flag(parser: argparse.ArgumentParser, name: str, **kw) -> None:
    parser.add_argument(f"-{name}", f"--{name}", dest=name.replace("-", "_"), **kw)


def parser() -> argparse.ArgumentParser:
    p = Parser(prog=PROG, description="Run the LoCoMo benchmark arms and print the reference's tables.")
    default = Options()  # the one source of the run settings' defaults
    _flag(p, "data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache, fetched on first use)")
    _flag(p, "k", type=int, default=default.k, help="turns a memory may return for one question (default %(default)s)")
    _flag(p, "floor", type=float, default=default.floor,
          help="confidence below which the reader declines (default %(default)s)")
    _flag(p, "span", type=int, default=default.span, help="words the reader takes out of a sentence (default %(default)s)")
    _flag(p, "band", type=float, default=default.band,
          help="how close to the best score a further cite must be (default %(default)s)")
    _flag(p, "parts", type=int, default=default.parts,
          help="pieces of evidence one answer may draw on (default %(default)s)")
    _flag(p, "out", metavar="FILE", help="write predictions in the official scorer's shape")
    _flag(p, "json", metavar="FILE",
          help="write the results: per arm and category n, F1, recall, quiet and the F1's bootstrap interval, "
               "with each conversation's sums, the settings and the dataset's sha256 (docs/results.md)")
    _flag(p, "stats", metavar="FILE", help="read a predictions file back: abstention, AUCs, bootstrap intervals")
    _flag(p, "sweep", choices=sorted(STEPS), help="run once per value of one setting")
    _flag(p, "show", type=int, default=0, metavar="N", help="print N answered questions per category")
    _flag(p, "only", type=int, default=0, metavar="N", help="use only the first N conversations")
    _flag(p, "quiet", action="store_true", help="leave out the per-conversation build lines")
    _flag(p, "arms", default="main", metavar="SET",
          help="arm set: main, factor, walk, read, gather (graph read with the +set reader), or hops "
          "(graph+set and walks of 1-3 hops, guided and not, all read with the +set reader); or a plug-in, "
          "MODULE:ATTR or an installed one's name (+set: read with the +set reader); several comma-separated; "
          "list: what is available")
    _flag(p, "blind", action="store_true", help="empty every graph after building it")
    _flag(p, "no-derived", action="store_true", help="give the reasoner no rule: the derived-facts ablation")
    _flag(p, "coref", action="store_true",
          help="let the dialogue reader bind he/she/him/his/her per session by coreference (not in the reference)")
    _flag(p, "model", metavar="NAME",
          help="also read each memory's evidence with this model, beside the deterministic reader "
               "(API key from HANZO_API_KEY, else OPENAI_API_KEY)")
    _flag(p, "base", metavar="URL", default=DEFAULT_BASE_URL,
          help=f"the OpenAI-compatible endpoint the model is asked through (default {DEFAULT_BASE_URL})")
    _flag(p, "memo", metavar="DIR", default=DEFAULT_MEMO,
          help=f"keep the model's answers here, so a stopped run resumes and a repeat costs nothing "
               f"(default {DEFAULT_MEMO}; an empty value keeps nothing)")
    _flag(p, "closed", action="store_true",
          help="with -model, add the contamination control: the model asked every question with no evidence")
    _flag(p, "concurrency", type=int, metavar="N",
          help="with -model, how many requests may wait on the endpoint at once (default 8); "
               "how many calls of a plug-in may run at once, in threads (default 1)")
    _flag(p, "resume", metavar="DIR",
          help="keep each finished conversation's results here, so a stopped run resumes where it stopped "
               "(not in the reference)")
    _flag(p, "jobs", type=int, default=os.cpu_count() or 1, metavar="N",
          help="worker processes building and asking conversations (default: the machine's cores; never more "
               "than -only; 1: all in this process; a -model run asks from this process, with -concurrency threads)")
    return p


def options(args: argparse.Namespace) -> Options:
    """The run settings, checked."""
    opts = Options(k=args.k, floor=args.floor, span=args.span, band=args.band, parts=args.parts)
    if problem := opts.problem():
        raise UsageError(problem)
    if args.show < 0 or args.only < 0:
        raise UsageError("-show and -only take a count of 0 or more")
    if args.concurrency is not None and args.concurrency < 1:
        raise UsageError(f"-concurrency must be at least 1, got {args.concurrency}")
    if args.jobs < 1:
        raise UsageError(f"-jobs must be at least 1, got {args.jobs}")
    return opts


def model(args: argparse.Namespace) -> Model | None:
    """The model reader ``-model`` asks for, checked before anything is built (``None`` without it)."""
    if args.model is None:
        if args.closed:
            raise UsageError("-closed needs -model")
        return None
    if not args.model.strip():
        raise UsageError("-model takes a model name, got an empty one")
    from .read.chat import is_http_url, key_problem, shown_url, url_problem

    if not is_http_url(args.base):
        raise UsageError(f"-base must be an http(s) URL, got {shown_url(args.base)!r}")
    if problem := url_problem(args.base):  # a password in it: refused, and never shown
        raise UsageError(f"-base {shown_url(args.base)!r} {problem}")
    key = api_key()
    if key is None:
        raise UsageError(f"-model {args.model} needs an API key in {' or '.join(KEY_VARIABLES)}")
    if problem := key_problem(key):  # refused before any work, and never quoted
        raise UsageError(f"the API key in {next(v for v in KEY_VARIABLES if os.environ.get(v))} {problem}")
    if problem := probe(args.model, args.base, key):  # before anything is built: not an hour of declines
        raise UsageError(f"-model {args.model}: {problem}")
    if args.memo:
        print(f"{PROG}: the model's answers are kept in {args.memo} (a rerun reads them back; -memo '' keeps none)",
              file=sys.stderr)
    return open_model(args.model, args.base, key, args.memo or None)


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Carry out a parsed command line."""
    opts = options(args)
    if args.stats:
        if args.json:
            raise UsageError("-json writes a run's results; -stats reads a predictions file and runs nothing")
        from .score import stats

        return stats.main([args.stats])
    if args.arms == "list":
        out.write(arms_listing())
        return 0
    from .bench import experiment as bench  # here: --help and -stats need no memory

    # refused before any work; a plug-in read by two readers (bm25, bm25+set) is named once
    plugins = list({part[0].name: part[0] for part in bench.choose(args.arms) if not isinstance(part, str)}.values())
    reader = model(args)
    outputs = [(flag, path) for flag, path in (("-out", args.out), ("-json", args.json)) if path]
    if args.out and args.sweep:  # the reference ignores -out with -sweep; so does the kit, but says so
        outputs = outputs[1:]
        print(f"{PROG}: note: -out {args.out} is not written with -sweep (as in the reference)", file=sys.stderr)
    if problem := unwritable_all(outputs):  # each writable, and no two the same file: before any work
        raise UsageError(problem)
    from .bench import stream

    settings = run_settings(args, opts)
    summary = gathered(args, settings)
    if reader is None:  # read, built and asked one conversation at a time: memory flat in the dataset's size
        signed = run_signature(args, opts, plugins)
        kept = None
        if args.resume:
            from .bench.resume import Kept

            kept = Kept(args.resume, str(signed))
        with Progress("conversations", args.only or None) as progress:  # a bar on a terminal, else a line a 10 s
            jobs = min(args.jobs, args.only or args.jobs)  # no more workers than conversations asked for
            for got in stream.outcomes(load_each(args.data, args.only), settings, jobs, kept):
                summary.add(got)
                progress.advance()
        if kept is not None and kept.read:
            print(f"{PROG}: {kept.read} conversations read back from {args.resume}", file=sys.stderr)
        signature.emit(signed)  # once the whole file is read: a bad one is one line
        finish(summary, args, out, signed)
        return 0
    samples = load(args.data)[: args.only or None]
    signed = run_signature(args, opts, plugins)
    signature.emit(signed)
    # The model waits on the endpoint, not on a core: its run is asked from here, with threads (which a
    # Ctrl-C does not wait for: ``stop.Threads``).
    with Threads(args.concurrency or 8, "model") as pool:
        for i, sample in enumerate(samples):
            (case,) = bench.build([sample], args.arms, args.blind, derive=not args.no_derived, coref=args.coref)
            bench.add_model_arms([case], reader, args.closed)
            if i == 0:
                reads = sum(len(s.questions) for s in samples) * sum(a.remote for a in case.arms)
                reader.expect(reads * len(settings.passes()))
            summary.add(stream.outcome(case, settings, pool))
    finish(summary, args, out, signed)
    out.write(reader.cost() + "\n")
    return 0


def run_settings(args: argparse.Namespace, opts: Options) -> stream.Settings:
    """What the parsed flags ask each conversation to build and answer."""
    from .bench import stream

    return stream.Settings(options=opts, arm_set=args.arms, blind=args.blind, derive=not args.no_derived,
                           coref=args.coref, sweep=args.sweep, concurrency=args.concurrency or 1)


def gathered(args: argparse.Namespace, settings: stream.Settings) -> stream.Report:
    """An empty report of a run with these flags: what it keeps for -show and -out."""
    from .bench import stream

    return stream.Report(settings, show=args.show, quiet=args.quiet, predictions=bool(args.out) and not args.sweep,
                         sums=bool(args.json))


def finish(summary: stream.Report, args: argparse.Namespace, out: TextIO, signed: signature.Signature) -> None:
    """Print the gathered run and write ``-out`` (not with -sweep, as in the reference) and ``-json``, both
    or neither; ``signed`` is the run's signature, which ``-json`` records."""
    out.write(summary.text(progress=sys.stderr))
    files = []
    if args.out and not args.sweep:
        files.append((Path(args.out), summary.predictions()))
    if args.json:
        from .score.results import encode

        opts = summary.settings.options
        made = summary.results(run_settings_record(args, opts), signature.file_sha256(resolve(args.data)),
                               str(signed))
        files.append((Path(args.json), encode(made)))
    if files:
        write_files(files)
    if args.out and not args.sweep:
        out.write(f"\npredictions: {args.out} ({', '.join(summary.arms)})\n")


def run_settings_record(args: argparse.Namespace, opts: Options) -> dict[str, object]:
    """What a results file records of the run's settings (docs/results.md): the arm set, the reader's settings
    (the swept one null: each pass names its value), the ablations, ``-only`` and the model."""
    record: dict[str, object] = {"arms": args.arms}
    record.update({name: None if name == args.sweep else getattr(opts, name) for name in ("k", "floor", "span", "band", "parts")})
    record.update(sweep=args.sweep, only=args.only, blind=args.blind, derived=not args.no_derived, coref=args.coref,
                  model=args.model, endpoint=signature.endpoint(args.base) if args.model else None,
                  closed=args.closed)
    return record


def run_signature(args: argparse.Namespace, opts: Options, plugins: Sequence[Plugin] = ()) -> signature.Signature:
    """The signature of the numbers a run prints (``signature.run`` over the parsed flags), naming every
    plug-in with where its factory lives and its package's version."""
    settings = [(name, getattr(opts, name)) for name in ("k", "floor", "span", "band", "parts")]
    return signature.run(
        signature.file_digest(resolve(args.data)), args.arms, settings, sweep=args.sweep, blind=args.blind,
        derive=not args.no_derived, coref=args.coref, only=args.only, model=args.model, base=args.base,
        closed=args.closed, plugins=[p.describe() for p in plugins],
    )


def arms_listing() -> str:
    """``-arms list``: the built-in arm sets with their arms, the installed plug-ins, and how to name one's own."""
    from .arms.plugin import GROUP, installed

    lines = ["arm sets:"]
    lines += [f"  {name:<8} {', '.join(arms)}" for name, arms in ARM_SETS.items()]
    lines.append(f"installed plug-ins (entry points {GROUP}):")
    found = installed()
    for name, ep in found.items():
        where = f"{ep.dist.name} {ep.dist.version}" if ep.dist is not None else "no distribution"
        lines.append(f"  {name:<8} {ep.value} ({where})")
    if not found:
        lines.append("  (none)")
    lines.append("any other plug-in: MODULE:ATTR (a class or function called with each conversation); "
                 "NAME+set reads a memory plug-in with the +set reader")
    return "\n".join(lines) + "\n"


def run_main(argv: Sequence[str]) -> int:
    """``locomo-repro run``: the benchmark over parsed flags; every failure one line on stderr."""
    # A run allocates a few million long-lived objects and frees little, so
    # frequent cyclic collections find nothing and cost a fifth of the CPU.
    gc.set_threshold(100_000, 20, 100)
    try:
        args = parser().parse_args(argv)
        return flushed(run(args))
    except UsageError as err:
        print(f"{PROG}: {err} (see {PROG} --help)", file=sys.stderr)
        return 2
    except (DatasetError, WorkerError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        silence_stdout()
        return 1
    except OSError as err:  # an output that could not be written after all: a file names itself, else stdout
        print(f"{PROG}: {err}" if err.filename else f"{PROG}: standard output: {err.strerror or err}", file=sys.stderr)
        silence_stdout()
        return 2
    except KeyboardInterrupt:  # a stopped model run resumes from its memo folder
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # a plug-in's: loaded only by a run, so --help never imports the memories
        from .arms.plugin import PluginError, PluginFailure

        if not isinstance(err, (PluginError, PluginFailure)):
            raise
        print(f"{PROG}: {err}", file=sys.stderr)  # nothing was written: outputs are written once the run is done
        return 2 if isinstance(err, PluginError) else 1


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand: the module whose ``main(argv)`` carries it out, the words put before its arguments, and
    one line of help."""

    module: str
    help: str
    prefix: tuple[str, ...] = ()


#: Every subcommand of ``locomo-repro``, in the order ``--help`` lists them.  ``run`` is the default: a
#: command line that starts with a flag (or is empty) runs the benchmark, as the reference's does.
COMMANDS: dict[str, Command] = {
    "run": Command("", "the benchmark: the publication's tables, sweeps, -out predictions, plug-ins (default)"),
    "stats": Command("locomo_repro.score.stats", "a predictions file read back: abstention, ROC AUCs, bootstrap"),
    "official": Command("locomo_repro.score.crosscheck", "predictions scored with the official evaluation.py"),
    "compare": Command("locomo_repro.score.compare", "results and predictions files side by side, paired"),
    "import": Command("locomo_repro.peers.__main__", "other systems' published answers, converted", ("import",)),
    "table": Command("locomo_repro.peers.__main__", "an imported file's arms side by side, like with like",
                     ("table",)),
    "peers": Command("locomo_repro.peers.__main__", "the peers' pinned files: fetch, import, table, check"),
    "report": Command("locomo_repro.report.cli", "the one-page HTML report (the report extra)"),
    "claims": Command("locomo_repro.claims.report", "the verdict of every published number"),
    "refined": Command("locomo_repro.refined.__main__", "LoCoMo-Refined: export, score, judge, predict"),
    "reach": Command("locomo_repro.bench.reach", "evidence reach of one- and two-hop walks of the graph"),
    "golden": Command("locomo_repro.score.golden", "the golden files rebuilt with the official scorer"),
    "bench": Command("locomo_repro.bench.perf", "speed and memory of benchmark commands (make bench)"),
    "stems": Command("locomo_repro.bench.stems", "the stem table the kit ships, remade (make stems)"),
}


def overview() -> str:
    """``locomo-repro --help``: the subcommands, one line each, then the benchmark's own flags."""
    lines = [f"usage: {PROG} [COMMAND] [ARGS ...]    ({PROG} COMMAND --help for a command's flags)", "",
             "commands:"]
    lines += [f"  {name:<10}{command.help}" for name, command in COMMANDS.items()]
    lines += ["", f"{PROG} with no command, or a flag first, runs the benchmark; its flags:", ""]
    return "\n".join(lines) + "\n" + parser().format_help()


def ended(status: Callable[[], int], prog: str) -> int:
    """A subcommand's exit status, with the failures of printing its results said in one line: a reader that
    went away (``| head``) is exit status 1, stdout on a full disk exit status 2, never a traceback."""
    try:
        return flushed(status())
    except BrokenPipeError:
        silence_stdout()
        return 1
    except OSError as err:  # a file the command could not write says which; otherwise it was stdout
        print(f"{prog}: {err.filename or 'standard output'}: {err.strerror or err}", file=sys.stderr)
        silence_stdout()
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro [COMMAND] ARGS``: the subcommand named first, else the benchmark."""
    argv = sys.argv[1:] if argv is None else list(argv)
    first = argv[0] if argv else ""
    if first in ("-h", "--help", "-help", "help"):
        sys.stdout.write(overview())
        return 0
    if first in ("--version", "-version"):
        print(f"{PROG} {__version__}")
        return 0
    if first and not first.startswith("-") and first not in COMMANDS:
        print(f"{PROG}: unknown command {first!r} (see {PROG} --help)", file=sys.stderr)
        return 2
    name = first if first in COMMANDS else "run"
    rest = argv[1:] if first in COMMANDS else argv
    if name == "run":
        return run_main(rest)
    command = COMMANDS[name]
    module = importlib.import_module(command.module)
    return ended(lambda: module.main([*command.prefix, *rest]), f"{PROG} {name}")
