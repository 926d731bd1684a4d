"""Predictions for LoCoMo-Refined questions from any answering arm.

An arm is a factory that receives the user's ``--data`` argument (``None``
for the default dataset; resolve it with ``locomo_repro.data.dataset.resolve``)
and returns an answerer ``answer(sample_id, question_text) -> str``. Registered
here: ``abstain``, which declines every question, and every memory + reader arm
of the bench's arm sets (``KIT_ARMS``), read at the default settings. Other arms
come in through ``register_arm``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..score.metric import DECLINE

#: Answers one question about one conversation.
Answerer = Callable[[str, str], str]
#: Builds an answerer; receives the ``--data`` argument as given (``None`` when absent).
ArmFactory = Callable[[str | None], Answerer]


class ArmError(Exception):
    """An arm that is unknown or that failed."""


def _abstain(_data: str | None) -> Answerer:
    return lambda sample_id, question: DECLINE


_ARMS: dict[str, ArmFactory] = {"abstain": _abstain}

#: Every arm of the bench's arm sets, with an arm set that builds it.
KIT_ARMS: dict[str, str] = {
    "vector": "main",
    "graph": "main",
    "graph+edge": "main",
    "oracle": "main",
    "scoped": "factor",
    "span": "factor",
    "vector+set": "walk",
    "path": "walk",
    "path+set": "walk",
    "oracle+set": "read",
    "graph+set": "gather",
    "path2": "hops",
    "path3": "hops",
    "walk2": "hops",
    "walk3": "hops",
}


class KitAnswerer:
    """One bench arm answering questions about the dataset's conversations, at ``read.Options()``.

    Each conversation's memories are built (``bench.build``) the first time it is
    asked about.  A question is found by its text in its conversation, exactly or
    with surrounding spaces dropped (Refined's export strips them), and is put to
    the memory and reader in the dataset's own wording, as ``bench.run`` does; the
    oracle finds its evidence by that text (reference behaviour).
    """

    def __init__(self, arm: str, arm_set: str, data: str | None) -> None:
        from ..data import dataset
        from ..read.reader import Options

        try:
            samples = dataset.load(data)
        except dataset.DatasetError as exc:
            raise ArmError(str(exc)) from None
        self.arm = arm
        self.arm_set = arm_set
        self.options = Options()
        self._samples = {s.id: s for s in samples}
        self._built: dict[str, tuple[Any, Any]] = {}

    def _case(self, sample_id: str):
        """The built conversation and this arm in it."""
        if sample_id not in self._built:
            from ..bench import experiment as bench

            sample = self._samples.get(sample_id)
            if sample is None:
                raise ArmError(f"no conversation {sample_id!r} in the dataset")
            (case,) = bench.build([sample], self.arm_set)
            self._built[sample_id] = (case, next(a for a in case.arms if a.name == self.arm))
        return self._built[sample_id]

    def _wording(self, sample_id: str, question: str) -> str:
        """The dataset's text of ``question`` in conversation ``sample_id``."""
        texts = [q.text for q in self._samples[sample_id].questions]
        if question in texts:
            return question
        loose = question.strip()
        found = next((t for t in texts if t.strip() == loose), None)
        if found is None:
            raise ArmError(f"no question {question!r} in conversation {sample_id} of the dataset")
        return found

    def __call__(self, sample_id: str, question: str) -> str:
        case, arm = self._case(sample_id)
        return case.said(arm, self._wording(sample_id, question), self.options)


def _kit_arm(arm: str, arm_set: str) -> ArmFactory:
    return lambda data: KitAnswerer(arm, arm_set, data)


for _name, _arm_set in KIT_ARMS.items():
    _ARMS[_name] = _kit_arm(_name, _arm_set)


def register_arm(name: str, factory: ArmFactory) -> None:
    """Make ``predict --arm name`` use ``factory`` (a later registration replaces an earlier one)."""
    _ARMS[name] = factory


def arm_names() -> list[str]:
    """The registered arms, sorted."""
    return sorted(_ARMS)


def answerer(arm: str, data: str | None = None) -> Answerer:
    """The answerer of a registered arm, or of a plug-in (``MODULE:ATTR`` or an installed one's name, with
    ``+set`` for the ``+set`` reader: see ``arms.plugin``), read at the default settings."""
    factory = _ARMS.get(arm)
    if factory is not None:
        return factory(data)
    return KitAnswerer(plugged(arm), arm, data)


def plugged(arm: str) -> str:
    """The arm name of the one plug-in ``arm`` names (loaded: ``ArmError``, one line, if it cannot be)."""
    from ..arms.plugin import SET, PluginError
    from ..bench import experiment as bench

    try:
        parts = bench.choose(arm)
    except PluginError as err:
        raise ArmError(f"unknown arm {arm!r}: {err} (registered: {', '.join(arm_names())})") from None
    if len(parts) != 1 or isinstance(parts[0], str):
        raise ArmError(f"unknown arm {arm!r}: name one arm or one plug-in (registered: {', '.join(arm_names())})")
    plugin, gathered = parts[0]
    return plugin.name + (SET if gathered else "")


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
