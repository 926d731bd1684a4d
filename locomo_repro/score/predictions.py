"""Predictions files: the shape the official LoCoMo scorer reads, read back.

A predictions file is a JSON list of ``{"sample_id": ..., "qa": [...]}``; each
question carries the dataset's ``question``, ``answer`` (or
``adversarial_answer``), ``category`` and ``evidence``, and, for every arm,
``<arm>_prediction`` (the reply), ``<arm>_prediction_context`` (the turn ids
the memory returned) and ``<arm>_prediction_confidence``.  The reference Go
benchmark writes this shape with ``-out``; its ``-stats`` and the official
cross-check (``score.py``) read it back.  Arms are the ``_prediction`` keys,
sorted by name, as both readers order them.

Anything that does not have this shape raises :class:`PredictionsError`, whose
message is one line naming the file, the place and the problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..data import jsonio
from ..data.dataset import CATEGORIES
from .shapes import foreign

SUFFIX = "_prediction"


class PredictionsError(ValueError):
    """A predictions file that cannot be read; the message is a single line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.splitlines()))


@dataclass(frozen=True)
class Prediction:
    """One arm's reply to one question.

    ``context`` is None when the file has no ``_prediction_context`` key (the
    official recall then counts 1); ``confidence`` is 0.0 when absent, as the
    reference reads a missing number; ``judge`` the ``<arm>_judge`` value as
    written (None when absent), checked by its readers (``score.figures.verdicts``).
    """

    reply: str
    context: tuple[str, ...] | None
    confidence: float
    judge: object = None


@dataclass(frozen=True)
class Answered:
    """One question of the file with every arm's prediction.

    ``question``, ``answer`` and ``adversarial_answer`` are the JSON values as written (None
    when the key is absent): the Go ``-stats`` and the official scorer read a
    non-string answer differently, so each consumer converts it itself.
    """

    sample: str
    index: int
    question: object
    category: int
    answer: object
    adversarial_answer: object
    evidence: tuple[str, ...]
    predictions: dict[str, Prediction]

    @property
    def where(self) -> str:
        """Where the question is in the file, for messages: ``conv-26 qa[3]``."""
        return f"{self.sample} qa[{self.index}]"


@dataclass(frozen=True)
class Predictions:
    """A whole predictions file: the path as given, the arms by name, the questions in file order, and the
    sha256 of the bytes read (empty when the JSON was decoded elsewhere)."""

    path: str
    arms: tuple[str, ...]
    questions: tuple[Answered, ...]
    sha256: str = ""

    @property
    def conversations(self) -> tuple[str, ...]:
        """Sample ids in first-seen order (a repeated id is one conversation, as in the reference)."""
        return tuple(dict.fromkeys(q.sample for q in self.questions))


#: The largest finite float64: a confidence beyond it (``1e999``, a 400-digit integer) is refused.
FLOAT64_MAX = 1.7976931348623157e308


def read(path: str | Path) -> Predictions:
    """Read and check a predictions file (once, by the kit's one reader); ``path`` is kept as given for reports."""
    read_once = source(path)
    return parse(decode(read_once), str(path), read_once.sha256)


def decoded(path: str | Path) -> object:
    """The JSON value of a file as the reference's Go decoder reads it (invalid UTF-8 inside strings becomes
    U+FFFD; NaN, Infinity and a number beyond a float64 are refused: the kit's one reader, ``data.jsonio``); a
    PredictionsError (one line) when it cannot be read or is no JSON."""
    return decode(source(path))


def source(path: str | Path) -> jsonio.Source:
    """The bytes of ``path``, read once by the kit's one reader (a PredictionsError when it cannot be read)."""
    try:
        return jsonio.read(path)
    except jsonio.InputError as err:
        raise PredictionsError(str(err)) from None


def decode(read_once: jsonio.Source) -> object:
    """The JSON value of bytes read by :func:`source`, as :func:`decoded` reads a file."""
    try:
        return jsonio.loads(read_once, replace=True)
    except jsonio.InputError as err:
        raise PredictionsError(str(err)) from None


def parse(data: object, name: str, sha256: str = "") -> Predictions:
    """Check already-decoded JSON against the predictions shape; ``name`` labels messages, ``sha256`` is that
    of the bytes it was decoded from."""
    if other := foreign(data, name):
        raise PredictionsError(other)
    if not isinstance(data, list):
        raise PredictionsError(f"{name}: not a list of samples (top level is {_kind(data)})")
    arms: tuple[str, ...] | None = None
    questions: list[Answered] = []
    for at, sample in enumerate(data):
        if not isinstance(sample, dict):
            raise PredictionsError(f"{name}: sample [{at}] is {_kind(sample)}, not an object")
        sample_id = sample.get("sample_id")
        if not isinstance(sample_id, str) or not sample_id:
            raise PredictionsError(f"{name}: sample [{at}] has no sample_id (got {_kind(sample_id)})")
        if "qa" not in sample:
            raise PredictionsError(f"{name}: {sample_id}: no qa list")
        qas = sample["qa"]
        if not isinstance(qas, list):
            raise PredictionsError(f"{name}: {sample_id}: qa is {_kind(qas)}, not a list")
        for index, qa in enumerate(qas):
            where = f"{name}: {sample_id} qa[{index}]"
            if not isinstance(qa, dict):
                raise PredictionsError(f"{where}: {_kind(qa)}, not an object")
            here = tuple(sorted(k[: -len(SUFFIX)] for k in qa if k.endswith(SUFFIX)))
            if not here:
                raise PredictionsError(f"{where}: no <arm>_prediction key")
            if arms is None:
                arms = here
            elif here != arms:
                raise PredictionsError(
                    f"{where}: arms {', '.join(here)} differ from the first question's {', '.join(arms)}"
                )
            questions.append(_question(qa, sample_id, index, arms, where))
    if arms is None:
        raise PredictionsError(f"{name}: no questions")
    return Predictions(path=name, arms=arms, questions=tuple(questions), sha256=sha256)


def _question(qa: dict, sample: str, index: int, arms: tuple[str, ...], where: str) -> Answered:
    category = qa.get("category")
    # JSON numbers only; a bool is not a category even though Python calls it an int.
    if isinstance(category, bool) or not isinstance(category, (int, float)) or category not in CATEGORIES:
        raise PredictionsError(f"{where}: category {json.dumps(category)} is not one of 1-6")
    evidence = qa.get("evidence", [])
    if not _strings(evidence):
        raise PredictionsError(f"{where}: evidence is not a list of ids")
    predictions = {}
    for arm in arms:
        reply = qa[arm + SUFFIX]
        if not isinstance(reply, str):
            raise PredictionsError(f"{where}: {arm}{SUFFIX} is {_kind(reply)}, not a string")
        context = qa.get(arm + SUFFIX + "_context")
        if context is not None and not _strings(context):
            raise PredictionsError(f"{where}: {arm}{SUFFIX}_context is not a list of ids")
        confidence = qa.get(arm + SUFFIX + "_confidence", 0.0)
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
            raise PredictionsError(f"{where}: {arm}{SUFFIX}_confidence is {_kind(confidence)}, not a number")
        if not -FLOAT64_MAX <= confidence <= FLOAT64_MAX:  # JSON decoded elsewhere than by read, which refuses it
            raise PredictionsError(f"{where}: {arm}{SUFFIX}_confidence is out of a float64's range")
        predictions[arm] = Prediction(
            reply=reply,
            context=None if context is None else tuple(context),
            confidence=float(confidence),
            judge=qa.get(arm + "_judge"),
        )
    return Answered(
        sample=sample,
        index=index,
        question=qa.get("question"),
        category=int(category),
        answer=qa.get("answer"),
        adversarial_answer=qa.get("adversarial_answer"),
        evidence=tuple(evidence),
        predictions=predictions,
    )


def gold(predictions: Predictions, question: Answered) -> object:
    """What ``question`` is graded against, as the official scorer reads a qa: ``answer``, else
    ``adversarial_answer``; a question with neither is a :class:`PredictionsError` (the official scorer
    fails on it, and no reader of the kit grades against the word "None")."""
    if question.answer is not None:
        return question.answer
    if question.adversarial_answer is None:
        raise PredictionsError(f"{predictions.path}: {question.where}: neither answer nor adversarial_answer")
    return question.adversarial_answer


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _kind(value: object) -> str:
    """A JSON value's type, in JSON's words, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"
