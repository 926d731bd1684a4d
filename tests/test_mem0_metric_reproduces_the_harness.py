"""score.mem0: the token F1 and BLEU-1 of mem0's evaluation harness, as Memobase's file records them."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from locomo_repro.score import mem0


def test_token_f1_compares_sets_of_words_without_stemming():
    # "the the cat" is {the, cat}; against {the, cats}: one shared word of two each side.
    assert mem0.token_f1("the the cat", "The cats") == 0.5
    assert mem0.token_f1("Yes.", "yes") == 1.0  # . , ! ? are spaces
    assert mem0.token_f1("a-b", "a b") == 0.0  # a hyphen is no separator
    assert mem0.token_f1("", "x") == 0.0 and mem0.token_f1("x", "") == 0.0
    assert mem0.token_f1("...", "x") == 0.0  # nothing left after the punctuation


def test_bleu1_is_clipped_unigram_precision_times_the_brevity_penalty():
    # reply [the cat] against [the cat sat]: precision 1, brevity exp(1 - 3/2)
    assert mem0.bleu1("the cat", "the cat sat") == pytest.approx(math.exp(-0.5), rel=1e-15)
    # reply [cat cat cat] against [the cat]: "cat" clipped to 1 of 3, no penalty
    assert mem0.bleu1("cat cat cat", "the cat") == pytest.approx(1 / 3, rel=1e-15)
    assert mem0.bleu1("", "x") == 0.0 and mem0.bleu1("dog", "cat") == 0.0


def test_word_tokens_keep_known_abbreviations_and_an_opening_quote_on_its_word():
    assert mem0.word_tokens("tupac and dr. dre.") == ["tupac", "and", "dr.", "dre", "."]
    assert mem0.word_tokens("home. then") == ["home", ".", "then"]  # an unknown word ends the sentence
    assert mem0.word_tokens("'bring it home'") == ["'bring", "it", "home", "'"]
    assert mem0.word_tokens("the '16 finals") == ["the", "'16", "finals"]


PEERS = os.environ.get("LOCOMO_PEERS")
MEMOBASE = "memobase/memobase_eval_0710_3000.json"


@pytest.mark.slow
@pytest.mark.outside("LOCOMO_PEERS")
def test_every_f1_and_bleu_of_memobases_file_comes_out_exactly():
    data = json.loads((Path(PEERS) / MEMOBASE).read_text())
    items = [item for conversation in data.values() for item in conversation]
    assert len(items) == 1540
    wrong = [
        item["question"] for item in items
        if mem0.token_f1(str(item["response"]), str(item["answer"])) != item["f1_score"]
        or mem0.bleu1(str(item["response"]), str(item["answer"])) != item["bleu_score"]
    ]
    assert wrong == []
