"""Go's string functions where they differ from Python's, for a faithful port.

``strings.Fields`` and ``strings.TrimSpace`` cut at ``unicode.IsSpace``, which
unlike ``str.isspace`` excludes U+001C..U+001F; ``strings.ToLower`` maps each
rune by its simple lowercase mapping (U+0130 becomes ``i``; no final-sigma
rule); ``strings.EqualFold`` compares rune by rune under simple case folding.
"""

from __future__ import annotations

import re

#: Go's ``unicode.IsSpace`` characters.
SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_SPACE_RUN = "[" + re.escape(SPACE) + "]+"  # compiled by ``re`` at its first use: few texts need it
_PY_ONLY_SPACE = re.compile("[\x1c-\x1f]")  # str.isspace() but not unicode.IsSpace


def trim_space(s: str) -> str:
    """``strings.TrimSpace``: strip ``unicode.IsSpace`` characters at both ends."""
    return s.strip(SPACE)


def fields(s: str) -> list[str]:
    """``strings.Fields``: the non-empty runs between ``unicode.IsSpace`` characters."""
    if s.isprintable() or _PY_ONLY_SPACE.search(s) is None:  # U+001C..U+001F are not printable
        return s.split()
    return [f for f in re.split(_SPACE_RUN, s) if f]


def to_lower(s: str) -> str:
    """``strings.ToLower``: each rune through its simple lowercase mapping.

    Python's ``str.lower`` applies the full mapping (U+0130 becomes two code
    points) and the contextual final sigma; lowering one character at a time
    removes the context, and U+0130 is the one character whose simple mapping
    differs from its full one.
    """
    if s.isascii():
        return s.lower()
    return "".join("i" if ch == "\u0130" else ch.lower() for ch in s)


def equal_fold(a: str, b: str) -> bool:
    """``strings.EqualFold``: equal rune by rune under simple case folding.

    Each code point is compared by its own ``casefold()``.  Comparing whole
    strings by ``casefold()`` would equate "ß" with "ss", which Go does not.
    Per code point, two characters share a case folding exactly when Go's
    SimpleFold orbits join them (K/k/U+212A, s/ſ, σ/ς, ß/ẞ, ﬅ/ﬆ, ...): every
    multi-character folding that two code points share is also a simple
    (status S) folding between them in Unicode 15, and the Turkic dotted and
    dotless i fold to nothing else in either.
    """
    if a.isascii() and b.isascii():
        return len(a) == len(b) and a.lower() == b.lower()
    return len(a) == len(b) and all(x == y or x.casefold() == y.casefold() for x, y in zip(a, b))
