"""The official LoCoMo QA metric.

Reproduces ``eval_question_answering`` of snap-research/locomo
``task_eval/evaluation.py`` (commit 3eb6f2c5): token F1 over Porter stems of
the normalised texts, the category rules (1 multi-hop: comma-separated parts;
2 temporal and 4 single-hop: F1; 3 open domain: F1 against the text before the
first ``;``; 5 adversarial: 1 when the reply declines) and evidence recall.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .text import stems

#: The reply that declines, in the wording the scorer recognises.
DECLINE = "No information available"

_DECLINING_PHRASES = ("no information available", "not mentioned")


def declined(reply: str) -> bool:
    """Whether a reply says it has no answer (the scorer's two phrases)."""
    low = reply.lower()
    return any(phrase in low for phrase in _DECLINING_PHRASES)


def f1(reply: str, answer: str) -> float:
    """Harmonic mean of precision and recall over the multisets of stems."""
    got, want = stems(reply), stems(answer)
    if not got or not want:
        return 0.0
    same = sum((Counter(got) & Counter(want)).values())
    if same == 0:
        return 0.0
    precision = same / len(got)
    recall = same / len(want)
    return 2 * precision * recall / (precision + recall)


def parts(reply: str, answer: str) -> float:
    """Multi-hop score: each comma part of the answer takes its best reply part; mean over the answer."""
    got = [g.strip() for g in reply.split(",")]
    want = [w.strip() for w in answer.split(",")]
    return sum(max(f1(g, w) for g in got) for w in want) / len(want)


def grade(category: int, reply: str, answer: str) -> float:
    """Score one reply the way its category is scored."""
    if category == 1:
        return parts(reply, answer)
    if category in (2, 4):
        return f1(reply, answer)
    if category == 3:
        return f1(reply, answer.split(";", 1)[0].strip())
    if category == 5:
        return 1.0 if declined(reply) else 0.0
    return 0.0


def recall(evidence: Sequence[str], context: Sequence[str]) -> float:
    """Share of evidence ids present in a context list; 1 when there is no evidence.

    Ids are compared trimmed of "(" and ")".  A context of session ids
    ("S3") is matched at session level, as the official scorer does.  An empty
    context scores 0 (the official code raises IndexError there).
    """
    wanted = [e.strip("()") for e in evidence]
    if not wanted:
        return 1.0
    if context and context[0].startswith("S"):
        have = set(context)
        wanted = ["S" + e.split(":")[0][1:] for e in wanted]
    else:
        have = {c.strip("()") for c in context}
    return sum(1 for e in wanted if e in have) / len(wanted)
