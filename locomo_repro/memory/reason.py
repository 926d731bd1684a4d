"""Forward-chaining rules over triples, after hanzoai/semantic ``reason``.

Reference: reason.go at b220af68; engine.go, model.go and rule.go at 1cd0cd76.
Ported: patterns with ``?variables``, rules (body => head, optional weight),
the semi-naive engine with a depth bound, and the model (given facts, then
derived facts round by round, each with its rule and premises).  Not ported:
the schema entailment (``Engine.Class``/``Prop``), ``Parse`` and PROV export,
which the benchmark does not use.

Order.  The reference's output order involves no map iteration: the model is
an append-only list; a rule fires once per body position ``i`` (atom ``i``
restricted to the previous round's facts, the others ranging over every fact
known at the start of the round), and its solutions come out of a nested join
in which each atom's candidate facts are taken in ascending position.  So the
derived facts appear ordered by (rule, restricted position, then the premise
positions lexicographically), first occurrence of a key winning.  This port
joins the atoms most-constrained first through indexes on their fixed terms
(same solutions, found faster) and sorts each rule firing's solutions by
premise positions in body order, which restores the reference order exactly.

Depth.  Go returns ``ErrDepth`` with the partial model when the round bound is
reached while the last round still derived something.  Here ``Engine.run``
always returns the model and sets ``Model.exhausted`` instead.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from ..go.strings import SPACE, trim_space
from ..memory.kg import Asserted, Triple
from ..data.records import record

SEP = "\x1f"
"""Joins the parts of a key; a control character, so distinct triples never share one."""

DEFAULT_DEPTH = 32
"""Rounds allowed when ``Engine.depth`` is zero or less."""

Bind = Mapping[str, str]
"""Variable name (without ``?``) to the term it matched.  Treated as immutable."""


class RuleError(ValueError):
    """A rule that cannot fire (Go ``ErrRule``)."""


class MissingFact(KeyError):
    """A key no fact in the model carries (Go ``ErrMissing``)."""


def key(t: Asserted) -> str:
    """The identity of a claim: subject, predicate, object joined by U+001F, exactly as written."""
    return t.subject + SEP + t.predicate + SEP + t.object


def _variable(term: str) -> str | None:
    """The name a ``?term`` stands for; a bare ``?`` is a constant."""
    return term[1:] if len(term) > 1 and term[0] == "?" else None


def _blank(s: str) -> bool:
    return trim_space(s) == ""


@record
class Pattern:
    """A triple whose terms may be variables (``?name``); a variable used twice must bind one term."""

    subject: str
    predicate: str
    object: str

    def __str__(self) -> str:
        return f"{self.predicate}({self.subject}, {self.object})"

    def terms(self) -> tuple[str, str, str]:
        return (self.subject, self.predicate, self.object)

    def vars(self) -> list[str]:
        """The variables, subject first, without repeats."""
        out: list[str] = []
        for term in self.terms():
            name = _variable(term)
            if name is not None and name not in out:
                out.append(name)
        return out

    def fill(self, bind: Bind) -> Triple | None:
        """The triple the bindings make of the pattern, or None when a variable is unbound."""
        parts = []
        for term in self.terms():
            name = _variable(term)
            if name is None:
                parts.append(term)
            elif name in bind:
                parts.append(bind[name])
            else:
                return None
        return Triple(parts[0], parts[1], parts[2])

    def match(self, t: Asserted, bind: Bind | None = None) -> Bind | None:
        """The bindings extended by matching ``t``, or None on a clash.

        The argument is never modified; when nothing new is bound it is
        returned as is (an empty dict for None).
        """
        out: Bind = bind if bind is not None else {}
        own = False
        for term, value in ((self.subject, t.subject), (self.predicate, t.predicate), (self.object, t.object)):
            name = _variable(term)
            if name is None:
                if term != value:
                    return None
                continue
            seen = out.get(name)
            if seen is not None:
                if seen != value:
                    return None
                continue
            if not own:
                out, own = dict(out), True
            out[name] = value  # type: ignore[index]
        return out


def _atom_problem(p: Pattern) -> str | None:
    if _blank(p.predicate):
        return f"{p}: no predicate"
    if _blank(p.subject):
        return f"{p}: no subject"
    if _blank(p.object):
        return f"{p}: no object"
    return None


@dataclass(frozen=True)
class Rule:
    """Derive ``head`` from every binding that satisfies the whole ``body``; ``score`` 0 means weight 1."""

    name: str
    body: tuple[Pattern, ...]
    head: Pattern
    score: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "body", tuple(self.body))

    def __str__(self) -> str:
        return f"{self.head} :- {', '.join(str(p) for p in self.body)}."

    def check(self) -> None:
        """Raise ``RuleError`` unless the rule can fire (Go ``Rule.Check``)."""
        if not self.body:
            raise RuleError("reason: bad rule: no body")
        bound: set[str] = set()
        for i, p in enumerate(self.body, 1):
            problem = _atom_problem(p)
            if problem:
                raise RuleError(f"reason: bad rule: body {i}: {problem}")
            bound.update(p.vars())
        problem = _atom_problem(self.head)
        if problem:
            raise RuleError(f"reason: bad rule: head: {problem}")
        for v in self.head.vars():
            if v not in bound:
                raise RuleError(f"reason: bad rule: head variable ?{v} is not bound by the body")
        if self.score < 0 or self.score > 1:
            raise RuleError(f"reason: bad rule: score {self.score} is outside [0,1]")

    @property
    def label(self) -> str:
        """What a derived fact records as its rule: the name, else the rule written out."""
        return self.name or str(self)

    @property
    def weight(self) -> float:
        return self.score if self.score != 0 else 1.0


@record
class Fact:
    """A triple and how it got into the model: given facts have no rule, no premises and depth 0."""

    triple: Asserted
    rule: str = ""
    premises: tuple[str, ...] = ()
    depth: int = 0

    @property
    def key(self) -> str:
        return key(self.triple)

    @property
    def subject(self) -> str:
        return self.triple.subject

    @property
    def predicate(self) -> str:
        return self.triple.predicate

    @property
    def object(self) -> str:
        return self.triple.object

    @property
    def score(self) -> float:
        return self.triple.score

    @property
    def doc(self) -> str:
        return self.triple.doc


_Positions = tuple[int, ...]  # which of subject (0), predicate (1), object (2) an index is keyed on


@dataclass
class Model:
    """Given facts (deduplicated, blanks dropped) followed by derived facts, in arrival order."""

    facts: list[Fact] = field(default_factory=list)
    given_count: int = 0
    exhausted: bool = False
    """True when the run stopped at its depth with the last round still deriving (Go ``ErrDepth``)."""
    _at: dict[str, int] = field(default_factory=dict, repr=False)
    _spo: list[tuple[str, str, str]] = field(default_factory=list, repr=False)
    _index: dict[_Positions, dict[tuple[str, ...], list[int]]] = field(default_factory=dict, repr=False)

    def add(self, f: Fact) -> bool:
        """Append a fact unless a term is blank or its key is already known."""
        t = f.triple
        s, p, o = t.subject, t.predicate, t.object
        if not (s.strip(SPACE) and p.strip(SPACE) and o.strip(SPACE)):  # a blank term (``_blank``)
            return False
        k = s + SEP + p + SEP + o  # ``key(t)``
        at = self._at
        if k in at:
            return False
        pos = at[k] = len(self.facts)
        spo = (s, p, o)
        self._spo.append(spo)
        if self._index:
            for on, index in self._index.items():
                index.setdefault(tuple(spo[i] for i in on), []).append(pos)
        self.facts.append(f)
        return True

    def all(self) -> list[Fact]:
        return list(self.facts)

    def given(self) -> list[Fact]:
        return self.facts[: self.given_count]

    def derived(self) -> list[Fact]:
        """What the run added, in the order it was derived."""
        return self.facts[self.given_count :]

    def triples(self) -> list[Asserted]:
        """The derived facts' triples."""
        return [f.triple for f in self.derived()]

    def fact(self, k: str) -> Fact | None:
        i = self._at.get(k)
        return None if i is None else self.facts[i]

    def has(self, t: Asserted) -> bool:
        return key(t) in self._at

    def match(self, p: Pattern) -> list[Bind]:
        """One binding per fact the pattern matches, in model order (Go ``Model.Match``)."""
        return [b for b, _ in self._solve((p,), 0, 0, len(self.facts))]

    def why(self, k: str) -> list[Fact]:
        """The derivation of a fact: its premises depth-first, leaves first, then the fact; each fact once.

        Raises ``MissingFact`` for a key the model does not hold.
        """
        out: list[Fact] = []
        self._walk(k, set(), out)
        return out

    def _walk(self, at: str, seen: set[str], out: list[Fact]) -> None:
        """``why``'s depth-first walk (a method: a nested function calling itself would be a reference cycle
        holding the whole model until a garbage collection)."""
        if at in seen:
            return
        seen.add(at)
        f = self.fact(at)
        if f is None:
            raise MissingFact(at)
        for p in f.premises:
            self._walk(p, seen, out)
        out.append(f)

    # -- joins --------------------------------------------------------------

    def _lookup(self, on: _Positions) -> dict[tuple[str, ...], list[int]]:
        """Fact positions (ascending) grouped by their terms at ``on``; kept current by ``add``."""
        index = self._index.get(on)
        if index is None:
            index = {}
            if len(on) == 1:  # as the naming rule's atoms are looked up
                (at,) = on
                for pos, spo in enumerate(self._spo):
                    index.setdefault((spo[at],), []).append(pos)
            else:
                for pos, spo in enumerate(self._spo):
                    index.setdefault(tuple([spo[i] for i in on]), []).append(pos)
            self._index[on] = index
        return index

    def _solve(self, body: Sequence[Pattern], only: int, lo: int, hi: int) -> list[tuple[Bind, tuple[int, ...]]]:
        """Every solution of the body with atom ``only`` matched in [lo, hi) and the others in [0, hi).

        A solution is a binding and the positions of the facts matched, in body
        order.  The reference joins atom by atom in body order, taking each
        atom's candidates in ascending position, so its solutions come out
        sorted lexicographically by those positions.  Here the atoms are
        joined most-constrained first (each through an index on its fixed
        terms, which returns the same candidates the reference's matcher
        accepts) and the solutions are then sorted into that same order.
        """
        n = len(body)
        todo = list(range(n))
        bound: set[str] = set()
        cur: list[tuple[dict[str, str], list[int | None]]] = [({}, [None] * n)]
        while todo and cur:
            i = max(todo, key=lambda a: (_fixed(body[a], bound), -a))
            todo.remove(i)
            p = body[i]
            start = lo if i == only else 0
            on: list[int] = []
            fixed: list[tuple[str, bool]] = []  # (constant, False) or (variable name, True)
            free: list[tuple[int, str]] = []
            for pos, term in enumerate(p.terms()):
                name = _variable(term)
                if name is None:
                    on.append(pos)
                    fixed.append((term, False))
                elif name in bound:
                    on.append(pos)
                    fixed.append((name, True))
                else:
                    free.append((pos, name))
            index = self._lookup(tuple(on)) if on else None
            spo = self._spo
            nxt = []
            for bind, used in cur:
                if index is None:
                    cands: Sequence[int] = range(start, hi)
                else:
                    hits = index.get(tuple(bind[v] if is_var else v for v, is_var in fixed))
                    if not hits:
                        continue
                    cands = hits[bisect_left(hits, start) : bisect_left(hits, hi)]
                for j in cands:
                    t = spo[j]
                    b = dict(bind)
                    for pos, name in free:
                        value = t[pos]
                        if b.setdefault(name, value) != value:  # a variable repeated inside the atom
                            break
                    else:
                        u = list(used)
                        u[i] = j
                        nxt.append((b, u))
            cur = nxt
            bound.update(name for _, name in free)
        # Every atom is matched by now: no position is left None.
        out: list[tuple[Bind, tuple[int, ...]]] = [(b, tuple(cast("list[int]", u))) for b, u in cur]
        out.sort(key=lambda s: s[1])
        return out

    def _support(self, used: Iterable[int]) -> tuple[tuple[str, ...], float]:
        """Premise keys in body order without repeats, and the weakest premise score (0 counts as 1)."""
        keys: list[str] = []
        weight = 1.0
        for i in used:
            f = self.facts[i]
            k = key(f.triple)
            if k not in keys:
                keys.append(k)
            s = f.triple.score if f.triple.score != 0 else 1.0
            if s < weight:
                weight = s
        return tuple(keys), weight


def _fixed(p: Pattern, bound: set[str]) -> int:
    """How many of an atom's terms are fixed (constants or bound variables)."""
    count = 0
    for term in p.terms():
        name = _variable(term)
        if name is None or name in bound:
            count += 1
    return count


@dataclass(frozen=True)
class Engine:
    """Semi-naive forward chaining with a round bound (Go ``reason.Engine`` without schemas)."""

    rules: tuple[Rule, ...] = ()
    depth: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", tuple(self.rules))

    def run(self, triples: Iterable[Asserted]) -> Model:
        """Seed the model with the triples and derive round by round.

        Round ``r`` fires every rule once per body position, that atom
        restricted to the facts the previous round added (round 1: all given
        facts), the other atoms to every fact present when the round began.
        A derived fact has score min(premise scores, 0 read as 1) x rule
        weight, no document, and depth ``r``.  Stops at a round that adds
        nothing, or before round ``depth + 1`` with ``exhausted`` set.
        Raises ``RuleError`` for an invalid rule, before any work.
        """
        for i, r in enumerate(self.rules, 1):
            try:
                r.check()
            except RuleError as err:
                raise RuleError(f"reason: rule {i}: {err}") from None
        m = Model()
        for t in triples:
            m.add(Fact(t))
        m.given_count = len(m.facts)
        depth = self.depth if self.depth > 0 else DEFAULT_DEPTH
        rnd, lo, hi = 1, 0, len(m.facts)
        while lo < hi:
            if rnd > depth:
                m.exhausted = True
                break
            for r in self.rules:
                self._fire(m, r, lo, hi, rnd)
            rnd, lo, hi = rnd + 1, hi, len(m.facts)
        return m

    @staticmethod
    def _fire(m: Model, r: Rule, lo: int, hi: int, rnd: int) -> None:
        for only in range(len(r.body)):
            for bind, used in m._solve(r.body, only, lo, hi):
                t = r.head.fill(bind)
                if t is None:
                    continue
                premises, weight = m._support(used)
                t = Triple(t.subject, t.predicate, t.object, score=weight * r.weight)
                m.add(Fact(t, r.label, premises, rnd))
