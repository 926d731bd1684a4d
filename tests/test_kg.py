"""kg: fold, assertion ids, build (nodes, edges, types, docs), adjacency and walk."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from locomo_repro.text import lexicon
from locomo_repro.go.strings import fields, trim_space
from locomo_repro.memory.kg import TYPES, Graph, Triple, build, edge_hash, fnv1a64, fold


def t(s: str, p: str, o: str, doc: str = "", score: float = 0.9) -> Triple:
    return Triple(s, p, o, doc=doc, score=score)


# -- Go string helpers -----------------------------------------------------------

GO_SPACE = {0x9, 0xA, 0xB, 0xC, 0xD, 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
            0x2028, 0x2029, 0x202F, 0x205F, 0x3000}  # unicode.IsSpace


def go_fields(s: str) -> list[str]:
    out, cur = [], []
    for ch in s:
        if ord(ch) in GO_SPACE:
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def test_fold_lowercases_and_collapses_whitespace():
    assert fold("  Hello \t\n  World ") == "hello world"
    assert fold("Jolene") == fold("JOLENE") == fold(" jolene ") == "jolene"
    assert fold("a\u00a0b\u3000c") == "a b c"  # Go counts NBSP and ideographic space as space
    assert fold("") == fold(" \t ") == ""


def test_fold_follows_go_not_python_on_the_edges():
    assert fold("a\x1cb") == "a\x1cb"  # str.isspace() is true for U+001C, unicode.IsSpace is not
    assert fields("\x1fa b\x1f") == ["\x1fa", "b\x1f"]
    assert trim_space("\x1f x \x85") == "\x1f x"
    assert fold("İstanbul") == "istanbul"  # simple mapping of U+0130 is 'i', one rune
    assert fold("ΟΔΟΣ") == "οδοσ"  # no final-sigma context rule in Go


@given(st.text(alphabet=st.characters(codec="utf-8", categories=("L", "Z", "Cc", "N", "P"))))
def test_fields_match_go_definition(s):
    assert fields(s) == go_fields(s)
    assert fold(s) == "".join("i" if c == "\u0130" else c.lower() for c in " ".join(go_fields(s)))


def test_types_are_the_reference_list():
    assert set(TYPES) == set(lexicon.TYPE_PREDICATES)


# -- FNV-1a / edge ids ----------------------------------------------------------


def test_fnv1a64_known_vectors():
    assert fnv1a64(b"") == 0xCBF29CE484222325
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a64(b"foobar") == 0x85944171F73967E8


def test_edge_hash_is_fnv_over_folded_parts_each_nul_terminated():
    # byte-by-byte by hand: h = (h ^ byte) * prime mod 2**64
    h = 0xCBF29CE484222325
    for byte in b"jolene\0has\0snake\0":
        h = ((h ^ byte) * 0x100000001B3) % 2**64
    assert edge_hash("Jolene", " has ", "SNAKE") == f"{h:016x}"
    assert len(edge_hash("a", "b", "c")) == 16
    assert edge_hash("a", "b c", "d") != edge_hash("a b", "c", "d")


def test_edge_id_uses_folded_ends_and_label():
    g = build([t(" Jolene ", " Has ", "a  Snake")])
    (e,) = g.edges()
    assert (e.source, e.label, e.target) == ("jolene", "Has", "a snake")
    assert e.id == edge_hash("jolene", "has", "a snake") == edge_hash("JOLENE", "HAS", "A SNAKE")


# -- build -----------------------------------------------------------------------


def test_empty_graph():
    g = build([])
    assert g.size() == (0, 0)
    assert g.nodes() == [] and g.edges() == []
    assert g.node("x") is None
    assert g.out_edges("x") == () and g.in_edges("x") == ()
    assert g.walk("x", 3) == []


def test_repeated_assertion_is_one_edge_with_count_max_score_and_docs_in_first_seen_order():
    g = build([
        t("Jolene", "has", "snake", "D1:2", 0.5),
        t("jolene", "HAS", "Snake", "D1:1", 0.9),
        t("JOLENE ", "has", "snake", "", 0.7),
        t("jolene", "has", "snake", "D1:2", 0.6),
    ])
    assert g.size() == (2, 1)
    (e,) = g.edges()
    assert e.count == 4
    assert e.score == 0.9
    assert e.docs == ("D1:2", "D1:1")
    assert e.label == "has"  # surface form as first asserted
    n = g.node("JOLENE")
    assert n is not None
    assert (n.id, n.name, n.score, n.docs) == ("jolene", "Jolene", 0.9, ("D1:2", "D1:1"))


def test_zero_score_counts_as_one():
    g = build([t("a", "p", "b", score=0.0)])
    assert g.edges()[0].score == 1.0
    assert g.node("a").score == 1.0


def test_blank_terms_are_dropped():
    g = Graph()
    assert not g.add(t("", "p", "b"))
    assert not g.add(t("a", " \t", "b"))
    assert not g.add(t("a", "p", "  "))
    assert g.add(t("a", "p", "b"))
    assert g.size() == (2, 1)


def test_type_predicates_set_the_type_and_make_no_edge():
    g = build([
        t("Susie", "IS_A", " Snake ", "D1:1"),
        t("susie", "rdf:type", "pet", "D1:2"),
        t("Rex", " Type ", "dog"),
        t("susie", "likes", "mice"),
    ])
    assert g.size() == (3, 1)  # susie, rex, mice; no node for "snake", "pet" or "dog"
    susie = g.node("susie")
    assert susie.type == "Snake"  # first type wins, trimmed
    assert susie.docs == ("D1:1", "D1:2")
    assert g.node("rex").type == "dog"
    assert g.node("snake") is None
    assert g.node("mice").type == ""


def test_custom_types_replace_the_default():
    g = build([t("a", "kind", "b"), t("a", "type", "c")], types=["KIND"])
    assert g.node("a").type == "b"
    assert [(e.source, e.label, e.target) for e in g.edges()] == [("a", "type", "c")]


def test_out_and_in_edges_in_assertion_order():
    g = build([t("a", "p", "b"), t("c", "p", "a"), t("a", "q", "d"), t("a", "p", "b"), t("e", "r", "a")])
    assert [(e.label, e.target) for e in g.out_edges("A")] == [("p", "b"), ("q", "d")]
    assert [(e.source, e.label) for e in g.in_edges("a")] == [("c", "p"), ("e", "r")]
    assert [n.id for n in g.nodes()] == ["a", "b", "c", "d", "e"]


def test_snapshots_do_not_change_and_views_refresh_after_add():
    g = build([t("a", "p", "b", "D1")])
    before = g.out_edges("a")
    g.add(t("a", "p", "b", "D2", 0.95))
    g.add(t("a", "q", "c"))
    assert before[0].docs == ("D1",) and before[0].count == 1
    after = g.out_edges("a")
    assert [(e.label, e.count, e.docs, e.score) for e in after] == [("p", 2, ("D1", "D2"), 0.95), ("q", 1, (), 0.9)]


# -- walk ------------------------------------------------------------------------


def chain() -> Graph:
    # e -> a -> b -> c -> d, a -> b twice labelled, c -> a (back edge), a -> a (self loop)
    return build([
        t("a", "p", "b"), t("b", "p", "c"), t("c", "p", "d"), t("e", "p", "a"),
        t("c", "back", "a"), t("a", "self", "a"), t("b", "q", "a"),
    ])


def test_walk_one_hop_lists_out_then_in_edges():
    got = [(s.edge.source, s.edge.label, s.edge.target, s.hop) for s in chain().walk("A", 1)]
    assert got == [
        ("a", "p", "b", 1), ("a", "self", "a", 1),  # out-edges of a
        ("e", "p", "a", 1), ("c", "back", "a", 1), ("b", "q", "a", 1),  # in-edges (self loop already seen)
    ]


def test_walk_reports_each_edge_once_at_its_first_hop():
    got = [(s.edge.source, s.edge.label, s.edge.target, s.hop) for s in chain().walk("a", 3)]
    assert got == [
        ("a", "p", "b", 1), ("a", "self", "a", 1),
        ("e", "p", "a", 1), ("c", "back", "a", 1), ("b", "q", "a", 1),
        # frontier at hop 2 is b, e, c (order reached); b: out b->c; e: nothing new; c: out c->d
        ("b", "p", "c", 2), ("c", "p", "d", 2),
        # hop 3 frontier is d; nothing new
    ]
    assert len(chain().walk("a", 2)) == 7
    assert chain().walk("a", 0) == []
    assert chain().walk("nobody", 2) == []


def test_walk_ignores_direction():
    g = build([t("x", "p", "y"), t("z", "p", "y")])
    assert [(s.edge.source, s.hop) for s in g.walk("x", 2)] == [("x", 1), ("z", 2)]
