"""``kg.size`` counts the nodes and edges ``kg.build`` would make, without making them: blank terms, type
predicates, case and white space folded as ``Graph.add`` folds them (an arm set that never walks the graph
only counts it, so its graph is built only when walked)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from locomo_repro.memory import kg
from locomo_repro.memory.kg import Triple

# a few names in several spellings, blanks, Go-only and Python-only white space, and type predicates
term = st.sampled_from(["Alice", "alice", " ALICE ", "Bob", "bob  smith", "Bob Smith", "", "  ", "\x1c", "\u2003",
                        "type", "is_a", "Type", "likes", "named", "x"])
triples = st.lists(st.builds(Triple, term, term, term, st.sampled_from(["", "D1:1", "D1:2"])), max_size=30)


@given(triples, st.sampled_from([(), ("likes",), ("Named", "x")]))
def test_the_counts_are_those_of_the_built_graph(given_triples, types):
    assert kg.size(given_triples, types) == kg.build(given_triples, types).size()


def test_a_type_predicate_makes_a_node_and_no_edge():
    got = [Triple("Alice", "is_a", "person"), Triple("alice", "likes", "Bob"), Triple("ALICE", "likes", "bob"),
           Triple(" ", "likes", "Bob")]
    assert kg.size(got) == (2, 1) == kg.build(got).size()  # alice and bob; one edge, asserted twice
