"""The walk memory: one hop out of the question's names, a relation at a time (reference path.go).

The camping conversation and its assertions are path_test.go of
hanzoai/semantic bench/locomo (commit 0c787e9f); the rest are hand-worked
cases of the ranking, grouping and citing rules of path.go.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from locomo_repro.data.dataset import Sample, Turn
from locomo_repro.arms.graph import Knowledge
from locomo_repro.memory.cite import ids, sure
from locomo_repro.arms.path import Path, relation
from locomo_repro.read.reader import Options, gather, reply
from locomo_repro.memory.terms import Vocabulary

# talk_test.go `quiz`.
QUIZ = Options(k=5, floor=0.3, span=4, band=0.9, parts=2)


def when(month: int) -> datetime:
    return datetime(2023, month, 8, 13, 0)


# path_test.go camping(): three sessions months apart; Melanie camps at one
# place in each, and says one thing about something else.
CAMPING = Sample(
    "camp",
    ("Melanie", "Caroline"),
    (
        Turn("D1:1", 1, when(1), "Melanie", "I camped at the beach."),
        Turn("D1:2", 1, when(1), "Caroline", "That sounds cold, Melanie."),
        Turn("D1:3", 1, when(1), "Caroline", "Melanie, you are braver than me."),
        Turn("D2:1", 2, when(5), "Melanie", "I camped in the mountains."),
        Turn("D2:2", 2, when(5), "Melanie", "I started pottery classes on Tuesdays."),
        Turn("D3:1", 3, when(9), "Melanie", "I camped in the forest."),
    ),
    (),
)
CAMPED = "Where has Melanie camped?"


def walker(s: Sample) -> Path:
    return Path(Knowledge(s, Vocabulary([t.text for t in s.turns])))


@pytest.fixture(scope="module")
def camping() -> Path:
    return walker(CAMPING)


# --- path_test.go ----------------------------------------------------------------------------


def test_the_walk_gathers_a_relation_across_sessions(camping):
    cited = ids(camping.recall(CAMPED, 5))
    for want in ("D1:1", "D2:1", "D3:1"):
        assert want in cited


def test_gather_states_the_whole_relation_and_reply_the_best_of_it(camping):
    vocab = camping.knowledge.vocab
    cites = camping.recall(CAMPED, 5)
    confidence = sure(vocab, CAMPED, cites)
    whole = gather(CAMPED, cites, confidence, vocab, QUIZ)
    for place in ("beach", "mountains", "forest"):
        assert place in whole
    assert reply(CAMPED, cites, confidence, vocab, QUIZ).count(",") < 2


def test_a_blinded_graph_gives_nothing():
    p = walker(CAMPING)
    p.knowledge.blind()
    assert p.recall(CAMPED, 5) == []


# (label, label) pairs that are one relation, and pairs that are two (TestRelationFoldsTense).
SAME_RELATION = [("read", "reading"), ("went", "went"), ("not giving", "not gives")]
OTHER_RELATION = [("eating", "not eating")]


@pytest.mark.parametrize(("a", "b"), SAME_RELATION)
def test_relation_folds_tense(a, b):
    assert relation(a) == relation(b)


@pytest.mark.parametrize(("a", "b"), OTHER_RELATION)
def test_relation_keeps_a_negation(a, b):
    assert relation(a) != relation(b)


def test_relation_is_the_folded_stemmed_words():
    assert relation("  Not   Giving ") == "not give"
    assert relation("camped") == "camp"


# --- hand cases of path.go ---------------------------------------------------------------------


def test_the_camping_walk_exactly(camping):
    # Three edges of one relation with equal scores: ties go by edge id.
    got = [(c.turn.id, c.say) for c in camping.recall(CAMPED, 5)]
    assert got == [("D2:1", "mountains"), ("D3:1", "forest"), ("D1:1", "beach")]
    edges = {e.target: e.id for e in camping.knowledge.graph.out_edges("melanie")}
    assert edges["mountains"] < edges["forest"] < edges["beach"]
    assert [(c.turn.id, c.say) for c in camping.recall(CAMPED, 2)] == got[:2]


# Melanie says the beach twice and the lake once in the beach's turn;
# Caroline camps with Melanie (an edge into Melanie's node) and reads poems.
SHORE = Sample(
    "shore",
    ("Melanie", "Caroline"),
    tuple(
        Turn(i, 1, when(5), who, text)
        for i, who, text in [
            ("D1:1", "Melanie", "I camped at the beach, then at the lake."),
            ("D2:1", "Melanie", "I camped at the beach."),
            ("D3:1", "Melanie", "I camped in the forest."),
            ("D3:2", "Caroline", "Melanie read books. Caroline is reading poems."),
            ("D3:3", "Caroline", "I camped at the beach with Melanie."),
        ]
    ),
    (),
)


@pytest.fixture(scope="module")
def shore() -> Path:
    return walker(SHORE)


def test_a_relation_comes_whole_and_each_turn_is_cited_once(shore):
    cites = shore.recall(CAMPED, 5)
    assert [(c.turn.id, c.say) for c in cites] == [
        # Melanie's "camped" relation, at its best edge: the beach cites the
        # first of its two turns, then the forest; the lake (tied with the
        # forest, later by edge id) has only the beach's turn, already cited,
        # so it is left out.
        ("D1:1", "beach"),
        ("D3:1", "forest"),
        # Caroline camped with Melanie: an in-edge of the start node, its own
        # relation, emitted after the whole of the first one although it scores higher
        # than the forest.
        ("D3:3", "melanie"),
    ]
    assert cites[0].score > cites[2].score > cites[1].score > 0


def test_starts_are_the_named_nodes_in_name_order(shore):
    assert shore.starts("Where did Melanie and Caroline camp?") == ["caroline", "melanie"]
    assert shore.starts("Where did MELANIE camp? Melanie?") == ["melanie"]
    assert shore.starts("Where did they camp?") == []
    assert shore.recall("Where did they camp?", 5) == []


def test_a_relation_belongs_to_its_source(shore):
    # Melanie "read" and Caroline "reading" are one relation name but two relations.
    assert [(c.turn.id, c.say) for c in shore.recall("What has Melanie read?", 5)] == [("D3:2", "books")]
    assert [(c.turn.id, c.say) for c in shore.recall("What did Caroline read?", 5)] == [("D3:2", "poems")]
