"""In-memory vector store with the ranking of hanzoai/semantic ``store.Mem``.

Reference: ``store/mem.go`` and ``store/math.go`` at b220af68, ``store/filter.go``
and ``store/rank.go`` at 1cd0cd76.  What is reproduced:

* ``put`` replaces the vector of a known id in place (its insertion position
  is kept); the first vector fixes the dimension; an empty id, an empty vector
  or a vector of another length is refused.
* ``search`` admits the items whose metadata satisfies every equality
  condition (a missing field fails), scores each admitted item, then orders
  by score descending with ties broken by id ascending (Go byte order of the
  UTF-8 string) and keeps ``k`` (``k <= 0`` keeps all).  With no query vector
  it returns the admitted items in insertion order with score 0.
* Scores are the float64 values of ``math.go``: ``inner`` is
  ``sum(float64(a_i) * float64(b_i))`` accumulated in index order, ``cosine``
  (Go's default) divides that by the product of the two norms (0 when either
  norm is 0), ``euclid`` is the negated distance.

Exactness.  A product of two float32 values is exact in float64 (24 + 24
significand bits < 53, and the exponent range cannot under- or overflow), so
only the additions round, and only their order matters (this also makes a
fused multiply-add in the Go build irrelevant for ``inner``/``cosine``).  A
product with a zero factor is +-0.0, and adding +-0.0 to a non-zero sum leaves
it unchanged; the running sum starts at +0.0 and can never become -0.0 (a sum
of non-zero terms that cancels is +0.0 under round-to-nearest), so adding a
signed zero to a zero sum leaves +0.0 too.  Hence the sequential dense sum
equals the sequential sum over the dimensions where *both* vectors are
non-zero, in ascending order.  Search therefore keeps the items column by
column (sparse), lays the columns of the query's non-zero dimensions end to
end in ascending dimension order, and sums the products per item with
``numpy.bincount``, whose weighted loop adds its inputs one at a time in input
order: every item's sum is formed in exactly the reference order (the
property tests compare bit patterns with a dense sequential loop).  The
argument needs finite values (``0 * inf`` is NaN), so a store or query holding
a non-finite component falls back to the literal dense loop.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

INNER = "inner"
COSINE = "cosine"
EUCLID = "euclid"
METRICS = (INNER, COSINE, EUCLID)

SPACE = "space"
"""The metadata key a namespace is filed under (Go ``store.Space``)."""

_EMPTY: Mapping[str, str] = MappingProxyType({})


class StoreError(ValueError):
    """A put or search the reference store refuses (``ErrID``, ``ErrDim``)."""


@dataclass(frozen=True, slots=True)
class Match:
    """One search result: the id, its float64 score and a read-only view of its metadata."""

    id: str
    score: float
    meta: Mapping[str, str]


# ---------------------------------------------------------------------------
# Literal ports of math.go: dense, sequential float64 loops.  They are the
# slow path for non-finite data and the definition the fast path must equal.


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """Inner product accumulated in index order (Go ``store.Dot``)."""
    s = 0.0
    for x, y in zip(a, b):
        s += float(x) * float(y)
    return s


def norm(v: Sequence[float]) -> float:
    """Euclidean length, squares accumulated in index order (Go ``store.Norm``)."""
    s = 0.0
    for x in v:
        s += float(x) * float(x)
    return math.sqrt(s)


def cos(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine, 0 when either vector is zero (Go ``store.Cos``)."""
    na, nb = norm(a), norm(b)
    if na == 0 or nb == 0:
        return 0.0
    return dot(a, b) / (na * nb)


def dist(a: Sequence[float], b: Sequence[float]) -> float:
    """Euclidean distance of equal-length vectors, in index order (Go ``store.Dist``)."""
    s = 0.0
    for x, y in zip(a, b):
        d = float(x) - float(y)
        s += d * d
    return math.sqrt(s)


def score(metric: str, a: Sequence[float], b: Sequence[float]) -> float:
    """Go ``Metric.Score``: larger is nearer; an unknown metric scores as cosine."""
    if metric == INNER:
        return dot(a, b)
    if metric == EUCLID:
        return -dist(a, b)
    return cos(a, b)


# ---------------------------------------------------------------------------


def _byte_key(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")


@dataclass(slots=True)
class _Item:
    id: str
    dims: np.ndarray  # int64, ascending: the non-zero components
    vals: np.ndarray  # float64 of the float32 components at dims
    norm: float
    finite: bool
    meta: Mapping[str, str]


class Store:
    """Vectors under string ids with string metadata, ranked as ``store.Mem`` ranks.

    ``metric`` defaults to cosine, the zero value of the reference store; the
    benchmark's memories all call ``Rank(Inner)``, i.e. ``Store(INNER)``.
    """

    def __init__(self, metric: str = COSINE):
        self.metric = metric
        self._dim = 0
        self._items: list[_Item] = []
        self._at: dict[str, int] = {}
        self._fresh = False  # derived indexes below are valid
        self._cols: list[tuple[np.ndarray, np.ndarray] | None] = []
        self._norms = np.empty(0, np.float64)
        self._rank = np.empty(0, np.int64)
        self._finite = True
        self._by: dict[str, dict[str, np.ndarray]] = {}

    # -- writing ------------------------------------------------------------

    def rank(self, metric: str) -> None:
        """Set how nearness is measured (Go ``Mem.Rank``)."""
        self.metric = metric

    def put(self, id: str, vector: Sequence[float] | np.ndarray, meta: Mapping[str, str] | None = None) -> None:
        """File a vector (converted to float32) and a copy of its metadata under ``id``.

        Replaces a known id in place.  Raises ``StoreError`` for an empty id,
        an empty vector, or a length other than the store's dimension.
        """
        if id == "":
            raise StoreError("store: empty id")
        v = np.asarray(vector, dtype=np.float32)
        if v.ndim != 1 or v.size == 0:
            raise StoreError("store: vector dimension")
        if self._dim == 0:
            self._dim = v.size
        if v.size != self._dim:
            raise StoreError("store: vector dimension")
        dims = (v != 0).nonzero()[0]  # NaN counts as non-zero; -0.0 does not
        vals = v[dims].astype(np.float64)
        xs = vals.tolist()
        s = 0.0
        for x in xs:
            s += x * x
        item = _Item(
            id=id,
            dims=dims,
            vals=vals,
            norm=math.sqrt(s),
            finite=all(map(math.isfinite, xs)),
            meta=MappingProxyType(dict(meta)) if meta else _EMPTY,
        )
        at = self._at.get(id)
        if at is None:
            self._at[id] = len(self._items)
            self._items.append(item)
        else:
            self._items[at] = item
        self._fresh = False

    # -- reading ------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, id: object) -> bool:
        return id in self._at

    @property
    def dim(self) -> int:
        """The dimension fixed by the first vector (0 while empty)."""
        return self._dim

    def ids(self) -> list[str]:
        """Every id in insertion order."""
        return [it.id for it in self._items]

    def get(self, id: str) -> tuple[np.ndarray, Mapping[str, str]] | None:
        """The stored float32 vector (a fresh array) and metadata, or None."""
        at = self._at.get(id)
        if at is None:
            return None
        it = self._items[at]
        return self._dense(it), it.meta

    def near(self, vector: Sequence[float] | np.ndarray, k: int = 0) -> list[Match]:
        """The ``k`` nearest items, nearest first (Go ``Mem.Near``: an unfiltered search)."""
        return self.search(vector, k)

    def search(
        self,
        vector: Sequence[float] | np.ndarray | None,
        k: int = 0,
        *,
        space: str | None = None,
        where: Mapping[str, str] | None = None,
    ) -> list[Match]:
        """Go ``Mem.Search`` with an equality filter.

        ``space`` is shorthand for ``where={SPACE: space}``; all conditions must
        hold.  ``vector=None`` lists the admitted items in insertion order with
        score 0 (first ``k`` if ``k > 0``).  Otherwise the admitted items are
        scored and sorted by score descending, id ascending, and cut to ``k``
        when ``k > 0``.  Raises ``StoreError`` when the vector's length differs
        from a non-empty store's dimension.
        """
        conds = dict(where or {})
        if space is not None:
            conds[SPACE] = space
        q = None
        if vector is not None:
            q = np.asarray(vector, dtype=np.float32)
            if q.ndim != 1 or (self._dim != 0 and q.size != self._dim):
                raise StoreError("store: vector dimension")
        if not self._items:
            return []
        self._index()
        admitted = self._admit(conds)
        if q is None:
            if k > 0:
                admitted = admitted[:k]
            return [Match(self._items[i].id, 0.0, self._items[i].meta) for i in admitted.tolist()]
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
        so only those are sorted.
        """
        if k > 0:
            pos = (scores > 0).nonzero()[0]
            if pos.size >= k:
                order = pos[np.lexsort((rank[pos], -scores[pos]))]
                return order[:k]
        order = np.lexsort((rank, -scores))
        return order[:k] if 0 < k < order.size else order

    def _dense(self, it: _Item) -> np.ndarray:
        v = np.zeros(self._dim, dtype=np.float32)
        v[it.dims] = it.vals.astype(np.float32)
        return v

    def _index(self) -> None:
        """Rebuild the column layout, norms, id ranks and metadata indexes after writes."""
        if self._fresh:
            return
        items = self._items
        n = len(items)
        counts = np.fromiter((it.dims.size for it in items), dtype=np.int64, count=n)
        dims = np.concatenate([it.dims for it in items]) if n else np.empty(0, np.int64)
        vals = np.concatenate([it.vals for it in items]) if n else np.empty(0, np.float64)
        rows = np.repeat(np.arange(n, dtype=np.int64), counts)
        order = np.argsort(dims, kind="stable")
        rows, vals = rows[order], vals[order]
        start = np.zeros(self._dim + 1, np.int64)
        np.cumsum(np.bincount(dims, minlength=self._dim), out=start[1:])
        bounds = start.tolist()
        # column j: the items holding dimension j (ascending position) and their values
        self._cols = [(rows[lo:hi], vals[lo:hi]) if lo < hi else None for lo, hi in zip(bounds, bounds[1:])]
        self._norms = np.fromiter((it.norm for it in items), dtype=np.float64, count=n)
        by_id = sorted(range(n), key=lambda i: _byte_key(items[i].id))
        self._rank = np.empty(n, np.int64)
        self._rank[by_id] = np.arange(n, dtype=np.int64)
        self._finite = all(it.finite for it in items)
        self._by = {}
        self._fresh = True

    def _admit(self, conds: Mapping[str, str]) -> np.ndarray:
        """Positions (insertion order) of the items whose metadata has every field equal."""
        admitted: np.ndarray | None = None
        for field, value in conds.items():
            index = self._by.get(field)
            if index is None:
                groups: dict[str, list[int]] = {}
                for i, it in enumerate(self._items):
                    if field in it.meta:
                        groups.setdefault(it.meta[field], []).append(i)
                index = {v: np.array(g, dtype=np.int64) for v, g in groups.items()}
                self._by[field] = index
            hit = index.get(value)
            if hit is None:
                return np.empty(0, np.int64)
            admitted = hit if admitted is None else np.intersect1d(admitted, hit, assume_unique=True)
        if admitted is None:
            return np.arange(len(self._items), dtype=np.int64)
        return admitted

    def _score(self, q: np.ndarray, admitted: np.ndarray) -> np.ndarray:
        metric = self.metric if self.metric in METRICS else COSINE
        qdims = (q != 0).nonzero()[0]
        qvals = q[qdims].astype(np.float64)
        if not (self._finite and all(map(math.isfinite, qvals.tolist()))):
            return self._score_dense(q, admitted, metric)
        if metric == EUCLID:
            return np.array([-self._dist(qdims, qvals, self._items[i]) for i in admitted.tolist()],
                            dtype=np.float64)
        acc = self._dot(qdims, qvals)[admitted]
        if metric == INNER:
            return acc
        s = 0.0
        for x in qvals.tolist():
            s += x * x
        qn = math.sqrt(s)
        norms = self._norms[admitted]
        out = np.zeros(admitted.size, dtype=np.float64)
        if qn != 0:
            ok = norms != 0
            out[ok] = acc[ok] / (qn * norms[ok])
        return out

    def _dot(self, qdims: np.ndarray, qvals: np.ndarray) -> np.ndarray:
        """Inner product of the query with every item, each summed in ascending dimension order.

        The query's columns are laid end to end in ascending dimension order
        and summed per item by ``bincount``, whose weighted loop adds its
        inputs one after another in input order, starting from +0.0.  The
        products are exact, so forming them before the sum changes nothing.
        """
        cols = self._cols
        rows, vals, reps = [], [], []
        for j, x in zip(qdims.tolist(), qvals.tolist()):
            col = cols[j]
            if col is not None:
                rows.append(col[0])
                vals.append(col[1])
                reps.append(x)
        n = len(self._items)
        if not rows:
            return np.zeros(n, dtype=np.float64)
        if len(rows) == 1:
            weights = vals[0] * reps[0]
            return np.bincount(rows[0], weights=weights, minlength=n)
        lengths = [r.size for r in rows]
        weights = np.concatenate(vals) * np.repeat(np.array(reps, dtype=np.float64), lengths)
        return np.bincount(np.concatenate(rows), weights=weights, minlength=n)

    @staticmethod
    def _dist(qdims: np.ndarray, qvals: np.ndarray, it: _Item) -> float:
        """Sequential squared differences over the union of non-zero dimensions, ascending."""
        a = dict(zip(qdims.tolist(), qvals.tolist()))
        b = dict(zip(it.dims.tolist(), it.vals.tolist()))
        s = 0.0
        for j in sorted(a.keys() | b.keys()):
            d = a.get(j, 0.0) - b.get(j, 0.0)
            s += d * d
        return math.sqrt(s)

    def _score_dense(self, q: np.ndarray, admitted: np.ndarray, metric: str) -> np.ndarray:
        qs = q.tolist()
        return np.array([score(metric, qs, self._dense(self._items[i]).tolist()) for i in admitted.tolist()],
                        dtype=np.float64)
