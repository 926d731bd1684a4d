"""Re-judging, like with like: ``locomo-repro judge run FILE… --judge NAME --model M -o judged.json``.

Every reply of every arm of the predictions files (the kit's runs, plug-ins, imported peers) that the judge
judges (its categories, ``prompts``) is sent to one judge over an OpenAI-compatible endpoint, ``--repeats``
times, and the verdicts are written as the kit's judged file (``verdicts``), all or none.  With ``--probes``
each answerable question is also judged with four replies the kit makes (arms ``probe.wrong-gold``: the
gold of the next question of the same conversation and category, in file order, whose gold differs;
``probe.restated``: the question itself; ``probe.empty``: an empty reply; ``probe.gold``: the gold itself),
so that the judge's leniency and sensitivity can be measured.

Requests go through the kit's chat client (the key from ``HANZO_API_KEY`` or ``OPENAI_API_KEY``, sent to
the endpoint's origin only, never shown), ``-concurrency`` at once, each retried by ``ask.Asker``'s rule.  A
judgement that fails after its last attempt is a failed judgement (score None, the reason saying why): it is
written, named in the summary, and the exit status is 1.  Every verdict had is kept in the memo folder
(``read.model.Memo``: one file per request and repeat, never through a planted link), so a re-run asks
nothing twice and a stopped run resumes.  Progress, with the time left, and the tokens the endpoint
reports go to stderr; the tokens of every verdict are summed into the judged file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..data import dataset, jsonio
from ..data.atomic import flushed, silence_stdout, unwritable_all, write_files
from ..data.dataset import ANSWERABLE
from ..data.progress import Progress
from ..data.stop import Threads
from ..go.flags import Parser, UsageError, seconds, shown
from ..read.chat import ChatClient, ChatReply, key_problem, shown_url, url_problem
from ..read.model import DEFAULT_BASE_URL, KEY_VARIABLES, Memo, api_key
from ..score import predictions, signature
from . import prompts, verdicts
from .ask import Asker, Backoff, JudgeCancelled, JudgeError

PROG = "locomo-repro judge run"
#: Where verdicts are kept unless ``-memo`` says otherwise (relative to the working folder).
DEFAULT_MEMO = "out/judged"
#: The probes' arm names, in the order they are made.
PROBES = ("probe.wrong-gold", "probe.restated", "probe.empty", "probe.gold")
#: Failed judgements named one by one in the summary; the rest are counted.
SHOWN_FAILURES = 10


@dataclass(frozen=True)
class Task:
    """One reply to judge: where it is (conversation, question index, arm) and what the judge is shown."""

    sample_id: str
    qa: int
    arm: str
    item: prompts.Item


def _text(value: object) -> str:
    """A question's or a gold answer's JSON value as the judge is shown it: a string as it is, else its JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def evidence_text(conversation: dict[str, Any], evidence: Sequence[str]) -> str:
    """The evidence turns as LoCoMo-Plus's ``_evidence_to_text`` writes them: ``Speaker：text`` for each id
    ``D<session>:<turn>`` (ids split at ``;``), the turn counted from 1 in its session's list; ``[id] [Missing
    turn]`` for one that is not there and ``[id] [Parse error]`` for one that is no such id."""
    lines = []
    for evid in (part.strip() for raw in evidence for part in str(raw).split(";")):
        if not evid:
            continue
        try:
            session, turn = evid.split(":")
            turns = conversation.get(f"session_{int(session.replace('D', ''))}", [])
            index = int(turn) - 1
            if 0 <= index < len(turns):
                said = turns[index]
                lines.append(f"{said.get('speaker', 'Unknown')}：{said.get('text', '')}")
            else:
                lines.append(f"[{evid}] [Missing turn]")
        except (ValueError, AttributeError, TypeError):
            lines.append(f"[{evid}] [Parse error]")
    return "\n".join(lines)


def tasks(files: Sequence[predictions.Predictions], judge: prompts.Judge, probes: bool,
          conversations: dict[str, dict[str, Any]] | None = None) -> list[Task]:
    """Every reply the judge judges, file by file in file order (each question's arms in name order), then,
    with ``probes``, each answerable question's probes (a question in several files once)."""
    out: list[Task] = []
    asked: dict[tuple[str, int], prompts.Item] = {}  # each answerable question's first item, for its probes
    for file in files:
        for q in file.questions:
            if q.category not in judge.categories:
                continue
            gold = _text(predictions.gold(file, q))
            evidence = evidence_text((conversations or {}).get(q.sample, {}), q.evidence) if conversations else ""
            for arm in file.arms:
                item = prompts.Item(_text(q.question), gold, q.predictions[arm].reply, q.category, evidence)
                out.append(Task(q.sample, q.index, arm, item))
                if q.category in ANSWERABLE:
                    asked.setdefault((q.sample, q.index), item)
    if not probes:
        return out
    groups: dict[tuple[str, int], list[prompts.Item]] = {}  # by conversation and category, in file order
    at: dict[tuple[str, int], int] = {}
    for (sample, index), item in asked.items():
        group = groups.setdefault((sample, item.category), [])
        at[(sample, index)] = len(group)
        group.append(item)
    for (sample, index), item in asked.items():
        group, here = groups[(sample, item.category)], at[(sample, index)]
        other = next((o.gold for o in group[here + 1:] + group[:here]
                      if o.gold.strip().lower() != item.gold.strip().lower()), None)
        for arm, reply in zip(PROBES, (other, item.question, "", item.gold)):
            if reply is not None:
                out.append(Task(sample, index, arm, replace(item, reply=reply)))
    return out


@dataclass
class Usage:
    """Tokens the endpoint reported, summed (``prompt_tokens``, ``completion_tokens``, ``total_tokens``)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    def add(self, reported: object) -> None:
        if isinstance(reported, dict):
            for name in ("prompt_tokens", "completion_tokens", "total_tokens"):
                value = reported.get(name)
                if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                    setattr(self, name, getattr(self, name) + value)

    def line(self) -> str:
        return f"{self.prompt_tokens} prompt + {self.completion_tokens} completion = {self.total_tokens} tokens"


class Run:
    """One judge asked about many replies, through a memo (see the module's docstring); threads may share it."""

    def __init__(self, judge: prompts.Judge, asker: Asker, memo: str | None, overrides: dict[str, Any],
                 optional: tuple[str, ...]) -> None:
        self.judge = judge
        self.asker = asker
        self.memo = Memo(self._complete, memo, asker.client.model, sys.stderr)
        self.overrides = overrides
        self.optional = optional
        self.asked = Usage()  # this run's requests
        self.kept = Usage()  # every verdict's, memo included
        self._lock = threading.Lock()

    def request(self, item: prompts.Item) -> prompts.Request:
        built = self.judge.build(item)
        return prompts.Request(built.messages, {**built.params, **self.overrides})

    def _complete(self, key: str) -> str:
        """The memo's ``Complete``: the request named by ``key`` asked, its parsed reply kept as JSON."""
        wanted = json.loads(key)
        where = f"{wanted['where']} repeat {wanted['repeat']}"

        def parse(reply: ChatReply) -> ChatReply:
            self.judge.parse(reply.content)  # a reply with no label is a failed attempt, retried
            return reply

        reply = self.asker.ask(wanted["messages"], wanted["params"], parse, where, self.optional)
        usage = reply.raw.get("usage")
        with self._lock:
            self.asked.add(usage)
        return json.dumps({"content": reply.content, "usage": usage if isinstance(usage, dict) else None})

    def verdict(self, task: Task, repeat: int) -> verdicts.Verdict:
        """What the judge says of ``task`` at repeat ``repeat``: from the memo, else asked; a failed judgement
        (score None, the reason why) when every attempt failed."""
        request = self.request(task.item)
        key = json.dumps({"messages": list(request.messages), "params": request.params, "repeat": repeat,
                          "where": f"{task.sample_id} qa[{task.qa}]"}, sort_keys=True, ensure_ascii=False)
        label, score, reason = "", None, ""
        try:
            kept = json.loads(self.memo(key))
            reason = str(kept["content"])
            label, value = self.judge.parse(reason)
            score = value
            with self._lock:
                self.kept.add(kept.get("usage"))
        except JudgeCancelled:
            raise
        except JudgeError as err:
            reason = f"failed judgement: {err}"
        except (ValueError, KeyError, TypeError) as err:  # a memo entry that reads as no verdict
            reason = f"failed judgement: the kept reply gives no label ({err})"
        item = task.item
        return verdicts.Verdict(
            sample_id=task.sample_id, qa=task.qa, category=item.category, question=item.question, gold=item.gold,
            reply=item.reply, arm=task.arm, label=label, score=score, judge=self.judge.name,
            model=self.asker.client.model, prompt_sha256=self.judge.prompt_sha256, repeat=repeat, reason=reason)


def judge_all(run: Run, work: Sequence[Task], repeats: int, concurrency: int,
              progress: Progress | None = None) -> list[verdicts.Verdict]:
    """Every task at every repeat, in order (task by task, repeats in order), ``concurrency`` at a time;
    Ctrl-C abandons the work in flight (``data.stop.Threads``) and the memo keeps what was had."""
    jobs = [(task, repeat) for task in work for repeat in range(repeats)]
    failed = 0
    lock = threading.Lock()

    def one(task: Task, repeat: int) -> verdicts.Verdict:
        nonlocal failed
        got = run.verdict(task, repeat)
        if progress is not None:
            with lock:
                failed += got.failed
                note = f"{failed} failed"
            progress.advance(note=note)
        return got

    with Threads(concurrency, "judge") as pool:
        try:
            futures: list[Future] = [pool.submit(one, task, repeat) for task, repeat in jobs]
            return [f.result() for f in futures]
        except BaseException:
            run.asker.cancel()
            raise


# --- the command -------------------------------------------------------------------------------


def _flag(parser: argparse.ArgumentParser, name: str, **kw: Any) -> None:
    parser.add_argument(f"-{name}", f"--{name}", dest=name.replace("-", "_"), **kw)


def parser() -> Parser:
    p = Parser(prog=PROG, description="Send every reply of predictions files to one LLM judge; write its verdicts.")
    p.add_argument("files", nargs="+", metavar="FILE", help="predictions files (the official shape; import others)")
    _flag(p, "judge", metavar="NAME", help=f"the judge: {', '.join(prompts.NAMES)}")
    _flag(p, "prompt", metavar="FILE",
          help="a template of your own instead: {question}, {gold_answer}, {generated_answer}")
    _flag(p, "refined-root", metavar="DIR", help="with -judge refined: the LoCoMo-Refined checkout its prompt is in")
    _flag(p, "model", metavar="NAME", required=True, help="the judge's model")
    _flag(p, "base", metavar="URL", default=DEFAULT_BASE_URL,
          help=f"the OpenAI-compatible endpoint (default {DEFAULT_BASE_URL}; key from {' or '.join(KEY_VARIABLES)})")
    p.add_argument("-o", "-out", "--out", dest="out", metavar="FILE", required=True, help="the judged file to write")
    _flag(p, "repeats", type=int, default=1, metavar="N", help="times each reply is judged (default 1)")
    _flag(p, "temperature", type=float, metavar="T", help="the judge's temperature (default: its source's)")
    _flag(p, "seed", type=int, metavar="N", help="a sampling seed, sent while the endpoint takes one")
    _flag(p, "probes", action="store_true",
          help="also judge four replies the kit makes per answerable question (wrong gold, restated, empty, gold)")
    _flag(p, "concurrency", type=int, default=8, metavar="N", help="requests at once (default 8)")
    _flag(p, "memo", metavar="DIR", default=DEFAULT_MEMO,
          help=f"keep every verdict here, so a re-run asks nothing twice (default {DEFAULT_MEMO}; '' keeps none)")
    _flag(p, "data", metavar="PATH", help="with -judge locomo-plus: the dataset its evidence turns are read from")
    _flag(p, "answer-model", metavar="NAME", help="the model that wrote the replies, recorded (where known)")
    _flag(p, "answer-prompt", metavar="FILE", help="the prompt the replies were written with, recorded by sha256")
    _flag(p, "retrieval", metavar="TEXT", help="the retrieval settings of the replies, recorded (e.g. k=5)")
    _flag(p, "attempts", type=int, default=10, metavar="N", help="attempts per judgement (default 10)")
    _flag(p, "retry-wait", type=seconds, default=1.0, metavar="SECONDS", help="pause after a failure (default 1)")
    p.add_argument("-rate-limit-wait", "--rate-limit-wait", dest="rate_limit_wait", type=seconds, nargs=2,
                   default=[20.0, 60.0], metavar=("MIN", "MAX"), help="random pause after a rate limit (default 20 60)")
    _flag(p, "timeout", type=seconds, default=600.0, metavar="SECONDS", help="per request (default 600)")
    return p


def _checked(args: argparse.Namespace) -> tuple[str | None, tuple[float, float]]:
    """The API key, and the rate-limit pause, once every flag is checked (UsageError otherwise)."""
    if (args.judge is None) == (args.prompt is None):
        raise UsageError("name one judge: -judge NAME or -prompt FILE")
    if args.judge is not None and args.judge not in prompts.NAMES:
        raise UsageError(f"unknown judge {shown(args.judge)} (known: {', '.join(prompts.NAMES)}; or -prompt FILE)")
    if args.refined_root is not None and args.judge != "refined":
        raise UsageError("-refined-root is where -judge refined reads its prompt; no other judge reads it")
    if args.data is not None and args.judge != "locomo-plus":
        raise UsageError("-data is where -judge locomo-plus reads its evidence turns; no other judge reads it")
    if not args.model.strip():
        raise UsageError("-model takes a model name, got an empty one")
    for name, value in (("-repeats", args.repeats), ("-concurrency", args.concurrency), ("-attempts", args.attempts)):
        if value < 1:
            raise UsageError(f"{name} must be at least 1, got {value}")
    if args.temperature is not None and args.temperature < 0:
        raise UsageError(f"-temperature must be 0 or more, got {args.temperature}")
    if args.timeout <= 0:
        raise UsageError("-timeout must be positive")
    low, high = args.rate_limit_wait
    if high < low:
        raise UsageError("-rate-limit-wait MIN MAX needs MIN <= MAX")
    if problem := url_problem(args.base):
        raise UsageError(f"-base {shown_url(args.base)!r} {problem}")
    key = api_key()
    if key is not None and (problem := key_problem(key)):
        raise UsageError(f"the API key in {next(v for v in KEY_VARIABLES if os.environ.get(v))} {problem}")
    if problem := unwritable_all([("-o", args.out)]):
        raise UsageError(problem)
    return key, (low, high)


def evidence_conversations(data: str | None) -> dict[str, dict[str, Any]]:
    """The dataset's conversations by sample id, as read by the kit's one reader (locomo-plus's evidence)."""
    try:
        raw = jsonio.load(dataset.resolve(data))
    except dataset.DatasetError as err:
        raise UsageError(str(err)) from None
    return {str(s.get("sample_id")): s.get("conversation") or {} for s in raw if isinstance(s, dict)} \
        if isinstance(raw, list) else {}


def _sha256(path: str) -> str:
    return hashlib.sha256(jsonio.read(path).raw).hexdigest()


def facts(args: argparse.Namespace, judge: prompts.Judge, run: Run, files: Sequence[predictions.Predictions],
          temperature: object, verdicts_made: Sequence[verdicts.Verdict]) -> dict[str, Any]:
    """The judged file's judge facts: the judge (name, source, model, prompt sha256, endpoint), how it was
    asked (temperature, repeats, seed, probes), what the replies were (answer model and prompt, retrieval
    settings, where known; the files by sha256) and the tokens its verdicts cost."""
    return {
        "name": judge.name, "source": judge.source, "model": args.model, "prompt_sha256": judge.prompt_sha256,
        "endpoint": signature.endpoint(args.base), "temperature": temperature, "repeats": args.repeats,
        "seed": args.seed, "probes": args.probes,
        "answer_model": args.answer_model, "answer_prompt_sha256": _sha256(args.answer_prompt) if args.answer_prompt
        else None, "retrieval": args.retrieval,
        "predictions": [{"path": f.path, "sha256": f.sha256, "arms": list(f.arms)} for f in files],
        "judgements": len(verdicts_made), "failed": sum(v.failed for v in verdicts_made),
        "usage": vars(run.kept),
    }


def signed(args: argparse.Namespace, judge: prompts.Judge, files: Sequence[predictions.Predictions],
           temperature: object) -> signature.Signature:
    """The run's signature: the files, then the six facts (answer model and prompt where known, retrieval
    settings where known, the judge, its model, its prompt's sha256, repeats and temperature)."""
    fields: list[tuple[str, str]] = [("predictions", f.sha256[:signature.PREFIX]) for f in files]
    if args.answer_model:
        fields.append(("answer-model", args.answer_model))
    if args.answer_prompt:
        fields.append(("answer-prompt", _sha256(args.answer_prompt)[:signature.PREFIX]))
    if args.retrieval:
        fields.append(("retrieval", args.retrieval))
    fields += [("judge", judge.name), ("judge-model", args.model), ("judge-prompt", judge.prompt_sha256[:signature.PREFIX]),
               ("repeats", str(args.repeats)), ("temperature", "source" if temperature is None else
                                                signature.number(float(temperature))),  # type: ignore[arg-type]
               ("endpoint", signature.endpoint(args.base))]
    if args.seed is not None:
        fields.append(("seed", str(args.seed)))
    if args.probes:
        fields.append(("probes", "yes"))
    return signature.Signature(tuple(fields))


def summary(judge: prompts.Judge, made: Sequence[verdicts.Verdict]) -> str:
    """What stdout says: per arm the judgements, the failed ones and J (the mean score of the verdicts had),
    then each failed judgement named (the first ``SHOWN_FAILURES``)."""
    arms = list(dict.fromkeys(v.arm for v in made))
    width = max([len("arm"), *map(len, arms)])
    lines = [f"judge {judge.name} ({judge.prompt_sha256[:8]}): {len(made)} judgements, "
             f"{sum(v.failed for v in made)} failed", "",
             f"{'arm':<{width}}  judged  failed      J"]
    for arm in arms:
        had = [v.score for v in made if v.arm == arm and v.score is not None]
        failed = sum(1 for v in made if v.arm == arm and v.failed)
        share = f"{sum(had) / len(had):.3f}" if had else "—"
        lines.append(f"{arm:<{width}}  {len(had) + failed:>6}  {failed:>6}  {share:>5}")
    failures = [v for v in made if v.failed]
    for v in failures[:SHOWN_FAILURES]:
        lines.append(f"failed: {v.sample_id} qa[{v.qa}] {v.arm} repeat {v.repeat}: {v.reason}")
    if len(failures) > SHOWN_FAILURES:
        lines.append(f"failed: {len(failures) - SHOWN_FAILURES} more")
    return "\n".join(lines) + "\n"


def execute(args: argparse.Namespace) -> int:
    """Carry out a parsed command line."""
    key, rate_limit_wait = _checked(args)
    judge = prompts.user(Path(args.prompt)) if args.prompt else prompts.load(
        args.judge, Path(args.refined_root) if args.refined_root else None)
    files = [predictions.read(path) for path in args.files]
    seen: dict[str, str] = {}
    for f in files:
        for arm in f.arms:
            if arm in seen:
                raise UsageError(f"arm {arm} is in both {seen[arm]} and {f.path}: judge them in two runs")
            seen[arm] = f.path
    conversations = evidence_conversations(args.data) if judge.name == "locomo-plus" else None
    work = tasks(files, judge, args.probes, conversations)
    overrides: dict[str, Any] = {}
    if args.temperature is not None:
        overrides["temperature"] = args.temperature
    if args.seed is not None:
        overrides["seed"] = args.seed
    client = ChatClient(model=args.model, base_url=args.base, api_key=key, timeout=args.timeout)
    asker = Asker(client, Backoff(args.attempts, args.retry_wait, rate_limit_wait))
    run = Run(judge, asker, args.memo or None, overrides, (*judge.optional, *(("seed",) if args.seed is not None else ())))
    temperature = overrides.get("temperature", run.request(work[0].item).params.get("temperature") if work else None)
    sig = signed(args, judge, files, temperature)
    signature.emit(sig)
    if args.memo:
        print(f"{PROG}: verdicts are kept in {args.memo} (a re-run reads them back; -memo '' keeps none)",
              file=sys.stderr)
    with Progress(f"judge {judge.name}", len(work) * args.repeats, verb="judged") as progress:
        made = judge_all(run, work, args.repeats, args.concurrency, progress)
    body = verdicts.dumps(made, facts(args, judge, run, files, temperature, made), str(sig))
    write_files([(Path(args.out), body.encode())])
    sys.stdout.write(summary(judge, made))
    kept = f"{run.memo.hits} read from {args.memo}" if args.memo else "no memo"
    print(f"{PROG}: judge {judge.name}: {len(made)} judgements, {kept}, {len(made) - run.memo.hits} asked; "
          f"tokens asked: {run.asked.line()}; in the file: {run.kept.line()}", file=sys.stderr)
    return 1 if any(v.failed for v in made) else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro judge run``: every failure one line on stderr (exit 2 bad input, 1 failed judgements)."""
    try:
        return flushed(execute(parser().parse_args(argv)))
    except (UsageError, jsonio.InputError, predictions.PredictionsError) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the memo keeps the verdicts had: a re-run resumes
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 1
    except OSError as err:
        print(f"{PROG}: {err.filename or 'standard output'}: {err.strerror or err}", file=sys.stderr)
        silence_stdout()
        return 2
