"""Knowledge graph folded from triples, after hanzoai/semantic ``kg`` (kg.go at 0c787e9f).

Nodes are keyed by ``fold(name)``; edges by ``(fold(s), fold(p), fold(o))``, so a
repeated assertion raises the edge's count, keeps its best score and adds its
document instead of making a second edge.  Predicates in the type list set the
subject's type and make no edge.  Every listing is in first-asserted order.

``Triple`` is the input record of this module and of ``reason`` (Go
``semantic.Triple`` flattened: ``doc`` and ``index`` are ``From.DocID`` and
``From.Index``).

Whitespace and case follow Go, not Python: ``strings.Fields`` and
``strings.TrimSpace`` split on ``unicode.IsSpace``, which unlike ``str.isspace``
excludes U+001C..U+001F; ``strings.ToLower`` maps each rune by its simple case
mapping (U+0130 becomes ``i``; no final-sigma rule).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

# ---------------------------------------------------------------------------
# Go string helpers

_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000"
_GO_SPACE_RUN = re.compile("[" + re.escape(_GO_SPACE) + "]+")
_PY_ONLY_SPACE = re.compile("[\x1c-\x1f]")  # str.isspace() but not unicode.IsSpace


def trim_space(s: str) -> str:
    """Go ``strings.TrimSpace``: strip ``unicode.IsSpace`` characters at both ends."""
    return s.strip(_GO_SPACE)


def fields(s: str) -> list[str]:
    """Go ``strings.Fields``: the non-empty runs between ``unicode.IsSpace`` characters."""
    if _PY_ONLY_SPACE.search(s) is None:
        return s.split()  # str.split's whitespace is Go's plus U+001C..U+001F
    return [f for f in _GO_SPACE_RUN.split(s) if f]


def to_lower(s: str) -> str:
    """Go ``strings.ToLower``: per-rune simple lowercase mapping."""
    if s.isascii():
        return s.lower()
    return "".join("i" if ch == "\u0130" else ch.lower() for ch in s)


@lru_cache(maxsize=1 << 17)
def fold(name: str) -> str:
    """Canonical form of a name and the id of its node (Go ``kg.Fold``): fields joined by one space, lowercased."""
    return to_lower(" ".join(fields(name)))


# ---------------------------------------------------------------------------
# FNV-1a 64 and the assertion id

_FNV64_OFFSET = 0xCBF29CE484222325
_FNV64_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1


def fnv1a64(data: bytes) -> int:
    """64-bit FNV-1a of a byte string (Go ``hash/fnv.New64a``)."""
    h = _FNV64_OFFSET
    for b in data:
        h = ((h ^ b) * _FNV64_PRIME) & _MASK64
    return h


@lru_cache(maxsize=1 << 16)
def edge_hash(subject: str, predicate: str, object: str) -> str:
    """Go ``kg.Hash``: FNV-1a 64 over ``fold(s) NUL fold(p) NUL fold(o) NUL``, as 16 hex digits."""
    data = b"".join(fold(part).encode("utf-8", "surrogatepass") + b"\0" for part in (subject, predicate, object))
    return f"{fnv1a64(data):016x}"


# ---------------------------------------------------------------------------
# Records

TYPES: tuple[str, ...] = ("type", "is_a", "isa", "instance_of", "rdf:type")
"""Predicates that state a node's type when ``build`` is given none (Go ``kg.Types``)."""


@dataclass(frozen=True, slots=True)
class Triple:
    """A claim: subject, predicate, object, the document and position it came from, and its confidence."""

    subject: str
    predicate: str
    object: str
    doc: str = ""
    index: int = 0
    score: float = 0.0


@dataclass(frozen=True)
class Node:
    """A node: folded id, surface name as first asserted (trimmed), type, best score, documents first seen first."""

    id: str
    name: str
    type: str
    score: float
    docs: tuple[str, ...]


@dataclass(frozen=True)
class Edge:
    """An assertion between two node ids, with its label as first asserted (trimmed), best score, count, documents."""

    source: str
    target: str
    label: str
    score: float
    count: int
    docs: tuple[str, ...]

    @cached_property
    def id(self) -> str:
        """Stable assertion id (Go ``Edge.ID``): ``edge_hash(source, label, target)``."""
        return edge_hash(self.source, self.label, self.target)


@dataclass(frozen=True, slots=True)
class Step:
    """An edge reached by ``Graph.walk`` and the hop (1-based) at which it was first reached."""

    edge: Edge
    hop: int


_Key = tuple[str, str, str]  # (source, folded label, target)


class _Docs:
    """A list that stays a set with an order; empty strings are not added (Go ``keep``)."""

    __slots__ = ("order", "seen")

    def __init__(self) -> None:
        self.order: list[str] = []
        self.seen: set[str] = set()

    def keep(self, doc: str) -> bool:
        if doc == "" or doc in self.seen:
            return False
        self.seen.add(doc)
        self.order.append(doc)
        return True


@dataclass(slots=True)
class _NodeRec:
    id: str
    name: str
    type: str = ""
    score: float = 0.0
    docs: _Docs = field(default_factory=_Docs)
    snap: Node | None = None

    def view(self) -> Node:
        if self.snap is None:
            self.snap = Node(self.id, self.name, self.type, self.score, tuple(self.docs.order))
        return self.snap


@dataclass(slots=True)
class _EdgeRec:
    source: str
    target: str
    label: str
    score: float = 0.0
    count: int = 0
    docs: _Docs = field(default_factory=_Docs)
    snap: Edge | None = None

    def view(self) -> Edge:
        if self.snap is None:
            self.snap = Edge(self.source, self.target, self.label, self.score, self.count, tuple(self.docs.order))
        return self.snap


# ---------------------------------------------------------------------------


class Graph:
    """Nodes and edges in first-asserted order.  Returned ``Node``/``Edge`` values are immutable snapshots."""

    def __init__(self, types: Iterable[str] = ()):
        types = tuple(types) or TYPES
        self._types = frozenset(fold(t) for t in types)
        self._node: dict[str, _NodeRec] = {}
        self._edge: dict[_Key, _EdgeRec] = {}
        self._out: dict[str, list[_Key]] = {}
        self._in: dict[str, list[_Key]] = {}
        self._views: dict[tuple[str, str], tuple[Edge, ...]] = {}

    def add(self, t: Triple) -> bool:
        """Fold in one triple (Go ``Graph.Add``); False when its subject, predicate or object is blank.

        A zero score counts as 1.  A type predicate sets the subject's type if
        it has none (the object, trimmed) and touches no object node.
        """
        s, o = fold(t.subject), fold(t.object)
        if s == "" or o == "" or trim_space(t.predicate) == "":
            return False
        if self._views:
            self._views.clear()
        score = t.score if t.score != 0 else 1.0
        n = self._touch(s, t.subject, score, t.doc)
        if fold(t.predicate) in self._types:
            if n.type == "":
                n.type = trim_space(t.object)
                n.snap = None
            return True
        self._touch(o, t.object, score, t.doc)
        self._link(s, t.predicate, o, score, t.doc)
        return True

    def _touch(self, id: str, name: str, score: float, doc: str) -> _NodeRec:
        n = self._node.get(id)
        if n is None:
            n = self._node[id] = _NodeRec(id, trim_space(name))
        if score > n.score:
            n.score = score
            n.snap = None
        if n.docs.keep(doc):
            n.snap = None
        return n

    def _link(self, source: str, label: str, target: str, score: float, doc: str) -> None:
        k = (source, fold(label), target)
        e = self._edge.get(k)
        if e is None:
            e = self._edge[k] = _EdgeRec(source, target, trim_space(label))
            self._out.setdefault(source, []).append(k)
            self._in.setdefault(target, []).append(k)
        e.count += 1
        if score > e.score:
            e.score = score
        e.docs.keep(doc)
        e.snap = None

    # -- queries ------------------------------------------------------------

    def node(self, name: str) -> Node | None:
        """The node ``fold(name)`` names, or None (Go ``Graph.Node``)."""
        n = self._node.get(fold(name))
        return None if n is None else n.view()

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and fold(name) in self._node

    def nodes(self) -> list[Node]:
        """Every node, first asserted first."""
        return [n.view() for n in self._node.values()]

    def edges(self) -> list[Edge]:
        """Every edge, first asserted first."""
        return [e.view() for e in self._edge.values()]

    def size(self) -> tuple[int, int]:
        """(node count, edge count) (Go ``Graph.Size``)."""
        return len(self._node), len(self._edge)

    @property
    def node_count(self) -> int:
        return len(self._node)

    @property
    def edge_count(self) -> int:
        return len(self._edge)

    def out_edges(self, name: str) -> tuple[Edge, ...]:
        """Edges out of the node, first asserted first (Go ``Graph.From``)."""
        return self._adjacent("out", name)

    def in_edges(self, name: str) -> tuple[Edge, ...]:
        """Edges into the node, first asserted first (Go ``Graph.To``)."""
        return self._adjacent("in", name)

    def _adjacent(self, way: str, name: str) -> tuple[Edge, ...]:
        id = fold(name)
        got = self._views.get((way, id))
        if got is None:
            keys = (self._out if way == "out" else self._in).get(id, ())
            got = self._views[(way, id)] = tuple(self._edge[k].view() for k in keys)
        return got

    def walk(self, name: str, hops: int) -> list[Step]:
        """Edges within ``hops`` of a node, ignoring direction, each once at its first hop (Go ``Graph.Walk``).

        Hop by hop, for each frontier node in the order it was reached: its
        out-edges then its in-edges, in assertion order; the far end of each
        edge joins the next frontier if not yet reached.  An unknown node or
        ``hops < 1`` gives nothing.
        """
        start = fold(name)
        if start not in self._node or hops < 1:
            return []
        out: list[Step] = []
        seen: set[_Key] = set()
        reached = {start}
        front = [start]
        hop = 1
        while hop <= hops and front:
            nxt: list[str] = []
            for n in front:
                for ks, far_at in ((self._out.get(n, ()), 2), (self._in.get(n, ()), 0)):
                    for k in ks:
                        if k not in seen:
                            seen.add(k)
                            out.append(Step(self._edge[k].view(), hop))
                        far = k[far_at]
                        if far not in reached:
                            reached.add(far)
                            nxt.append(far)
            hop, front = hop + 1, nxt
        return out


def build(triples: Iterable[Triple], types: Sequence[str] = ()) -> Graph:
    """Fold triples into a graph (Go ``kg.Build``); ``types`` defaults to ``TYPES``; ``build([])`` is the empty graph."""
    g = Graph(types)
    for t in triples:
        g.add(t)
    return g
