"""Predictions for LoCoMo-Refined questions from any answering arm.

An arm is a factory that receives the user's ``--data`` argument (``None``
for the default dataset; resolve it with ``locomo_repro.dataset.resolve``)
and returns an answerer ``answer(sample_id, question_text) -> str``. The bench
registers its memory + reader arms with ``register_arm``; the kit itself
only has ``abstain``, which declines every question.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..metric import DECLINE

#: Answers one question about one conversation.
Answerer = Callable[[str, str], str]
#: Builds an answerer; receives the ``--data`` argument as given (``None`` when absent).
ArmFactory = Callable[[str | None], Answerer]


class ArmError(Exception):
    """An arm that is unknown or that failed."""


def _abstain(_data: str | None) -> Answerer:
    return lambda sample_id, question: DECLINE


_ARMS: dict[str, ArmFactory] = {"abstain": _abstain}


def register_arm(name: str, factory: ArmFactory) -> None:
    """Make ``predict --arm name`` use ``factory`` (a later registration replaces an earlier one)."""
    _ARMS[name] = factory


def arm_names() -> list[str]:
    """The registered arms, sorted."""
    return sorted(_ARMS)


def answerer(arm: str, data: str | None = None) -> Answerer:
    """The answerer of a registered arm."""
    factory = _ARMS.get(arm)
    if factory is None:
        raise ArmError(f"unknown arm {arm!r} (known: {', '.join(arm_names())})")
    return factory(data)


def predict(
    questions: Sequence[Mapping[str, Any]],
    answer: Answerer,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, str]]:
    """One ``{"qa_id", "predicted_answer"}`` record per question, in question order."""
    out: list[dict[str, str]] = []
    for number, question in enumerate(questions, start=1):
        qid = str(question.get("qa_id") or "").strip()
        if not qid:
            continue
        sample_id = str(question.get("sample_id") or "")
        text = str(question.get("question") or "")
        try:
            reply = answer(sample_id, text)
        except Exception as exc:  # the arm's failure, reported with the question it failed on
            raise ArmError(f"the arm failed on {qid}: {type(exc).__name__}: {exc}") from exc
        if not isinstance(reply, str):
            raise ArmError(f"the arm answered {qid} with a {type(reply).__name__}, not a string")
        out.append({"qa_id": qid, "predicted_answer": reply})
        if progress is not None:
            progress(number, len(questions))
    return out
