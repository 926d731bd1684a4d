"""The graph memory: who said what about whom, asked about the person a question names.

Matches ``Knowledge`` of hanzoai/semantic bench/locomo (graph.go): every turn
is read into claims (``talk``), the claims are closed under the naming rule
(``reason``, one round), folded into a knowledge graph (``kg``), and filed as
pieces — what one person was said to do in one turn — in a vector store with
the person as the filter.  Recall ranks the pieces of the question's subject
(everyone's when no known name is mentioned) and cites the piece's turn with
the object of its best-covering claim.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from ..data.records import record
from ..memory import kg
from ..data.dataset import Sample
from ..memory.cite import Cite
from ..memory.reason import Engine, Pattern, Rule
from ..memory.talk import Claim, bound_subjects, known_names, read_conversation, subject, third_person
from ..memory.terms import Vocabulary
from ..text.reduce import terms

if TYPE_CHECKING:
    from ..memory.store import Store


#: What a thing is called its owner has: (who did what) ∧ (what named name) ⇒ (who did name).
NAMING = Rule(
    name="naming",
    body=(Pattern("?who", "?did", "?what"), Pattern("?what", "named", "?name")),
    head=Pattern("?who", "?did", "?name"),
)


@record
class Held:
    """A claim as a piece keeps it for answering: its object and the stems of predicate + object."""

    object: str
    terms: frozenset[str]


@record
class Piece:
    """What one person was said to do in one turn: the turn index, the person, the sentences, the claims."""

    turn: int
    who: str
    said: str
    claims: tuple[Held, ...]


class Knowledge:
    """A conversation kept as a graph of claims and as per-person pieces in a vector store."""

    name = "graph"

    def __init__(
        self, sample: Sample, vocab: Vocabulary, rules: tuple[Rule, ...] = (NAMING,), coref: bool = False
    ):
        self.turns = sample.turns
        self.vocab = vocab
        self.people = known_names(sample.turns, sample.speakers)
        people = frozenset(self.people)
        # ``coref`` binds third-person pronouns per session (not in the
        # reference; ``talk.third_person``); ``bound`` is then (statement
        # sentences whose subject a pronoun decided, statement sentences).
        self.bound: tuple[int, int] | None = None
        pronouns = third_person(sample.turns, sample.speakers, people) if coref else None
        if pronouns is not None:
            self.bound = bound_subjects(sample.turns, sample.speakers, people, pronouns)
        claims = read_conversation(sample.turns, sample.speakers, people, pronouns)
        facts: list[kg.Asserted] = list(claims)  # filed as they are (each reads as a triple of its turn)
        self.claims = len(facts)
        model = Engine(rules, depth=1).run(facts)
        self.at = {t.id: i for i, t in enumerate(sample.turns)}
        derived = model.derived()
        for fact in derived:
            # A derived fact has no turn of its own: it is filed under every
            # turn behind its premises.
            for leaf in model.why(fact.key):
                i = self.at.get(leaf.doc)
                if i is not None:
                    t = self.turns[i]
                    claims.append(Claim(fact.subject, fact.predicate, fact.object, fact.score, t.day, t.id, i))
            facts.append(fact.triple)
        self.derived = len(derived)
        self.nodes, self.edges = kg.size(facts)
        self._facts = facts
        self._claims = claims

    @cached_property
    def graph(self) -> kg.Graph:
        """The claims folded into a knowledge graph, when first walked (only the walk and the reach do)."""
        return kg.build(self._facts)

    @cached_property
    def pieces(self) -> dict[str, Piece]:
        """Every piece by ``who@turn id``, in first-claimed order: filed when first asked for, since an arm set
        that only counts the graph or resolves subjects (``-arms read``) never asks."""
        groups: dict[tuple[str, int], list[Claim]] = {}
        for c in self._claims:
            groups.setdefault((kg.fold(c.subject), c.turn), []).append(c)
        pieces: dict[str, Piece] = {}
        for (who, turn), group in groups.items():
            said: list[str] = []
            for c in group:
                text = c.said or f"{c.predicate} {c.object}"
                if text not in said:
                    said.append(text)
            piece = Piece(
                turn, who, " ".join(said), tuple(Held(c.object, terms(f"{c.predicate} {c.object}")) for c in group)
            )
            pieces[f"{who}@{self.turns[turn].id}"] = piece
        return pieces

    @cached_property
    def store(self) -> Store:
        """The pieces' vectors, each with its person as the filter (made when first searched: ``memory.store``, and
        numpy with it, is imported then)."""
        from ..memory.store import SPACE, Store

        store = Store()
        for key, piece in self.pieces.items():
            store.put(key, self.vocab.weigh(piece.said), {SPACE: piece.who})
        return store

    def blind(self) -> None:
        """Replace the graph by an empty one, keeping pieces, vectors and subject resolution."""
        self.graph = kg.build(())

    def subject(self, question: str) -> str:
        """The first known name (longest first) the question mentions, or ""."""
        return subject(question, self.people)

    def recall(self, question: str, k: int) -> list[Cite]:
        return self.ranked(question, k, scoped=True)

    def ranked(self, question: str, k: int, *, scoped: bool) -> list[Cite]:
        """Pieces nearest the question, of its subject only when ``scoped``; each cites its turn and best claim."""
        who = kg.fold(self.subject(question))
        space = who if scoped and who else None
        focus = self.vocab.focus(question, who)
        out: list[Cite] = []
        for m in self.store.search(self.vocab.weigh(question), k, space=space):
            if m.score <= 0:
                break
            piece = self.pieces[m.id]
            say, top = "", -1.0
            for held in piece.claims:
                cover = self.vocab.cover(focus, held.terms)
                if cover > top:
                    say, top = held.object, cover
            out.append(Cite(self.turns[piece.turn], m.score, say))
        return out
