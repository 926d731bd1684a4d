"""Per-conversation term weighting: IDF weights, unit vectors, question focus and cover.

Matches ``Words`` of hanzoai/semantic bench/locomo (terms.go): the document
frequency of a stem is the number of turns whose text contains it, the weight
is ``ln((N+1)/(df+1))`` (``ln(N+1)`` for a stem the conversation never used),
vector positions are the stems in byte order, and a text's vector is its
term-frequency × weight, scaled to unit length in float32.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain
from functools import lru_cache

from ..text.lexicon import ASKED_WORDS, STOP
from ..data.dataset import Turn
from ..text.reduce import joined_stems, stem, stems, terms
from .sparse import Sparse

# Coefficients of the natural logarithm in Go's math package (the fdlibm
# e_log.c algorithm).  glibc's log differs from it in the last bit for many
# arguments; the reference's weights, and so its confidences, are Go's.
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_LG = (
    6.666666666666735130e-01,
    3.999999999940941908e-01,
    2.857142874366239149e-01,
    2.222219843214978396e-01,
    1.818357216161805012e-01,
    1.531383769920937332e-01,
    1.479819860511658591e-01,
)


def go_log(x: float) -> float:
    """Natural logarithm of a positive finite ``x``, bit for bit as Go's ``math.Log`` computes it."""
    m, e = math.frexp(x)
    if m < math.sqrt(2) / 2:
        m, e = m * 2, e - 1
    f, k = m - 1, float(e)
    s = f / (2 + f)
    s2 = s * s
    s4 = s2 * s2
    l1, l2, l3, l4, l5, l6, l7 = _LG
    r = s2 * (l1 + s4 * (l3 + s4 * (l5 + s4 * l7))) + s4 * (l2 + s4 * (l4 + s4 * l6))
    half = 0.5 * f * f
    return k * _LN2_HI - ((half - (s * (half + r) + k * _LN2_LO)) - f)


@lru_cache(maxsize=1)
def asked() -> frozenset[str]:
    """Stems of the words a question is phrased with rather than about (stemmed on first use)."""
    return frozenset(stem(w) for w in ASKED_WORDS.split())


class Vocabulary:
    """The weighted vocabulary of one conversation's turn texts."""

    def __init__(self, texts: Sequence[str]):
        df = Counter(chain.from_iterable(map(terms, texts)))  # counted in one go: each text's stems once
        self.turns = len(texts)
        self.terms: tuple[str, ...] = tuple(sorted(df))
        self.index: dict[str, int] = {t: i for i, t in enumerate(self.terms)}
        n1 = len(texts) + 1
        logs = {n: go_log(n1 / (n + 1)) for n in set(df.values())}  # a weight depends on the frequency alone
        self.weights: dict[str, float] = {t: logs[df[t]] for t in self.terms}
        self._placed = [self.weights[t] for t in self.terms]  # the weight at each vector position
        self.unknown = go_log(n1)
        self._weighed: dict[str, Sparse] = {}
        self._focused: dict[tuple[str, str], list[str]] = {}

    @property
    def size(self) -> int:
        """Width of a vector: how many distinct stems the turns hold."""
        return len(self.terms)

    def weight(self, term: str) -> float:
        """The IDF weight of a stem."""
        return self.weights.get(term, self.unknown)

    def weigh(self, text: str, parts: Iterable[str] | None = None) -> Sparse:
        """A text as a float32 unit vector (the zero vector when it has no known stem), by its non-zero
        components; ``parts``, when given, are what the text is made of (``reduce.joined_stems``), and its
        stems are taken from theirs.

        The components are worked out in Python floats, in position order,
        each rounded to float32 where the reference rounds: term frequency ×
        weight, rounded; the squares summed in float64; the scale
        ``1/sqrt(sum)`` rounded; each component times the scale, rounded.  A
        product of two float32 values is exact in a float64, so rounding it
        once gives float32 multiplication's result bit for bit.  A stem every
        turn holds weighs 0 and so is no component.  Memoised: a question is
        weighed once however many arms ask it.
        """
        got = self._weighed.get(text)
        if got is None:
            self._weighed[text] = got = self._weigh(stems(text) if parts is None else joined_stems(parts))
        return got

    def weigh_turn(self, turn: Turn) -> Sparse:
        """``weigh(turn.line())``, from the stems of the line's parts: the turn's text was stemmed for the
        vocabulary, and its session's day for the turns before it."""
        return self.weigh(turn.line(), turn.line_parts())

    def _weigh(self, stemmed: Iterable[str]) -> Sparse:
        index, placed = self.index, self._placed
        counts: dict[int, int] = {}  # by vector position
        for t in stemmed:
            i = index.get(t)
            if i is not None:
                counts[i] = counts.get(i, 0) + 1
        dims = sorted(counts)
        values = array("f", [counts[i] * placed[i] for i in dims])
        total = 0.0
        for x in values:
            total += x * x
        if total == 0:
            return Sparse(self.size, (), ())
        scale = array("f", [1 / math.sqrt(total)])[0]
        scaled = array("f", [x * scale for x in values])
        if 0.0 in scaled:  # a stem every turn holds
            kept = [(i, x) for i, x in zip(dims, scaled) if x]
            return Sparse(self.size, tuple(i for i, _ in kept), tuple(x for _, x in kept))
        return Sparse(self.size, tuple(dims), tuple(scaled))

    def focus(self, question: str, subject: str = "") -> list[str]:
        """The stems a question asks about, in order with repeats: less stop words, asked words and the subject.

        Memoised (a copy is returned): each arm and reader of a question asks for its focus.
        """
        got = self._focused.get((question, subject))
        if got is None:
            drop, skip = terms(subject), asked()
            got = self._focused[(question, subject)] = [
                t for t in stems(question) if t not in STOP and t not in skip and t not in drop]
        return list(got)

    def cover(self, focus: Sequence[str], have: Iterable[str] | frozenset[str]) -> float:
        """Weighted share of the focus stems present in ``have`` (0 for an empty focus)."""
        if not focus:
            return 0.0
        weight, unknown = self.weights.get, self.unknown
        hit = total = 0.0
        for term in focus:
            w = weight(term, unknown)
            total += w
            if term in have:
                hit += w
        return hit / total if total else 0.0
