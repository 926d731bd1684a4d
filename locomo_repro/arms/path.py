"""The walk memory: one hop out of the nodes a question names, answered a relation at a time.

Matches ``Path`` of hanzoai/semantic bench/locomo (path.go).  Edges out of and
into every known name the question mentions are scored by
``cover(focus, edge terms) × cover(edge stems, focus terms)``; the best edge
brings its whole relation (same source node, same stemmed predicate) with it,
each value citing the first of its turns not already cited.

``Path(knowledge, hops, guided)`` also walks further, which the reference
measured and then removed (the README's "How far to walk"; no stored version of
path.go keeps that code, so this is a reconstruction).  Hop ``h + 1`` takes the
edges out of and into the nodes first reached at hop ``h`` (each edge once, as
``kg.Graph.walk`` counts hops), and every edge reached at any hop is scored and
grouped exactly as the one-hop edges are.  *Guided*: a node is walked through
only when the question mentions something of it, that is when a stem of the
node's name is among the question's focus stems (the stems the edges are
scored against: the question less stop words, question words and its subject).
*Unguided*: every node reached is walked through.  One hop is the same walk
either way, and ``hops=1`` is the reference arm unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..memory import kg
from ..arms.graph import Knowledge
from ..memory.cite import Cite
from ..go.strings import fields, to_lower
from ..memory.talk import mentions
from ..text.reduce import stem, stems, terms


@dataclass(frozen=True, slots=True)
class _Said:
    """An edge's wording (label then target), as stems in order and as a set."""

    list: tuple[str, ...]
    set: frozenset[str]


def relation(label: str) -> str:
    """The stemmed form of a predicate that tenses of one verb share ("not" stays a word)."""
    return " ".join(stem(w) for w in fields(kg.fold(label)))


class Path:
    """A conversation's graph, read by walking ``hops`` hops out of the question's names.

    Named ``path`` at one hop (the reference arm), ``path<h>`` guided and
    ``walk<h>`` unguided beyond it.
    """

    name = "path"

    def __init__(self, knowledge: Knowledge, hops: int = 1, guided: bool = True):
        if hops < 1:
            raise ValueError(f"a walk takes at least one hop, got {hops}")
        self.knowledge = knowledge
        self.hops = hops
        self.guided = guided
        if hops > 1:
            self.name = f"{'path' if guided else 'walk'}{hops}"
        self._said: dict[str, _Said] = {}
        self._by_stem: dict[str, tuple[tuple[kg.Edge, ...], dict[str, list[int]]]] = {}

    def _wording(self, edge: kg.Edge) -> _Said:
        said = self._said.get(edge.id)
        if said is None:
            words = stems(f"{edge.label} {edge.target}")
            said = self._said[edge.id] = _Said(words, frozenset(words))
        return said

    def starts(self, question: str) -> list[str]:
        """Node ids of every known name the question mentions, in name order, once each."""
        low = to_lower(question)
        out: list[str] = []
        for name in self.knowledge.people:
            node = kg.fold(name)
            if mentions(low, name) and self.knowledge.graph.node(node) is not None and node not in out:
                out.append(node)
        return out

    def walked(self, question: str, want: frozenset[str]) -> Iterator[str]:
        """The nodes whose edges the walk reaches, hop by hop, each once: the question's names, then
        the nodes first reached through them, and so on for ``hops`` hops.

        Each hop goes node by node in the order the nodes were reached, through
        the node's out-edges then its in-edges; the far end of an edge is walked
        through at the next hop if it was not reached before and, when guided,
        shares a stem with ``want`` (the question's focus).
        """
        graph = self.knowledge.graph
        front = self.starts(question)
        reached = set(front)
        for hop in range(1, self.hops + 1):
            ahead: list[str] = []
            for node in front:
                yield node
                if hop == self.hops:
                    continue
                for edge in (*graph.out_edges(node), *graph.in_edges(node)):
                    far = edge.target if edge.source == node else edge.source
                    if far not in reached:
                        reached.add(far)
                        if not self.guided or not want.isdisjoint(terms(far)):
                            ahead.append(far)
            front = ahead

    def _edges(self, node: str) -> tuple[tuple[kg.Edge, ...], dict[str, list[int]]]:
        """A node's out-edges then in-edges, and under each stem of their wording the positions of the
        edges holding it (worked out once per node)."""
        got = self._by_stem.get(node)
        if got is None:
            graph = self.knowledge.graph
            edges = (*graph.out_edges(node), *graph.in_edges(node))
            index: dict[str, list[int]] = {}
            for i, edge in enumerate(edges):
                for t in self._wording(edge).set:
                    index.setdefault(t, []).append(i)
            got = self._by_stem[node] = (edges, index)
        return got

    def recall(self, question: str, k: int) -> list[Cite]:
        know = self.knowledge
        vocab = know.vocab
        focus = vocab.focus(question, kg.fold(know.subject(question)))
        want = frozenset(focus)
        found: list[tuple[float, kg.Edge]] = []
        seen: set[str] = set()
        for node in self.walked(question, want):
            # Only an edge whose wording holds a focus stem can score; the others cover nothing.
            edges, index = self._edges(node)
            for i in sorted({i for t in want for i in index.get(t, ())}):
                edge = edges[i]
                if edge.id in seen:
                    continue
                seen.add(edge.id)
                said = self._wording(edge)
                hit = vocab.cover(focus, said.set)
                if hit and (score := hit * vocab.cover(said.list, want)) > 0:
                    found.append((score, edge))
        found.sort(key=lambda r: (-r[0], r[1].id))

        # A relation (source node, stemmed predicate) is read whole at its best
        # edge; the dict keeps relations in the order their best edges rank.
        kin: dict[tuple[str, str], list[tuple[float, kg.Edge]]] = {}
        for r in found:
            kin.setdefault((r[1].source, relation(r[1].label)), []).append(r)
        out: list[Cite] = []
        cited: set[str] = set()
        valued: set[str] = set()
        for members in kin.values():
            for score, member in members:
                if member.target not in valued:
                    for doc in member.docs:
                        if doc in know.at and doc not in cited:
                            cited.add(doc)
                            valued.add(member.target)
                            out.append(Cite(know.turns[know.at[doc]], score, member.target))
                            break
                if len(out) == k:
                    return out
        return out
