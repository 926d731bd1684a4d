"""reason: patterns, rules, the semi-naive engine (order, dedup, scores, depth) and why()."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from locomo_repro.memory.kg import Triple
from locomo_repro.memory.reason import (
    DEFAULT_DEPTH,
    Engine,
    MissingFact,
    Pattern,
    Rule,
    RuleError,
    key,
)

NAMING = Rule(
    "naming",
    (Pattern("?who", "?did", "?what"), Pattern("?what", "named", "?name")),
    Pattern("?who", "?did", "?name"),
)


def tr(s: str, p: str, o: str, doc: str = "", score: float = 0.9) -> Triple:
    return Triple(s, p, o, doc=doc, score=score)


def spo(facts) -> list[tuple[str, str, str]]:
    return [(f.subject, f.predicate, f.object) for f in facts]


# -- patterns and rules -----------------------------------------------------------


def test_pattern_match_binds_joins_and_leaves_the_input_alone():
    p = Pattern("?x", "likes", "?x")
    assert p.match(tr("a", "likes", "a")) == {"x": "a"}
    assert p.match(tr("a", "likes", "b")) is None
    assert p.match(tr("a", "hates", "a")) is None
    bind = {"x": "a"}
    assert Pattern("?x", "?p", "?y").match(tr("a", "r", "b"), bind) == {"x": "a", "p": "r", "y": "b"}
    assert bind == {"x": "a"}
    assert Pattern("?x", "r", "?y").match(tr("c", "r", "b"), bind) is None
    assert Pattern("?", "r", "o").match(tr("?", "r", "o")) == {}  # a bare ? is a constant
    assert Pattern("?", "r", "o").match(tr("s", "r", "o")) is None


def test_pattern_vars_and_fill():
    p = Pattern("?who", "?did", "?who")
    assert p.vars() == ["who", "did"]
    assert p.fill({"who": "a", "did": "b"}) == Triple("a", "b", "a")
    assert p.fill({"who": "a"}) is None
    assert str(NAMING) == "?did(?who, ?name) :- ?did(?who, ?what), named(?what, ?name)."


@pytest.mark.parametrize("rule", [
    Rule("empty", (), Pattern("a", "b", "c")),
    Rule("unbound", (Pattern("?x", "p", "?y"),), Pattern("?x", "p", "?z")),
    Rule("blank body", (Pattern("?x", " ", "?y"),), Pattern("?x", "p", "?y")),
    Rule("blank head", (Pattern("?x", "p", "?y"),), Pattern("", "p", "?y")),
    Rule("score", (Pattern("?x", "p", "?y"),), Pattern("?y", "p", "?x"), score=1.5),
])
def test_bad_rules_are_refused_before_any_work(rule):
    with pytest.raises(RuleError):
        rule.check()
    with pytest.raises(RuleError):
        Engine((NAMING, rule), 1).run([tr("a", "p", "b")])


# -- the naming rule ----------------------------------------------------------------


def test_naming_rule_carries_the_name_to_the_owner():
    m = Engine((NAMING,), depth=1).run([
        tr("jolene", "has", "snake", "D1:1"),
        tr("snake", "named", "susie", "D1:1", 0.8),
    ])
    (f,) = m.derived()
    assert (f.subject, f.predicate, f.object) == ("jolene", "has", "susie")
    assert f.score == 0.8  # weakest premise x rule weight 1
    assert f.rule == "naming" and f.depth == 1 and f.doc == ""
    assert f.premises == ("jolene\x1fhas\x1fsnake", "snake\x1fnamed\x1fsusie")
    assert m.exhausted  # depth 1 and round 1 derived something: Go's ErrDepth
    assert spo(m.why(f.key)) == [("jolene", "has", "snake"), ("snake", "named", "susie"), ("jolene", "has", "susie")]
    assert [x.doc for x in m.why(f.key)] == ["D1:1", "D1:1", ""]


def test_depth_flag_clears_when_a_further_round_finds_nothing():
    facts = [tr("jolene", "has", "snake"), tr("snake", "named", "susie")]
    m = Engine((NAMING,), depth=2).run(facts)
    assert len(m.derived()) == 1 and not m.exhausted
    assert not Engine((NAMING,), depth=1).run([tr("a", "p", "b")]).exhausted


def test_zero_depth_means_default():
    # x0 named x1 and a chain x1 next x2 next ...: each round carries the name one link further
    n = DEFAULT_DEPTH + 6
    facts = [tr("x0", "named", "x1")] + [tr(f"x{i}", "next", f"x{i + 1}") for i in range(1, n)]
    step = Rule("step", (Pattern("?a", "named", "?b"), Pattern("?b", "next", "?c")), Pattern("?a", "named", "?c"))
    m = Engine((step,)).run(facts)
    assert m.exhausted
    assert len(m.derived()) == DEFAULT_DEPTH
    assert [f.depth for f in m.derived()] == list(range(1, DEFAULT_DEPTH + 1))
    assert not Engine((step,), 0).run(facts[:5]).exhausted


def test_facts_are_deduplicated_by_exact_key_and_blanks_dropped():
    m = Engine((NAMING,), 1).run([
        tr("jolene", "has", "snake", "D1", 0.5),
        tr("jolene", "has", "snake", "D2", 0.9),  # repeat: dropped, first kept
        tr("Jolene", "has", "snake"),  # case differs: another fact
        tr(" ", "has", "x"),
        tr("a", "\t", "x"),
        tr("a", "has", ""),
        tr("snake", "named", "susie"),
    ])
    assert spo(m.given()) == [("jolene", "has", "snake"), ("Jolene", "has", "snake"), ("snake", "named", "susie")]
    assert m.given()[0].doc == "D1"
    assert spo(m.derived()) == [("jolene", "has", "susie"), ("Jolene", "has", "susie")]
    assert m.derived()[0].score == 0.5


def test_a_derived_fact_already_given_is_not_added_again():
    m = Engine((NAMING,), 1).run([
        tr("jolene", "has", "snake"), tr("snake", "named", "susie"), tr("jolene", "has", "susie"),
    ])
    assert m.derived() == []
    assert not m.exhausted


def test_derived_order_follows_the_first_atom_then_the_second():
    m = Engine((NAMING,), 1).run([
        tr("a", "has", "b"),
        tr("c", "has", "d"),
        tr("d", "named", "D"),
        tr("b", "named", "B"),
        tr("b", "named", "Bee"),
    ])
    assert spo(m.derived()) == [("a", "has", "B"), ("a", "has", "Bee"), ("c", "has", "D")]


def test_score_is_weakest_premise_times_rule_weight_and_zero_reads_as_one():
    rule = Rule("", NAMING.body, NAMING.head, score=0.5)
    m = Engine((rule,), 1).run([tr("a", "has", "b", score=0.0), tr("b", "named", "c", score=0.0),
                                tr("x", "has", "y", score=0.6), tr("y", "named", "z", score=0.3)])
    assert [(f.object, f.score) for f in m.derived()] == [("c", 0.5), ("z", 0.15)]
    assert m.derived()[0].rule == str(rule)  # an unnamed rule records itself


def test_second_round_restricts_each_atom_to_the_new_facts_and_why_is_leaves_first():
    m = Engine((NAMING,), 3).run([
        tr("z", "has", "a"),
        tr("a", "named", "b"),
        tr("b", "named", "c"),
    ])
    assert [(spo([f])[0], f.depth) for f in m.derived()] == [
        (("z", "has", "b"), 1),  # z has a + a named b
        (("a", "named", "c"), 1),  # a named b + b named c
        (("z", "has", "c"), 2),  # first found as (new) z has b + b named c
    ]
    last = m.derived()[-1]
    assert last.premises == (key(tr("z", "has", "b")), key(tr("b", "named", "c")))
    assert spo(m.why(last.key)) == [
        ("z", "has", "a"), ("a", "named", "b"), ("z", "has", "b"), ("b", "named", "c"), ("z", "has", "c"),
    ]
    assert spo(m.why(key(tr("z", "has", "a")))) == [("z", "has", "a")]
    with pytest.raises(MissingFact):
        m.why("nope")


def test_second_round_finds_a_new_fact_in_the_second_atom():
    alias = Rule("alias", (Pattern("?x", "alias", "?y"),), Pattern("?x", "named", "?y"))
    m = Engine((NAMING, alias), 3).run([tr("z", "has", "a"), tr("a", "alias", "c", score=0.4)])
    assert [(spo([f])[0], f.rule, f.depth) for f in m.derived()] == [
        (("a", "named", "c"), "alias", 1),
        (("z", "has", "c"), "naming", 2),  # z has a (old) + a named c (new, second atom)
    ]
    assert m.derived()[-1].score == 0.4
    assert spo(m.why(m.derived()[-1].key)) == [
        ("z", "has", "a"), ("a", "alias", "c"), ("a", "named", "c"), ("z", "has", "c"),
    ]
    assert not m.exhausted


def test_match_lists_bindings_in_model_order():
    m = Engine((NAMING,), 1).run([tr("jolene", "has", "snake"), tr("snake", "named", "susie")])
    assert m.match(Pattern("jolene", "has", "?x")) == [{"x": "snake"}, {"x": "susie"}]
    assert m.has(tr("jolene", "has", "susie", score=0.1))
    assert m.triples() == [Triple("jolene", "has", "susie", score=0.9)]


# -- property: the indexed join gives the literal reference's model --------------------


def literal_run(rules, triples, depth):
    """Transcription of engine.go/model.go: candidates narrowed by a constant predicate only."""
    facts, at, pred = [], {}, {}

    def add(t, rule="", premises=(), rnd=0):
        if not t[0].strip() or not t[1].strip() or not t[2].strip():
            return
        k = "\x1f".join(t[:3])
        if k in at:
            return
        at[k] = len(facts)
        pred.setdefault(t[1], []).append(len(facts))
        facts.append((t, rule, premises, rnd))

    def var(term):
        return term[1:] if len(term) > 1 and term[0] == "?" else None

    def match(p, t, b):
        b = dict(b)
        for term, value in zip((p.subject, p.predicate, p.object), t[:3]):
            v = var(term)
            if v is None:
                if term != value:
                    return None
            elif v in b:
                if b[v] != value:
                    return None
            else:
                b[v] = value
        return b

    for x in triples:
        add((x.subject, x.predicate, x.object, x.score))
    given_n = len(facts)
    rnd, lo, hi = 1, 0, len(facts)
    exhausted = False
    while lo < hi:
        if rnd > depth:
            exhausted = True
            break
        for r in rules:
            for only in range(len(r.body)):
                cur = [({}, [])]
                for i, p in enumerate(r.body):
                    start = lo if i == only else 0
                    cands = range(start, hi) if var(p.predicate) else [j for j in pred.get(p.predicate, []) if start <= j < hi]
                    nxt = []
                    for b, used in cur:
                        for j in cands:
                            nb = match(p, facts[j][0], b)
                            if nb is not None:
                                nxt.append((nb, used + [j]))
                    cur = nxt
                for b, used in cur:
                    head = tuple(b.get(var(x), x) if var(x) else x for x in (r.head.subject, r.head.predicate, r.head.object))
                    keys, w = [], 1.0
                    for j in used:
                        k = "\x1f".join(facts[j][0][:3])
                        if k not in keys:
                            keys.append(k)
                        s = facts[j][0][3] or 1.0
                        if s < w:
                            w = s
                    add(head + (w * (r.score or 1.0),), r.name or str(r), tuple(keys), rnd)
        rnd, lo, hi = rnd + 1, hi, len(facts)
    return [(f[0], f[1], f[2], f[3]) for f in facts[given_n:]], exhausted


terms = st.sampled_from(["a", "b", "c", "d", "named", "has"])
triples = st.lists(st.builds(lambda s, p, o, sc: Triple(s, p, o, score=sc), terms, terms, terms,
                             st.sampled_from([0.0, 0.3, 0.9, 1.0])), max_size=14)
RULES = (
    NAMING,
    Rule("trans", (Pattern("?x", "has", "?y"), Pattern("?y", "has", "?z")), Pattern("?x", "has", "?z"), 0.5),
    Rule("sym", (Pattern("?x", "?p", "?y"),), Pattern("?y", "?p", "?x")),
    Rule("three", (Pattern("?x", "?p", "?y"), Pattern("?y", "has", "?z"), Pattern("?z", "named", "?w")),
         Pattern("?x", "?p", "?w"), 0.3),
    Rule("loop", (Pattern("?x", "?p", "?x"), Pattern("?p", "?q", "?x")), Pattern("?x", "?q", "?p")),
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(triples, st.lists(st.sampled_from(RULES), min_size=1, max_size=3), st.integers(0, 4))
def test_engine_equals_literal_reference(facts, rules, depth):
    m = Engine(tuple(rules), depth).run(facts)
    want, exhausted = literal_run(rules, facts, depth if depth > 0 else DEFAULT_DEPTH)
    got = [((f.subject, f.predicate, f.object, f.score), f.rule, f.premises, f.depth) for f in m.derived()]
    assert got == want
    assert m.exhausted == exhausted
