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
Search therefore keeps the items column by column (sparse), lays the columns
of the query's non-zero dimensions end to end in ascending dimension order,
and sums the products per item with ``numpy.bincount``, whose weighted loop
adds its inputs one at a time in input order: every item's sum is formed in
exactly the reference order (the property tests compare bit patterns with a
dense sequential loop).  The argument needs finite values (``0 * inf`` is
NaN), so a store or query holding a non-finite component falls back to
``dot``, the literal dense loop.

A vector is given dense (any sequence, converted to float32) or as a
:class:`Sparse` float32 vector, which is what ``terms.Vocabulary.weigh`` makes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import chain
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ..data.records import record
from .sparse import Sparse

SPACE = "space"
"""The metadata key a namespace is filed under (Go ``store.Space``)."""

_EMPTY: Mapping[str, str] = MappingProxyType({})


class StoreError(ValueError):
    """A put or search the reference store refuses (``ErrID``, ``ErrDim``)."""


def _sparse(vector: Sparse | Sequence[float] | np.ndarray) -> Sparse:
    """A vector by its non-zero components; a dense vector is converted to float32 first."""
    if isinstance(vector, Sparse):
        return vector
    v = np.asarray(vector, dtype=np.float32)
    if v.ndim != 1:
        raise StoreError("store: vector dimension")
    dims = (v != 0).nonzero()[0]  # NaN counts as non-zero; -0.0 does not
    return Sparse(v.size, tuple(dims.tolist()), tuple(v[dims].astype(np.float64).tolist()))


@record
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
        self._cols: list[tuple[np.ndarray, np.ndarray] | None] = []
        self._rank = np.empty(0, np.int64)
        self._finite = True
        self._spaces: dict[str, np.ndarray] = {}

    def put(self, id: str, vector: Sparse | Sequence[float] | np.ndarray, meta: Mapping[str, str] | None = None) -> None:
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

    def near(self, vector: Sparse | Sequence[float] | np.ndarray, k: int = 0) -> list[Match]:
        """The ``k`` nearest items, nearest first (Go ``Mem.Near``: an unfiltered search)."""
        return self.search(vector, k)

    def search(self, vector: Sparse | Sequence[float] | np.ndarray, k: int = 0, *, space: str | None = None) -> list[Match]:
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
        if space is None:
            admitted = np.arange(len(self._items), dtype=np.int64)
        else:
            found = self._spaces.get(space)
            if found is None:
                return []
            admitted = found
        scores = self._score(q, admitted)
        order = self._top(scores, self._rank[admitted], k)
        items = self._items
        return [Match(items[i].id, s, items[i].meta)
                for i, s in zip(admitted[order].tolist(), scores[order].tolist())]

    # -- internals ----------------------------------------------------------

    @staticmethod
    def _top(scores: np.ndarray, rank: np.ndarray, k: int) -> np.ndarray:
        """Indices of the first ``k`` (all if ``k <= 0``) by score descending, then id rank ascending.

        When at least ``k`` scores are positive the answer lies among them,
        so only those are sorted, and of them only those at or above the
        ``k``-th largest (ties included).
        """
        if k > 0:
            pos = (scores > 0).nonzero()[0]
            if pos.size > k:
                top = scores[pos]
                pos = pos[top >= np.partition(top, top.size - k)[top.size - k]]
            if pos.size >= k:
                order = pos[np.lexsort((rank[pos], -scores[pos]))]
                return order[:k]
        order = np.lexsort((rank, -scores))
        return order[:k] if 0 < k < order.size else order

    def _index(self) -> None:
        """Rebuild the column layout, id ranks and space index after writes."""
        if self._fresh:
            return
        items = self._items
        n = len(items)
        counts = np.fromiter((len(it.vector.dims) for it in items), dtype=np.int64, count=n)
        size = int(counts.sum())
        dims = np.fromiter(chain.from_iterable(it.vector.dims for it in items), dtype=np.int64, count=size)
        vals = np.fromiter(chain.from_iterable(it.vector.values for it in items), dtype=np.float64, count=size)
        rows = np.repeat(np.arange(n, dtype=np.int64), counts)
        order = np.argsort(dims, kind="stable")
        rows, vals = rows[order], vals[order]
        start = np.zeros(self._dim + 1, np.int64)
        np.cumsum(np.bincount(dims, minlength=self._dim), out=start[1:])
        bounds = start.tolist()
        # column j: the items holding dimension j (ascending position) and their values
        self._cols = [(rows[lo:hi], vals[lo:hi]) if lo < hi else None for lo, hi in zip(bounds, bounds[1:])]
        by_id = sorted(range(n), key=lambda i: _byte_key(items[i].id))
        self._rank = np.empty(n, np.int64)
        self._rank[by_id] = np.arange(n, dtype=np.int64)
        self._finite = all(it.finite for it in items)
        groups: dict[str, list[int]] = {}
        for i, it in enumerate(items):
            if SPACE in it.meta:
                groups.setdefault(it.meta[SPACE], []).append(i)
        self._spaces = {v: np.array(g, dtype=np.int64) for v, g in groups.items()}
        self._fresh = True

    def _score(self, q: Sparse, admitted: np.ndarray) -> np.ndarray:
        if not (self._finite and all(map(math.isfinite, q.values))):
            qs = q.dense()
            return np.array([dot(qs, self._items[i].vector.dense()) for i in admitted.tolist()], dtype=np.float64)
        return self._dot(q)[admitted]

    def _dot(self, q: Sparse) -> np.ndarray:
        """Inner product of the query with every item, each summed in ascending dimension order.

        The query's columns are laid end to end in ascending dimension order
        and summed per item by ``bincount``, whose weighted loop adds its
        inputs one after another in input order, starting from +0.0.  The
        products are exact, so forming them before the sum changes nothing.
        """
        cols = self._cols
        rows, vals, reps = [], [], []
        for j, x in zip(q.dims, q.values):
            col = cols[j]
            if col is not None:
                rows.append(col[0])
                vals.append(col[1])
                reps.append(x)
        n = len(self._items)
        if not rows:
            return np.zeros(n, dtype=np.float64)
        if len(rows) == 1:
            return np.bincount(rows[0], weights=vals[0] * reps[0], minlength=n)
        lengths = [r.size for r in rows]
        weights = np.concatenate(vals) * np.repeat(np.array(reps, dtype=np.float64), lengths)
        return np.bincount(np.concatenate(rows), weights=weights, minlength=n)
