"""Numbers in the publication's text: figures, ids, digests and number words, and what a word for a fraction names.

``numbers`` reads every number of a text as printed (the completeness check
counts them per section); ``figure`` gives a figure's value; ``names_fraction``
is the rule by which a word for a fraction (half, quarter, fifth) agrees with a
measurement: that fraction is the simple fraction nearest to it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

#: Number words the completeness check counts as numbers, with their values.
NUMBER_WORDS: dict[str, Fraction] = {
    "zero": Fraction(0), "one": Fraction(1), "two": Fraction(2), "three": Fraction(3),
    "four": Fraction(4), "five": Fraction(5), "six": Fraction(6), "seven": Fraction(7),
    "eight": Fraction(8), "nine": Fraction(9), "ten": Fraction(10), "eleven": Fraction(11),
    "twelve": Fraction(12), "half": Fraction(1, 2), "quarter": Fraction(1, 4), "fifth": Fraction(1, 5),
}

#: The words for a fraction (precision ``fraction``), with their values.
FRACTION_WORDS = {word: value for word, value in NUMBER_WORDS.items() if 0 < value < 1}

#: The simple fractions a reader names in words: n/d for every denominator d from 1 to 5, from 0 to 1.
SIMPLE_FRACTIONS = tuple(sorted({Fraction(n, d) for d in range(1, 6) for n in range(d + 1)}))


def names_fraction(value: Fraction, x: float) -> bool:
    """Whether a word for the fraction ``value`` describes ``x``: ``value`` is the simple fraction nearest ``x``.

    That is, ``x`` lies strictly within half the gap from ``value`` to each
    neighbouring simple fraction (:data:`SIMPLE_FRACTIONS`); a measurement
    exactly halfway between two of them is named by neither.
    """
    at = SIMPLE_FRACTIONS.index(value)
    low = (SIMPLE_FRACTIONS[at - 1] + value) / 2 if at else value
    high = (value + SIMPLE_FRACTIONS[at + 1]) / 2 if at + 1 < len(SIMPLE_FRACTIONS) else value
    return low < Fraction(x) < high


_NUMBERS = re.compile(
    r"""
      (?P<sha>\b[0-9a-f]{64}\b)                       # a SHA-256 digest
    | (?P<turn>\bD\d+:\d+\b)                          # a dialogue id, D20:2
    | (?P<conv>\bconv-\d+\b)                          # a conversation id, conv-43
    | (?P<shape>\b\d+x\d+\b)                          # a table shape, 2x2
    | (?P<num>(?<![\w.])(?:[+\-\u2212](?=\d))?\d+(?:,\d{3})*(?:\.\d+)?(?:%|s\b)?(?:(?=x\b)|(?!\w)))  # 8.8x: 8.8
    | (?P<word>\b(?:"""
    + "|".join(NUMBER_WORDS)
    + r""")\b)
    """,
    re.VERBOSE | re.IGNORECASE,
)


def numbers(text: str) -> list[str]:
    """Every number in ``text`` as printed, in order.

    A number is a figure (``1,986``, ``-0.029``, ``+0.152``, ``24%``, ``5.2s``;
    a figure glued to letters, as in ``F1`` or ``path2``, is a name), a
    dialogue id (``D20:2``), a conversation id (``conv-43``), a SHA-256 digest,
    a table shape (``2x2``) or a number word (``ten``, ``half``; lower-cased).  A ratio's ``x`` is no part of
    its figure (``8.8x``: ``8.8``).
    A range such as ``58–79%`` is two numbers.
    """
    out = []
    for m in _NUMBERS.finditer(text):
        out.append(m.group().lower() if m.lastgroup == "word" else m.group())
    return out


def figure(token: str) -> Decimal | None:
    """The value of a figure token (``1,986`` -> 1986, ``−0.029`` -> -0.029, ``24%`` -> 24); None otherwise."""
    m = re.fullmatch(r"([+\-\u2212]?)(\d+(?:,\d{3})*(?:\.\d+)?)(%|s)?", token)
    if not m:
        return None
    sign = "-" if m.group(1) in ("-", "\u2212") else ""
    return Decimal(sign + m.group(2).replace(",", ""))


def split_sections(text: str, headings: Sequence[str], first: str = "intro") -> dict[str, str]:
    """The publication cut at its headings (lines equal to one of ``headings``): text per section.

    A section's text starts with its heading line; text before the first
    heading is section ``first``.  Raises ValueError when a heading is missing
    or repeated.
    """
    found = Counter(line.strip() for line in text.splitlines() if line.strip() in headings)
    for h in headings:
        if found[h] != 1:
            raise ValueError(f"heading {h!r} occurs {found[h]} times in the publication (expected once)")
    out: dict[str, list[str]] = {first: []}
    at = first
    for line in text.splitlines():
        if line.strip() in headings:
            at = line.strip()
            out[at] = []
        out[at].append(line)
    return {k: "\n".join(v) for k, v in out.items()}



def split_documents(texts: Mapping[str, str], sections: Sequence[str]) -> dict[str, str]:
    """Several documents cut at their Markdown headings: text per section of a manifest naming them.

    A section ``FILE: Heading`` starts at the heading line of ``FILE`` (``#`` marks, then ``Heading``; lines
    inside a fenced code block are no headings) and runs to the next listed heading of that file; section
    ``FILE`` is the file's text before its first listed heading (all of it when none is listed).  Raises
    ValueError when a file is not among ``texts``, or a heading is missing or repeated.
    """
    out: dict[str, list[str]] = {}
    by_file: dict[str, set[str]] = {}
    for s in sections:
        name, _, heading = s.partition(": ")
        if name not in texts:
            raise ValueError(f"section {s!r} names {name!r}, which is not at hand")
        by_file.setdefault(name, set())
        if heading:
            by_file[name].add(heading)
    for name, headings in by_file.items():
        at, fenced = name, False
        seen: Counter[str] = Counter()
        out[at] = []
        for line in texts[name].splitlines():
            fenced ^= line.lstrip().startswith("```")
            marked = re.fullmatch(r"#+\s+(.*?)\s*", line)
            if marked and not fenced and marked.group(1) in headings:
                at = f"{name}: {marked.group(1)}"
                seen[at] += 1
                out[at] = []
            out[at].append(line)
        for h in sorted(headings):
            if seen[f"{name}: {h}"] != 1:
                raise ValueError(f"heading {h!r} occurs {seen[f'{name}: {h}']} times in {name} (expected once)")
    return {k: "\n".join(v) for k, v in out.items()}
