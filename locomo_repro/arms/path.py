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

from ..memory import kg
from ..arms.graph import Knowledge
from ..memory.cite import Cite
from ..go.strings import fields, to_lower
from ..memory.talk import mentions
from ..text.reduce import stem, stems, terms
from ..data.records import record


@record
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
        self._by_stem: dict[str, list[kg.Edge]] | None = None
        self._through: dict[tuple[str, ...], frozenset[str]] = {}
        self._near: dict[str, set[str]] | None = None
        self._named: dict[str, set[str]] = {}
        self._relation: dict[str, str] = {}

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

    def _holding(self) -> dict[str, list[kg.Edge]]:
        """Every edge of the graph under each stem of its wording; each node's neighbours (the far ends of its
        edges); every node under each stem of its name (worked out once)."""
        if self._by_stem is None or self._near is None:
            self._by_stem, self._near = {}, {}
            for edge in self.knowledge.graph.edges():
                for t in self._wording(edge).set:
                    self._by_stem.setdefault(t, []).append(edge)
                self._near.setdefault(edge.source, set()).add(edge.target)
                self._near.setdefault(edge.target, set()).add(edge.source)
            for node in self._near:
                for t in terms(node):
                    self._named.setdefault(t, set()).add(node)
        return self._by_stem

    def through(self, question: str, want: frozenset[str]) -> frozenset[str]:
        """The nodes :meth:`walked` goes through, as a set.

        Unguided, they depend on the question's names alone, so they are worked
        out once per set of names.  Guided, they are the question's names and
        the nodes sharing a stem with ``want`` that a chain of such nodes joins
        to a name within ``hops - 1`` steps: found hop by hop among those nodes
        alone, not through every edge of the names (who have most of them).
        """
        names = tuple(self.starts(question))
        if not self.guided:
            got = self._through.get(names)
            if got is None:
                got = self._through[names] = frozenset(self.walked(question, want))
            return got
        self._holding()
        assert self._near is not None
        near = self._near
        named = {n for t in want for n in self._named.get(t, ())}
        reached, front = set(names), set(names)
        for _ in range(self.hops - 1):
            front = {n for n in named if n not in reached and not near[n].isdisjoint(front)}
            reached |= front
        return frozenset(reached)

    def recall(self, question: str, k: int) -> list[Cite]:
        know = self.knowledge
        vocab = know.vocab
        focus = vocab.focus(question, kg.fold(know.subject(question)))
        want = frozenset(focus)
        through = self.through(question, want)
        found: list[tuple[float, kg.Edge]] = []
        seen: set[str] = set()
        # The edges the walk reaches are those out of and into a node it goes through; of them only one whose
        # wording holds a focus stem can score (the others cover nothing): found through the stems' edges.
        holding = self._holding()
        for t in want:
            for edge in holding.get(t, ()):
                if edge.id in seen or (edge.source not in through and edge.target not in through):
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
        relations = self._relation
        for r in found:
            label = r[1].label
            if label not in relations:
                relations[label] = relation(label)
            kin.setdefault((r[1].source, relations[label]), []).append(r)
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
