"""Scoring predictions against LoCoMo-Refined questions, as Refined's src/evaluate.py does.

The steps: index the predictions by ``qa_id`` (or by ``conversation_idx`` +
``qa_index``), merge them into the question records (a question without a
prediction stays, with an empty answer and a ``MISSING_PREDICTION`` error),
clean each predicted text, then score it against every gold candidate and keep
the best candidate by (judge, F1, BLEU-1).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_EXCEPTION, wait
from pathlib import Path
from typing import Any

from ..data.stop import Threads
from .files import InputError
from .lexical import bleu1, token_f1

#: Every metric the scorer knows; ``all`` in a request stands for the three.
METRICS = ("llm", "f1", "bleu")

#: Judge of one (question, gold candidate, cleaned prediction): 1.0 correct, 0.0 wrong.
JudgeFn = Callable[[str, str, str], float]

_BOXED = re.compile(r"\\box(?:ed)?\{")
_FINAL = "final answer:"
_THINK_END = "</think>"


def metric_set(requested: Iterable[str]) -> frozenset[str]:
    """The metrics named in ``requested`` (comma lists allowed, case ignored, ``all`` expanded)."""
    names = {part.strip().lower() for item in requested for part in str(item).split(",") if part.strip()}
    unknown = names - {*METRICS, "all"}
    if unknown:
        raise ValueError(f"unknown metric(s): {', '.join(sorted(unknown))} (known: llm, f1, bleu, all)")
    if "all" in names:
        names = (names - {"all"}) | set(METRICS)
    return frozenset(names)


def _braced(text: str, open_at: int) -> str:
    """The text inside the brace at ``open_at`` up to its match, or to the end when unbalanced."""
    depth = 0
    for index in range(open_at, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return text[open_at + 1:index]
    return text[open_at + 1:]


def last_boxed(text: str) -> str | None:
    """The stripped content of the last ``\\boxed{…}`` (or ``\\box{…}``), if any."""
    found = None
    for match in _BOXED.finditer(text):
        found = _braced(text, match.end() - 1).strip()
    return found


def clean_prediction(text: str) -> str:
    """The answer part of a reply: the last boxed value if there is one; otherwise the text after
    the first ``final answer:`` (any case), then after the first ``</think>``."""
    cleaned = str(text or "").strip()
    boxed = last_boxed(cleaned)
    if boxed is not None:
        return boxed
    lower = cleaned.lower()
    if _FINAL in lower:
        # Reference quirk kept: the index is found in the lowercased text and applied to the
        # original, which drifts if lowercasing changed the length earlier in the string.
        cleaned = cleaned[lower.index(_FINAL) + len(_FINAL):].strip()
    if _THINK_END in cleaned:
        cleaned = cleaned.split(_THINK_END, 1)[1].strip()
    return cleaned


def candidates(answer: Any) -> list[str]:
    """Gold candidates of a question record: the list's non-empty items (or the single value);
    ``[""]`` when there are none."""
    if isinstance(answer, list):
        found = [str(item) for item in answer if item not in (None, "")]
    elif answer not in (None, ""):
        found = [str(answer)]
    else:
        found = []
    return found or [""]


def _index(value: Any) -> int | None:
    """An integer index from an int, an integral float, a bool or a numeric string."""
    if value in (None, ""):
        return None
    if isinstance(value, bool | int):
        return int(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _qid(record: Mapping[str, Any]) -> str:
    return str(record.get("qa_id") or "").strip()


def index_predictions(
    predictions: Sequence[Mapping[str, Any]],
    questions: Sequence[Mapping[str, Any]],
    *,
    source: Path | str = "predictions",
    allow_extra: bool = False,
) -> dict[str, dict[str, Any]]:
    """Predictions by question id.

    A record without ``qa_id`` is placed by ``conversation_idx`` + ``qa_index``. A repeated id
    is an error; ids the questions do not know are an error unless ``allow_extra`` (then dropped).
    """
    known = {_qid(q) for q in questions if _qid(q)}
    by_position: dict[tuple[int, int], str] = {}
    for question in questions:
        conversation, position = _index(question.get("conversation_idx")), _index(question.get("qa_index"))
        if _qid(question) and conversation is not None and position is not None:
            by_position[(conversation, position)] = _qid(question)

    found: dict[str, dict[str, Any]] = {}
    unknown: list[str] = []
    for number, record in enumerate(predictions, start=1):
        qid = _qid(record)
        if not qid:
            conversation, position = _index(record.get("conversation_idx")), _index(record.get("qa_index"))
            if conversation is None or position is None:
                raise InputError(f"{source}: record {number} has neither qa_id nor conversation_idx + qa_index")
            qid = by_position.get((conversation, position), "")
            if not qid:
                if allow_extra:
                    continue
                raise InputError(
                    f"{source}: record {number} names no known question "
                    f"(conversation_idx={conversation}, qa_index={position})"
                )
        if qid not in known:
            unknown.append(qid)
            continue
        if qid in found:
            raise InputError(f"{source}: duplicate prediction for qa_id {qid}")
        found[qid] = {**record, "qa_id": qid}
    if unknown and not allow_extra:
        names = sorted(set(unknown))
        shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
        raise InputError(
            f"{source}: {len(names)} qa_id value(s) not among the questions ({shown}); "
            "pass --allow-extra-predictions to ignore them"
        )
    return found


def merge(
    questions: Sequence[Mapping[str, Any]],
    predictions: Mapping[str, Mapping[str, Any]],
    judge_name: str,
) -> list[dict[str, Any]]:
    """Each question record with its prediction fields; every question is kept, in order."""
    merged: list[dict[str, Any]] = []
    for question in questions:
        qid = _qid(question)
        prediction = predictions.get(qid)
        text = ""
        if prediction is not None:
            text = str(prediction.get("predicted_answer") or prediction.get("response") or "").strip()
        merged.append({
            **question,
            "predicted_answer": text,
            "prediction_found": prediction is not None,
            "llm_judge": judge_name,
            "success": prediction is not None,
            "errors": [] if prediction is not None else [{
                "stage": "prediction_lookup",
                "error": f"no prediction was given for qa_id={qid}",
                "error_code": "MISSING_PREDICTION",
                "retriable": False,
            }],
        })
    return merged


def _fill(metrics: frozenset[str], value: float, reason: str) -> dict[str, Any]:
    """The same score for every requested metric, in Refined's field order."""
    out: dict[str, Any] = {}
    if "llm" in metrics:
        out["llm_score"] = value
        out["llm_reason"] = reason
    if "f1" in metrics:
        out["f1_score"] = value
    if "bleu" in metrics:
        out["bleu_score"] = value
    return out


def best_candidate(
    question: str,
    prediction: str,
    golds: Sequence[str],
    metrics: frozenset[str],
    judge: JudgeFn | None = None,
    judge_name: str = "refined",
) -> tuple[str, dict[str, Any]]:
    """The matched gold candidate and the scores, by Refined's best-of rule.

    An exact match of any candidate scores 1 everywhere; an empty prediction against a
    non-empty gold scores 0; otherwise every candidate is scored and the highest
    (judge, F1, BLEU-1) wins, the first on ties.
    """
    # Reference quirk kept: with no gold answer the candidates are [""], so an empty (or missing)
    # prediction is an exact match and scores 1 on every metric.
    exact = next((gold for gold in golds if prediction == gold), None)
    if exact is not None:
        return exact, _fill(metrics, 1.0, "exact match with a gold answer")
    if prediction == "" and any(gold != "" for gold in golds):
        return next(gold for gold in golds if gold != ""), _fill(metrics, 0.0, "empty prediction")
    if all(gold == "" for gold in golds):
        return "", _fill(metrics, 0.0, "")

    scored: dict[str, dict[str, float]] = {}
    for gold in golds:
        if gold in scored:
            continue  # a repeated candidate scores the same; judge it once
        row: dict[str, float] = {}
        if "llm" in metrics:
            if judge is None:
                raise RuntimeError("the llm metric needs a judge")
            row["llm"] = float(judge(question, gold, prediction))
        if "f1" in metrics:
            row["f1"] = token_f1(prediction, gold)
        if "bleu" in metrics:
            row["bleu"] = bleu1(prediction, gold)
        scored[gold] = row

    def rank(gold: str) -> tuple[float, float, float]:
        row = scored[gold]
        return (row.get("llm", -1.0), row.get("f1", -1.0), row.get("bleu", -1.0))

    best = max(golds, key=rank)
    row = scored[best]
    out: dict[str, Any] = {}
    if "llm" in metrics:
        out["llm_score"] = row["llm"]
        out["llm_reason"] = f"llm_judge_{judge_name}"
    if "f1" in metrics:
        out["f1_score"] = row["f1"]
    if "bleu" in metrics:
        out["bleu_score"] = row["bleu"]
    return best, out


def score_record(
    record: Mapping[str, Any],
    metrics: frozenset[str],
    judge: JudgeFn | None = None,
) -> dict[str, Any]:
    """One merged record with ``matched_answer``, the cleaned ``response``, the scores and,
    when cleaning changed the text, ``ori_response``."""
    original = str(record.get("predicted_answer") or record.get("response") or "")
    prediction = clean_prediction(original)
    golds = candidates(record.get("answer"))
    matched, scores = best_candidate(
        str(record.get("question") or ""), prediction, golds, metrics, judge,
        str(record.get("llm_judge") or "refined").strip().lower(),
    )
    out = {**record, "matched_answer": matched or golds[0], "response": prediction, **scores}
    if prediction != original.strip():
        out["ori_response"] = original
    return out


def score_records(
    records: Sequence[Mapping[str, Any]],
    metrics: frozenset[str],
    judge: JudgeFn | None = None,
    *,
    concurrency: int = 4,
    on_abort: Callable[[], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Score every record, in order; with a judge, up to ``concurrency`` records at a time.

    The first failure stops the run, and so does Ctrl-C: ``on_abort`` is called so work in flight
    can give up, and the failure is raised without waiting for a request still in flight
    (``data.stop.Threads``).
    """
    total = len(records)
    if judge is None or "llm" not in metrics:
        return [score_record(record, metrics) for record in records]
    results: list[dict[str, Any] | None] = [None] * total
    done = 0
    lock = threading.Lock()
    stopping = threading.Event()

    def work(index: int) -> None:
        nonlocal done
        if stopping.is_set():
            return
        try:
            results[index] = score_record(records[index], metrics, judge)
        except BaseException:
            if not stopping.is_set():
                stopping.set()
                if on_abort is not None:
                    on_abort()
            raise
        with lock:
            done += 1
            if progress is not None:
                progress(done, total)

    with Threads(max(1, concurrency), "judge") as pool:  # not waited for once the run stops (``data.stop``)
        try:
            futures = [pool.submit(work, index) for index in range(total)]
            wait(futures, return_when=FIRST_EXCEPTION)
        except BaseException:  # Ctrl-C: the judgements in flight give up at their pause
            stopping.set()
            if on_abort is not None:
                on_abort()
            raise
        failed = [e for f in futures if f.done() and (e := f.exception()) is not None]
        if failed:
            # the first failure, not a cancellation it caused elsewhere
            raise next((e for e in failed if not getattr(e, "cancelled_run", False)), failed[0])
    return [r for r in results if r is not None]
