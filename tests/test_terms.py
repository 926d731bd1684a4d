"""Term weighting: Go's natural log, the IDF vocabulary, unit vectors, focus, cover and sure (reference terms.go, memory.go)."""

from __future__ import annotations

import math
from datetime import datetime

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from locomo_repro.data.dataset import Turn
from locomo_repro.memory.cite import Cite, sure
from locomo_repro.memory.sparse import Sparse
from locomo_repro.memory.terms import Vocabulary, asked, go_log
from locomo_repro.text.reduce import stems, terms

# --- go_log: Go's math.Log --------------------------------------------------------------------

# Go's math package test (src/math/all_test.go, TestLog): Log(|vf[i]|) must
# equal log[i] exactly.
GO_LOG_CASES = [
    (4.9790119248836735e00, 1.605231462693062999102599e00),
    (7.7388724745781045e00, 2.0462560018708770653153909e00),
    (2.7688005719200159e-01, -1.2841708730962657801275038e00),
    (5.0106036182710749e00, 1.6115563905281545116286206e00),
    (9.6362937071984173e00, 2.2655365644872016636317461e00),
    (2.9263772392439646e00, 1.0737652208918379856272735e00),
    (5.2290834314593066e00, 1.6542360106073546632707956e00),
    (2.7279399104360102e00, 1.0035467127723465801264487e00),
    (1.8253080916808550e00, 6.0174879014578057187016475e-01),
    (8.6859247685756013e00, 2.161703872847352815363655e00),
    # TestLog: Log(10) == Ln10.
    (10.0, 2.30258509299404568401799145468436420760110148862877297603332790),
    (1.0, 0.0),
]


@pytest.mark.parametrize(("x", "want"), GO_LOG_CASES)
def test_go_log_matches_go_exactly(x, want):
    assert go_log(x) == want


@given(st.floats(min_value=5e-324, max_value=1.7976931348623157e308, allow_nan=False, allow_infinity=False))
def test_go_log_is_within_one_ulp_of_the_platform_log(x):
    assert abs(go_log(x) - math.log(x)) <= math.ulp(math.log(x))


def test_go_log_over_the_ratios_a_vocabulary_takes():
    # (N+1)/(df+1) for conversations of up to 800 turns.
    for n1 in range(2, 801, 7):
        for df1 in range(2, n1 + 1, 3):
            x = n1 / df1
            assert abs(go_log(x) - math.log(x)) <= math.ulp(math.log(x)), (n1, df1)


# --- the vocabulary ---------------------------------------------------------------------------

# Four turns (N = 4).  Document frequency counts turns, not occurrences.
TEXTS = (
    "Red red apples!",
    "Green apples and red pears.",
    "I love pears.",
    "Bananas?",
)
# stem -> df
DF = {"red": 2, "appl": 2, "green": 1, "pear": 2, "i": 1, "love": 1, "banana": 1}


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    return Vocabulary(TEXTS)


def test_the_vocabulary_is_the_stems_in_byte_order(vocab):
    assert vocab.terms == tuple(sorted(DF))
    assert vocab.size == len(DF) == 7
    assert vocab.index == {t: i for i, t in enumerate(sorted(DF))}
    assert vocab.turns == 4


def test_weights_are_ln_n_plus_one_over_df_plus_one_by_go_log(vocab):
    for term, df in DF.items():
        assert vocab.weight(term) == go_log(5 / (df + 1))
        assert vocab.weight(term) == pytest.approx(math.log(5 / (df + 1)), rel=1e-15)
    # A stem no turn used weighs as if its df were 0: ln(N+1).
    assert vocab.weight("zebra") == vocab.unknown == go_log(5)


def test_an_empty_vocabulary():
    v = Vocabulary([])
    assert v.size == 0 and v.weight("x") == 0.0
    assert v.weigh("anything") == Sparse(0, (), ())


# --- weigh: a float32 unit vector -----------------------------------------------------------------


def test_weigh_by_hand(vocab):
    got = vocab.weigh("red red apples, and a zebra")
    red, appl = vocab.index["red"], vocab.index["appl"]
    # float32(count × weight), then scaled by float32(1/sqrt(Σ float64(x)²)) in float32.
    raw = np.array([2 * vocab.weight("red"), vocab.weight("appl")]).astype(np.float32)
    total = float(raw[0]) ** 2 + float(raw[1]) ** 2
    want = raw * np.float32(1 / math.sqrt(total))
    # only the known stems are components: the unknown "zebra" and the stop-ish "a" add nothing
    assert appl < red and got == Sparse(7, (appl, red), (float(want[1]), float(want[0])))  # in position order
    dense = got.dense()
    assert len(dense) == 7 and (dense[appl], dense[red]) == got.values and dense.count(0.0) == 5


def test_a_stem_every_turn_holds_is_no_component():
    v = Vocabulary(["red apples", "red pears"])  # "red": df = N, weight ln(3/3) = 0
    assert v.weight("red") == 0.0
    got = v.weigh("red apples")
    assert got.dims == (v.index["appl"],) and got.values == (1.0,)
    assert v.weigh("red") == Sparse(v.size, (), ())


def test_weigh_with_nothing_known_is_the_zero_vector(vocab):
    for text in ("", "zebra", "?!", "the"):
        assert vocab.weigh(text) == Sparse(7, (), ())


WORDS = ["red", "apples", "green", "pears", "I", "love", "bananas", "zebra", "the", "Red!", "—"]


@given(st.lists(st.sampled_from(WORDS), max_size=12))
def test_weigh_is_a_unit_vector_on_the_known_stems(vocab_words):
    vocab = Vocabulary(TEXTS)
    text = " ".join(vocab_words)
    got = vocab.weigh(text)
    known = {t for t in stems(text) if t in vocab.index}
    assert list(got.dims) == sorted(got.dims) and len(got.dims) == len(got.values)
    assert {vocab.terms[i] for i in got.dims} == known
    assert all(x > 0 and x == float(np.float32(x)) for x in got.values)
    norm = math.sqrt(sum(x**2 for x in got.values))
    if known:
        assert abs(norm - 1) <= 4 * np.finfo(np.float32).eps
    else:
        assert norm == 0


# --- focus ------------------------------------------------------------------------------------------

ASKED_WORDS = "what when where who whom which why how did does do is are was were has have had would could " \
              "will can according mentioned many much name names"

# (question, subject, focus): the question's stems in order, repeats kept,
# less stop words, asked words and the subject's stems.
FOCUS = [
    ("What did Caroline paint in the park, and paint again?", "Caroline", ["paint", "park", "paint"]),
    ("What did Caroline paint in the park, and paint again?", "", ["carolin", "paint", "park", "paint"]),
    ("How many names were mentioned?", "", []),
    # The stop list is looked up with the stem: "this" stems to "thi", which is
    # not a stop word, so it stays (reference behaviour); "yours" stems to "your", which is.
    ("Is this yours?", "", ["thi"]),
    ("Where does Mary Ann live?", "Mary Ann", ["live"]),
]


@pytest.mark.parametrize(("question", "subject", "want"), FOCUS)
def test_focus(vocab, question, subject, want):
    assert vocab.focus(question, subject) == want


def test_asked_is_the_27_stems_of_the_question_words():
    assert asked() == frozenset(stems(ASKED_WORDS))
    assert len(asked()) == 27


# --- cover ------------------------------------------------------------------------------------------


def test_cover_is_the_weighted_share_with_repeats(vocab):
    w_red, w_green = vocab.weight("red"), vocab.weight("green")
    assert vocab.cover(["red", "green"], {"red"}) == w_red / (w_red + w_green)
    assert vocab.cover(["red", "red", "green"], {"red"}) == 2 * w_red / (2 * w_red + w_green)
    assert vocab.cover(["red", "green"], {"red", "green", "pear"}) == 1.0
    assert vocab.cover(["red"], set()) == 0.0
    assert vocab.cover([], {"red"}) == 0.0
    # An unknown stem weighs ln(N+1) and can only miss.
    assert vocab.cover(["red", "zebra"], {"red"}) == w_red / (w_red + go_log(5))


def test_cover_of_zero_weights_is_zero():
    v = Vocabulary(["same", "same"])  # df = N: weight ln(3/3) = 0
    assert v.weight("same") == 0.0
    assert v.cover(["same"], {"same"}) == 0.0


@given(st.lists(st.sampled_from(list(DF) + ["zebra"]), max_size=8), st.sets(st.sampled_from(list(DF))))
def test_cover_is_a_share(focus, have):
    v = Vocabulary(TEXTS)
    c = v.cover(focus, have)
    assert 0.0 <= c <= 1.0
    assert (c == 0.0) == (not any(t in have for t in focus))


# --- sure -----------------------------------------------------------------------------------------------

DAY = datetime(2023, 5, 8)


def cite(text: str, score: float = 1.0) -> Cite:
    return Cite(Turn("D1:1", 1, DAY, "Ann", text), score)


def test_sure_is_the_best_cover_of_any_cited_turn(vocab):
    q = "Who loves green pears?"
    focus = vocab.focus(q)
    assert focus == ["love", "green", "pear"]
    cites = [cite("I love pears."), cite("Green apples and red pears."), cite("Bananas?")]
    want = max(vocab.cover(focus, terms(c.turn.text)) for c in cites)
    assert sure(vocab, q, cites) == want
    assert want == vocab.cover(focus, {"green", "pear"})  # the second turn covers most
    assert sure(vocab, q, []) == 0.0


def test_sure_reads_the_turn_text_not_its_line_and_keeps_the_subject(vocab):
    # The speaker's name is in the line, not the text, so it does not count;
    # the question's subject is not dropped from the focus here.
    q = "What does Ann love?"
    assert vocab.focus(q) == ["ann", "love"]
    assert sure(vocab, q, [cite("I love pears.")]) == vocab.cover(["ann", "love"], {"love"})
    assert sure(vocab, q, [cite("I love pears.")]) < 1.0
