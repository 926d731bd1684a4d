"""The official LoCoMo QA metric.

Reproduces ``eval_question_answering`` of snap-research/locomo
``task_eval/evaluation.py`` (commit 3eb6f2c5): token F1 over Porter stems of
the normalised texts, the category rules (1 multi-hop: comma-separated parts;
2 temporal and 4 single-hop: F1; 3 open domain: F1 against the text before the
first ``;``; 5 adversarial: 1 when the reply declines) and evidence recall.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..text.lexicon import DECLINE
from ..text.reduce import stems

#: The phrases the scorer counts as declining (the kit's own decline, ``DECLINE``, is the first).
_DECLINING_PHRASES = (DECLINE.lower(), "not mentioned")


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
    """Multi-hop score: each comma part of the answer takes its best reply part; mean over the answer.

    The mean is ``numpy.mean``'s, as the scorer takes it (:func:`mean`): its
    pairwise summation can differ in the last bit from a running sum once
    there are eight or more parts (the Go port sums in order; golden/grade.tsv
    row 667 tells them apart).
    """
    got = [g.strip() for g in reply.split(",")]
    want = [w.strip() for w in answer.split(",")]
    return mean([max(f1(g, w) for g in got) for w in want])


def mean(values: Sequence[float]) -> float:
    """``numpy.mean`` of a non-empty list of floats, bit for bit, without importing numpy (a run that searches
    no vector store never does): the sum is numpy's pairwise summation of float64 (:func:`_pairwise`), divided
    by the count (a property test holds it to numpy's)."""
    return _pairwise(values, 0, len(values)) / len(values)


def _pairwise(a: Sequence[float], lo: int, n: int) -> float:
    """numpy's ``pairwise_sum`` of ``a[lo:lo+n]``: fewer than 8 numbers summed in turn from 0; up to 128 in
    eight running sums (one per position modulo 8) added pairwise, then the rest in turn; more split in two
    halves at a multiple of 8, each summed so, and the two sums added."""
    if n < 8:
        total = 0.0
        for i in range(lo, lo + n):
            total += a[i]
        return total
    if n <= 128:
        r = list(a[lo: lo + 8])
        i, whole = 8, n - n % 8
        while i < whole:
            for j in range(8):
                r[j] += a[lo + i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for i in range(whole, n):
            total += a[lo + i]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(a, lo, half) + _pairwise(a, lo + half, n - half)


def grade(category: int, reply: str, answer: str) -> float:
    """Score one reply the way its category is scored.

    A category outside 1-5 scores 0, as in the Go port (the scorer raises).
    """
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
    """Share of the evidence ids found in a context list; 1 when there is no evidence.

    The scorer's ``prediction_context`` branch: ids are compared as given, with
    no trimming.  When the first context id starts with ``S`` the context is
    read as session ids: every entry loses its first character and an evidence
    id ``D<n>:<m>`` counts when ``<n>`` is among them.  An empty context scores
    0 (the scorer reads ``context[0]`` and raises IndexError there).

    The Go port's ``found`` strips ``(`` and ``)`` from each evidence id and has
    no session branch; on locomo10.json, whose ids carry no brackets and whose
    contexts are turn ids, the two give the same number.
    """
    if not evidence:
        return 1.0
    if context and context[0].startswith("S"):
        sessions = {c[1:] for c in context}
        hits = sum(e.split(":")[0][1:] in sessions for e in evidence)
    else:
        have = set(context)
        hits = sum(e in have for e in evidence)
    return hits / len(evidence)


def in_turn(values: Iterable[float]) -> float:
    """The values added one after another, in the order given: the one summation order of every mean the kit
    records of several categories (the table's, the results file's, ``official --json``'s), where the built-in
    ``sum()`` compensates from Python 3.12 on and so gives another float for the same mean."""
    total = 0.0
    for value in values:
        total += value
    return total
