"""In-memory vector store ranked like hanzoai/semantic ``store.Mem`` under ``Rank(Inner)``.

Reference: ``store/mem.go`` and ``store/math.go`` at b220af68, ``store/filter.go``
and ``store/rank.go`` at 1cd0cd76.  Only what the benchmark's memories use is
kept: the inner-product ranking, ``put``, ``near`` and ``search`` with an
optional ``space`` equality filter.

* ``put`` replaces the vector of a known id in place (its insertion position
  is kept); the first vector fixes the dimension; an empty id, an empty vector
  or a vector of another length is refused.
* ``search`` admits the items filed under the given space (an item without a
  space is never admitted by a space filter), scores each admitted item, then
  orders by score descending with ties broken by id ascending (Go byte order
  of the UTF-8 string) and keeps ``k`` (``k <= 0`` keeps all).
* The score is ``math.go``'s ``Dot``: ``sum(float64(a_i) * float64(b_i))``
  accumulated in index order.

Exactness.  A product of two float32 values is exact in float64 (24 + 24
significand bits < 53, and the exponent range cannot under- or overflow), so
only the additions round, and only their order matters (this also makes a
fused multiply-add in the Go build irrelevant).  A product with a zero factor
is +-0.0, and adding +-0.0 to a non-zero sum leaves it unchanged; the running
sum starts at +0.0 and can never become -0.0 (a sum of non-zero terms that
cancels is +0.0 under round-to-nearest), so adding a signed zero to a zero sum
leaves +0.0 too.  Hence the sequential dense sum equals the sequential sum
over the dimensions where *both* vectors are non-zero, in ascending order.
Search therefore keeps the items column by column (sparse) and, for each of the
query's non-zero dimensions in ascending order, adds each product to its item's
running sum: every item's sum is formed in exactly the reference order (the
property tests compare bit patterns with a dense sequential loop).  The
argument needs finite values (``0 * inf`` is NaN), so a store or query holding
a non-finite component falls back to ``dot``, the literal dense loop.  The
items are ranked in the order of their ids, by a stable sort on the score
alone, which breaks ties by id as the reference does.

A vector is given dense (any sequence, converted to float32) or as a
:class:`Sparse` float32 vector, which is what ``terms.Vocabulary.weigh`` makes.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from heapq import nlargest
from types import MappingProxyType

from ..data.records import record
from .sparse import Sparse

SPACE = "space"
"""The metadata key a namespace is filed under (Go ``store.Space``)."""

_EMPTY: Mapping[str, str] = MappingProxyType({})


class StoreError(ValueError):
    """A put or search the reference store refuses (``ErrID``, ``ErrDim``)."""


def _sparse(vector: Sparse | Sequence[float]) -> Sparse:
    """A vector by its non-zero components; a dense vector is converted to float32 first."""
    if isinstance(vector, Sparse):
        return vector
    try:
        v = array("f", vector)
    except TypeError:  # not a flat sequence of numbers (a matrix, say)
        raise StoreError("store: vector dimension") from None
    kept = [(j, x) for j, x in enumerate(v) if x != 0]  # NaN counts as non-zero; -0.0 does not
    return Sparse(len(v), tuple(j for j, _ in kept), tuple(x for _, x in kept))


@record
@dataclass(frozen=True, slots=True)
class Match:
    """One search result: the id, its float64 score and a read-only view of its metadata."""

    id: str
    score: float
    meta: Mapping[str, str]


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """Inner product accumulated in index order (Go ``store.Dot``): the slow path
    for non-finite data and the definition the fast path must equal."""
    s = 0.0
    for x, y in zip(a, b):
        s += float(x) * float(y)
    return s


def _byte_key(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")


def _descending(score: float) -> tuple[bool, float]:
    """A score's place in a descending order with NaN after every number (numpy's sort of the negated scores)."""
    return (False, score) if score == score else (True, 0.0)


@dataclass(slots=True)
class _Item:
    id: str
    vector: Sparse
    finite: bool
    meta: Mapping[str, str]


class Store:
    """Vectors under string ids with string metadata, ranked by inner product as ``store.Mem`` ranks."""

    def __init__(self) -> None:
        self._dim = 0
        self._items: list[_Item] = []
        self._at: dict[str, int] = {}
        self._fresh = False  # derived indexes below are valid
        self._cols: dict[str | None, dict[int, tuple[list[int], list[float]]]] = {}  # by space
        self._by_id: list[int] = []
        self._finite = True
        self._spaces: dict[str, list[int]] = {}

    def put(self, id: str, vector: Sparse | Sequence[float], meta: Mapping[str, str] | None = None) -> None:
        """File a vector (converted to float32) and a copy of its metadata under ``id``.

        Replaces a known id in place.  Raises ``StoreError`` for an empty id,
        an empty vector, or a length other than the store's dimension.
        """
        if id == "":
            raise StoreError("store: empty id")
        v = _sparse(vector)
        if v.size == 0:
            raise StoreError("store: vector dimension")
        if self._dim == 0:
            self._dim = v.size
        if v.size != self._dim:
            raise StoreError("store: vector dimension")
        item = _Item(
            id=id,
            vector=v,
            finite=all(map(math.isfinite, v.values)),
            meta=MappingProxyType(dict(meta)) if meta else _EMPTY,
        )
        at = self._at.get(id)
        if at is None:
            self._at[id] = len(self._items)
            self._items.append(item)
        else:
            self._items[at] = item
        self._fresh = False

    def __len__(self) -> int:
        return len(self._items)

    def near(self, vector: Sparse | Sequence[float], k: int = 0) -> list[Match]:
        """The ``k`` nearest items, nearest first (Go ``Mem.Near``: an unfiltered search)."""
        return self.search(vector, k)

    def search(self, vector: Sparse | Sequence[float], k: int = 0, *, space: str | None = None) -> list[Match]:
        """Go ``Mem.Search`` with ``Filter{}.Eq(Space, space)`` when ``space`` is given.

        The admitted items are scored and sorted by score descending, id
        ascending, and cut to ``k`` when ``k > 0``.  Raises ``StoreError`` when
        the vector's length differs from a non-empty store's dimension.
        """
        q = _sparse(vector)
        if self._dim != 0 and q.size != self._dim:
            raise StoreError("store: vector dimension")
        if not self._items:
            return []
        self._index()
        admitted = self._by_id if space is None else self._spaces.get(space)  # in id order
        if admitted is None:
            return []
        items = self._items
        key: Callable[[int], float | tuple[bool, float]]
        if self._finite and all(map(math.isfinite, q.values)):
            scores = self._dot(q, space)
            key = scores.__getitem__
        else:
            qs = q.dense()
            scores = [0.0] * len(items)
            for i in admitted:
                scores[i] = dot(qs, items[i].vector.dense())
            key = lambda i: _descending(scores[i])  # noqa: E731
        # a stable sort, descending, of items in id order: ties stay in id order
        top = nlargest(k, admitted, key=key) if k > 0 else sorted(admitted, key=key, reverse=True)
        return [Match(items[i].id, scores[i], items[i].meta) for i in top]

    # -- internals ----------------------------------------------------------

    def _index(self) -> None:
        """Rebuild the id order and the space index after writes (the columns are made as searches need them)."""
        if self._fresh:
            return
        items = self._items
        self._by_id = sorted(range(len(items)), key=lambda i: _byte_key(items[i].id))
        self._finite = all(it.finite for it in items)
        spaces: dict[str, list[int]] = {}
        for i in self._by_id:
            space = items[i].meta.get(SPACE)
            if space is not None:
                spaces.setdefault(space, []).append(i)
        self._spaces = spaces
        self._cols = {}
        self._fresh = True

    def _columns(self, space: str | None) -> dict[int, tuple[list[int], list[float]]]:
        """The admitted items column by column: for dimension j, the positions of the items holding it and their
        values (made at the first search of the space, so a filtered search adds up its own items only)."""
        cols = self._cols.get(space)
        if cols is None:
            cols = self._cols[space] = {}
            items = self._items
            for i in self._by_id if space is None else self._spaces[space]:
                vector = items[i].vector
                for j, x in zip(vector.dims, vector.values):
                    col = cols.get(j)
                    if col is None:
                        cols[j] = ([i], [x])
                    else:
                        col[0].append(i)
                        col[1].append(x)
        return cols

    def _dot(self, q: Sparse, space: str | None) -> list[float]:
        """Inner product of the query with every admitted item, by position (the others score +0.0), each summed
        in ascending dimension order.

        The query's columns are taken in ascending dimension order and each product is added to its item's
        running sum as it comes: the sums start from +0.0 and run in the reference order (the products are
        exact, so forming each before its addition changes nothing).
        """
        sums = [0.0] * len(self._items)
        cols = self._columns(space)
        for j, x in zip(q.dims, q.values):
            col = cols.get(j)
            if col is not None:
                for i, v in zip(*col):
                    sums[i] += v * x
        return sums
