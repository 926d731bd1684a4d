"""Text reduction shared by the memories, the reader and the metric.

``normalise`` is ``normalize_answer`` of the official LoCoMo scorer
(snap-research/locomo ``task_eval/evaluation.py`` at 3eb6f2c5): commas removed,
lowercased, ASCII punctuation removed, the whole words a/an/the/and replaced by
a space (``regex`` word boundaries, as the scorer uses), whitespace collapsed.
The ``regex`` module is imported only for a text where its answer can differ
from the standard library's (``_drop_articles``, ``is_word_char``): most runs,
the first conversation's included, never need it.
``stem`` is NLTK's ``PorterStemmer`` in its default NLTK_EXTENSIONS mode, the
stemmer the scorer uses.  ``words`` and ``sentences`` are the tokenisation of
the reference dialogue reader (hanzoai/semantic bench/locomo, talk.go).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from itertools import chain, filterfalse

from ..go.strings import trim_space
from .stems import known

_DELETE_PUNCTUATION = str.maketrans("", "", string.punctuation)
_PUNCTUATION_BYTES = string.punctuation.encode()
_ARTICLES = r"\b(a|an|the|and)\b"  # the scorer's pattern, for ``regex``
_ASCII_ARTICLES = re.compile(_ARTICLES, re.ASCII)
_ARTICLE_WORDS = frozenset(("a", "an", "the", "and"))
_IS_ARTICLE = _ARTICLE_WORDS.__contains__


def normalise(text: str) -> str:
    """The official ``normalize_answer``: the fields of ``normalised`` joined by single spaces."""
    return " ".join(normalised(text)[0])


@lru_cache(maxsize=1 << 16)
def normalised(text: str) -> tuple[tuple[str, ...], bool]:
    """The fields of the official ``normalize_answer(text)``, and whether each is ASCII letters and digits.

    An ASCII text has its punctuation deleted byte-wise (the same characters:
    the comma is one of them), and when every field left is letters and digits
    the articles can only be whole fields, so they are dropped field by field;
    otherwise the scorer's regular expression finds them.  The stems and the
    words of a text are taken from these fields, not from the joined text
    split again.
    """
    if text.isascii():
        text = text.lower().encode().translate(None, _PUNCTUATION_BYTES).decode()
        fields = text.split()
        if all(map(str.isalnum, fields)):
            return tuple(filterfalse(_IS_ARTICLE, fields)), True
    else:
        text = text.replace(",", "").lower().translate(_DELETE_PUNCTUATION)
    return tuple(_drop_articles(text).split()), False


@lru_cache(maxsize=None)
def _regex(pattern: str):
    """``regex.compile(pattern)``, the module imported on its first use (it costs a one-conversation run some
    9 ms to import)."""
    import regex

    return regex.compile(pattern)


def _drop_articles(text: str) -> str:
    r"""The scorer's ``regex.sub(r"\b(a|an|the|and)\b", " ", text)``.

    ``re`` with ASCII word boundaries finds the same articles wherever no
    article it finds touches a non-ASCII character: the article's letters are
    word characters to both, an ASCII neighbour is judged alike, and a
    non-ASCII neighbour is a non-word character to ``re.ASCII`` but may be a
    word character (a letter, a mark, a joiner) to ``regex``, which then sees
    no boundary.  So ``re.ASCII`` finds every article ``regex`` finds, and more
    only next to a non-ASCII character; there ``regex`` itself is asked.
    """
    for found in _ASCII_ARTICLES.finditer(text):
        start, end = found.span()
        if (start and not text[start - 1].isascii()) or (end < len(text) and not text[end].isascii()):
            return _regex(_ARTICLES).sub(" ", text)
    return _ASCII_ARTICLES.sub(" ", text)


@lru_cache(maxsize=1)
def stemmer():
    """NLTK's Porter stemmer, imported on first use: NLTK takes a third of a second to import,
    which ``--help`` and other small commands need not pay."""
    from nltk.stem import PorterStemmer

    return PorterStemmer()


class _Stems(dict[str, str]):
    """Memo of NLTK Porter stems: at the first look-up it takes the stems the kit ships for the installed
    NLTK (``text.stems``); a word not among them is stemmed by NLTK on its first look-up."""

    shipped = False

    def load(self) -> None:
        """Take the shipped stems now (once), not at the first look-up."""
        if not self.shipped:
            self.shipped = True
            self.update(known())

    def __missing__(self, word: str) -> str:
        if not self.shipped:
            self.load()
            if word in self:
                return self[word]
        self[word] = got = stemmer().stem(word)
        return got


_STEM = _Stems()
#: NLTK Porter stem of one token (memoised).
stem = _STEM.__getitem__
#: Take the stems the kit ships into the memo now (before forking workers, say).
load_stems = _STEM.load


@lru_cache(maxsize=1 << 16)
def stems(text: str) -> tuple[str, ...]:
    """The scorer's comparable form: normalised, split on whitespace, stemmed."""
    return tuple(map(stem, normalised(text)[0]))


def joined_stems(parts: Iterable[str]) -> tuple[str, ...]:
    """``stems`` of a text made of ``parts`` joined by runs of ASCII punctuation and whitespace, with a
    whitespace character in every run between two parts (``Turn.line`` and its ``Turn.line_parts``): each
    part's stems, memoised apiece, end to end.

    Such a run is deleted or split at whichever way the scorer's formula takes the whole text: its
    punctuation goes, its whitespace ends the field before it and starts the next, an article beside it is a
    whole word on either side, and lowercasing does not look across it (a final sigma is judged by the
    characters up to the first that is neither cased nor case-ignorable, and whitespace is neither).  A
    property test holds the two to the same stems.
    """
    return tuple(chain.from_iterable(map(stems, parts)))


@lru_cache(maxsize=1 << 16)
def terms(text: str) -> frozenset[str]:
    """The set of stems of a text."""
    return frozenset(stems(text))


_WORD_CHAR = r"[\p{L}\p{Nd}\p{M}_]"  # for ``regex``


def is_word_char(ch: str) -> bool:
    r"""A character of a word: a Unicode letter, decimal digit or mark, or ``_`` (``regex``'s ``[\p{L}\p{Nd}\p{M}_]``).

    The general category is read from ``unicodedata``; a character unassigned in the interpreter's Unicode
    tables (``Cn``) may be assigned in ``regex``'s newer ones, so ``regex`` decides it.  A test holds the two
    to the same answer at every code point.
    """
    if ch.isascii():
        return ch.isalnum() or ch == "_"
    category = unicodedata.category(ch)
    if category == "Cn":
        return _regex(_WORD_CHAR).match(ch) is not None
    return category[0] in "LM" or category == "Nd"


@lru_cache(maxsize=1 << 16)
def words(text: str) -> tuple[str, ...]:
    """Unstemmed fields of ``normalise(text)`` that hold at least one word character.

    A field with none (an em dash left over by normalising) is not a word.
    """
    fields, alnum = normalised(text)
    if alnum:  # every field a word, as in most sentences
        return fields
    return tuple(w for w in fields if (w.isascii() and w.isalnum()) or any(map(is_word_char, w)))


_AFTER_END = re.compile(r"(?<=[.!?\n])")  # four ASCII characters: ``re`` cuts as ``regex`` does, four times as fast


@lru_cache(maxsize=1 << 14)
def sentences(text: str) -> tuple[str, ...]:
    """Cut after every ``.``, ``!``, ``?`` or newline, keeping the mark; trimmed (Go ``TrimSpace``), no empties."""
    return tuple(p for piece in _AFTER_END.split(text) if (p := trim_space(piece)))


def forget() -> None:
    """Empty the memos of whole texts (``normalised``, ``stems``, ``terms``, ``words``, ``sentences``).

    A run calls it when a conversation is done: those texts rarely come back
    in another conversation, and kept they would make a process's memory grow
    with every conversation it has seen.  The stems of single words stay.
    """
    for memo in (normalised, stems, terms, words, sentences):
        memo.cache_clear()


def is_question(sentence: str) -> bool:
    """A sentence asks when its trimmed text ends in a question mark."""
    return trim_space(sentence).endswith("?")
