"""The ``bm25`` arm: Okapi BM25 over a conversation's turns, a lexical baseline and the worked example of a plug-in.

A plug-in of the kit's protocol (``locomo_repro.arms.plugin``, version 1), installed by the ``bm25``
extra (``pip install 'locomo-repro[bm25]'``) and named ``-arms bm25`` by its entry point.  Each turn is
indexed as ``Turn.line()``, the text the built-in ``vector`` memory indexes, so the two rows differ by
retriever only.  Nothing is tuned; the library's defaults are used throughout:

- tokens: ``bm25s.tokenize``'s defaults: lower-cased, runs of two or more word characters (the regex
  ``(?u)\\b\\w\\w+\\b``, scikit-learn's), its 33 English stopwords removed, no stemming; the question
  is tokenised the same way (a repeated word counts once per repetition);
- scores: ``bm25s.BM25()``'s defaults, the Lucene variant with k1 = 1.5 and b = 0.75:
  ``sum over the question's tokens t of idf(t) * tf / (tf + k1 * (1 - b + b * |D| / avgdl))`` with
  ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))``, always positive (tf: t's count in the turn, |D|:
  the turn's token count, avgdl: its mean over the N turns, df: the turns holding t); kept as float32.

``recall`` gives the turns of positive score, best first, ties in the conversation's order, at most k; it
only reads the index, so ``-concurrency`` may call it from several threads.

Why bm25s: over locomo10 (5,882 turns indexed, 1,986 questions asked at k = 5; median CPU seconds of
11 alternating runs, the same top-k selection for both) bm25s 0.3.16 indexed in 0.11 s and answered in
0.11 s (its import 0.12 s more); rank-bm25 0.2.2's ``BM25Okapi`` indexed in 0.05 s and answered in
0.86 s with its README's ``split(" ")`` (0.17 s and 0.72 s fed bm25s's tokens).  bm25s is kept up
(42 releases, the latest 0.3.16 in October 2026); rank-bm25's last release was 0.2.2, in February 2022.
"""

from __future__ import annotations

import numpy as np

from .plugin import Conversation, needs

try:
    import bm25s
except ImportError as err:  # the loader turns this message into its one line
    raise ImportError(needs("bm25", "bm25s", "bm25")) from err


def _tokens(texts: list[str]) -> list[list[str]]:
    """Each text's tokens, by ``bm25s.tokenize``'s defaults."""
    tokens: list[list[str]] = bm25s.tokenize(texts, return_ids=False, show_progress=False)
    return tokens


class BM25:
    """A conversation's turns in a BM25 index (bm25s, its default parameters unless given: ``-arms
    'bm25(k1=1.2,b=0.5)'``), one document per ``Turn.line()``."""

    name = "bm25"

    def __init__(self, conversation: Conversation, k1: float = 1.5, b: float = 0.75) -> None:
        self.ids = [t.id for t in conversation.turns]
        self.retriever = bm25s.BM25(k1=k1, b=b)
        if self.ids:  # bm25s cannot index no documents
            self.retriever.index(_tokens([t.line() for t in conversation.turns]), show_progress=False)

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        """At most ``k`` (dia_id, score) pairs of positive BM25 score, best first, ties in turn order."""
        words = _tokens([question])[0]
        if not self.ids or not words:
            return []
        scores = self.retriever.get_scores(words)
        best = np.argsort(-scores, kind="stable")[: max(k, 0)]
        return [(self.ids[i], float(scores[i])) for i in best if scores[i] > 0]
