"""LoCoMo-Refined's lexical metrics: token F1 and BLEU-1.

Matches Refined's src/bleu_f1.py. Tokens are the matches of ``\\w+|[^\\w\\s]``
(Python ``re``, Unicode word characters), lowercased: runs of word characters,
and every other non-space character alone. No stemming, no stop words, no
smoothing; an empty side scores 0.
"""

from __future__ import annotations

import math
import re
from collections import Counter

_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """The lowercased word runs and single punctuation marks of ``text``."""
    return [token.lower() for token in _TOKEN.findall(text)]


def _overlap(got: list[str], want: list[str]) -> int:
    """Size of the multiset intersection of two token lists."""
    return sum((Counter(got) & Counter(want)).values())


def token_f1(prediction: str, reference: str) -> float:
    """Harmonic mean of token precision and recall over multisets."""
    got, want = tokens(prediction), tokens(reference)
    if not got or not want:
        return 0.0
    same = _overlap(got, want)
    if same <= 0:
        return 0.0
    precision = same / len(got)
    recall = same / len(want)
    return (2 * precision * recall) / (precision + recall)


def bleu1(prediction: str, reference: str) -> float:
    """Clipped unigram precision times the brevity penalty exp(1 - r/c) when the prediction is shorter."""
    got, want = tokens(prediction), tokens(reference)
    if not got or not want:
        return 0.0
    precision = _overlap(got, want) / len(got)
    if precision <= 0:
        return 0.0
    penalty = 1.0
    if len(got) < len(want):
        penalty = math.exp(1.0 - len(want) / len(got))
    return penalty * precision
