"""Command line of the kit: ``locomo-repro`` / ``python -m locomo_repro``.

Accepts the reference's flag spellings (``-k 5 -floor 0.3 -arms walk -blind``,
Go's flag package) and the same with two dashes.  The result goes to stdout;
notes and progress go to stderr.  Bad input is one line and exit status 2.
"""

from __future__ import annotations

import gc

# The modules imported below make some hundred thousand objects and hardly any garbage, so the collector,
# left on, would look over them two dozen times for nothing (5 ms, a fortieth of a one-conversation run): it
# is off until they are in, then they are frozen out of its sight (as a run freezes what it loads before its
# first conversation), and it is left as it was.
_COLLECTING = gc.isenabled()
gc.disable()

import argparse
import atexit
import contextlib
import importlib
import itertools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TextIO
from pathlib import Path

from . import __version__
from .bench import plan
from .bench.names import ARM_SETS, STEPS
from .data.atomic import flushed, silence_stdout, unwritable_all, write_files
from .data.progress import Progress
from .go.flags import Parser, UsageError
from .data.dataset import DatasetError
from .data.jsonio import InputError
from .read.endpoint import DEFAULT_BASE_URL, DEFAULT_MEMO, KEY_VARIABLES, api_key
from .read.reader import Options
from .score import signature
from .score.key import AUDITED, Key, flag as key_flag, load as load_key
from .data.records import record

if TYPE_CHECKING:
    from .bench import stream
    from .judge.figures import Judging
    from .judge.verdicts import Verdict
    from .read.model import Model

gc.freeze()
if _COLLECTING:
    gc.enable()

PROG = "locomo-repro"

# The kit does no linear algebra, yet numpy starts OpenBLAS's thread pool when it is first imported
# (by a run, not by --help), and those threads cost a tenth of a second of CPU a process for nothing.
# One thread, unless the caller chose otherwise; the workers of -jobs inherit it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# At exit the interpreter collects garbage over every object still alive (the modules, numpy's, the memos)
# before it frees them, some 15 ms for nothing: what is left when the command is done is frozen out of the
# collector's sight first, and still freed (and a file still closed) as its module is let go.
atexit.register(gc.freeze)


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
    _flag(p, "sweep", type=sweep_spec, metavar="SETTING",
          help=f"run once per value of one setting: {', '.join(sorted(STEPS))}, or a plug-in's, "
               "'ARM(KEY=V1,V2,...)'")
    _flag(p, "show", type=int, default=0, metavar="N", help="print N answered questions per category")
    _flag(p, "only", type=int, default=0, metavar="N", help="use only the first N conversations")
    _flag(p, "conversations", metavar="ID,...",
          help="only these conversations, by sample id (conv-26,conv-30), in the dataset's order")
    _flag(p, "limit", type=int, default=0, metavar="N", help="only the first N questions of each conversation")
    _flag(p, "quiet", action="store_true", help="leave out the per-conversation build lines")
    _flag(p, "arms", default="main", metavar="SET",
          help="arm set: main, factor, walk, read, gather (graph read with the +set reader), or hops "
          "(graph+set and walks of 1-3 hops, guided and not, all read with the +set reader); or one arm of a "
          "set by its name (vector); or a plug-in, "
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
    _flag(p, "judge", metavar="NAME",
          help="also judge every reply with this judge of `locomo-repro judge run` (mem0, longmemeval, evermemos, "
               "locomo-plus): J per arm beside the F1, in -json's results (docs/judge.md)")
    _flag(p, "judge-prompt", metavar="FILE",
          help="with -judge prompt: a template of your own, as judge run's -prompt")
    _flag(p, "judge-model", metavar="NAME", help="with -judge, the judge's model (default: -model's)")
    _flag(p, "judge-base", metavar="URL", help="with -judge, the judge's endpoint (default: -base)")
    key_flag(p)
    _flag(p, "retries", type=int, default=0, metavar="N",
          help="try a plug-in's call that raised up to N more times, waiting 1 s, then twice as long each time "
               "(at most 30 s); the failures are counted on stderr (default 0)")
    _flag(p, "traceback", action="store_true",
          help="when a plug-in fails, print its own stack on stderr before the one line that says so")
    _flag(p, "wrong-gold", action="store_true",
          help="under the official key, also give per arm the share of its answerable F1 from the questions "
               "whose gold locomo-audit finds wrong (docs/key.md)")
    _flag(p, "jobs", type=int, default=os.cpu_count() or 1, metavar="N",
          help="worker processes building and asking conversations (default: the machine's cores; never more "
               "than -only; 1: all in this process; a -model run asks from this process, with -concurrency threads)")
    return p


def sweep_spec(text: str) -> str:
    """``-sweep``'s value: a reader setting's name, or a plug-in's setting with its values (``names.plugin_sweep``)."""
    if problem := plan.sweep_problem(text):
        raise argparse.ArgumentTypeError(problem)
    return text


def options(args: argparse.Namespace) -> Options:
    """The run settings, checked."""
    opts = Options(k=args.k, floor=args.floor, span=args.span, band=args.band, parts=args.parts)
    if problem := opts.problem():  # before anything is imported: a refused flag loads no memory
        raise UsageError(problem)
    if args.show < 0:
        raise UsageError("-show, -only and -limit take a count of 0 or more")
    if found := plan.problem(run_settings(args, opts), scope(args)):
        raise UsageError(found)
    if args.resume and args.model is not None:
        raise UsageError("-resume keeps runs without -model; a -model run resumes from its -memo folder, "
                         "which keeps every answer")
    return opts


def scope(args: argparse.Namespace) -> plan.Scope:
    """What the parsed flags ask of the run as a whole: the dataset, the conversations and questions, the
    model beside, the worker processes."""
    picked = tuple(args.conversations.split(",")) if args.conversations is not None else ()
    return plan.Scope(data=args.data, conversations=picked, only=args.only, limit=args.limit, model=args.model,
                      base=args.base, closed=args.closed, jobs=args.jobs)


@contextlib.contextmanager
def counted(progress: Progress, calls: bool) -> Iterator[None]:
    """With ``calls``, the plug-ins' calls in this process counted on the progress line while it runs (a slow
    plug-in shows how far it is within a conversation)."""
    if not calls:
        yield
        return
    from .arms import plugin

    made = itertools.count(1)
    plugin.heard(lambda: progress.advance(0, note=f"{next(made)} plug-in calls"))
    try:
        yield
    finally:
        plugin.heard(None)


def model(args: argparse.Namespace, at: Path = Path(), run: Callable[[], str] = str) -> Model | None:
    """The model reader ``-model`` asks for, checked before anything is built (``None`` without it); a
    relative ``-memo`` is a folder of ``at``.  The endpoint is not checked when the memo holds every answer
    of the run whose signature ``run()`` gives."""
    if args.model is None:
        if args.closed:
            raise UsageError("-closed needs -model")
        return None
    if not args.model.strip():
        raise UsageError("-model takes a model name, got an empty one")
    from .read.chat import is_http_url, key_problem, shown_url, url_problem
    from .read.model import open_model, probe  # here: a run without -model imports no HTTP client

    if not is_http_url(args.base):
        raise UsageError(f"-base must be an http(s) URL, got {shown_url(args.base)!r}")
    if problem := url_problem(args.base):  # a password in it: refused, and never shown
        raise UsageError(f"-base {shown_url(args.base)!r} {problem}")
    key = api_key()
    if key is None:
        raise UsageError(f"-model {args.model} needs an API key in {' or '.join(KEY_VARIABLES)}")
    if problem := key_problem(key):  # refused before any work, and never quoted
        raise UsageError(f"the API key in {next(v for v in KEY_VARIABLES if os.environ.get(v))} {problem}")
    reader = open_model(args.model, args.base, key, at / args.memo if args.memo else None)
    if not reader.memo.holds(run()) and (problem := probe(args.model, args.base, key)):
        raise UsageError(f"-model {args.model}: {problem}")  # before anything is built: not an hour of declines
    if args.memo:
        print(f"{PROG}: the model's answers are kept in {args.memo} (a rerun reads them back; -memo '' keeps none)",
              file=sys.stderr)
    return reader


def judging(args: argparse.Namespace) -> Judging | None:
    """The judge ``-judge`` asks for, read from its source and checked before anything is built (``None``
    without it): refused with ``-sweep`` (one pass is judged)."""
    if args.judge is None:
        for name in ("judge_prompt", "judge_model", "judge_base"):
            if getattr(args, name) is not None:
                raise UsageError(f"-{name.replace('_', '-')} needs -judge")
        return None
    if args.sweep:
        raise UsageError("-judge judges one pass; it is not taken with -sweep")
    if (args.judge == "prompt") != (args.judge_prompt is not None):
        raise UsageError("-judge prompt takes -judge-prompt FILE, and -judge-prompt needs -judge prompt")
    model_name = args.judge_model or args.model
    if not model_name or not model_name.strip():
        raise UsageError("-judge needs the judge's model: -judge-model NAME (or -model's)")
    from .judge import prompts
    from .judge.figures import Judging
    from .judge.run import DEFAULT_MEMO as JUDGED, evidence_conversations
    from .read.chat import ChatClient, key_problem, shown_url, url_problem

    base = args.judge_base or args.base
    if problem := url_problem(base):
        raise UsageError(f"-judge-base {shown_url(base)!r} {problem}")
    key = api_key()
    if key is not None and (problem := key_problem(key)):
        raise UsageError(f"the API key in {next(v for v in KEY_VARIABLES if os.environ.get(v))} {problem}")
    if args.judge != "prompt" and args.judge not in prompts.NAMES or args.judge == "refined":
        raise UsageError(f"-judge {args.judge}: the judges are mem0, longmemeval, evermemos, locomo-plus and prompt "
                         f"(refined: locomo-repro judge run -judge refined -refined-root DIR)")
    try:
        judge = prompts.user(Path(args.judge_prompt)) if args.judge_prompt else prompts.load(args.judge)
    except prompts.PromptError as err:
        raise UsageError(f"-judge {args.judge}: {err}") from None
    conversations = evidence_conversations(args.data) if judge.name == "locomo-plus" else None
    client = ChatClient(model=model_name, base_url=base, api_key=key)
    return Judging(judge, client, str(Path.cwd() / JUDGED) if args.memo else None, args.concurrency or 8, conversations)


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Carry out a parsed command line.  Relative paths are resolved once, here, against the working folder
    (a plug-in that changes it moves none of them); what is printed keeps them as given."""
    opts = options(args)
    at = Path.cwd()
    if args.data:
        args.data = str(at / args.data)
    if args.stats:
        if args.judge:
            raise UsageError("-judge judges a run's replies; -stats reads a predictions file and runs nothing")
        if args.json:
            raise UsageError("-json writes a run's results; -stats reads a predictions file and runs nothing")
        from .score import stats

        return stats.main([args.stats, *(["-key", args.key] if args.key != "official" else [])])
    if args.arms == "list":
        out.write(arms_listing())
        return 0
    settings, chosen = run_settings(args, opts), scope(args)
    plugins = plan.loaded(settings, chosen)  # refused before any work
    reader = model(args, at, lambda: str(plan.signed(settings, chosen, plugins, load_key(args.key))))
    judge = judging(args)
    outputs = [(flag, path) for flag, path in (("-out", args.out), ("-json", args.json)) if path]
    if args.out and args.sweep:  # the reference ignores -out with -sweep; so does the kit, but says so
        outputs = outputs[1:]
        print(f"{PROG}: note: -out {args.out} is not written with -sweep (as in the reference)", file=sys.stderr)
    inputs = [("-data", args.data or os.environ.get("LOCOMO_DATA"))]
    if problem := unwritable_all(outputs, inputs):  # each writable, no two one file, none an input: before any work
        raise UsageError(problem)
    answer_key = load_key(args.key)  # before any work: a bad errors file is one line
    if args.wrong_gold and (not answer_key.official or args.sweep):
        raise UsageError("-wrong-gold gives shares of the table's F1 under the official key: not with "
                         + ("-key audited" if not answer_key.official else "-sweep"))
    wrong = load_key(AUDITED) if args.wrong_gold else None
    from .bench import stream

    summary = gathered(args, settings, wrong)
    if reader is None:  # read, built and asked one conversation at a time: memory flat in the dataset's size
        signed = plan.signed(settings, chosen, plugins, answer_key, judge, wrong)
        kept = None
        if args.resume:
            from .bench.resume import Kept

            kept = Kept(at / args.resume, str(signed), len(settings.passes()))
        # a bar on a terminal, else a line every 10 s, with the time left
        with Progress("questions", count=chosen.asked) as progress, counted(progress, chosen.workers == 1 and bool(plugins)):
            for got in stream.outcomes(chosen.samples(answer_key), settings, chosen.workers, kept):
                summary.add(got)
                progress.advance(got.questions)
        if kept is not None and kept.read:
            print(f"{PROG}: {kept.read} conversations read back from {args.resume}", file=sys.stderr)
        signed = plan.drawn(signed, summary.conversations)
        signature.emit(signed)  # once the whole file is read: a bad one is one line
        return finish(summary, args, out, signed, answer_key, at, judge=judge)
    from .bench import experiment as bench

    samples = list(chosen.samples(answer_key))
    base = plan.signed(settings, chosen, plugins, answer_key, judge, wrong)
    signed = plan.drawn(base, len(samples))
    signature.emit(signed)
    # The model waits on the endpoint, not on a core: its run is asked from here, with threads (which a
    # Ctrl-C does not wait for: ``stop.Threads``).
    from .data.stop import Threads

    with Threads(args.concurrency or 8, "model") as pool:
        for i, sample in enumerate(samples):
            (case,) = bench.build([sample], args.arms, args.blind, derive=not args.no_derived, coref=args.coref,
                                  retries=args.retries)
            bench.add_model_arms([case], reader, args.closed)
            if i == 0:
                reads = sum(len(s.questions) for s in samples) * sum(a.remote for a in case.arms)
                reader.expect(reads * len(settings.passes()))
            summary.add(stream.outcome(case, settings, pool))
    status = finish(summary, args, out, signed, answer_key, at, reader, judge)
    out.write(reader.cost() + "\n")
    if reader.whole():  # a rerun asks the endpoint nothing, not even the check
        reader.memo.note(str(base))  # the signature the check is skipped for (model's ``run``)
    return status


def run_settings(args: argparse.Namespace, opts: Options) -> stream.Settings:
    """What the parsed flags ask each conversation to build and answer."""
    from .bench import stream

    return stream.Settings(options=opts, arm_set=args.arms, blind=args.blind, derive=not args.no_derived,
                           coref=args.coref, sweep=args.sweep,
                           concurrency=1 if args.concurrency is None else args.concurrency, retries=args.retries)


def gathered(args: argparse.Namespace, settings: stream.Settings, wrong: Key | None = None) -> stream.Report:
    """An empty report of a run with these flags: what it keeps for -show, -out, -json and -wrong-gold (``wrong``
    the audited key)."""
    from .bench import stream

    return stream.Report(settings, show=args.show, quiet=args.quiet,
                         predictions=bool(args.out or args.judge) and not args.sweep, sums=bool(args.json), wrong=wrong)


def finish(summary: stream.Report, args: argparse.Namespace, out: TextIO, signed: signature.Signature,
           answer_key: Key = Key(), at: Path = Path(), reader: Model | None = None,
           judge: Judging | None = None) -> int:
    """Print the gathered run and write ``-out`` (not with -sweep, as in the reference) and ``-json``, both
    or neither, a relative path in the folder ``at``; ``signed`` is the run's signature, which ``-json``
    records with the answer key.  With ``judge``, every reply is judged first: its J rows go into ``-json``
    and its summary (``judge run``'s) after the table.  The exit status: 1 when a judgement failed, else 0."""
    out.write(summary.text(progress=sys.stderr))
    files = []
    replies = summary.predictions() if (args.out or judge) and not args.sweep else b""
    if args.out and not args.sweep:
        files.append((at / args.out, replies))
    made_verdicts: list[Verdict] = []
    facts: dict[str, object] = {}
    if judge is not None:  # shown the gold under the key; the questions it holds apart are not asked
        apart = frozenset() if answer_key.official else frozenset(
            (s.id, i) for s in scope(args).samples(answer_key) for i, q in enumerate(s.questions) if q.held)
        made_verdicts, facts = judge.ask(replies, args.out or "the run's replies", apart)
    if args.json:
        from .score.results import encode, judged

        made = plan.results(summary, scope(args), signed, answer_key)
        if reader is not None:
            from .score.results import Tokens

            made = replace(made, tokens=Tokens(reader.name, reader.tokens.prompt, reader.tokens.completion,
                                               reader.tokens.replies))
        if judge is not None:
            from .judge.figures import by_arm

            made = judged(made, facts, by_arm(made_verdicts, made.conversations, list(made.passes[0].arms)))
        files.append((at / args.json, encode(made)))
    if files:
        write_files(files)
    if args.out and not args.sweep:
        out.write(f"\npredictions: {args.out} ({', '.join(summary.arms)})\n")
    if judge is not None:
        from .judge.run import summary as judged_summary

        out.write("\n" + judged_summary(judge.judge, made_verdicts))
    for note in summary.whole():
        print(f"{PROG}: note: {note}", file=sys.stderr)
    for line in summary.costs():
        print(f"{PROG}: {line}", file=sys.stderr)
    if reader is not None:
        t = reader.tokens
        print(f"{PROG}: model {reader.name}: {t.prompt} prompt and {t.completion} completion tokens, as the endpoint "
              f"reported them for {t.replies} of its {reader.calls - reader.hits} replies bought", file=sys.stderr)
    failures = {costs[0].of: costs for costs in summary.spent.values()}  # two arms of one plug-in: counted once
    for name, costs in failures.items():  # measured, so on stderr: never in stdout's bytes
        if failed := sum(cost.failures for cost in costs):
            print(f"{PROG}: note: arm {name}: {failed} calls failed and were tried again (-retries {args.retries})",
                  file=sys.stderr)
    return 1 if any(v.failed for v in made_verdicts) else 0


def arms_listing() -> str:
    """``-arms list``: the built-in arm sets with their arms, the installed plug-ins with their kind, and how to
    name one's own; every name in one aligned column."""
    from .arms.plugin import GROUP, PluginError, installed, kind, load

    found = installed()
    width = max(len(name) for name in [*ARM_SETS, *found])
    lines = ["arm sets:"]
    lines += [f"  {name:<{width}} {', '.join(arms)}" for name, arms in ARM_SETS.items()]
    lines.append("  (or one arm of a set by its name, beside others: -arms vector,MODULE:ATTR)")
    lines.append(f"installed plug-ins (entry points {GROUP}):")
    for name, ep in found.items():
        where = f"{ep.dist.name} {ep.dist.version}" if ep.dist is not None else "no distribution"
        try:
            factory = load(name).factory
            what = (kind(factory) or "neither memory nor answerer") if isinstance(factory, type) else \
                "a function: its object's kind"
        except PluginError as err:
            what = f"cannot be loaded: {str(err).removeprefix(f'-arms {name}: ')}"
        lines.append(f"  {name:<{width}} {ep.value} ({where}): {what}")
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
    args = None
    try:
        args = parser().parse_args(argv)
        return flushed(run(args))
    except UsageError as err:
        print(f"{PROG}: {err} (see {PROG} --help)", file=sys.stderr)
        return 2
    except (DatasetError, InputError) as err:  # InputError: a -resume folder's planted file
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
    except Exception as err:  # a worker's, the errors file's, a plug-in's: each module is imported only by the
        # runs that can raise its errors (and here), so --help and a plain run import none of them
        from .arms.plugin import PluginError, PluginFailure
        from .data.audit import AuditError
        from .data.stop import WorkerError

        if isinstance(err, (WorkerError, AuditError)):
            print(f"{PROG}: {err}", file=sys.stderr)
            return 2
        if not isinstance(err, (PluginError, PluginFailure)):
            raise
        if args is not None and args.traceback and err.stack:  # the plug-in's own stack, then the one line
            sys.stderr.write(err.stack)
        print(f"{PROG}: {err}", file=sys.stderr)  # nothing was written: outputs are written once the run is done
        return 2 if isinstance(err, PluginError) else 1


@record
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
    "leaderboard": Command("locomo_repro.peers.leaderboard", "every public answer file like with like: ranks, ties"),
    "key": Command("locomo_repro.score.ceiling", "the audited answer key: errors and ceilings per category"),
    "categories": Command("locomo_repro.score.mapping", "which category mapping a file of any harness uses"),
    "import": Command("locomo_repro.peers.__main__", "other systems' published answers, converted", ("import",)),
    "table": Command("locomo_repro.peers.__main__", "an imported file's arms side by side, like with like",
                     ("table",)),
    "peers": Command("locomo_repro.peers.__main__", "the peers' pinned files: fetch, import, table, check"),
    "plus": Command("locomo_repro.peers.plus_cli", "LoCoMo-Plus: its cognitive items stitched, its run imported"),
    "report": Command("locomo_repro.report.cli", "the one-page HTML report (the report extra)"),
    "claims": Command("locomo_repro.claims.report", "the verdict of every published number"),
    "judge": Command("locomo_repro.judge.__main__", "LLM judges: verdicts read and measured (stats), replies re-judged (run)"),
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
    width = max(map(len, COMMANDS)) + 2
    lines += [f"  {name:<{width}}{command.help}" for name, command in COMMANDS.items()]
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


def stderr_kept() -> None:
    """With stderr closed (``2>&-``) the interpreter starts with ``sys.stderr`` None, and ``print(file=None)``
    writes to stdout: the signature and every note would land among the results.  A null device stands in
    for it, on descriptor 2 (which the next file opened would otherwise take)."""
    if sys.stderr is not None:
        return
    null = os.open(os.devnull, os.O_WRONLY)
    if null != 2:
        os.dup2(null, 2)
        os.close(null)
    sys.stderr = open(2, "w", closefd=False)  # the process's stderr, for its whole life


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro [COMMAND] ARGS``: the subcommand named first, else the benchmark."""
    stderr_kept()
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
    if command.prefix:  # ``import`` and ``table`` are peers' subcommands, named as they were called
        return ended(lambda: module.main([*command.prefix, *rest], prog=PROG), f"{PROG} {name}")
    return ended(lambda: module.main(rest), f"{PROG} {name}")
