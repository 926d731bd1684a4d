"""Reading a two-party conversation into claims about people.

A port of the dialogue reader of hanzoai/semantic ``bench/locomo`` (talk.go at
snapshot 0c787e9f) and of the question-subject resolution of graph.go at the
same snapshot.  Each statement sentence of a turn is bound to a person: the
first person is the speaker, the second person the one spoken to, a known name
that person, and anything else the speaker.  The verb is found after the
subject and the content runs after the verb become the objects.  Questions
assert nothing.

Go string semantics that decide results are reproduced exactly: byte lengths,
``strings.Fields`` (Unicode White_Space, not Python's ``str.split``),
``strings.ToLower`` (simple per-rune lowercase mapping), ``strings.EqualFold``
(simple case folding) and the byte-wise name boundary check of ``mentions``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from itertools import groupby
from typing import Protocol

from ..text.lexicon import AUXILIARY, FIRST, NEGATION, SECOND, STOP, VERBS
from ..go.strings import SPACE, equal_fold, fields, to_lower
from ..text.reduce import is_word_char, sentences, words
from ..data.records import record


class Turn(Protocol):
    """What the reader needs of an utterance: its id, session, speaker, text and the day it was said
    (read only, so that a frozen dataclass is one)."""

    @property
    def id(self) -> str: ...

    @property
    def session(self) -> int: ...

    @property
    def speaker(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def day(self) -> str: ...


#: Confidence of every claim the reader makes (a person stating something).
STATED = 0.9

#: Longest run of content words that makes one object phrase.
PHRASE_WORDS = 6
#: Longest thing / name on either side of "named" or "called".
NAMING_WORDS = 3


@record
class Claim:
    """One (subject, predicate, object) a sentence asserted, with where and when.

    ``date`` is the session day as prose ("8 May, 2023"), ``cite`` the turn id,
    ``turn`` the turn's index in its conversation and ``said`` the sentence the
    claim was read from ("" for a claim derived by reasoning).
    """

    subject: str
    predicate: str
    object: str
    score: float
    date: str
    cite: str
    turn: int
    said: str = ""

    @property
    def doc(self) -> str:
        """The turn id, as the graph and the rule engine read a claim's document (``kg.Asserted``)."""
        return self.cite


# --- the Latin-1 byte quirk ---------------------------------------------------


def _byte_is_letter(b: int) -> bool:
    # The reference converts a single byte to a rune, so a byte of a UTF-8
    # sequence is judged as the Latin-1 character with that number.
    return is_word_char(chr(b))


_LATIN1_LETTER = tuple(_byte_is_letter(b) for b in range(256))


# --- the reader --------------------------------------------------------------


def statements(text: str) -> Iterator[tuple[int, str, tuple[str, ...]]]:
    """The sentences claims are read from — not questions, at least one word — with their index and words."""
    for index, sentence in enumerate(sentences(text)):
        if not sentence.endswith("?") and (ws := words(sentence)):  # a sentence is trimmed: is_question
            yield index, sentence, ws


def read(
    turn: Turn,
    at: int,
    speaker: str,
    other: str,
    names: Collection[str] | None,
    bound: Mapping[int, Mapping[int, str]] | None = None,
) -> list[Claim]:
    """The claims one turn makes (reference ``Read``).

    ``at`` is the turn's index in its conversation, ``speaker`` the person
    talking and ``other`` the person addressed; ``names`` holds lowercased
    known names (membership only), so a third party named in a sentence is
    bound to themselves.  ``bound`` (not in the reference; see
    ``third_person``) maps a sentence's index in the turn to the people its
    third-person pronouns stand for, by word index.
    """
    known = names if names is not None else frozenset()
    date = turn.day
    out: list[Claim] = []
    for index, sentence, ws in statements(turn.text):
        person, start = who(ws, speaker, other, known, bound.get(index) if bound else None)
        verb, rest = predicate(ws[start:])
        for phrase in phrases(rest):
            out.append(Claim(person, verb, phrase, STATED, date, turn.id, at, sentence))
        for thing, name in naming(ws):
            out.append(Claim(thing, "named", name, STATED, date, turn.id, at, sentence))
    return out


def read_conversation(
    turns: Sequence[Turn],
    speakers: tuple[str, str],
    names: Collection[str],
    bound: Mapping[int, Mapping[int, Mapping[int, str]]] | None = None,
) -> list[Claim]:
    """Every claim of a conversation, turn by turn, in order.

    The person addressed is the first speaker unless the turn's speaker is the
    first speaker, then the second (so a turn by a third voice addresses the
    first speaker), as the reference graph builder picks it.  ``bound`` is
    ``third_person``'s result, by turn index (none: the reference reader).
    """
    out: list[Claim] = []
    for at, turn in enumerate(turns):
        other = speakers[1] if turn.speaker == speakers[0] else speakers[0]
        out.extend(read(turn, at, turn.speaker, other, names, bound.get(at) if bound else None))
    return out


def who(
    ws: Sequence[str],
    speaker: str,
    other: str,
    names: Collection[str],
    bound: Mapping[int, str] | None = None,
) -> tuple[str, int]:
    """The subject of a sentence and the index just after the word that fixed it.

    First match wins, checked per word in this order: first person, second
    person, the speaker's name, the other's name (case-insensitively), a known
    name (returned lowercased), and then, only when ``bound`` is given, a
    third-person pronoun bound to a person (``bound``: word index -> person).
    No match: the speaker, index 0.
    """
    for i, w in enumerate(ws):
        if w in FIRST:
            return speaker, i + 1
        if w in SECOND:
            return other, i + 1
        n = len(w)  # EqualFold needs as many runes: most words are asked nothing more
        if n == len(speaker) and equal_fold(w, speaker):
            return speaker, i + 1
        if n == len(other) and equal_fold(w, other):
            return other, i + 1
        low = w.lower() if w.isascii() else to_lower(w)
        if low in names:
            return low, i + 1
        if bound and i in bound:
            return bound[i], i + 1
    return speaker, 0


def verbal(w: str) -> bool:
    """Whether a word can head a verb phrase: a listed verb or auxiliary, or an
    inflected-looking word longer than 4 bytes ending in "ing" or "ed"."""
    if w in VERBS or w in AUXILIARY:
        return True
    return len(w.encode()) > 4 and (w.endswith("ing") or w.endswith("ed"))


def predicate(ws: Sequence[str]) -> tuple[str, Sequence[str]]:
    """The verb of a sentence tail and the words after it.

    An auxiliary gives way to a content verb directly behind it (negations in
    between are skipped); any negation seen makes the verb "not <verb>".  With
    no verb the predicate is "about" and the whole tail is the rest.
    """
    negated = False
    for i, w in enumerate(ws):
        if w in NEGATION:
            negated = True
        if not verbal(w):
            continue
        verb, rest = w, ws[i + 1 :]
        if w in AUXILIARY:
            for j in range(i + 1, len(ws)):
                nxt = ws[j]
                if nxt in NEGATION:
                    negated = True
                    continue
                if not verbal(nxt):
                    break
                if nxt not in AUXILIARY:
                    verb, rest = nxt, ws[j + 1 :]
                    break
        if negated:
            verb = "not " + verb
        return verb, rest
    return "about", ws


def phrases(ws: Iterable[str]) -> list[str]:
    """Runs of non-stop words, each capped at six words (an empty word also ends a run)."""
    out: list[str] = []
    run: list[str] = []
    for w in ws:
        if w in STOP or not w:
            if run:
                out.append(" ".join(run))
                run = []
            continue
        run.append(w)
        if len(run) == PHRASE_WORDS:
            out.append(" ".join(run))
            run = []
    if run:
        out.append(" ".join(run))
    return out


def naming(ws: Sequence[str]) -> list[tuple[str, str]]:
    """(thing, name) for each "named"/"called" with content on both sides.

    The thing is the content run (≤3 words) ending before the keyword once
    trailing stop words are passed over; the name is the content run (≤3 words)
    right after it.
    """
    out: list[tuple[str, str]] = []
    if "named" not in ws and "called" not in ws:  # as in most sentences
        return out
    for i, w in enumerate(ws):
        if w != "named" and w != "called":
            continue
        thing, name = _back(ws[:i]), _forward(ws[i + 1 :])
        if thing and name:
            out.append((thing, name))
    return out


def _back(ws: Sequence[str]) -> str:
    i = len(ws) - 1
    while i >= 0 and ws[i] in STOP:
        i -= 1
    run: list[str] = []
    while i >= 0 and len(run) < NAMING_WORDS and ws[i] not in STOP:
        run.append(ws[i])
        i -= 1
    return " ".join(reversed(run))


def _forward(ws: Sequence[str]) -> str:
    run: list[str] = []
    for w in ws:
        if w in STOP or len(run) == NAMING_WORDS:
            break
        run.append(w)
    return " ".join(run)


# --- names ----------------------------------------------------------------------


_ASCII_NON_WORD = "".join(chr(b) for b in range(128) if not (chr(b).isalnum() or chr(b) == "_"))


def _trim_non_letters(w: str) -> str:
    if w.isascii():
        return w.strip(_ASCII_NON_WORD)
    start, end = 0, len(w)
    while start < end and not is_word_char(w[start]):
        start += 1
    while end > start and not is_word_char(w[end - 1]):
        end -= 1
    return w[start:end]


def named(turns: Iterable[Turn]) -> frozenset[str]:
    """Third-party names a conversation uses (reference ``Named``), lowercased.

    Every whitespace field of every sentence, trimmed of non-word characters
    at both ends, of at least 3 bytes: written all in lower case anywhere
    disqualifies it; written otherwise as a non-first field of its sentence
    counts once.  A name needs two counts, no lower-case use and not to be a
    stop word.
    """
    every: list[str] = []  # every field written
    firsts: list[str] = []  # those that begin a sentence
    for turn in turns:
        for sentence in sentences(turn.text):
            written = fields(sentence)
            if written:
                every += written
                firsts.append(written[0])
    counts, first = Counter(every), Counter(firsts)
    upper: dict[str, int] = {}
    lower: set[str] = set()
    for field, n in counts.items():  # each field written looked at once
        if field.isascii():  # ``_trim_non_letters``, byte length and ``to_lower`` of an ASCII field
            bare = field.strip(_ASCII_NON_WORD)
            if len(bare) < 3:
                continue
            low = bare.lower()
        else:
            bare = _trim_non_letters(field)
            if len(bare.encode()) < 3:
                continue
            low = to_lower(bare)
        if bare == low:
            lower.add(low)
        else:
            upper[low] = upper.get(low, 0) + n - first.get(field, 0)  # how often written other than first
    return frozenset(w for w, n in upper.items() if n >= 2 and w not in lower and w not in STOP)


def known_names(turns: Iterable[Turn], speakers: Iterable[str]) -> tuple[str, ...]:
    """Harvested names and the lowercased speakers, longest (in bytes) first, ties
    in byte order: the order in which a question's subject is looked for."""
    names = set(named(turns)) | {to_lower(s) for s in speakers}
    return tuple(sorted(names, key=lambda n: (-len(n.encode()), n.encode())))


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` holds ``name`` with no word character on either side.

    Works on UTF-8 bytes as the reference does: a neighbouring byte is judged
    as the Latin-1 character of that value, so the lead byte 0xC3 of "é" is a
    letter ("Ã") while its trail byte 0xA9 ("©") is not.
    """
    hay, needle = text.encode(), name.encode()
    i = 0
    while True:
        j = hay.find(needle, i)
        if j < 0:
            return False
        end = j + len(needle)
        before = j == 0 or not _LATIN1_LETTER[hay[j - 1]]
        after = end == len(hay) or not _LATIN1_LETTER[hay[end]]
        if before and after:
            return True
        i = j + 1


def subject(question: str, names: Sequence[str]) -> str:
    """The first name, in the given order, that the lowercased question mentions; "".

    ``names`` is in ``known_names`` order.  The result is not folded; the graph
    files people under ``Fold(subject)`` (lowercase, whitespace collapsed),
    which for these already-lowercased names changes only a speaker name with
    irregular spacing.
    """
    low = to_lower(question)
    for name in names:
        if mentions(low, name):
            return name
    return ""


# --- third-person pronouns (not in the reference) -------------------------------------

#: The pronouns the reader binds: those the coreference pass admits for a person only.
THIRD_PERSON = frozenset({"he", "him", "his", "she", "her"})


def third_person(
    turns: Sequence[Turn],
    speakers: Iterable[str],
    names: Collection[str],
    pronouns: Collection[str] = THIRD_PERSON,
    speakers_too: bool = False,
) -> dict[int, dict[int, dict[int, str]]]:
    """The person each third-person pronoun stands for: turn index -> sentence index -> word index -> person.

    A reconstruction of the experiment the reference's talk.go describes and
    removed ("extract.Coref over each session, so that 'she' reaches the name
    an earlier turn gave it").  A session's turn texts, one a line, are one
    text; every whole-word occurrence of a known name in it (``names``, the
    speakers among them, each a single word as the reader reads it) is a
    PERSON entity; ``coref`` chains the pronouns to the names, and a pronoun
    in ``pronouns`` is bound to the head of its chain (lowercased).  The binding sits on the reader's word that carries the
    pronoun ("she's" is the word "shes").  A binding to either speaker is
    dropped unless ``speakers_too``: in a two-party dialogue the third person
    is neither the speaker nor the one addressed.  Question sentences are text
    like any other (they name people) though the reader reads no claim from them.
    """
    from ..memory.coref import coref, gazetteer  # here: only a -coref run binds pronouns

    # Only a name the reader can read as one of its words is a person it can
    # bind ("i'm", capitalised wherever it is written, is a harvested name the
    # reader never matches: its word is "im").
    gazette = {name: "PERSON" for name in sorted(names) if words(name) == (name,)}
    voices = {to_lower(s) for s in speakers}
    out: dict[int, dict[int, dict[int, str]]] = {}
    for _, session in groupby(range(len(turns)), key=lambda i: turns[i].session):
        lines: list[str] = []
        places: list[tuple[int, int, int, int]] = []  # (start, end, turn, sentence index) of each field
        firsts: list[int | None] = []  # the word index the field starts at (None: it holds no word)
        at = 0
        for t in session:
            text = turns[t].text
            for index, first, start, end in _fields(text):
                places.append((at + start, at + end, t, index))
                firsts.append(first)
            lines.append(text)
            at += len(text) + 1
        text = "\n".join(lines)
        offsets = [p[0] for p in places]
        for chain in coref(text, gazetteer(text, gazette)):
            person = to_lower(chain.head.text)
            if chain.head.pronoun or (person in voices and not speakers_too):
                continue
            for m in chain.mentions:
                if not (m.pronoun and to_lower(m.text) in pronouns):
                    continue
                k = bisect_right(offsets, m.start) - 1
                first = firsts[k] if k >= 0 else None
                if first is None or places[k][1] <= m.start:
                    continue
                _, _, t, index = places[k]
                out.setdefault(t, {}).setdefault(index, {})[first] = person
    return out


_FIELD = f"[^{re.escape(SPACE)}]+"  # compiled by ``re`` at its first use: only coreference reads fields


def _fields(text: str) -> Iterator[tuple[int, int | None, int, int]]:
    """Each whitespace field of each sentence of a turn: (sentence index, index in
    ``words(sentence)`` of the field's first word or None, start and end of the field in the turn text).

    A sentence whose words are not the concatenation of its fields' words
    (possible only in odd spellings) yields no field.
    """
    at = 0
    for index, sentence in enumerate(sentences(text)):
        at = text.index(sentence, at)
        spans = [(m.start(), m.end(), words(m.group())) for m in re.finditer(_FIELD, sentence)]
        if [w for _, _, ws in spans for w in ws] == list(words(sentence)):
            n = 0
            for start, end, ws in spans:
                yield index, (n if ws else None), at + start, at + end
                n += len(ws)
        at += len(sentence)


def bound_subjects(
    turns: Sequence[Turn],
    speakers: tuple[str, str],
    names: Collection[str],
    bound: Mapping[int, Mapping[int, Mapping[int, str]]],
) -> tuple[int, int]:
    """(statement sentences whose subject a bound pronoun decided, statement sentences).

    A statement sentence is one the reader reads claims from: not a question,
    at least one word.
    """
    hit = total = 0
    for at, turn in enumerate(turns):
        other = speakers[1] if turn.speaker == speakers[0] else speakers[0]
        here = bound.get(at, {})
        for index, _, ws in statements(turn.text):
            total += 1
            _, start = who(ws, turn.speaker, other, names, here.get(index))
            # A pronoun is no name nor first or second person, so a match on a
            # bound word can only have come from its binding.
            hit += start > 0 and start - 1 in here.get(index, {})
    return hit, total
