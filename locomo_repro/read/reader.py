"""The deterministic extractive reader: a short answer written from the cited turns.

Matches ``Reply``, ``Recite``, ``Gather``, ``span`` and ``dated`` of
hanzoai/semantic bench/locomo (read.go).  A reader sees the question, the
cites and the confidence, never the category or the memory behind them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..data.dataset import MONTH_NAMES, day, day_of
from ..text.lexicon import DECLINE, MONTHS, QUESTION_WORDS, STOP
from ..memory.cite import Cite
from ..memory.terms import Vocabulary
from ..text.reduce import is_question, sentences, stem, terms, words
from ..data.records import record


@record
class Options:
    """Reader and recall settings: cites per question, confidence floor, span width, band, parts."""

    k: int = 5
    floor: float = 0.3
    span: int = 4
    band: float = 0.9
    parts: int = 2

    def problem(self) -> str:
        """The first setting out of its range, said as its flag says it ("-k must be at least 1, got 0"); ""
        when every setting is in range."""
        if self.k < 1:
            return f"-k must be at least 1, got {self.k}"
        if not 0 <= self.floor <= 1:
            return f"-floor must be within [0, 1], got {self.floor:g}"
        if self.span < 1:
            return f"-span must be at least 1, got {self.span}"
        if not 0 <= self.band <= 1:
            return f"-band must be within [0, 1], got {self.band:g}"
        if self.parts < 1:
            return f"-parts must be at least 1, got {self.parts}"
        return ""


#: A reader: (question, cites, confidence, vocabulary, options) -> reply.
Reader = Callable[[str, Sequence[Cite], float, Vocabulary, Options], str]


def asking(question: str) -> str:
    """The first question word (when/what/where/who/why/how/which) among the question's words."""
    return next((w for w in words(question) if w in QUESTION_WORDS), "")


def _best(text: str, focus: Sequence[str], vocab: Vocabulary, *, statements_only: bool) -> str:
    """The first sentence with the highest cover of the focus ("" when none qualifies)."""
    best, top = "", -1.0
    for sentence in sentences(text):
        if statements_only and is_question(sentence):
            continue
        cover = vocab.cover(focus, terms(sentence))
        if cover > top:
            best, top = sentence, cover
    return best


def _informative(said: str, asked: frozenset[str]) -> list[str]:
    """Words of a text that are neither stop words nor (by stem) words of the question."""
    return [w for w in words(said) if w not in STOP and stem(w) not in asked]


def span(text: str, focus: Sequence[str], asked: frozenset[str], vocab: Vocabulary, width: int) -> str:
    """The ``width`` rarest new words of the statement that best covers the focus, in text order."""
    kept = _informative(_best(text, focus, vocab, statements_only=True), asked)
    order = sorted(range(len(kept)), key=lambda i: -vocab.weight(stem(kept[i])))[:width]
    return " ".join(kept[i] for i in sorted(order))


_NUMBER = re.compile(r"[+-]?[0-9]+")


def _number(said: Sequence[str], i: int) -> int:
    """The word at ``i`` read as a decimal integer (Go ``strconv.Atoi``), else 0."""
    if not 0 <= i < len(said) or not _NUMBER.fullmatch(said[i]):
        return 0
    n = int(said[i])
    return n if -(1 << 63) <= n < (1 << 63) else 0


def dated(cite: Cite, vocab: Vocabulary, question: str) -> str:
    """Answer a when-question with the cite's session day, or the month (and day) its best sentence names.

    A named month after the session's month belongs to the year before.  The
    month words include "may", so the modal verb reads as May (reference
    behaviour).  A turn with no date stands on Go's zero time (1 January of
    year 1), as the reference's does.
    """
    when = cite.turn.date
    year0, month0, mday0 = (when.year, when.month, when.day) if when else (1, 1, 1)
    said = words(_best(cite.turn.text, vocab.focus(question), vocab, statements_only=False))
    for i, word in enumerate(said):
        month = MONTHS.get(word)
        if month is None:
            continue
        year = year0 - (month > month0)
        mday = _number(said, i + 1) or _number(said, i - 1)
        if not 1 <= mday <= 31:
            return f"{MONTH_NAMES[month - 1]} {year}"
        return day_of(year, month, mday)
    if "yesterday" in said:
        return day_of(year0, month0, mday0 - 1)
    return day(when)


def _declines(cites: Sequence[Cite], confidence: float, options: Options) -> bool:
    return not cites or confidence < options.floor


def reply(question: str, cites: Sequence[Cite], confidence: float, vocab: Vocabulary, options: Options) -> str:
    """The extractive answer: up to ``parts`` spans from cites within ``band`` of the best score."""
    return _compose(question, cites, confidence, vocab, options, options.parts, options.band, recited=False)


def recite(question: str, cites: Sequence[Cite], confidence: float, vocab: Vocabulary, options: Options) -> str:
    """Like ``reply``, but reading each cite's matched phrase (``say``) when it has one (graph+edge)."""
    return _compose(question, cites, confidence, vocab, options, options.parts, options.band, recited=True)


def gather(question: str, cites: Sequence[Cite], confidence: float, vocab: Vocabulary, options: Options) -> str:
    """State every cite's piece of evidence (the ``+set`` reader): no parts cap, no band."""
    return _compose(question, cites, confidence, vocab, options, len(cites), 0.0, recited=True)


def _compose(
    question: str,
    cites: Sequence[Cite],
    confidence: float,
    vocab: Vocabulary,
    options: Options,
    parts: int,
    band: float,
    *,
    recited: bool,
) -> str:
    if _declines(cites, confidence, options):
        return DECLINE
    if asking(question) == "when":
        return dated(cites[0], vocab, question)
    focus = vocab.focus(question)
    asked = terms(question)
    out: list[str] = []
    for c in cites:
        if c.score < cites[0].score * band or len(out) == parts:
            break
        if recited:
            said = c.say or span(c.turn.text, focus, asked, vocab, options.span)
            piece = " ".join(_informative(said, asked)) or said
        else:
            piece = span(c.turn.text, focus, asked, vocab, options.span)
        if piece and piece not in out:
            out.append(piece)
    return ", ".join(out) if out else DECLINE
