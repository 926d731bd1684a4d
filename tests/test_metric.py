"""The official LoCoMo metric by hand: every grade branch, f1, parts, recall, and the text reduction under it."""

from __future__ import annotations

import string
import struct

import pytest
import regex
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from nltk.stem import PorterStemmer

from locomo_repro.score.metric import DECLINE, declined, f1, grade, mean, parts, recall
from locomo_repro.text.reduce import normalise, stem, stems

# --- normalise and stems ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("The Cat, and a Dog.", "cat dog"),
        ("7 May, 2023", "7 may 2023"),
        ("an apple AND the pear", "apple pear"),
        ("sand, band; theme", "sand band theme"),  # articles only as whole words
        ("5a is 2an", "5a is 2an"),  # digits are word characters
        ("a_b the_end", "ab theend"),  # _ is ASCII punctuation, dropped before the articles
        ("don't-stop", "dontstop"),  # ASCII punctuation goes without a space
        ("caf\u00e9 \u2014 the end", "caf\u00e9 \u2014 end"),  # non-ASCII punctuation stays
        ("a\u0301 b", "a\u0301 b"),  # a combining mark joins the word
        ("  spaced \t\n out  ", "spaced out"),
        ("", ""),
    ],
)
def test_normalise(text, want):
    assert normalise(text) == want


def test_stems_are_porter_stems_of_the_normalised_words():
    assert stems("The ponies, running happily!") == ("poni", "run", "happili")
    assert stems("the a an and") == ()


# --- f1 and parts -------------------------------------------------------------


def test_f1_by_hand():
    # "cats sat" -> cat sat; "cat sat down" -> cat sat down: 2 shared, p 1, r 2/3
    assert f1("The cats sat.", "a cat sat down") == pytest.approx(0.8, abs=1e-15)
    # multisets: one "dog" of two is matched
    assert f1("dog dog", "dog") == pytest.approx(2 / 3, abs=1e-15)
    assert f1("dog", "cat") == 0.0
    assert f1("", "cat") == 0.0
    assert f1("cat", "") == 0.0
    assert f1("the a an", "the") == 0.0  # nothing left after normalising


def test_parts_by_hand():
    # London 1, Rome 0, Paris 1 -> 2/3; the reply's extra parts cost nothing
    assert parts("Paris, London, Oslo, Bern", "London, Rome, Paris") == pytest.approx(2 / 3, abs=1e-15)
    assert parts("", "London") == 0.0
    assert parts("big", "big cat") == pytest.approx(2 / 3, abs=1e-15)


def test_parts_takes_the_numpy_mean():
    # per part: five 1s, 2/3 (big vs big cat), three 0s = 17/27.  numpy's pairwise
    # sum gives ...295; a running sum (the Go port's) gives ...297.
    reply = "red, blue, green, pink, gold, big"
    answer = "red, blue, green, pink, gold, big cat, oak, elm, ash"
    assert parts(reply, answer) == 0.6296296296296295


# --- grade, branch by branch ----------------------------------------------------


def test_grade_category_1_is_parts():
    assert grade(1, "London", "London, Paris") == 0.5
    assert grade(1, "Paris, London", "London, Paris") == 1.0


@pytest.mark.parametrize("category", [2, 4])
def test_grade_categories_2_and_4_are_f1_over_the_whole_answer(category):
    assert grade(category, "London", "London, Paris") == pytest.approx(2 / 3, abs=1e-15)
    assert grade(category, "7 May 2023", "7 May, 2023") == 1.0
    assert grade(category, "hiking", "hiking; camping") == pytest.approx(2 / 3, abs=1e-15)  # no ; cut


def test_grade_category_3_scores_against_the_text_before_the_first_semicolon():
    assert grade(3, "hiking", "hiking; camping") == 1.0
    assert grade(3, "camping", "hiking; camping") == 0.0
    assert grade(3, "likely yes", " likely yes ; no; maybe") == 1.0
    assert grade(3, "London", "London, Paris") == pytest.approx(2 / 3, abs=1e-15)  # f1, not parts


def test_grade_category_5_rewards_the_two_declining_phrases():
    assert grade(5, DECLINE, "a red car") == 1.0
    assert grade(5, "no INFORMATION available here", "") == 1.0
    assert grade(5, "That is not mentioned in the conversation.", "x") == 1.0
    assert grade(5, "It was NOT MENTIONED", "x") == 1.0
    assert grade(5, "no information", "x") == 0.0
    assert grade(5, "not  mentioned", "x") == 0.0  # the phrase, verbatim
    assert grade(5, "a red car", "a red car") == 0.0  # the adversarial answer itself
    assert grade(5, "", "x") == 0.0


def test_grade_unknown_category_is_zero():
    assert grade(6, "x", "x") == 0.0


def test_declined():
    assert declined(DECLINE)
    assert declined("Sorry, NOT MENTIONED.")
    assert not declined("I do not know")


# --- recall (the scorer's prediction_context branch) -----------------------------


def test_recall_turn_ids():
    assert recall(["D1:3", "D2:5"], ["D1:3", "D4:1"]) == 0.5
    assert recall(["D1:3", "D2:5"], ["D2:5", "D1:3"]) == 1.0
    assert recall(["D1:3", "D1:3", "D2:5"], ["D1:3"]) == pytest.approx(2 / 3, abs=1e-15)  # each id counts
    assert recall(["D1:3"], ["D0:0"]) == 0.0


def test_recall_compares_ids_untrimmed():
    # the scorer strips nothing (the Go port's found would count these)
    assert recall(["(D1:3)"], ["D1:3"]) == 0.0
    assert recall(["D1:3"], ["(D1:3)"]) == 0.0
    assert recall(["D1:3"], [" D1:3"]) == 0.0


def test_recall_session_ids():
    assert recall(["D1:3", "D2:5"], ["S2", "S9"]) == 0.5
    assert recall(["D12:3"], ["S1", "S12"]) == 1.0
    assert recall(["D1:3"], ["S12"]) == 0.0  # whole session numbers, not prefixes
    # decided by the first id: later entries also lose their first character
    assert recall(["D1:1", "D2:3"], ["S1", "D2:3"]) == 0.5
    assert recall(["D2:3"], ["X2", "S5"]) == 0.0  # not a session context: plain membership


def test_recall_without_evidence_is_one():
    assert recall([], ["D1:1"]) == 1.0
    assert recall([], []) == 1.0


def test_recall_empty_context_is_zero():
    assert recall(["D1:1"], []) == 0.0


# --- properties ---------------------------------------------------------------------

ARTICLE = regex.compile(r"\b(a|an|the|and)\b")
WORDY = st.text(
    alphabet=st.sampled_from(list("aAnNdDtThHeEsS ,.;-'") + ["\u0301", "\u00e9", "\u2014", "\t", "_", "1"]),
    max_size=40,
)
ANY = st.one_of(WORDY, st.text(max_size=40))


@settings(max_examples=300, deadline=None)
@given(ANY)
def test_normalise_properties(text):
    assume(text.lower().lower() == text.lower())
    out = normalise(text)
    assert normalise(out) == out
    assert out == out.lower()
    assert not set(out) & set(string.punctuation)
    assert not ARTICLE.search(out)
    assert out == " ".join(out.split())


def scorers_normalize_answer(s: str) -> str:
    """``normalize_answer`` of the official scorer, written out as it is there."""
    s = s.replace(",", "")
    s = regex.sub(r"\b(a|an|the|and)\b", " ", s.lower().translate(str.maketrans("", "", string.punctuation)))
    return " ".join(s.split())


# ASCII control characters are neither word characters nor (but for \x1c-\x1f) whitespace to split at
ASCII_EDGES = st.text(alphabet=st.sampled_from(list("aAnNdDtThHeE 1_,.\t") + ["\x01", "\x1c", "\x1f", "\x7f"]),
                      max_size=30)


@settings(max_examples=500, deadline=None)
@given(st.one_of(ANY, ASCII_EDGES))
def test_normalise_is_the_scorers_formula(text):
    assert normalise(text) == scorers_normalize_answer(text)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(ANY, ANY)
def test_f1_properties(a, b):
    score = f1(a, b)
    assert 0.0 <= score <= 1.0
    assert score == f1(b, a)
    assert f1(a, "") == f1("", a) == 0.0
    if stems(a):
        assert f1(a, a) == 1.0


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20))
def test_cached_stem_is_nltk_stem(word):
    assert stem(word) == PorterStemmer().stem(word)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=-1, max_value=7),
    ANY,
    ANY,
    st.lists(st.text(max_size=8), max_size=4),
    st.lists(st.text(max_size=8), max_size=4),
)
@pytest.mark.slow
def test_nothing_raises_and_scores_stay_in_range(category, reply, answer, evidence, context):
    assert 0.0 <= grade(category, reply, answer) <= 1.0
    assert 0.0 <= parts(reply, answer) <= 1.0
    assert 0.0 <= recall(evidence, context) <= 1.0
    declined(reply)


# numbers whose sums round differently by order: magnitudes far apart, thirds, signed zeros
_number = st.one_of(st.floats(-1e3, 1e3), st.sampled_from([2.0**40, -(2.0**40), 1 / 3, 0.1, -0.0, 0.0, 1e-9]))


@given(st.lists(_number, min_size=1, max_size=300))
def test_the_mean_is_numpys_bit_for_bit(values):
    import numpy as np

    assert struct.pack("<d", mean(values)) == struct.pack("<d", float(np.mean(values)))


def test_the_mean_adds_eight_running_sums_pairwise_from_eight_numbers():
    # 2**53 + 1 rounds to 2**53, so summed in turn every 1 vanishes; from eight numbers on they sit in eight
    # running sums added pairwise, ((2**53 + 1) + (1 + 1)) + ((1 + 1) + (1 + 1)) = 2**53 + 6, and the ninth
    # is added after: 2**53 + 7, a tie, rounds to 2**53 + 8.
    values = [2.0**53, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    assert mean(values) == (2.0**53 + 8) / 9
    assert mean(values[:7]) == 2.0**53 / 7  # seven: in turn
