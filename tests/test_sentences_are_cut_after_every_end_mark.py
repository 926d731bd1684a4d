"""``reduce.sentences`` cuts a text after every ``.``, ``!``, ``?`` and newline (the mark kept), trims each piece
as Go's ``TrimSpace`` does and drops the empty ones: checked against the cut written out by hand, for any text
(its pattern is compiled by ``re``, which cuts these four ASCII marks as the ``regex`` module does)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from locomo_repro.go.strings import trim_space
from locomo_repro.text.reduce import sentences


def by_hand(text: str) -> tuple[str, ...]:
    pieces, start = [], 0
    for i, ch in enumerate(text):
        if ch in ".!?\n":
            pieces.append(text[start: i + 1])
            start = i + 1
    pieces.append(text[start:])
    return tuple(p for piece in pieces if (p := trim_space(piece)))


@given(st.text(alphabet=st.sampled_from(list("ab .!?\n\r\t\u2003\x1c\u0130é…。")), max_size=40))
def test_any_text_is_cut_as_by_hand(text):
    assert sentences(text) == by_hand(text)


def test_marks_are_kept_and_empty_pieces_dropped():
    assert sentences("Hi! How are you?? Fine.\n\n  ok") == ("Hi!", "How are you?", "?", "Fine.", "ok")
