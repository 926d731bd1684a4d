"""store.Store: Go store.Mem under Rank(Inner) (space filter, exact float64 scores, score desc / id asc, k)."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from locomo_repro.memory.sparse import Sparse
from locomo_repro.memory.store import SPACE, Store, StoreError, dot


def vec(*xs: float) -> np.ndarray:
    return np.array(xs, dtype=np.float32)


def ids(matches) -> list[str]:
    return [m.id for m in matches]


# -- hand cases ---------------------------------------------------------------


def test_ties_break_by_id_ascending_whatever_the_insertion_order():
    s = Store()
    for id in ["c", "a", "d", "b"]:
        s.put(id, vec(1, 0))
    s.put("z", vec(2, 0))
    assert ids(s.search(vec(1, 0), 0)) == ["z", "a", "b", "c", "d"]


def test_ids_compare_as_go_byte_strings():
    s = Store()
    for id in ["a@D1:2", "a@D1:10", "é", "z", "Z"]:
        s.put(id, vec(1, 0))
    # byte order: "1" < "2" at the first difference, upper case before lower, ASCII before U+00E9
    assert ids(s.near(vec(1, 0))) == ["Z", "a@D1:10", "a@D1:2", "z", "é"]


def test_k_cuts_and_non_positive_k_keeps_all():
    s = Store()
    for i in range(5):
        s.put(f"t{i}", vec(i, 1))
    assert ids(s.near(vec(1, 0), 2)) == ["t4", "t3"]
    assert len(s.near(vec(1, 0), 0)) == 5
    assert len(s.near(vec(1, 0), -3)) == 5
    assert len(s.near(vec(1, 0), 50)) == 5


def test_scores_are_returned_and_zero_and_negative_scores_are_kept():
    s = Store()
    s.put("pos", vec(0.5, 0))
    s.put("zero", vec(0, 1))
    s.put("neg", vec(-0.25, 0))
    got = s.near(vec(1, 0), 0)
    assert [(m.id, m.score) for m in got] == [("pos", 0.5), ("zero", 0.0), ("neg", -0.25)]


def test_space_filter_admits_only_equal_metadata_and_missing_field_fails():
    s = Store()
    s.put("a@1", vec(1, 0), {SPACE: "a"})
    s.put("b@1", vec(1, 0), {SPACE: "b"})
    s.put("a@2", vec(0.5, 0), {SPACE: "a"})
    s.put("none", vec(1, 0))
    assert ids(s.search(vec(1, 0), 10, space="a")) == ["a@1", "a@2"]
    assert ids(s.search(vec(1, 0), 10, space="c")) == []
    assert ids(s.search(vec(1, 0), 10)) == ["a@1", "b@1", "none", "a@2"]


def test_put_replaces_in_place():
    s = Store()
    s.put("a", vec(1, 0), {SPACE: "x"})
    s.put("b", vec(1, 0))
    assert s.near(vec(1, 0))[0].id == "a"
    s.put("a", vec(0, 1), {SPACE: "y"})
    assert len(s) == 2
    assert [(m.id, m.score) for m in s.near(vec(1, 0))] == [("b", 1.0), ("a", 0.0)]
    assert ids(s.search(vec(1, 0), space="x")) == []
    [m] = s.search(vec(0, 1), space="y")
    assert (m.id, m.score, dict(m.meta)) == ("a", 1.0, {SPACE: "y"})


def test_metadata_is_copied_and_read_only():
    s = Store()
    meta = {SPACE: "x"}
    s.put("a", vec(1), meta)
    meta[SPACE] = "changed"
    m = s.near(vec(1))[0]
    assert dict(m.meta) == {SPACE: "x"}
    with pytest.raises(TypeError):
        m.meta[SPACE] = "y"  # type: ignore[index]


def test_refusals():
    s = Store()
    with pytest.raises(StoreError):
        s.put("", vec(1))
    with pytest.raises(StoreError):
        s.put("a", vec())
    assert s.near(vec(1, 2, 3)) == []  # an empty store has no dimension yet
    s.put("a", vec(1, 2))
    with pytest.raises(StoreError):
        s.put("b", vec(1, 2, 3))
    with pytest.raises(StoreError):
        s.near(vec(1))
    with pytest.raises(StoreError):
        s.near(vec())


def test_inner_product_accumulates_in_index_order():
    # 1 + 2**60 rounds to 2**60, so the sequential sum is 0; any other order gives 1.
    s = Store()
    s.put("x", vec(1, 2.0**60, -(2.0**60)))
    assert s.near(vec(1, 1, 1))[0].score == 0.0
    s2 = Store()
    s2.put("x", vec(-(2.0**60), 2.0**60, 1))
    assert s2.near(vec(1, 1, 1))[0].score == 1.0
    # dot, the dense loop the fast path must equal, sums in the same order
    assert dot([1, 2.0**60, -(2.0**60)], [1, 1, 1]) == 0.0
    assert dot([-(2.0**60), 2.0**60, 1], [1, 1, 1]) == 1.0


def test_non_finite_values_fall_back_to_the_dense_loop():
    s = Store()
    s.put("inf", vec(math.inf, 0))
    s.put("one", vec(1, 1))
    got = {m.id: m.score for m in s.near(vec(0, 1))}
    assert math.isnan(got["inf"])  # 0 * inf in the reference loop
    assert got["one"] == 1.0


# -- properties ---------------------------------------------------------------


def bits(x: float) -> bytes:
    return b"nan" if math.isnan(x) else struct.pack("<d", x)


def ref_dot(a: list[float], b: list[float]) -> float:
    """Literal transcription of store/math.go Dot, dense and sequential."""
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


f32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
# magnitudes far apart, so the order of the additions changes the rounded sum
lopsided = st.sampled_from([2.0**40, -(2.0**40), 2.0**20, 1.0, -1.0, 0.1, 3.0, 1e-7])
component = st.one_of(st.just(0.0), st.just(-0.0), f32, st.floats(-1, 1, width=32), lopsided)


@st.composite
def stores(draw, finite=True):
    """A few items and a query; about a third of the components are (signed) zeros."""
    dim = draw(st.integers(1, 12))
    n = draw(st.integers(0, 12))
    comp = component if finite else st.one_of(component, st.sampled_from([math.inf, -math.inf, math.nan]))
    vector = st.lists(comp, min_size=dim, max_size=dim)
    names = st.sampled_from(["a", "b", "c", "A", "ab", "é", "a@1", "a@10"])
    rows = [(draw(names) + str(i), draw(vector), draw(st.sampled_from(["p", "q"]))) for i in range(n)]
    return dim, rows, draw(vector)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(stores(), st.integers(-1, 14), st.sampled_from([None, "p", "q"]))
def test_search_equals_dense_sequential_reference(data, k, space):
    dim, rows, q = data
    s = Store()
    for id, v, sp in rows:
        s.put(id, v, {SPACE: sp})
    got = s.search(np.array(q, dtype=np.float32), k, space=space)
    q32 = np.array(q, dtype=np.float32).astype(np.float64).tolist()
    want = [(id, ref_dot(q32, np.array(v, dtype=np.float32).astype(np.float64).tolist()))
            for id, v, sp in rows if space is None or sp == space]
    want.sort(key=lambda p: (-p[1], p[0].encode()))
    if k > 0:
        want = want[:k]
    assert [(m.id, bits(m.score)) for m in got] == [(id, bits(x)) for id, x in want]


def as_sparse(v: list[float]) -> Sparse:
    """A dense vector's non-zero float32 components (NaN is non-zero, -0.0 is not), written out by hand."""
    v32 = np.array(v, dtype=np.float32).astype(np.float64).tolist()
    kept = [(j, x) for j, x in enumerate(v32) if x != 0 or math.isnan(x)]
    return Sparse(len(v), tuple(j for j, _ in kept), tuple(x for _, x in kept))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(stores(finite=False), st.integers(-1, 14), st.sampled_from([None, "p", "q"]), st.booleans(), st.booleans())
def test_a_sparse_vector_files_and_asks_as_its_dense_form(data, k, space, sparse_items, sparse_query):
    dim, rows, q = data
    dense, mixed = Store(), Store()
    for id, v, sp in rows:
        dense.put(id, v, {SPACE: sp})
        mixed.put(id, as_sparse(v) if sparse_items else v, {SPACE: sp})
    want = dense.search(np.array(q, dtype=np.float32), k, space=space)
    got = mixed.search(as_sparse(q) if sparse_query else q, k, space=space)
    assert [(m.id, bits(m.score), dict(m.meta)) for m in got] == [(m.id, bits(m.score), dict(m.meta)) for m in want]


def test_sparse_refusals():
    s = Store()
    with pytest.raises(StoreError):
        s.put("a", Sparse(0, (), ()))
    s.put("a", Sparse(3, (1,), (0.5,)))
    assert [(m.id, m.score) for m in s.near(Sparse(3, (1, 2), (2.0, 7.0)))] == [("a", 1.0)]
    with pytest.raises(StoreError):
        s.put("b", Sparse(2, (1,), (0.5,)))
    with pytest.raises(StoreError):
        s.near(Sparse(4, (), ()))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(stores(finite=False))
def test_non_finite_scores_equal_dense_reference(data):
    dim, rows, q = data
    s = Store()
    for id, v, _ in rows:
        s.put(id, v)
    got = {m.id: bits(m.score) for m in s.near(np.array(q, dtype=np.float32))}
    q32 = np.array(q, dtype=np.float32).astype(np.float64).tolist()
    want = {id: bits(ref_dot(q32, np.array(v, dtype=np.float32).astype(np.float64).tolist()))
            for id, v, _ in rows}
    assert got == want


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(stores(), st.randoms(use_true_random=False))
def test_order_is_total_and_independent_of_insertion_order(data, rnd):
    dim, rows, q = data
    a, b = Store(), Store()
    for id, v, sp in rows:
        a.put(id, v)
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    for id, v, sp in shuffled:
        b.put(id, v)
    qa = np.array(q, dtype=np.float32)
    ra, rb = a.near(qa), b.near(qa)
    assert [(m.id, m.score) for m in ra] == [(m.id, m.score) for m in rb]
    keys = [(-m.score, m.id.encode()) for m in ra]
    assert all(x < y for x, y in zip(keys, keys[1:]))
