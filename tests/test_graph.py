"""The graph memory: claims filed as per-person pieces, recall scoped to the question's subject (reference graph.go).

The end-to-end case is talk_test.go TestGraphDoesNotLendOneSpeakersTopicToTheOther
of hanzoai/semantic bench/locomo (commit 0c787e9f); the rest are hand-worked
cases of the filing and recall rules of graph.go.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from locomo_repro.data.dataset import Sample, Turn
from locomo_repro.arms.graph import NAMING, Held, Knowledge, Piece
from locomo_repro.memory.cite import ids, sure
from locomo_repro.score.metric import declined
from locomo_repro.read.reader import Options, reply
from locomo_repro.memory.store import SPACE, dot
from locomo_repro.memory.terms import Vocabulary
from locomo_repro.text.reduce import terms

# talk_test.go `day` and `quiz`.
DAY = datetime(2023, 5, 8, 13, 56)
QUIZ = Options(k=5, floor=0.3, span=4, band=0.9, parts=2)


def sample(speakers: tuple[str, str], *turns: tuple[str, str, str]) -> Sample:
    return Sample("test", speakers, tuple(Turn(i, 1, DAY, who, text) for i, who, text in turns), ())


def knowledge(s: Sample, **kw) -> Knowledge:
    return Knowledge(s, Vocabulary([t.text for t in s.turns]), **kw)


# --- talk_test.go: John does yoga, Tim asks him about it ------------------------------------

YOGA = sample(
    ("Tim", "John"),
    ("D20:1", "Tim", "Hey John! I had a tough exam last week that had me doubting myself."),
    ("D20:2", "John",
     "Congrats on your success! I'm also trying out yoga to get a little extra strength and flexibility."),
    ("D20:3", "Tim",
     "Thanks! I appreciate your encouragement. How's it going with yoga? Have you noticed any improvements?"),
)
ABOUT_TIM = "What is Tim trying out to improve his strength and flexibility?"
ABOUT_JOHN = "What is John trying out to improve his strength and flexibility?"


@pytest.fixture(scope="module")
def yoga() -> Knowledge:
    return knowledge(YOGA)


def test_the_graph_does_not_lend_johns_yoga_to_tim(yoga):
    cites = yoga.recall(ABOUT_TIM, 5)
    assert "D20:2" not in ids(cites)
    confidence = sure(yoga.vocab, ABOUT_TIM, cites)
    assert declined(reply(ABOUT_TIM, cites, confidence, yoga.vocab, QUIZ))


def test_the_graph_still_finds_john(yoga):
    cites = yoga.recall(ABOUT_JOHN, 5)
    assert ids(cites)[:1] == ["D20:2"]
    confidence = sure(yoga.vocab, ABOUT_JOHN, cites)
    got = reply(ABOUT_JOHN, cites, confidence, yoga.vocab, QUIZ)
    assert not declined(got)
    assert "yoga" in got


def test_the_yoga_pieces(yoga):
    # "your success" is Tim's (second person, John speaking); the question
    # sentence of D20:3 files nothing; "Hey John!" has no content after the name.
    assert list(yoga.pieces) == ["tim@D20:1", "tim@D20:2", "john@D20:2", "tim@D20:3"]
    assert yoga.pieces["john@D20:2"].said == (
        "I'm also trying out yoga to get a little extra strength and flexibility."
    )
    assert [h.object for h in yoga.pieces["john@D20:2"].claims] == ["yoga", "get little extra strength flexibility"]


# --- filing: what one person was said to do in one turn ---------------------------------------

# Jolene loves her snake, names it, and is told to visit the zoo; Deborah adopts a cat.
# "susie" is a known name (capitalised twice, never first in a sentence).
PETS = sample(
    ("Jolene", "Deborah"),
    ("D1:1", "Jolene", "I love my snake."),
    ("D1:2", "Jolene", "My snake is named Susie. My snake is named Susie!"),
    ("D1:3", "Deborah", "You should visit the zoo. I adopted a cat. I adopted a cat!"),
)
NAMED = "My snake is named Susie. My snake is named Susie!"

# The pieces without reasoning, in first-seen order of (person, turn): the
# distinct sentences joined by a space; each claim held as its object and the
# stems of "predicate object".
PETS_PIECES = {
    "jolene@D1:1": Piece(0, "jolene", "I love my snake.", (Held("snake", terms("love snake")),)),
    "jolene@D1:2": Piece(1, "jolene", NAMED, (Held("susie", terms("named susie")),) * 2),
    "snake@D1:2": Piece(1, "snake", NAMED, (Held("susie", terms("named susie")),) * 2),
    "jolene@D1:3": Piece(2, "jolene", "You should visit the zoo.", (Held("zoo", terms("visit zoo")),)),
    "deborah@D1:3": Piece(2, "deborah", "I adopted a cat. I adopted a cat!", (Held("cat", terms("adopted cat")),) * 2),
}
# The naming rule derives (Jolene, love, susie) from D1:1 and D1:2; it is filed
# under both turns as "predicate object", with no sentence of its own.
LOVES_SUSIE = Held("susie", terms("love susie"))
DERIVED_PIECES = {
    **PETS_PIECES,
    "jolene@D1:1": Piece(0, "jolene", "I love my snake. love susie", (Held("snake", terms("love snake")), LOVES_SUSIE)),
    "jolene@D1:2": Piece(1, "jolene", NAMED + " love susie", (*PETS_PIECES["jolene@D1:2"].claims, LOVES_SUSIE)),
}


@pytest.fixture(scope="module")
def pets() -> Knowledge:
    return knowledge(PETS)


@pytest.fixture(scope="module")
def pets_underived() -> Knowledge:
    return knowledge(PETS, rules=())


def test_names_and_counts(pets):
    assert pets.people == ("deborah", "jolene", "susie")
    # claims: the reader's triples before reasoning; derived: what the rule added.
    assert (pets.claims, pets.derived, pets.nodes, pets.edges) == (8, 1, 6, 6)


def test_pieces_with_the_naming_rule(pets):
    assert list(pets.pieces) == list(DERIVED_PIECES)
    assert pets.pieces == DERIVED_PIECES


def test_pieces_are_stored_under_who_at_turn_in_their_persons_space(pets):
    assert len(pets.store) == len(DERIVED_PIECES)
    for piece in pets.pieces.values():
        query = pets.vocab.weigh(piece.said)
        # every piece of the person's space, with its metadata and its product with this piece's vector
        got = {m.id: (m.score, dict(m.meta)) for m in pets.store.search(query, 0, space=piece.who)}
        want = {key: (dot(query.dense(), pets.vocab.weigh(other.said).dense()), {SPACE: other.who})
                for key, other in DERIVED_PIECES.items() if other.who == piece.who}
        assert got == want


def test_the_derived_fact_is_an_edge_with_no_turn(pets):
    edge = [e for e in pets.graph.edges() if (e.source, e.label, e.target) == ("jolene", "love", "susie")]
    assert len(edge) == 1 and edge[0].docs == ()


def test_derive_ablation_gives_the_reasoner_no_rule(pets_underived):
    g = pets_underived
    assert (g.claims, g.derived, g.nodes, g.edges) == (8, 0, 6, 5)
    assert g.pieces == PETS_PIECES
    assert ("jolene", "love", "susie") not in {(e.source, e.label, e.target) for e in g.graph.edges()}


def test_the_default_rule_is_naming(pets, pets_underived):
    explicit = knowledge(PETS, rules=(NAMING,))
    assert explicit.pieces == pets.pieces and explicit.derived == pets.derived


# --- recall -------------------------------------------------------------------------------------


def cited(g: Knowledge, question: str, k: int = 5) -> list[tuple[str, str]]:
    return [(c.turn.id, c.say) for c in g.recall(question, k)]


def test_recall_keeps_to_the_subject(pets):
    assert pets.subject("What did Deborah adopt?") == "deborah"
    assert cited(pets, "What did Deborah adopt?") == [("D1:3", "cat")]


def test_say_is_the_best_covering_claim_and_the_first_on_a_tie(pets):
    # Focus is ["love"] (Jolene is the subject): both claims of jolene@D1:1 cover
    # it fully, and the first one filed is said.
    assert cited(pets, "What does Jolene love?") == [("D1:1", "snake"), ("D1:2", "susie")]


def test_a_question_naming_nobody_searches_everyone(pets_underived):
    g = pets_underived
    assert g.subject("Who adopted a cat?") == ""
    assert cited(g, "Who adopted a cat?") == [("D1:3", "cat")]
    # Two pieces of D1:2 score alike: ties go by id, and the turn is cited twice.
    got = g.recall("What is the snake named?", 5)
    assert ids(got) == ["D1:2", "D1:2", "D1:1"]
    assert got[0].score == got[1].score


def test_scores_are_float64_inner_products_of_float32_vectors(pets):
    q = "What does Jolene love?"
    top = pets.recall(q, 1)[0]
    a = pets.vocab.weigh(q).dense()
    b = pets.vocab.weigh(pets.pieces["jolene@D1:1"].said).dense()
    want = 0.0
    for x, y in zip(a, b):
        want += x * y
    assert top.score == want


def test_k_cuts_and_nothing_shared_is_nothing_cited(pets, yoga):
    assert len(pets.recall("What is the snake named?", 1)) == 1
    assert yoga.recall(ABOUT_TIM, 5) == []  # Tim's pieces share no term with the question


# --- blind ------------------------------------------------------------------------------------------


def test_blind_empties_the_graph_and_keeps_everything_else():
    g = knowledge(PETS)
    before = (g.claims, g.derived, g.nodes, g.edges, dict(g.pieces), g.people)
    recalled = g.recall("What does Jolene love?", 5)
    g.blind()
    assert g.graph.size() == (0, 0) and g.graph.edges() == []
    assert (g.claims, g.derived, g.nodes, g.edges, dict(g.pieces), g.people) == before
    assert g.recall("What does Jolene love?", 5) == recalled


def test_the_run_builds_the_ablations_it_is_asked_for():
    from locomo_repro.bench import experiment as bench

    (plain,) = bench.build([PETS])
    (underived,) = bench.build([PETS], derive=False)
    (blind,) = bench.build([PETS], blind=True)
    assert (plain.knowledge.derived, plain.knowledge.graph.size()) == (1, (6, 6))
    assert (underived.knowledge.derived, underived.knowledge.graph.size()) == (0, (6, 5))
    assert (blind.knowledge.derived, blind.knowledge.edges, blind.knowledge.graph.size()) == (1, 6, (0, 0))
