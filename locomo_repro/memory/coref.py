"""Coreference without a model: which pronouns of a text stand for which names.

A port of ``extract.Coref`` of hanzoai/semantic (extract/coref.go, stored at
1cd0cd76 and b220af68, which agree): the pronouns of a text and the entities
already found in it become mentions in text order; each pronoun is referred to
the nearest preceding name whose label it admits, else the nearest preceding
name of any label; mentions that name one thing are grouped into chains, and a
chain's head is its earliest name.  ``gazetteer`` finds the entities a caller
knows by name, as the names part of the library's ``Rules.Entities`` does.

Offsets are ``str`` indices where the reference has byte offsets; both count
monotonically along one text, so every order and comparison is the same.  Word
boundaries are ASCII ones, as in Go's regexp.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..go.strings import fields, to_lower, trim_space
from ..data.records import record

#: Confidence of an entity named in a gazetteer (the reference's name score).
NAMED = 0.9

#: The labels each pronoun can stand for.
ADMITS: dict[str, tuple[str, ...]] = {
    "he": ("PERSON",),
    "him": ("PERSON",),
    "his": ("PERSON",),
    "she": ("PERSON",),
    "her": ("PERSON",),
    **dict.fromkeys(
        ("it", "its"),
        (
            "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "FAC", "WORK_OF_ART", "LAW",
            "LANGUAGE", "DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL",
        ),
    ),
    **dict.fromkeys(("they", "them", "their"), ("ORG", "GPE", "PERSON", "NORP")),
}

_WORD = "[0-9A-Za-z_]"
#: An ASCII word boundary, as Go's ``\b`` (case-sensitive even inside a case-insensitive pattern).
_B = f"(?-i:(?<={_WORD})(?!{_WORD})|(?<!{_WORD})(?={_WORD}))"


def _anycase(word: str) -> str:
    # Go's (?i) also folds "s" with long s (U+017F), but "s" only ever begins
    # or ends these words, where the ASCII boundary rules long s out; Python's
    # own IGNORECASE would let in other non-ASCII letters.
    return "".join(f"[{ch}{ch.upper()}]" for ch in word)


#: The pronouns, longest alternative first so that "its" is not read as "it".
PRONOUNS = re.compile(
    _B + "(?:" + "|".join(map(_anycase, ("their", "them", "they", "she", "his", "him", "her", "its", "it", "he"))) + ")" + _B
)


@record
class Entity:
    """A name found in a text: its surface, label, span and confidence."""

    text: str
    label: str
    start: int
    end: int
    score: float = 1.0


@dataclass(slots=True)
class Mention:
    """One reference to a thing: a name (with its entity label) or a pronoun, and what it was referred to."""

    text: str
    start: int
    end: int
    pronoun: bool = False
    label: str = ""
    of: str = ""


@record
class Chain:
    """The mentions that name one thing, and the head: its earliest name."""

    mentions: tuple[Mention, ...]
    head: Mention
    label: str


@record
class Ref:
    """A pronoun and the name it was referred to."""

    pronoun: str
    of: str


def mentions(text: str, known: Sequence[Entity]) -> list[Mention]:
    """The pronouns of ``text`` and the given entities, ordered by start then end (stable)."""
    out = [Mention(m.group(), m.start(), m.end(), pronoun=True) for m in PRONOUNS.finditer(text)]
    out.extend(Mention(e.text, e.start, e.end, label=e.label) for e in known)
    out.sort(key=lambda m: (m.start, m.end))
    return out


def refer(ms: list[Mention]) -> list[Ref]:
    """Refer each pronoun to the nearest preceding name it admits, else the nearest preceding name.

    "Nearest preceding" is the last name, in mention order, ending at or before
    the pronoun's start.  The choice is recorded on the pronoun (``of``) and
    returned as pairs; a pronoun with no name before it is left alone.
    """
    out: list[Ref] = []
    for m in ms:
        if not m.pronoun:
            continue
        kinds = ADMITS.get(to_lower(m.text), ())
        near = fit = None
        for n in ms:
            if n.pronoun or n.end > m.start:
                continue
            near = n
            if n.label in kinds:
                fit = n
        if fit is not None:
            near = fit
        if near is None:
            continue
        m.of = near.text
        out.append(Ref(m.text, near.text))
    return out


def chains(ms: Sequence[Mention]) -> list[Chain]:
    """Group mentions naming one thing, first mention first; groups of one are dropped.

    Each mention not yet taken opens a group and takes every later untaken
    mention ``alike`` it.  The head is the earliest name of the group (the
    opening mention when every member is a pronoun).
    """
    taken = [False] * len(ms)
    out: list[Chain] = []
    for i, first in enumerate(ms):
        if taken[i]:
            continue
        taken[i] = True
        group = [first]
        for j in range(i + 1, len(ms)):
            if not taken[j] and alike(first, ms[j]):
                taken[j] = True
                group.append(ms[j])
        if len(group) < 2:
            continue
        head = group[0]
        for m in group[1:]:
            if not m.pronoun and (head.pronoun or m.start < head.start):
                head = m
        out.append(Chain(tuple(group), head, head.label))
    return out


def coref(text: str, known: Sequence[Entity]) -> list[Chain]:
    """The whole pass: mentions, pronouns referred, chains."""
    ms = mentions(text, known)
    refer(ms)
    return chains(ms)


def alike(a: Mention, b: Mention) -> bool:
    """Whether two mentions name one thing: two names by ``same``; a pronoun only through its referent."""
    if not a.pronoun and not b.pronoun:
        return same(a.text, b.text)
    if a.of and (same(a.of, b.text) or (b.of != "" and same(a.of, b.of))):
        return True
    return b.of != "" and (same(b.of, a.text) or (a.of != "" and same(b.of, a.of)))


def same(a: str, b: str) -> bool:
    """Two surface forms of one thing: equal or one inside the other (case-insensitively), or
    sharing more than 0.7 of the longer one's words."""
    x, y = to_lower(trim_space(a)), to_lower(trim_space(b))
    if not x or not y:
        return False
    if x == y or y in x or x in y:
        return True
    return overlap(fields(x), fields(y)) > 0.7


def overlap(a: Sequence[str], b: Sequence[str]) -> float:
    """Distinct words of ``b`` found in ``a``, over the longer word count."""
    if not a or not b:
        return 0.0
    have = set(a)
    shared = len({w for w in b if w in have})
    return shared / max(len(a), len(b))


def gazetteer(text: str, names: Mapping[str, str]) -> list[Entity]:
    """Every whole-word, case-insensitive occurrence in ``text`` of a name, labelled by ``names``.

    Overlapping finds keep the longer (in UTF-8 bytes), then the earlier, then
    the smaller label; the kept ones come back in text order.
    """
    found: list[Entity] = []
    for name, label in names.items():
        if not name:
            continue
        for m in re.finditer(_B + re.escape(name) + _B, text, re.IGNORECASE):
            found.append(Entity(m.group(), label, m.start(), m.end(), NAMED))
    found.sort(key=lambda e: (-e.score, -len(text[e.start : e.end].encode()), e.start, e.label))
    kept: list[Entity] = []
    for e in found:
        if all(e.end <= k.start or k.end <= e.start for k in kept):
            kept.append(e)
    kept.sort(key=lambda e: e.start)
    return kept
