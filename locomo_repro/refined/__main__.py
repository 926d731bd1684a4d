"""Command line: ``locomo-repro refined {export,predict,score,judge}``.

Bad input ends with one line naming the file and the problem and exit status 2;
a failed arm or judge ends with exit status 1. Outputs are written only when the
whole run succeeded, each file atomically.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..data.progress import Progress
from ..go import flags
from ..data import jsonio
from ..data.atomic import flushed, silence_stdout, unwritable_all
from ..read.chat import ChatClient, is_http_url, key_problem, shown_url, url_problem
from ..score import signature
from . import export, judge, predict, score, summary
from .files import InputError, json_text, load_records, read_source, records_text, write_atomic

PUBLIC_QUESTIONS = Path("data/public/questions.jsonl")
RAW_DATASET = Path("data/raw/locomo_refined.json")


class Usage(Exception):
    """A command line that cannot run, explained in one line (exit status 2)."""


def _err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _progress(label: str):
    """A ``(done, total)`` callback over the kit's one progress rule (``data.progress``: a bar on a terminal,
    else a line every ten seconds)."""
    progress = Progress(label)

    def report(done: int, total: int) -> None:
        if progress.total is None:
            progress.expect(total)
        progress.advance(done - progress.done)
        if done == total:
            progress.close()
    return report


def _dataset_path(data: str | None) -> Path:
    """The LoCoMo dataset the kit is pointed at (``--data``, else the kit's default)."""
    from ..data import dataset

    try:
        return dataset.resolve(data)
    except dataset.DatasetError as exc:
        raise Usage(str(exc)) from None


def _refined_questions(root: Path) -> Path:
    for candidate in (root / PUBLIC_QUESTIONS, root / RAW_DATASET):
        if candidate.is_file():
            return candidate
    raise Usage(f"{root}: has neither {PUBLIC_QUESTIONS} nor {RAW_DATASET}")


def _questions(args: argparse.Namespace) -> tuple[list[dict[str, Any]], str]:
    """Questions from --questions, else from the Refined checkout, else exported from the dataset."""
    if args.questions:
        path = Path(args.questions)
    elif args.refined_root:
        path = _refined_questions(Path(args.refined_root))
    else:
        path = _dataset_path(args.data)
        return export.read_dataset(path).questions, str(path)
    questions = export.load_questions(path)
    if not questions:
        raise InputError(f"{path}: no question records")
    return questions, str(path)


def _print_json(value: Any) -> None:
    print(jsonio.dumps(value, ensure_ascii=False, indent=2))


# --- export ------------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace) -> int:
    if args.max_conversations is not None and args.max_conversations < 0:
        raise Usage(f"--max-conversations takes a count of 0 or more, got {args.max_conversations}")
    if args.refined_root and not args.data:
        source = Path(args.refined_root) / RAW_DATASET
    else:
        source = _dataset_path(args.data)
    out = Path(args.out) if args.out else Path(f"{source.stem}_public")
    public = export.read_dataset(source, args.max_conversations)
    paths = export.write_public(public, out)
    _print_json({"output_dir": str(out), **{k: str(v) for k, v in paths.items()},
                 "conversation_count": len(public.conversations), "question_count": len(public.questions)})
    return 0


# --- predict -----------------------------------------------------------------------------


def cmd_predict(args: argparse.Namespace) -> int:
    inputs = [("--questions", args.questions), ("--data", args.data)]
    if problem := unwritable_all([("--out", args.out)], inputs):  # before any work; never over an input
        raise Usage(problem)
    at = Path.cwd()  # the output resolved once: a plug-in that changes the working folder does not move it
    if args.arm not in predict.arm_names():  # a plug-in, loaded here: one that cannot be is a usage error
        try:
            predict.plugged(args.arm)
        except predict.ArmError as err:
            raise Usage(str(err)) from None
    questions, source = _questions(args)
    answer = predict.answerer(args.arm, args.data)
    records = predict.predict(questions, answer, progress=_progress(f"predict {args.arm}"))
    out = Path(args.out)
    write_atomic({at / out: records_text(records, out)})
    _print_json({"arm": args.arm, "questions": source, "prediction_count": len(records), "output_path": str(out)})
    return 0


# --- score and judge ---------------------------------------------------------------------


def scored_path(predictions: Path) -> Path:
    """Refined's default: ``<stem>_scored.jsonl`` beside a JSONL file, ``<stem>_scored<suffix>`` otherwise."""
    if predictions.suffix == ".jsonl":
        return predictions.with_name(f"{predictions.stem}_scored.jsonl")
    return predictions.with_name(f"{predictions.stem}_scored{predictions.suffix or '.json'}")


def _outputs(args: argparse.Namespace) -> tuple[Path, Path, Path]:
    scored = Path(args.out) if args.out else scored_path(Path(args.predictions))
    summary_json = Path(args.summary) if args.summary else scored.with_name(f"{scored.stem}_summary.json")
    summary_md = Path(args.markdown) if args.markdown else summary_json.with_suffix(".md")
    return scored, summary_json, summary_md


def _metrics(requested: Sequence[str]) -> frozenset[str]:
    try:
        return score.metric_set(requested)
    except ValueError as exc:
        raise Usage(str(exc)) from None


def _prompt(args: argparse.Namespace) -> str:
    if args.judge_prompt:
        return judge.prompt_from_file(Path(args.judge_prompt))
    if args.refined_root:
        return judge.prompt_from_refined(Path(args.refined_root), args.llm_judge)
    raise Usage("the judge needs its prompt: pass --refined-root DIR (a LoCoMo-Refined checkout) "
                "or --judge-prompt FILE")


def _score(args: argparse.Namespace, metrics: frozenset[str], the_judge: judge.Judge | None,
           judged: Sequence[tuple[str, str]] = ()) -> int:
    """Score and summarise; ``judged`` names the judge (prompt digest, model, endpoint) in the signature."""
    questions, source = _questions(args)
    scored_out, summary_out, markdown_out = _outputs(args)
    predictions_path = Path(args.predictions)
    predictions_file = read_source(predictions_path)  # read once: its records, then its signature
    predictions = score.index_predictions(
        load_records(predictions_file), questions, source=predictions_path,
        allow_extra=args.allow_extra_predictions)
    if len(predictions) < len(questions):
        if args.only_predicted:
            questions = [q for q in questions if score._qid(q) in predictions]
        else:
            _err(f"WARNING: {predictions_path} predicts {len(predictions)} of the {len(questions)} questions; the "
                 f"other {len(questions) - len(predictions)} are scored as empty answers (an empty answer to a "
                 f"question without gold scores 1); --only-predicted scores the {len(predictions)} alone")
    merged = score.merge(questions, predictions, args.llm_judge)
    scored = score.score_records(
        merged, metrics, the_judge, concurrency=getattr(args, "concurrency", 1),
        on_abort=the_judge.cancel if the_judge is not None else None,
        progress=_progress("judge") if the_judge is not None else None)
    sig = signature.predictions(
        predictions_path, "refined", ("questions", signature.digest(json_text(questions).encode())),
        ("metrics", "+".join(sorted(metrics))), *judged, sha256=predictions_file.sha256)
    result = summary.summarize(scored, str(sig))
    write_atomic({
        scored_out: records_text(scored, scored_out),
        summary_out: json_text(result),
        markdown_out: summary.markdown(result),
    })
    _print_json({
        "record_count": len(scored),
        "prediction_count": len(predictions),
        "questions": source,
        "output_path": str(scored_out),
        "summary_path": str(summary_out),
        "markdown_path": str(markdown_out),
        "primary_metric": result["primary_metric"],
        "overall": {f: result["overall"][f] for f in result["metric_fields"]},
    })
    signature.emit(sig)
    return 0


def _writable(args: argparse.Namespace) -> None:
    """Refuse, before any work, outputs that cannot be written or that name one file twice."""
    scored, summary_json, summary_md = _outputs(args)
    inputs = [("--predictions", args.predictions), ("--questions", args.questions), ("--data", args.data),
              ("--judge-prompt", getattr(args, "judge_prompt", None))]
    if problem := unwritable_all([("--out", scored), ("--summary", summary_json), ("--markdown", summary_md)], inputs):
        raise Usage(problem)


def cmd_score(args: argparse.Namespace) -> int:
    _writable(args)
    metrics = _metrics(args.metrics)
    if "llm" in metrics:
        raise Usage("score computes lexical metrics only; use the judge subcommand for llm")
    return _score(args, metrics, None)


def cmd_judge(args: argparse.Namespace) -> int:
    _writable(args)
    metrics = _metrics(args.metrics)
    the_judge = None
    judged: list[tuple[str, str]] = []
    if "llm" in metrics:
        prompt = _prompt(args)
        if args.concurrency < 1 or args.attempts < 1 or args.timeout <= 0:
            raise Usage("--concurrency and --attempts must be at least 1 and --timeout positive")
        low, high = args.rate_limit_wait
        if high < low:
            raise Usage("--rate-limit-wait MIN MAX needs MIN <= MAX")
        endpoint = judge.resolve_endpoint(args.model, args.base_url, args.api_key)
        if flags.has_control(endpoint.model):  # from $EVALUATOR_MODEL: it would forge the signature line
            raise Usage(f"the judge model name {flags.shown(endpoint.model)} holds a control character")
        if endpoint.api_key and (problem := key_problem(endpoint.api_key)):  # before any work, never quoted
            raise Usage(f"the API key {problem}")
        if not is_http_url(endpoint.base_url):
            raise Usage(f"--base-url must be an http(s) URL, got {shown_url(endpoint.base_url)!r}")
        if problem := url_problem(endpoint.base_url):  # a password in it: refused, and never shown
            raise Usage(f"--base-url {shown_url(endpoint.base_url)!r} {problem}")
        warning = judge.model_warning(endpoint.model)
        if warning:
            _err(warning)
        client = ChatClient(model=endpoint.model, base_url=endpoint.base_url,
                            api_key=endpoint.api_key, timeout=args.timeout)
        the_judge = judge.Judge(client, prompt, judge.Backoff(args.attempts, args.retry_wait, (low, high)))
        judged = [("judge", args.llm_judge), ("prompt", signature.digest(prompt.encode())),
                  ("model", endpoint.model), ("endpoint", signature.endpoint(endpoint.base_url))]
    return _score(args, metrics, the_judge, judged)


# --- parser ------------------------------------------------------------------------------


def _question_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("questions (first given wins; default: exported from the dataset)")
    group.add_argument("--questions", metavar="FILE",
                       help="questions.jsonl (or a JSON array), or a LoCoMo-format dataset such as "
                            "Refined's data/raw/locomo_refined.json")
    group.add_argument("--refined-root", metavar="DIR",
                       help="a LoCoMo-Refined checkout: its data/public/questions.jsonl "
                            "(or data/raw/locomo_refined.json) and, for judge, its src/llm_judge.py")
    group.add_argument("--data", metavar="PATH", help="the LoCoMo dataset (default: the kit's dataset setting)")


def _score_options(parser: argparse.ArgumentParser, default_metrics: list[str]) -> None:
    _question_options(parser)
    parser.add_argument("--predictions", required=True, metavar="FILE",
                        help='predictions.jsonl: one {"qa_id", "predicted_answer"} per line')
    parser.add_argument("--out", metavar="FILE", help="scored records (default: <predictions>_scored.jsonl)")
    parser.add_argument("--summary", metavar="FILE", help="summary JSON (default: <scored>_summary.json)")
    parser.add_argument("--markdown", metavar="FILE", help="Markdown summary (default: the summary path with .md)")
    parser.add_argument("--metrics", nargs="+", default=default_metrics, metavar="METRIC",
                        help=f"some of llm, f1, bleu, all (default: {' '.join(default_metrics)})")
    parser.add_argument("--allow-extra-predictions", action="store_true",
                        help="ignore predictions whose qa_id is not among the questions")
    parser.add_argument("--only-predicted", action="store_true",
                        help="score only the questions that have a prediction (a system that skipped a category)")
    parser.add_argument("--llm-judge", default=judge.DEFAULT_JUDGE, metavar="NAME",
                        help="judge name recorded in the output and, with --refined-root, the prompt "
                             "read from its src/llm_judge.py (refined or original; default refined)")


def parser() -> argparse.ArgumentParser:
    parser = flags.Parser(prog="locomo-repro refined",
                                     description="LoCoMo-Refined files, scores and judge.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("export", help="write Refined's public files from a LoCoMo-format dataset")
    p.add_argument("--data", metavar="PATH", help="the dataset (default: the kit's dataset setting)")
    p.add_argument("--refined-root", metavar="DIR", help="export the checkout's data/raw/locomo_refined.json")
    p.add_argument("--out", metavar="DIR", help="output folder (default: ./<dataset stem>_public)")
    p.add_argument("--max-conversations", type=int, metavar="N", help="only the first N conversations")
    p.set_defaults(run=cmd_export)

    p = commands.add_parser("predict", help="answer every question with an arm; write predictions.jsonl")
    p.add_argument("--arm", required=True, metavar="NAME",
                   help=f"answering arm (registered: {', '.join(predict.arm_names())}), or a plug-in: MODULE:ATTR "
                        "or an installed one's name")
    _question_options(p)
    p.add_argument("--out", default="predictions.jsonl", metavar="FILE", help="default: predictions.jsonl")
    p.set_defaults(run=cmd_predict)

    p = commands.add_parser("score", help="lexical scores (F1, BLEU-1) as Refined computes them")
    _score_options(p, ["f1", "bleu"])
    p.set_defaults(run=cmd_score)

    p = commands.add_parser("judge", help="LLM-judge scores (plus F1, BLEU-1) over an OpenAI-compatible endpoint")
    _score_options(p, ["llm", "f1", "bleu"])
    p.add_argument("--judge-prompt", metavar="FILE",
                   help="prompt template with {question}, {gold_answer}, {generated_answer} "
                        "(instead of the one in --refined-root)")
    p.add_argument("--model", "--evaluator-model", dest="model", metavar="NAME",
                   help="judge model (default: $EVALUATOR_MODEL, else qwen3-14b)")
    p.add_argument("--base-url", "--evaluator-base-url", dest="base_url", metavar="URL",
                   help="OpenAI-compatible base URL (default: $EVALUATOR_API_BASE, $EVALUATOR_BASE_URL, "
                        "$OPENAI_API_BASE, $OPENAI_BASE_URL, else https://api.openai.com/v1)")
    p.add_argument("--api-key", "--evaluator-api-key", dest="api_key", metavar="KEY",
                   help="bearer key (default: $EVALUATOR_API_KEY, else $OPENAI_API_KEY, else none)")
    p.add_argument("--concurrency", type=int, default=4, metavar="N", help="questions judged at once (default 4)")
    p.add_argument("--timeout", type=flags.seconds, default=600.0, metavar="SECONDS",
                   help="per request (default 600)")
    p.add_argument("--attempts", type=int, default=10, metavar="N", help="attempts per judgement (default 10)")
    p.add_argument("--retry-wait", type=flags.seconds, default=1.0, metavar="SECONDS",
                   help="pause after a failed attempt (default 1)")
    p.add_argument("--rate-limit-wait", type=flags.seconds, nargs=2, default=[20.0, 60.0], metavar=("MIN", "MAX"),
                   help="random pause after a rate-limit failure (default 20 60)")
    p.set_defaults(run=cmd_judge)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
        return flushed(args.run(args))
    except (Usage, InputError, judge.PromptError, flags.UsageError) as exc:
        _err(f"error: {exc}")
        return 2
    except (predict.ArmError, judge.JudgeError) as exc:
        _err(f"error: {exc}")
        return 1
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except OSError as exc:  # the results could not be printed (stdout on a full disk, a closed pipe)
        _err(f"error: standard output: {exc.strerror or exc}")
        silence_stdout()
        return 2


if __name__ == "__main__":
    sys.exit(main())
