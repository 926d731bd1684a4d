"""Each system's replies matched to their locomo10 questions and written as one official-shape file.

Rules (the same for every format):

* **Samples**: a file's conversation key is a ``sample_id`` of the dataset, or else ends in the
  conversation's position (``"3"``, ``conv_3``, ``locomo_experiment_user_3``: the fourth sample).
* **Questions**: within the sample, by exact text, then by normalised text (Unicode NFKC, case folded,
  curly quotes straightened, white space collapsed); a text asked twice is paired in order (the first
  reply with the first unused question).  Refined records name the question by position instead.
* **What comes from where**: ``question``, ``answer`` (text, numbers as written), ``category`` and
  ``evidence`` always from locomo10; the reply from the system.  A category label that disagrees with
  locomo10 (by number, or a name other than the official one) is counted and reported, never used.
* **Extras**: ``<arm>_judge`` (1/0, the file's own judge verdict), ``<arm>_<field>`` for the file's own
  per-question metric values (mem0's ``f1_score`` and ``bleu_score``); ``<arm>_prediction_context`` and
  ``<arm>_prediction_confidence`` only when the file has them.
* Several arms: the output holds the questions every arm answered (the rest is reported).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ..data import jsonio
from ..data.dataset import CATEGORIES, LOCOMO, Sample
from .formats import PeersError, Reply, Source

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def normalise(text: str) -> str:
    """A question text for the second matching pass: NFKC, case folded, straight quotes, single spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTES).casefold().split())


@dataclass(frozen=True)
class Matched:
    """One system's replies by (sample position, question position), with what the matching saw."""

    name: str
    source: Source
    replies: dict[tuple[int, int], Reply]
    disagreeing: tuple[str, ...]


def sample_of(key: str, samples: Sequence[Sample], path: str) -> int:
    """The position of the sample a file's conversation key names (by sample id, else by trailing number)."""
    for i, s in enumerate(samples):
        if s.id == key:
            return i
    digits = len(key) - len(key.rstrip("0123456789"))
    position = jsonio.index(key[-digits:]) if digits else None
    if position is not None and position < len(samples):
        return position
    shown = key if len(key) <= 40 else f"{key[:20]}…({len(key)} characters)"
    raise PeersError(f"{path}: conversation {shown!r} is no sample id of the dataset and no position below "
                     f"{len(samples)}")


def _official(kind: int) -> str:
    return CATEGORIES[kind]


def _label_disagrees(reply: Reply, category: int) -> str | None:
    if reply.label is not None and reply.label != category:
        return f"category {reply.label} for a locomo10 category {category} ({_official(category)}) question"
    if reply.label_name is not None:
        said = reply.label_name.lower().replace("_", " ").replace("-", " ")
        if _official(category) not in said:
            return f"calls category {category} {reply.label_name!r} (official: {_official(category)})"
    return None


def match(name: str, source: Source, samples: Sequence[Sample]) -> Matched:
    """Match every reply of ``source`` to its question; an unmatched reply is a :class:`PeersError`."""
    by_sample: dict[int, list[Reply]] = {}
    for reply in source.replies:
        by_sample.setdefault(sample_of(reply.conversation, samples, source.path), []).append(reply)
    found: dict[tuple[int, int], Reply] = {}
    notes: dict[str, int] = {}
    unmatched: list[str] = []
    for at, replies in by_sample.items():
        questions = samples[at].questions
        used: set[int] = set()
        exact: dict[str, list[int]] = {}
        loose: dict[str, list[int]] = {}
        for i, q in enumerate(questions):
            exact.setdefault(q.text, []).append(i)
            loose.setdefault(normalise(q.text), []).append(i)
        for reply in replies:
            if reply.index is not None:
                fits = [reply.index] if reply.index < len(questions) and reply.index not in used else []
            else:
                fits = [i for i in exact.get(reply.question or "", []) if i not in used]
                fits = fits or [i for i in loose.get(normalise(reply.question or ""), []) if i not in used]
            if not fits:
                what = f"question {reply.index}" if reply.index is not None else repr(reply.question)
                unmatched.append(f"{samples[at].id}: {what}")
                continue
            used.add(fits[0])
            found[(at, fits[0])] = reply
            note = _label_disagrees(reply, questions[fits[0]].category)
            if note:
                notes[note] = notes.get(note, 0) + 1
    if unmatched:
        raise PeersError(
            f"{source.path}: {len(unmatched)} of {len(source.replies)} replies match no locomo10 question "
            f"(first: {unmatched[0]})"
        )
    return Matched(name, source, found, tuple(f"{n}x {note}" for note, n in notes.items()))


def summary(m: Matched, samples: Sequence[Sample]) -> str:
    """The one stderr line about a system: matched, categories absent, what the file lacks, label notes."""
    total = sum(len(s.questions) for s in samples)
    present = {samples[a].questions[q].category for a, q in m.replies}
    absent = [f"{k} {CATEGORIES[k]}" for k in sorted(LOCOMO) if k not in present]
    replies = list(m.replies.values())
    lacks = [what for what, missing in (
        ("contexts", all(r.context is None for r in replies)),
        ("confidences", all(r.confidence is None for r in replies)),
        ("judge verdicts", all(r.judge is None for r in replies)),
    ) if missing]
    judged = sum(r.judge is not None for r in replies)
    parts = [
        f"{m.name} ({m.source.format}, {m.source.path}): {len(m.replies)} of {len(m.source.replies)} replies "
        f"matched, 0 unmatched; {len(m.replies)} of {total} locomo10 questions answered",
        f"categories absent: {', '.join(absent) or 'none'}",
        f"lacks: {', '.join(lacks) or 'nothing'}",
    ]
    if judged and judged < len(replies):
        parts.append(f"judge verdict on {judged} only")
    parts.append(f"labels disagreeing with locomo10: {'; '.join(m.disagreeing) or 'none'}")
    return "; ".join(parts)


def predictions(matched: Sequence[Matched], samples: Sequence[Sample]) -> list[dict]:
    """The official predictions shape over the questions every arm answered, keys sorted as ``-out`` sorts them."""
    shared = set.intersection(*(set(m.replies) for m in matched))
    out = []
    for at, s in enumerate(samples):
        qa = []
        for i, q in enumerate(s.questions):
            if (at, i) not in shared:
                continue
            item: dict[str, object] = {
                "question": q.text, "answer": q.answer, "category": q.category, "evidence": list(q.evidence),
            }
            for m in matched:
                r = m.replies[(at, i)]
                item[f"{m.name}_prediction"] = r.reply
                if r.context is not None:
                    item[f"{m.name}_prediction_context"] = list(r.context)
                if r.confidence is not None:
                    item[f"{m.name}_prediction_confidence"] = r.confidence
                if r.judge is not None:
                    item[f"{m.name}_judge"] = int(r.judge)
                for key, value in r.metrics.items():
                    item[f"{m.name}_{key}"] = value
            qa.append(dict(sorted(item.items())))
        if qa:
            out.append({"sample_id": s.id, "qa": qa})
    return out


def refined_records(m: Matched, samples: Sequence[Sample]) -> list[dict]:
    """One system's replies as LoCoMo-Refined predictions (``qa_id`` = ``<sample_id>#q<index>``), dataset order."""
    return [
        {"qa_id": f"{samples[at].id}#q{i:04d}", "predicted_answer": m.replies[(at, i)].reply}
        for at, i in sorted(m.replies)
    ]
