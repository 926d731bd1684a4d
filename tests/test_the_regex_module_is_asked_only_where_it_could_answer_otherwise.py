"""The scorer's word boundaries and the reference's word characters are the ``regex`` module's, yet ``regex`` is
imported only for a text where the standard library could answer otherwise: an article touching a non-ASCII
character, a character the interpreter's Unicode tables leave unassigned.  Where it is not imported, the
answers are the same as where it is: at every code point, and on texts made to put articles beside every kind
of non-ASCII neighbour."""

from __future__ import annotations

import json
import string
import subprocess
import sys
import unicodedata

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from locomo_repro.text.reduce import is_word_char, normalise, normalised, words

WORD_CHAR = regex.compile(r"[\p{L}\p{Nd}\p{M}_]")


def test_a_word_character_is_regexs_at_every_code_point():
    differ = [cp for cp in range(0x110000) if is_word_char(chr(cp)) != (WORD_CHAR.match(chr(cp)) is not None)]
    assert differ == []


def test_a_character_the_interpreters_tables_leave_unassigned_is_regexs_to_judge():
    """The check above can fail: ``regex``'s tables may be newer, and there such a character is a letter."""
    unassigned = [cp for cp in range(0x110000) if unicodedata.category(chr(cp)) == "Cn"]
    newer = [cp for cp in unassigned if WORD_CHAR.match(chr(cp))]
    if not newer:
        pytest.skip(f"regex {regex.__version__} knows no letter Unicode {unicodedata.unidata_version} leaves unassigned")
    assert all(is_word_char(chr(cp)) for cp in newer)
    assert not any(cp.isalnum() for cp in map(chr, newer))  # what the standard library alone would have said


def scorers_normalize_answer(s: str) -> str:
    """``normalize_answer`` of the official scorer, written out as it is there."""
    s = s.replace(",", "")
    s = regex.sub(r"\b(a|an|the|and)\b", " ", s.lower().translate(str.maketrans("", "", string.punctuation)))
    return " ".join(s.split())


# Article letters beside neighbours of every kind: a letter, a combining mark and a joiner (word characters to
# regex, not to re.ASCII), a circled letter (alphabetic, a symbol by category), dashes, a curly apostrophe, a
# no-break space (whitespace to split), an emoji, and the ASCII edges.
NEIGHBOURS = ["\u00e9", "\u0301", "\u200d", "\u24d0", "\u24b6", "\u2014", "\u2019", "\u00a0", "\U0001f31f", "\u0130"]
BESIDE = st.text(alphabet=st.sampled_from(list("aAnNdDtThHeE _1,.'") + NEIGHBOURS), max_size=30)


@settings(max_examples=800, deadline=None)
@given(BESIDE)
def test_articles_beside_non_ascii_characters_are_dropped_as_the_scorer_drops_them(text):
    normalised.cache_clear()
    assert normalise(text) == scorers_normalize_answer(text)


@settings(max_examples=300, deadline=None)
@given(BESIDE)
def test_a_word_is_a_field_holding_a_word_character_by_regex(text):
    fields = normalise(text).split()
    assert words(text) == tuple(w for w in fields if WORD_CHAR.search(w))


_CHILD = """
import json, sys
from locomo_repro.text.reduce import normalise, words
said = [normalise(t) for t in sys.argv[1:]] + [" ".join(words(t)) for t in sys.argv[1:]]
print(json.dumps(["regex" in sys.modules, said]))
"""


def child(*texts: str) -> tuple[bool, list[str]]:
    got = subprocess.run([sys.executable, "-c", _CHILD, *texts], capture_output=True, text=True, check=True)
    imported, said = json.loads(got.stdout)
    return imported, said


def test_the_first_conversations_kind_of_text_needs_no_regex():
    """conv-26's non-ASCII turns: dashes, a curly apostrophe, an emoji, a café."""
    texts = ["I ran a charity race \u2013 it was great", "What\u2019s the funniest thing?", "the caf\u00e9 and a \U0001f31f"]
    imported, said = child(*texts)
    assert not imported
    scorers = [scorers_normalize_answer(t) for t in texts]
    assert said == scorers + [" ".join(w for w in s.split() if WORD_CHAR.search(w)) for s in scorers]
    assert said[3:] == ["i ran charity race it was great", "what\u2019s funniest thing", "caf\u00e9"]


def test_an_article_touching_a_letter_asks_regex():
    """The check above can fail: here ``re.ASCII`` would see a boundary between "a" and "é" that ``regex`` does
    not, so ``regex`` is imported and keeps the "a"."""
    imported, said = child("a\u00e9 the")
    assert imported
    assert said[0] == scorers_normalize_answer("a\u00e9 the") == "a\u00e9"
