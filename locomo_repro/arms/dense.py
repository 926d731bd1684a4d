"""The dense-retrieval baseline, ``-arms dense``: cosine similarity of static word embeddings, nothing tuned.

Each turn's ``Turn.line()`` and each question are embedded by WordLlama's ``l2_supercat`` model at 256
dimensions (the mean of its token embeddings), whose weights and tokenizer ship inside the wordllama wheel:
they are loaded from the installed package, never fetched (``disable_download``), so the arm runs where no
model hub can be reached.  The recall is the turns of positive cosine similarity to the question, best
first, ties in the conversation's order, at most ``k``.  Installed with the ``dense`` extra
(``pip install 'locomo-repro[dense]'``).
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

import numpy as np

from .plugin import Conversation, needs

_root = logging.getLogger()
_kept = (list(_root.handlers), _root.level)
try:
    import wordllama
except ImportError as err:  # the loader turns this message into its one line
    raise ImportError(needs("dense", "wordllama", "dense")) from err
finally:  # wordllama configures the root logger when imported (every library's log lines on stderr): undone
    _root.handlers[:], _root.level = _kept

#: The model and its width: wordllama's default, the one whose weights its wheel ships.
CONFIG, DIM = "l2_supercat", 256


@lru_cache(maxsize=1)
def model() -> wordllama.WordLlamaInference:
    """The embedding model, loaded once per process from the files inside the installed package (its own
    folder given as the cache: its loader looks for the tokenizer beside the weights there)."""
    return wordllama.WordLlama.load(CONFIG, dim=DIM, disable_download=True, cache_dir=Path(wordllama.__file__).parent)


def unit(texts: list[str]) -> np.ndarray:
    """Each text's embedding scaled to length 1 (a text with no known token stays 0: similar to nothing)."""
    vectors = np.asarray(model().embed(texts), dtype=np.float64)
    lengths = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, lengths, out=np.zeros_like(vectors), where=lengths > 0)


class Dense:
    """A conversation's turns as unit vectors, recalled by cosine similarity to the question."""

    name = "dense"
    libraries = ("wordllama",)  # its model and weights: the signature names wordllama's version too

    def __init__(self, conversation: Conversation) -> None:
        self.ids = [t.id for t in conversation.turns]
        self.vectors = unit([t.line() for t in conversation.turns]) if self.ids else np.zeros((0, DIM))

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        """At most ``k`` (dia_id, cosine) pairs of positive similarity, best first, ties in turn order."""
        if not self.ids:
            return []
        scores = self.vectors @ unit([question])[0]
        best = np.argsort(-scores, kind="stable")[: max(k, 0)]
        return [(self.ids[i], float(scores[i])) for i in best if scores[i] > 0]
