"""A turn's line is weighed from the stems of its parts (``reduce.joined_stems``, ``Turn.line_parts``): the
same stems as the line's own, so the same vector, bit for bit; for every turn of the dataset and for texts
made to put articles, final sigmas, marks and apostrophes against every kind of joint."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from locomo_repro.memory.terms import Vocabulary
from locomo_repro.text.reduce import forget, joined_stems, stems


def test_every_turns_line_has_the_stems_of_its_parts(samples):
    for sample in samples:
        for t in sample.turns:
            assert joined_stems(t.line_parts()) == stems(t.line()), t.id
        forget()


def test_a_turn_is_weighed_as_its_line(samples):
    sample = samples[0]
    vocab, again = Vocabulary([t.text for t in sample.turns]), Vocabulary([t.text for t in sample.turns])
    for t in sample.turns:
        assert vocab.weigh_turn(t) == again.weigh(t.line()), t.id
    forget()


PART = st.text(alphabet=st.sampled_from(
    list("aAnNdDtThHeEsS_1.',-") + ["\u03a3", "\u03c3", "\u0130", "\u00e9", "\u0301", "\u200d", "\u24d0", "\u2014",
                                   "\u2019", "\u00a0", " "]), max_size=12)
ASCII_RUN = st.text(alphabet=st.sampled_from(list(string.punctuation + " \t\n")), max_size=4)
JOINT = st.tuples(ASCII_RUN, st.sampled_from([" ", "\t", "\n"]), ASCII_RUN).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.lists(PART, min_size=1, max_size=4), st.data())
def test_parts_joined_by_punctuation_and_a_space_have_their_stems_end_to_end(parts, data):
    joints = [data.draw(JOINT) for _ in parts[1:]]
    text = data.draw(ASCII_RUN) + parts[0] + "".join(j + p for j, p in zip(joints, parts[1:])) + data.draw(ASCII_RUN)
    forget()
    assert joined_stems(parts) == stems(text)


def test_a_joint_without_whitespace_is_no_joint():
    """The check above can fail: punctuation alone is deleted, and the parts run together into one word."""
    assert stems("walked,home") == ("walkedhom",) != joined_stems(["walked", "home"])
