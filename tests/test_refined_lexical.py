"""refined.lexical: Refined's token F1 and BLEU-1 (regex tokens, lowercased, no stemming, no smoothing)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from locomo_repro.score import metric
from locomo_repro.refined.lexical import bleu1, token_f1, tokens


# -- hand cases ---------------------------------------------------------------


def test_tokens_are_word_runs_and_single_marks_lowercased():
    assert tokens("7 May, 2023") == ["7", "may", ",", "2023"]
    assert tokens("Café's snake_case!?") == ["café", "'", "s", "snake_case", "!", "?"]
    assert tokens("  \t\n") == []


def test_shorter_prediction_full_precision_half_recall():
    # pred [the cat sat], ref [the cat sat on the mat]: overlap 3, P=1, R=1/2
    assert token_f1("The cat sat", "the cat sat on the mat") == pytest.approx(2 / 3, abs=0, rel=1e-15)
    # BLEU-1: precision 1, brevity penalty exp(1 - 6/3)
    assert bleu1("The cat sat", "the cat sat on the mat") == math.exp(-1.0)


def test_punctuation_is_a_token_of_its_own():
    # pred [may 7 2023] vs ref [7 may , 2023]: overlap 3, P=1, R=3/4 -> F1 = 6/7
    assert token_f1("May 7 2023", "7 May, 2023") == pytest.approx(6 / 7, rel=1e-15)
    assert bleu1("May 7 2023", "7 May, 2023") == math.exp(1.0 - 4 / 3)


def test_counts_are_clipped_as_multisets():
    # pred [the the the] vs ref [the cat]: overlap min(3, 1) = 1; P=1/3, R=1/2 -> F1 = 0.4
    assert token_f1("the the the", "the cat") == pytest.approx(0.4, rel=1e-15)
    # longer prediction: no brevity penalty, BLEU-1 = clipped precision
    assert bleu1("the the the", "the cat") == 1 / 3


def test_empty_or_disjoint_sides_score_zero():
    assert token_f1("", "Paris") == 0.0
    assert token_f1("Paris", "   ") == 0.0
    assert bleu1("", "Paris") == 0.0
    assert bleu1("London", "Paris") == 0.0
    assert token_f1("London", "Paris") == 0.0


def test_no_stemming_unlike_the_official_metric():
    assert metric.f1("running", "run") == 1.0
    assert token_f1("running", "run") == 0.0
    # and no article removal: the official normalisation drops "the", Refined keeps it
    assert token_f1("the beach", "beach") == pytest.approx(2 / 3, rel=1e-15)


def test_exact_values_for_a_mixed_case():
    pred, ref = "She went hiking, and camping!", "camping and hiking"
    # pred [she went hiking , and camping !] (7), ref [camping and hiking] (3): overlap 3
    assert token_f1(pred, ref) == pytest.approx(2 * (3 / 7) * 1 / (3 / 7 + 1), rel=1e-15)
    assert bleu1(pred, ref) == 3 / 7


# -- properties ---------------------------------------------------------------

WORDS = st.lists(st.sampled_from(["a", "b", "cat", "Dog", "7", ",", "!", "é", "x_y"]), max_size=12)


def overlap_by_removal(got: list[str], want: list[str]) -> int:
    """Matches counted by crossing out reference tokens one at a time."""
    left = list(want)
    hits = 0
    for token in got:
        if token in left:
            left.remove(token)
            hits += 1
    return hits


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(WORDS, WORDS)
def test_f1_and_bleu_agree_with_a_crossing_out_count(p, r):
    pred, ref = " ".join(p), " ".join(r)
    got, want = tokens(pred), tokens(ref)
    hits = overlap_by_removal(got, want)
    if not got or not want or hits == 0:
        assert token_f1(pred, ref) == 0.0
        assert bleu1(pred, ref) == 0.0
        return
    precision, recall = hits / len(got), hits / len(want)
    assert token_f1(pred, ref) == pytest.approx(2 * precision * recall / (precision + recall), rel=1e-12)
    penalty = math.exp(1 - len(want) / len(got)) if len(got) < len(want) else 1.0
    assert bleu1(pred, ref) == pytest.approx(penalty * precision, rel=1e-12)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(WORDS, WORDS, st.randoms(use_true_random=False))
def test_f1_is_symmetric_bounded_and_order_and_case_free(p, r, rnd: random.Random):
    pred, ref = " ".join(p), " ".join(r)
    value = token_f1(pred, ref)
    assert 0.0 <= value <= 1.0
    assert value == pytest.approx(token_f1(ref, pred), rel=1e-12)
    shuffled = list(p)
    rnd.shuffle(shuffled)
    assert token_f1(" ".join(shuffled).upper(), ref) == pytest.approx(value, rel=1e-12)
    assert 0.0 <= bleu1(pred, ref) <= 1.0


@settings(max_examples=100, deadline=None)
@given(WORDS)
def test_a_text_against_itself_scores_one(p):
    text = " ".join(p)
    expected = 1.0 if tokens(text) else 0.0
    assert token_f1(text, text) == expected
    assert bleu1(text, text) == expected
