"""The token F1 and BLEU-1 of mem0's evaluation harness (the ``f1_score`` and ``bleu_score`` fields).

mem0's ``evals.py`` (used by Memobase and by mem0's own runs; its metrics are
A-Mem's ``utils.py``) scores every reply against ``str(gold)`` with:

* **token F1**: both texts stripped, lowercased, ``.`` ``,`` ``!`` ``?`` turned
  into spaces, split on whitespace, and compared as *sets* (a repeated word
  counts once); no stemming, no stop words; 0 when either text or either set is
  empty.  Not the official F1 (multisets of Porter stems, category rules).
* **BLEU-1**: NLTK's ``sentence_bleu`` with weights (1, 0, 0, 0) and smoothing
  method 1 over ``word_tokenize`` of the lowercased texts (not stripped):
  clipped unigram precision times the brevity penalty.

``word_tokenize`` is Punkt sentence splitting followed by NLTK's Treebank word
rules.  Two differences with the NLTK installed here are pinned so that the
harness's numbers come out exactly: the trained English Punkt model knows
abbreviations (``dr.``, ``u.s.`` ... do not end a sentence; the model's file is
not shipped, so the abbreviations the kit needs are listed in ``ABBREVIATIONS``),
and the harness's NLTK kept a single quote glued to the word it opens
(``'bring``, ``'16``), which newer releases split off.  With these two rules
every ``bleu_score`` of Memobase's published file is reproduced bit for bit.
"""

from __future__ import annotations

import re

from nltk.tokenize import NLTKWordTokenizer
from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

#: Abbreviations (lowercase, without the final period) the trained English Punkt model does not end a sentence
#: after: common titles, and those Memobase's published replies and golds contain.
ABBREVIATIONS = frozenset({"dr", "mr", "mrs", "ms", "u.s", "j.k"})

_PUNCTUATION = str.maketrans({".": " ", ",": " ", "!": " ", "?": " "})


def simple_tokens(text: str) -> set[str]:
    """The harness's F1 tokens: lowercased, ``.,!?`` as spaces, split on whitespace, as a set."""
    return set(text.lower().translate(_PUNCTUATION).split())


def token_f1(reply: str, gold: str) -> float:
    """mem0's token F1 of ``reply`` against ``gold``: set overlap of ``simple_tokens`` of the stripped texts."""
    if not reply or not gold:
        return 0.0
    got, want = simple_tokens(reply.strip()), simple_tokens(gold.strip())
    if not got or not want:
        return 0.0
    same = len(got & want)
    precision, recall = same / len(got), same / len(want)
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


class _HarnessWordTokenizer(NLTKWordTokenizer):
    """NLTK's Treebank word rules with the older opening-quote rule: ``'`` is split off only before a one-letter
    word (``'a``), never from a longer word (``'bring``, ``'16``)."""

    STARTING_QUOTES = [
        *NLTKWordTokenizer.STARTING_QUOTES[:4],
        (re.compile(r"(?i)(\')(?!re|ve|ll|m|t|s|d|n)(\w)\b", re.U), r"\1 \2"),
    ]


def _sentences() -> PunktSentenceTokenizer:
    params = PunktParameters()
    params.abbrev_types = set(ABBREVIATIONS)
    return PunktSentenceTokenizer(params)


_SENTENCES = _sentences()
_WORDS = _HarnessWordTokenizer()


def word_tokens(text: str) -> list[str]:
    """``nltk.word_tokenize`` as the harness ran it: Punkt sentences, then Treebank words in each."""
    return [token for sentence in _SENTENCES.tokenize(text) for token in _WORDS.tokenize(sentence)]


def bleu1(reply: str, gold: str) -> float:
    """mem0's BLEU-1 of ``reply`` against ``gold`` (NLTK ``sentence_bleu``, weights (1,0,0,0), smoothing method 1)."""
    return float(
        sentence_bleu(
            [word_tokens(gold.lower())],
            word_tokens(reply.lower()),
            weights=(1, 0, 0, 0),
            smoothing_function=SmoothingFunction().method1,
        )
    )
