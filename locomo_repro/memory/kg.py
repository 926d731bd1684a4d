"""Knowledge graph folded from triples, after hanzoai/semantic ``kg`` (kg.go at 0c787e9f).

Nodes are keyed by ``fold(name)``; edges by ``(fold(s), fold(p), fold(o))``, so a
repeated assertion raises the edge's count, keeps its best score and adds its
document instead of making a second edge.  Predicates in the type list set the
subject's type and make no edge.  Every listing is in first-asserted order.

``Triple`` is the input record of this module and of ``reason`` (Go
``semantic.Triple`` flattened: ``doc`` and ``index`` are ``From.DocID`` and
``From.Index``); both read only what ``Asserted`` names, so the dialogue
reader's claims are filed as they are.

Whitespace and case follow Go, not Python (``gostrings``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol
from functools import cached_property, lru_cache

from ..data.records import record
from ..go.strings import fields, to_lower, trim_space

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


class Asserted(Protocol):
    """What the graph and the rule engine read of a claim: a ``Triple`` is one, and so is ``talk.Claim``."""

    @property
    def subject(self) -> str: ...

    @property
    def predicate(self) -> str: ...

    @property
    def object(self) -> str: ...

    @property
    def doc(self) -> str: ...

    @property
    def score(self) -> float: ...


@record
class Triple:
    """A claim: subject, predicate, object, the document and position it came from, and its confidence."""

    subject: str
    predicate: str
    object: str
    doc: str = ""
    index: int = 0
    score: float = 0.0


@record
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


@record
class Step:
    """An edge reached by ``Graph.walk`` and the hop (1-based) at which it was first reached."""

    edge: Edge
    hop: int


_Key = tuple[str, str, str]  # (source, folded label, target)


class _NodeRec:
    """A node under construction; ``view`` caches an immutable snapshot until the next change."""

    __slots__ = ("id", "name", "type", "score", "docs", "seen", "snap")

    def __init__(self, id: str, name: str):
        self.id, self.name, self.type, self.score = id, name, "", 0.0
        self.docs: list[str] = []  # first seen first; Go's keep: no empties, no repeats
        self.seen: set[str] = set()
        self.snap: Node | None = None

    def view(self) -> Node:
        if self.snap is None:
            self.snap = Node(self.id, self.name, self.type, self.score, tuple(self.docs))
        return self.snap


class _EdgeRec:
    """An edge under construction; ``view`` caches an immutable snapshot until the next change."""

    __slots__ = ("source", "target", "label", "score", "count", "docs", "seen", "snap")

    def __init__(self, source: str, target: str, label: str):
        self.source, self.target, self.label, self.score, self.count = source, target, label, 0.0, 0
        self.docs: list[str] = []
        self.seen: set[str] = set()
        self.snap: Edge | None = None

    def view(self) -> Edge:
        if self.snap is None:
            self.snap = Edge(self.source, self.target, self.label, self.score, self.count, tuple(self.docs))
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

    def add(self, t: Asserted) -> bool:
        """Fold in one triple (Go ``Graph.Add``); False when its subject, predicate or object is blank.

        A zero score counts as 1.  A type predicate sets the subject's type if
        it has none (the object, trimmed) and touches no object node.
        """
        s, label, o = fold(t.subject), fold(t.predicate), fold(t.object)
        if s == "" or o == "" or label == "":  # a blank predicate is one whose fold is empty
            return False
        if self._views:
            self._views.clear()
        score = t.score if t.score != 0 else 1.0
        doc = t.doc
        n = self._touch(s, t.subject, score, doc)
        if label in self._types:
            if n.type == "":
                n.type = trim_space(t.object)
                n.snap = None
            return True
        self._touch(o, t.object, score, doc)
        k = (s, label, o)
        e = self._edge.get(k)
        if e is None:
            e = self._edge[k] = _EdgeRec(s, o, trim_space(t.predicate))
            self._out.setdefault(s, []).append(k)
            self._in.setdefault(o, []).append(k)
        e.count += 1
        if score > e.score:
            e.score = score
        if doc and doc not in e.seen:
            e.seen.add(doc)
            e.docs.append(doc)
        e.snap = None
        return True

    def _touch(self, id: str, name: str, score: float, doc: str) -> _NodeRec:
        n = self._node.get(id)
        if n is None:
            n = self._node[id] = _NodeRec(id, trim_space(name))
        if score > n.score:
            n.score = score
            n.snap = None
        if doc and doc not in n.seen:
            n.seen.add(doc)
            n.docs.append(doc)
            n.snap = None
        return n

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


def size(triples: Iterable[Asserted], types: Sequence[str] = ()) -> tuple[int, int]:
    """``build(triples, types).size()`` without building the graph: the distinct node ids and edge keys that
    ``Graph.add`` would file (an arm set that never walks the graph only counts it)."""
    typed = frozenset(fold(t) for t in (tuple(types) or TYPES))
    nodes: set[str] = set()
    edges: set[_Key] = set()
    for t in triples:
        s, label, o = fold(t.subject), fold(t.predicate), fold(t.object)
        if s == "" or o == "" or label == "":
            continue
        nodes.add(s)
        if label not in typed:
            nodes.add(o)
            edges.add((s, label, o))
    return len(nodes), len(edges)


def build(triples: Iterable[Asserted], types: Sequence[str] = ()) -> Graph:
    """Fold triples into a graph (Go ``kg.Build``); ``types`` defaults to ``TYPES``; ``build([])`` is the empty graph."""
    g = Graph(types)
    for t in triples:
        g.add(t)
    return g
