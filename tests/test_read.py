"""The extractive reader: Reply, Recite, Gather, span, asking and the calendar (reference read.go).

The first cases are read_test.go of hanzoai/semantic bench/locomo (commit
0c787e9f); the rest are hand-worked cases of the rules in read.go.
"""

from __future__ import annotations

import math
from datetime import datetime

import pytest

from locomo_repro.data.dataset import Turn
from locomo_repro.memory.cite import Cite
from locomo_repro.score.metric import DECLINE, declined
from locomo_repro.read.reader import Options, asking, gather, recite, reply, span
from locomo_repro.memory.terms import Vocabulary
from locomo_repro.text.reduce import terms, words

# talk_test.go `quiz`: the reader settings the reference tests use.
QUIZ = Options(k=5, floor=0.3, span=4, band=0.9, parts=2)
# talk_test.go `day` / read_test.go `may`: the session the cases are set in.
MAY = datetime(2023, 5, 8, 13, 56)


def turn(text: str, id: str = "D1:1", date: datetime | None = MAY, speaker: str = "Evan") -> Turn:
    return Turn(id=id, session=1, date=date, speaker=speaker, text=text)


def vocabulary(*turns: Turn) -> Vocabulary:
    return Vocabulary([t.text for t in turns])


def test_quiz_is_the_default_run():
    assert Options() == QUIZ


# --- read_test.go TestReplyReadsTheCalendar ----------------------------------------------

# (question, turn text, reply) in a session of 8 May 2023, one cite of score 1, sure 1.
CALENDAR = [
    # a month later in the year is the year before
    ("When did Evan start lifting weights?",
     "I started lifting weights back in October and I feel stronger already.", "October 2022"),
    # a month earlier in the year is this year
    ("When did Evan join the gym?", "I joined the gym in March, so it has been a while.", "March 2023"),
    # a day beside the month is taken with it
    ("When did Evan run the race?", "I ran the race on 3 April and it nearly finished me.", "3 April, 2023"),
    # yesterday is the day before the session
    ("When did Evan go to the support group?",
     "I went to the support group yesterday and it was powerful.", "7 May, 2023"),
    # with no date in the words, the session's own date stands
    ("When did Evan adopt the puppy?", "I adopted a puppy and she is already ruling the house.", "8 May, 2023"),
]

# Hand cases of `dated`: (question, text, session date, reply).
DATED = [
    # the day after the month wins over the one before it
    ("When did Evan run?", "I ran 5 April 6.", MAY, "6 April, 2023"),
    ("When did Evan run?", "I ran on April 3.", MAY, "3 April, 2023"),
    # Go's time.Date normalises an overflowing day: 31 April is 1 May, 30 February 2 March
    ("When did Evan run?", "I ran on 31 April.", MAY, "1 May, 2023"),
    ("When did Evan run?", "I ran on 30 February.", MAY, "2 March, 2023"),
    # a number outside 1..31 is no day, and a year beside a month is not read as the year
    ("When did Evan run?", "I ran on 32 April.", MAY, "April 2023"),
    ("When did Evan run?", "I ran in April 2019.", MAY, "April 2023"),
    # abbreviations count; a later month than the session's is last year
    ("When did Evan run?", "I ran in Sept.", datetime(2023, 10, 1), "September 2023"),
    ("When did Evan run?", "I ran in dec", datetime(2023, 10, 1), "December 2022"),
    # the modal verb "may" is read as the month (reference quirk): the first
    # sentence wins when nothing covers the focus, and May is after March
    ("When did Evan run?", "You may like it. I ran a race.", datetime(2023, 3, 1), "May 2022"),
    # yesterday across a month and a year boundary
    ("When did Evan run?", "I ran yesterday.", datetime(2023, 3, 1, 10, 0), "28 February, 2023"),
    ("When did Evan run?", "I ran yesterday.", datetime(2024, 1, 1), "31 December, 2023"),
    # dated reads question sentences too (span does not): the question covers more
    ("When did Evan visit Paris?", "Did I visit Paris in June? I did visit it.", MAY, "June 2022"),
]


@pytest.mark.parametrize(("question", "text", "want"), CALENDAR, ids=[c[2] for c in CALENDAR])
def test_reply_reads_the_calendar(question, text, want):
    t = turn(text)
    assert reply(question, [Cite(t, 1)], 1, vocabulary(t), QUIZ) == want


@pytest.mark.parametrize(("question", "text", "date", "want"), DATED, ids=[c[1] for c in DATED])
def test_dated(question, text, date, want):
    t = turn(text, date=date)
    assert reply(question, [Cite(t, 1)], 1, vocabulary(t), QUIZ) == want


@pytest.mark.parametrize(("text", "want"), [("I ran in April.", "April 2023"), ("I ran in May.", "May 2023"),
                                            ("I ran on 20 May.", "20 May, 2023"), ("I ran in June.", "June 2022")])
def test_a_month_after_the_sessions_month_is_last_year_and_the_sessions_own_month_is_this_year(text, want):
    t = turn(text)  # a session of 8 May 2023
    assert reply("When did Evan run?", [Cite(t, 1)], 1, vocabulary(t), QUIZ) == want


def test_a_when_question_reads_only_the_first_cite_and_every_reader_agrees():
    first, second = turn("I ran in March.", "D1:1"), turn("I ran in April.", "D1:2")
    v = vocabulary(first, second)
    cites = [Cite(first, 0.5), Cite(second, 0.5)]
    for read in (reply, recite, gather):
        assert read("When did Evan run?", cites, 1, v, QUIZ) == "March 2023"


# --- read_test.go TestReplyDeclines ------------------------------------------------------


def test_reply_declines_with_no_cites_or_under_the_floor():
    t = Turn(id="D1:1", session=0, date=None, speaker="", text="Nothing to see.")
    v = vocabulary(t)
    for read in (reply, recite, gather):
        assert declined(read("What did Evan eat?", [], 0, v, QUIZ))
        assert declined(read("What did Evan eat?", [Cite(t, 1)], 0.1, v, QUIZ))
        assert read("What did Evan eat?", [Cite(t, 1)], 0.1, v, QUIZ) == DECLINE


def test_the_floor_itself_is_not_under_the_floor():
    t = turn("I eat soup.")
    assert reply("What did Evan eat?", [Cite(t, 1)], 0.3, vocabulary(t), QUIZ) == "soup"


def test_nothing_to_say_declines():
    t = turn("What? Why?")  # every sentence a question: span has nothing
    assert reply("What did Evan eat?", [Cite(t, 1)], 1, vocabulary(t), QUIZ) == DECLINE


# --- read_test.go TestReplyQuotesWhatWasAsked --------------------------------------------


def test_reply_quotes_what_was_asked_not_the_question():
    turns = [
        turn("I have two snakes, Susie and Seraphim.", "D1:1", speaker="Jolene"),
        turn("That is wonderful, snakes are such good company.", "D1:2", speaker="Nate"),
        turn("I have a dog and two cats at home.", "D1:3", speaker="Nate"),
    ]
    got = reply("What are the names of Jolene's snakes?", [Cite(turns[0], 1)], 1, vocabulary(*turns), QUIZ)
    said = words(got)
    assert "susie" in said and "seraphim" in said
    assert "snake" not in said and "snakes" not in said
    assert got == "two susie seraphim"


# --- span ------------------------------------------------------------------------------------

# Three turns, N = 3: i, love, red, appl occur in two (weight ln(4/3)); green,
# pear, is, nice in one (weight ln 2).
FRUIT = ("I love red apples and green pears.", "I love apples.", "Red is nice.")

# (width, span of FRUIT[0] with no focus and nothing asked): the rarest words
# first, ties kept in text order (stable sort), then text order restored; "i" is a stop word.
WIDTHS = [
    (1, "green"),
    (2, "green pears"),
    (3, "love green pears"),
    (4, "love red green pears"),
    (10, "love red apples green pears"),
]


@pytest.fixture(scope="module")
def fruit() -> Vocabulary:
    return Vocabulary(FRUIT)


def test_fruit_weights(fruit):
    assert fruit.weight("love") == fruit.weight("red") == fruit.weight("appl")
    assert fruit.weight("green") == fruit.weight("pear") == math.log(2)
    assert fruit.weight("love") < fruit.weight("green")


@pytest.mark.parametrize(("width", "want"), WIDTHS)
def test_span_keeps_the_rarest_words_in_text_order(fruit, width, want):
    assert span(FRUIT[0], [], frozenset(), fruit, width) == want


def test_span_drops_the_words_the_question_asked(fruit):
    asked = terms("What color are the pears?")
    assert span(FRUIT[0], [], asked, fruit, 2) == "love green"


def test_span_reads_the_statement_that_covers_the_focus_best(fruit):
    text = "Red is nice. I love green pears. Do you love pears?"
    assert span(text, fruit.focus("pears"), frozenset(), fruit, 4) == "love green pears"
    # A question is never the answer, even when only it covers the focus:
    # the first statement stands (strict > from -1).
    assert span("Red is nice. Do you love pears?", fruit.focus("pears"), frozenset(), fruit, 4) == "red nice"
    assert span("What? Why?", [], frozenset(), fruit, 4) == ""


# --- asking ------------------------------------------------------------------------------------

ASKING = [
    ("When did you go?", "when"),
    ("WHERE is it?", "where"),
    ("So, what and when?", "what"),  # the first question word in the text, not the first in the list
    ("How many days, and when?", "how"),
    ("Tell me which one", "which"),
    ("Whenever you like", ""),
    ("Did Evan run?", ""),
    ("", ""),
]


@pytest.mark.parametrize(("question", "want"), ASKING)
def test_asking(question, want):
    assert asking(question) == want


# --- widths: Reply and Recite (parts, band) against Gather (everything) ---------------------------

RACE = (
    turn("I love the marathon.", "D1:1"),
    turn("I love the relay.", "D1:2"),
    turn("I love the sprint.", "D1:3"),
    turn("I love the hurdle race.", "D1:4"),
)
QUESTION = "What does Evan love?"


@pytest.fixture(scope="module")
def race() -> Vocabulary:
    return vocabulary(*RACE)


def race_cites(*scores: float) -> list[Cite]:
    return [Cite(t, s) for t, s in zip(RACE, scores)]


# (scores of the four cites, options, Reply, Gather)
WIDTH_CASES = [
    # parts 2 stops at two pieces
    ((1, 1, 1, 1), QUIZ, "marathon, relay", "marathon, relay, sprint, hurdle race"),
    # band 0.9 stops at the first cite under 0.9 × the best
    ((1, 0.95, 0.5, 0.95), Options(parts=4), "marathon, relay", "marathon, relay, sprint, hurdle race"),
    ((1, 0.9, 0.9, 0.9), Options(parts=4), "marathon, relay, sprint, hurdle race",
     "marathon, relay, sprint, hurdle race"),
    ((1, 1, 1, 1), Options(parts=1), "marathon", "marathon, relay, sprint, hurdle race"),
]


@pytest.mark.parametrize(("scores", "options", "short", "whole"), WIDTH_CASES)
def test_reply_is_cut_by_parts_and_band_and_gather_is_not(race, scores, options, short, whole):
    cites = race_cites(*scores)
    assert reply(QUESTION, cites, 1, race, options) == short
    assert recite(QUESTION, cites, 1, race, options) == short  # no say: the span stands in
    assert gather(QUESTION, cites, 1, race, options) == whole


def test_a_piece_said_twice_is_said_once(race):
    cites = [Cite(RACE[0], 1), Cite(RACE[0], 1), Cite(RACE[1], 1)]
    assert reply(QUESTION, cites, 1, race, QUIZ) == "marathon, relay"
    assert gather(QUESTION, cites, 1, race, QUIZ) == "marathon, relay"


# --- recite: what the memory matched ---------------------------------------------------------------

# (say of the first cite, Recite): stop words and asked words come off the
# matched phrase; when nothing is left the phrase itself is the answer; an
# empty say falls back to the turn's span.
RECITE = [
    ("my big dog", "big dog"),
    ("love", "love"),  # every word asked: the phrase itself
    ("the", "the"),  # nothing but a stop word: the phrase itself
    ("", "marathon"),
]


@pytest.mark.parametrize(("say", "want"), RECITE)
def test_recite_reads_the_say_and_falls_back(race, say, want):
    cites = [Cite(RACE[0], 1, say)]
    assert recite(QUESTION, cites, 1, race, QUIZ) == want
    assert gather(QUESTION, cites, 1, race, QUIZ) == want


def test_reply_ignores_the_say(race):
    assert reply(QUESTION, [Cite(RACE[0], 1, "my big dog")], 1, race, QUIZ) == "marathon"
