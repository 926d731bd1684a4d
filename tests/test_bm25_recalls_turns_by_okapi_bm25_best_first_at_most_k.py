"""The bm25 arm recalls the turns whose ``Turn.line()`` scores above zero by Okapi BM25, best first, ties in
the conversation's order, at most k.  The scores are bm25s's defaults (the Lucene variant: k1 = 1.5,
b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5))), worked out here by hand over the tokens the
library's default tokeniser gives (lower case, two or more word characters, its English stopwords out,
no stemming).  bm25s keeps scores as float32, hence the relative tolerance of 1e-6."""

from __future__ import annotations

import math
from datetime import datetime
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from locomo_repro.arms.plugin import Conversation
from locomo_repro.data.dataset import Turn

pytest.importorskip("bm25s", reason="the bm25 extra (bm25s) is not installed")
from locomo_repro.arms.bm25 import BM25  # noqa: E402

DAY = datetime(2023, 5, 8, 13, 56)
TURNS = (
    Turn("D1:1", 1, DAY, "Alice", "I adopted a puppy named Rex."),
    Turn("D1:2", 1, DAY, "Bob", "A puppy! I love dogs."),
    Turn("D1:3", 1, DAY, "Alice", "Rex loves the beach."),
    Turn("D1:4", 1, DAY, "Bob", "The beach is lovely."),
)
CONVERSATION = Conversation("conv-test", ("Alice", "Bob"), TURNS)

#: Each line's tokens, by hand: '(8 May, 2023) Alice said, "I adopted a puppy named Rex."' loses "8" and
#: "i" (one character) and "a" (a stopword); "the" and "is" are stopwords too.
TOKENS = {
    "D1:1": ["may", "2023", "alice", "said", "adopted", "puppy", "named", "rex"],
    "D1:2": ["may", "2023", "bob", "said", "puppy", "love", "dogs"],
    "D1:3": ["may", "2023", "alice", "said", "rex", "loves", "beach"],
    "D1:4": ["may", "2023", "bob", "said", "beach", "lovely"],
}
K1, B = 1.5, 0.75


def okapi(words: list[str], doc: str) -> float:
    """BM25 of a document for the question's tokens, Lucene's idf, by the formula."""
    n = len(TOKENS)
    avgdl = sum(len(t) for t in TOKENS.values()) / n
    score = 0.0
    for w in words:
        df = sum(w in t for t in TOKENS.values())
        tf = TOKENS[doc].count(w)
        if df and tf:
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            score += idf * tf / (tf + K1 * (1 - B + B * len(TOKENS[doc]) / avgdl))
    return score


def test_the_hand_made_turns_read_as_the_lines_tokenised_here_by_hand():
    assert TURNS[0].line() == '(8 May, 2023) Alice said, "I adopted a puppy named Rex."'


def test_a_question_scores_the_turns_that_share_its_words_by_the_formula():
    # "where", "does" and "go" are in no turn, "to" and "the" are stopwords: rex (df 2) and beach (df 2).
    got = BM25(CONVERSATION).recall("Where does Rex go to the beach?", 5)
    assert [i for i, _ in got] == ["D1:3", "D1:4", "D1:1"]  # both words; beach in 6 tokens; rex in 8
    for dia_id, score in got:
        assert score == pytest.approx(okapi(["rex", "beach"], dia_id), rel=1e-6)
    # By hand: idf = ln(1 + 2.5 / 2.5) = ln 2; D1:3 has the average length, so each word adds ln 2 / 2.5.
    assert got[0][1] == pytest.approx(2 * math.log(2) / 2.5, rel=1e-6)
    assert got[1][1] == pytest.approx(math.log(2) / (1 + 1.5 * (0.25 + 0.75 * 6 / 7)), rel=1e-6)


def test_a_word_of_every_turn_still_scores_above_zero_as_lucenes_idf_gives():
    # "said" is in all four turns: Robertson's idf ln(0.5 / 4.5) would be negative, Lucene's is ln(10 / 9).
    got = BM25(CONVERSATION).recall("Who said so?", 5)
    assert [i for i, _ in got] == ["D1:4", "D1:2", "D1:3", "D1:1"]  # shortest first; D1:2 and D1:3 tie
    assert got[0][1] == pytest.approx(math.log(10 / 9) / (1 + 1.5 * (0.25 + 0.75 * 6 / 7)), rel=1e-6)
    for dia_id, score in got:
        assert score == pytest.approx(okapi(["said"], dia_id), rel=1e-6)


def test_a_repeated_question_word_counts_once_per_repetition():
    once = dict(BM25(CONVERSATION).recall("puppy", 5))
    twice = dict(BM25(CONVERSATION).recall("puppy puppy", 5))
    assert once.keys() == twice.keys() == {"D1:1", "D1:2"}
    for dia_id in once:
        assert twice[dia_id] == pytest.approx(2 * once[dia_id], rel=1e-6)
        assert once[dia_id] == pytest.approx(okapi(["puppy"], dia_id), rel=1e-6)


def test_at_most_k_turns_come_back():
    memory = BM25(CONVERSATION)
    assert [i for i, _ in memory.recall("Who said so?", 2)] == ["D1:4", "D1:2"]
    assert memory.recall("Who said so?", 1) == memory.recall("Who said so?", 4)[:1]
    assert memory.recall("Who said so?", 0) == []


def test_turns_of_no_shared_word_are_left_out_not_given_a_zero():
    memory = BM25(CONVERSATION)
    assert [i for i, _ in memory.recall("dogs", 4)] == ["D1:2"]
    assert memory.recall("What is the weather like?", 4) == []  # words of no turn, stopwords
    assert memory.recall("?", 4) == []  # no token at all


def test_tied_turns_come_in_the_conversations_order_whatever_it_is():
    # Forty turns sharing "said" once: every third one token shorter (so scoring higher), the others alike.
    # Each group ties, and comes in the order the conversation gives (enough turns that an unstable sort
    # would shuffle them); reversed, each group comes back reversed.
    forty = tuple(Turn(f"D1:{i}", 1, DAY, "Bob", "Fine." if i % 3 == 0 else "Fine thanks.") for i in range(40))
    for turns in (forty, forty[::-1]):
        got = BM25(Conversation("ties", ("Alice", "Bob"), turns)).recall("said", 40)
        short = [t.id for t in turns if t.text == "Fine."]
        assert [i for i, _ in got] == short + [t.id for t in turns if t.id not in short]
        assert len({s for _, s in got}) == 2


def test_a_conversation_without_turns_recalls_nothing():
    assert BM25(Conversation("empty", ("Alice", "Bob"), ())).recall("Who said so?", 5) == []


#: Question words: every indexed token, stopwords, one-character words and words of no turn.
WORDS = sorted({w for t in TOKENS.values() for w in t}) + ["the", "is", "to", "a", "i", "x", "weather", "cat"]
STOPWORDS_HERE = {"the", "is", "to", "a"}


@given(st.lists(st.sampled_from(WORDS), max_size=8), st.integers(min_value=0, max_value=6))
def test_recall_is_the_formulas_best_k_of_positive_scores_ties_in_turn_order(words, k):
    got = BM25(CONVERSATION).recall(" ".join(words), k)
    tokens = [w for w in words if len(w) > 1 and w not in STOPWORDS_HERE]
    want = {dia_id: okapi(tokens, dia_id) for dia_id in TOKENS}
    positive = [dia_id for dia_id, score in want.items() if score > 0]
    assert len(got) == min(k, len(positive))
    for dia_id, score in got:
        assert score > 0 and score == pytest.approx(want[dia_id], rel=1e-6)
    order = list(TOKENS)
    for (a, score_a), (b, score_b) in pairwise(got):
        assert score_a > score_b or (score_a == score_b and order.index(a) < order.index(b))
    # Nothing better was left out (float32 against float64: a tie may fall either side by a rounding).
    left = [want[dia_id] for dia_id in positive if dia_id not in dict(got)]
    if got and left:
        assert max(left) <= got[-1][1] * (1 + 1e-6)
