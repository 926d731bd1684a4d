"""Coreference: the library pass (extract/coref.go) and the reader binding third-person pronouns per session.

The first half holds the cases of coref_test.go of hanzoai/semantic (1cd0cd76);
the second the reconstructed wiring the README describes (talk.third_person,
Knowledge(coref=True), ``-coref``), on hand-made conversations, and that with
the flag off nothing changes.
"""

from __future__ import annotations

import inspect
import io
from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from locomo_repro.bench import experiment as bench

from locomo_repro import cli

from locomo_repro.memory import coref

from locomo_repro.memory import talk
from locomo_repro.memory.coref import Entity, Ref, chains, gazetteer, mentions, refer, same
from locomo_repro.data.dataset import Sample, Turn
from locomo_repro.arms.graph import Knowledge
from locomo_repro.memory.terms import Vocabulary


def found(text: str, word: str, label: str) -> Entity:
    """The entity ``word`` at its first occurrence in ``text``."""
    i = text.index(word)
    return Entity(word, label, i, i + len(word))


# --- the library pass (coref_test.go) ----------------------------------------------------------


def test_mentions_come_in_text_order():
    text = "Steve Jobs founded Apple. He led it for years."
    got = mentions(text, [found(text, "Apple", "ORG"), found(text, "Steve Jobs", "PERSON")])
    assert [(m.text, m.pronoun) for m in got] == [("Steve Jobs", False), ("Apple", False), ("He", True), ("it", True)]


def test_the_longest_pronoun_is_read():
    assert [m.text for m in mentions("Acme lost its way.", [])] == ["its"]


@pytest.mark.parametrize(
    ("text", "marks", "want"),
    [
        ("Alice joined Acme. She resigned.", [("Alice", "PERSON"), ("Acme", "ORG")], [Ref("She", "Alice")]),
        (
            "Steve Jobs founded Apple. He led it for years.",
            [("Steve Jobs", "PERSON"), ("Apple", "ORG")],
            [Ref("He", "Steve Jobs"), Ref("it", "Apple")],
        ),
        ("Widget shipped. It works.", [("Widget", "GADGET")], [Ref("It", "Widget")]),  # no label fits: nearest
        ("It rose before Bitcoin was named.", [("Bitcoin", "PRODUCT")], []),  # nothing precedes
    ],
    ids=["nearest admitted", "it and he", "nearest when none fits", "nothing before"],
)
def test_refer(text, marks, want):
    assert refer(mentions(text, [found(text, w, label) for w, label in marks])) == want


def test_refer_records_what_it_settled():
    text = "Alice joined Acme. She resigned."
    ms = mentions(text, [found(text, "Alice", "PERSON"), found(text, "Acme", "ORG")])
    refer(ms)
    assert [(m.text, m.of) for m in ms] == [("Alice", ""), ("Acme", ""), ("She", "Alice")]


def test_coref_chains_each_name_with_its_pronouns():
    text = "Steve Jobs founded Apple. He led it for years."
    got = coref.coref(text, [found(text, "Steve Jobs", "PERSON"), found(text, "Apple", "ORG")])
    assert [(c.head.text, c.label, [m.text for m in c.mentions]) for c in got] == [
        ("Steve Jobs", "PERSON", ["Steve Jobs", "He"]),
        ("Apple", "ORG", ["Apple", "it"]),
    ]


def test_an_unresolved_pronoun_joins_nothing():
    text = "It rose before Bitcoin was named."
    assert coref.coref(text, [found(text, "Bitcoin", "PRODUCT")]) == []


def test_a_repeated_name_is_one_chain_headed_by_its_first_mention():
    known = [Entity("Apple", "ORG", 0, 5), Entity("Samsung", "ORG", 11, 18), Entity("Apple", "ORG", 20, 25)]
    got = coref.coref("Apple sued Samsung. Apple won.", known)
    assert len(got) == 1 and len(got[0].mentions) == 2 and got[0].head.start == 0


def test_rivals_sharing_a_word_stay_apart():
    known = [Entity("Apple Inc.", "ORG", 0, 10), Entity("Apple Corps", "ORG", 16, 27)]
    assert coref.coref("Apple Inc. sued Apple Corps over the name.", known) == []


def test_a_thing_named_once_is_no_chain():
    assert coref.coref("Apple shipped.", [Entity("Apple", "ORG", 0, 5)]) == []
    assert coref.coref("", []) == []


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("Apple", "apple", True),
        ("Apple", "Apple Inc.", True),
        ("Steve Jobs", "Jobs", True),
        ("New York City Council", "New York City Board", True),  # three words in four
        ("Steve Paul Jobs", "Steve Jobs", False),  # two in three is not enough
        ("Apple", "Microsoft", False),
        ("Alice", "", False),
    ],
)
def test_same_names(a, b, want):
    assert same(a, b) is want


def test_word_boundaries_are_ascii_as_in_go():
    # "é" is no ASCII word character, so "he" after it is a whole word to Go's \b.
    assert [m.text for m in mentions("caféhe said", [])] == ["he"]
    assert [m.text for m in mentions("cafe_he s_he the", [])] == []
    # Long s folds with s in Go, but is no ASCII word character: no boundary before it.
    assert [m.text for m in mentions("ſhe and SHE", [])] == ["he", "SHE"]


# A name, a pronoun or a filler word, with the labels the test gives names.
LABELLED = {"Ann": "PERSON", "Bob": "PERSON", "Acme": "ORG", "Paris": "GPE"}
TOKENS = st.lists(st.sampled_from([*LABELLED, "she", "it", "they", "his", "walked", "home"]), max_size=12)


@given(TOKENS)
def test_refer_picks_the_nearest_admitted_name_else_the_nearest(tokens):
    text = " ".join(tokens)
    known, at = [], 0
    for token in tokens:
        if token in LABELLED:
            known.append(Entity(token, LABELLED[token], at, at + len(token)))
        at += len(token) + 1
    ms = mentions(text, known)
    refer(ms)
    for m in (m for m in ms if m.pronoun):
        before = [n for n in known if n.end <= m.start]
        fits = [n for n in before if n.label in coref.ADMITS[m.text.lower()]]
        want = fits[-1].text if fits else before[-1].text if before else ""
        assert m.of == want
    seen = [id(m) for c in chains(ms) for m in c.mentions]
    assert len(seen) == len(set(seen))  # a mention is in one chain at most


def test_gazetteer_finds_whole_words_case_insensitively_and_keeps_the_longer_overlap():
    got = gazetteer("Hey MEL, mel! Melanie met mel_x", {"mel": "PERSON", "melanie": "PERSON"})
    assert [(e.text, e.start) for e in got] == [("MEL", 4), ("mel", 9), ("Melanie", 14)]
    both = gazetteer("Ann Lee came", {"ann": "PERSON", "ann lee": "PERSON", "lee": "PERSON"})
    assert [e.text for e in both] == ["Ann Lee"]


# --- the reader binding third-person pronouns per session --------------------------------------

SPEAKERS = ("Caroline", "Melanie")
NAMES = frozenset({"caroline", "melanie", "emma", "jon"})


def turn(id: str, session: int, speaker: str, text: str) -> Turn:
    return Turn(id, session, datetime(2023, session, 8, 13, 0), speaker, text)


# Session 1 names Emma, then Jon; session 2 names nobody.
TWO_SESSIONS = (
    turn("D1:1", 1, "Caroline", "My friend Emma came over. She baked bread."),
    turn("D1:2", 1, "Melanie", "That is lovely! Did Jon come too?"),
    turn("D1:3", 1, "Caroline", "Yes, and she's great. He laughed a lot."),
    turn("D2:1", 2, "Caroline", "She baked cookies."),
)


def test_a_pronoun_takes_the_last_person_named_before_it_in_its_session():
    bound = talk.third_person(TWO_SESSIONS, SPEAKERS, NAMES)
    assert bound[0] == {1: {0: "emma"}}  # "She baked bread." after Emma
    # D1:3: both pronouns come after "Jon" (named in a question, which counts as
    # text): the rule is the nearest person, whatever the pronoun's gender.
    # "Yes, and she's great." reads as the words yes, shes, great.
    assert bound[2] == {0: {1: "jon"}, 1: {0: "jon"}}


def test_a_pronoun_is_not_bound_to_a_name_of_an_earlier_session():
    assert 3 not in talk.third_person(TWO_SESSIONS, SPEAKERS, NAMES)


def test_a_pronoun_bound_to_a_speaker_is_dropped_unless_asked_for():
    said = (turn("D1:1", 1, "Caroline", "Hi Melanie! She called me."),)
    assert talk.third_person(said, SPEAKERS, NAMES) == {}
    assert talk.third_person(said, SPEAKERS, NAMES, speakers_too=True) == {0: {1: {0: "melanie"}}}


def test_only_the_given_pronouns_are_bound():
    said = (turn("D1:1", 1, "Caroline", "Emma and I talked. They left. It rained."),)
    assert talk.third_person(said, SPEAKERS, NAMES) == {}
    assert talk.third_person(said, SPEAKERS, NAMES, pronouns={"they"}) == {0: {1: {0: "emma"}}}


def test_a_name_the_reader_cannot_read_as_a_word_is_no_antecedent():
    said = (turn("D1:1", 1, "Caroline", "Emma sang. I'm sure she did."),)
    assert talk.third_person(said, SPEAKERS, NAMES | {"i'm"}) == {0: {1: {2: "emma"}}}


def test_the_reader_binds_the_subject_through_the_pronoun():
    bound = talk.third_person(TWO_SESSIONS, SPEAKERS, NAMES)
    first = TWO_SESSIONS[0]
    plain = talk.read(first, 0, "Caroline", "Melanie", NAMES)
    bound_claims = talk.read(first, 0, "Caroline", "Melanie", NAMES, bound[0])
    assert ("caroline", "baked", "bread") in [(c.subject.lower(), c.predicate, c.object) for c in plain]
    assert ("emma", "baked", "bread") in [(c.subject, c.predicate, c.object) for c in bound_claims]
    # The sentence that names Emma is untouched.
    assert [c for c in plain if c.said.startswith("My friend")] == [
        c for c in bound_claims if c.said.startswith("My friend")
    ]


def test_who_takes_the_first_person_before_a_later_pronoun():
    assert talk.who(("i", "told", "her"), "Caroline", "Melanie", NAMES, {2: "emma"}) == ("Caroline", 1)
    assert talk.who(("her", "dog", "barked"), "Caroline", "Melanie", NAMES, {0: "emma"}) == ("emma", 1)


def sample(*turns: Turn) -> Sample:
    return Sample("hand", SPEAKERS, turns, ())


def test_knowledge_with_coref_files_the_claim_under_the_person():
    s = sample(
        turn("D1:1", 1, "Caroline", "I met Emma at the park. Emma is kind."),
        turn("D1:2", 1, "Caroline", "She baked bread for Emma and me."),
        turn("D1:3", 1, "Caroline", "Emma, you are sweet. She painted a lake."),
    )
    vocab = Vocabulary([t.text for t in s.turns])
    plain, bound = Knowledge(s, vocab), Knowledge(s, vocab, coref=True)
    assert "emma" in plain.people
    assert plain.bound is None and bound.bound == (2, 5)
    emma = {e.target for e in bound.graph.out_edges("emma")}
    assert {"bread", "lake"} <= emma and not {"bread", "lake"} & {e.target for e in plain.graph.out_edges("emma")}


# --- off by default -------------------------------------------------------------------------------


def test_the_flag_is_off_by_default():
    assert cli.parser().parse_args([]).coref is False
    assert cli.parser().parse_args(["-coref"]).coref is True
    assert inspect.signature(bench.build).parameters["coref"].default is False
    assert inspect.signature(Knowledge).parameters["coref"].default is False


def test_off_leaves_the_claims_and_on_changes_only_sentences_with_a_bound_subject(samples):
    s = samples[0]
    people = frozenset(talk.known_names(s.turns, s.speakers))
    before = talk.read_conversation(s.turns, s.speakers, people)
    assert talk.read_conversation(s.turns, s.speakers, people, {}) == before
    bound = talk.third_person(s.turns, s.speakers, people)
    after = talk.read_conversation(s.turns, s.speakers, people, bound)

    def by_sentence(claims):
        out = {}
        for c in claims:
            out.setdefault((c.turn, c.said), []).append(c)
        return out

    old, new = by_sentence(before), by_sentence(after)
    changed = [key for key in old.keys() | new.keys() if old.get(key) != new.get(key)]
    assert changed, "the first conversation has a subject decided by a pronoun"
    for at, said in changed:
        index = talk.sentences(s.turns[at].text).index(said)
        persons = set(bound[at][index].values())
        assert {c.subject for c in new[at, said] if c.predicate != "named"} <= persons


@pytest.mark.slow
def test_off_prints_nothing_new_and_on_prints_the_share(samples):
    for flags, line in (([], False), (["-coref"], True)):
        out = io.StringIO()
        assert cli.run(cli.parser().parse_args(["-quiet", "-only", "1", "-jobs", "1", *flags]), out) == 0
        assert ("coreference decides the subject of" in out.getvalue()) is line
