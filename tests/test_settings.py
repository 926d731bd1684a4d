"""Rules that hold at every setting, not only the published ones.

The reference outputs pin the port at the published settings; these
properties pin what the rules imply elsewhere (read.go, bench.go, path.go of
hanzoai/semantic bench/locomo): a memory's cites at k are the first k of its
cites at a larger k (sorted, then cut); the reader declines below the floor;
parts bounds the pieces of a reply and span the words of a piece.
"""

from __future__ import annotations

import pytest

from locomo_repro.bench import experiment as bench
from locomo_repro.score.metric import DECLINE
from locomo_repro.memory.cite import sure
from locomo_repro.read.reader import Options, asking, reply
from locomo_repro.text.reduce import words

KS = (1, 2, 5, 10, 20)


@pytest.fixture(scope="module")
def conv26(samples):
    """The first conversation's memories from the walk and factor arm sets (all six memories); built alone, as
    each conversation is built on its own."""
    (walk,), (factor,) = bench.build(samples[:1], "walk"), bench.build(samples[:1], "factor")
    memories = {arm.memory.name: arm.memory for case in (walk, factor) for arm in case.arms}
    return walk.sample, walk.vocab, memories


@pytest.mark.slow
@pytest.mark.parametrize("name", ["vector", "graph", "path", "oracle", "scoped", "span"])
def test_cites_at_k_are_the_first_k_of_a_longer_list(conv26, name):
    sample, _, memories = conv26
    memory = memories[name]
    for q in sample.questions:
        longest = memory.recall(q.text, 50)
        for k in KS:
            got = memory.recall(q.text, k)
            assert got == longest[:k], (q.text, k)


def test_scores_are_positive_and_ranked(conv26):
    sample, _, memories = conv26
    for name in ("vector", "graph", "scoped", "span", "oracle"):
        for q in sample.questions:
            scores = [c.score for c in memories[name].recall(q.text, 20)]
            assert scores == sorted(scores, reverse=True)
            if name != "oracle":  # the oracle keeps annotated evidence that covers nothing
                assert all(s > 0 for s in scores)


@pytest.mark.parametrize("floor", [0.0, 0.15, 0.45, 1.0])
def test_the_reader_declines_exactly_below_the_floor(conv26, floor):
    sample, vocab, memories = conv26
    for q in sample.questions:
        cites = memories["vector"].recall(q.text, 5)
        confidence = sure(vocab, q.text, cites)
        got = reply(q.text, cites, confidence, vocab, Options(floor=floor))
        if not cites or confidence < floor:
            assert got == DECLINE


@pytest.mark.parametrize(("parts", "span"), [(1, 2), (2, 3), (3, 12)])
def test_parts_bound_the_pieces_and_span_their_words(conv26, parts, span):
    sample, vocab, memories = conv26
    options = Options(floor=0.0, parts=parts, span=span, band=0.0)
    for q in sample.questions:
        cites = memories["graph"].recall(q.text, 10)
        got = reply(q.text, cites, sure(vocab, q.text, cites), vocab, options)
        if got == DECLINE or asking(q.text) == "when":
            continue
        pieces = got.split(", ")
        assert len(pieces) <= parts and len(set(pieces)) == len(pieces)
        assert all(len(words(p)) <= span for p in pieces)

