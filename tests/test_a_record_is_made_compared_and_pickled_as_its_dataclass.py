"""``data.records.record``: a frozen, slotted dataclass given a quick ``__init__`` and a ``__reduce__`` behaves
exactly as the dataclass did: the same signature and defaults, frozen, equal and hashed by its fields, printed
the same, and pickled with every field (a hand-written ``__reduce__`` once left one out, so a ``-jobs`` worker
saw the answer key's held questions as not held)."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import FrozenInstanceError, dataclass, field

import pytest
from hypothesis import given, strategies as st

from locomo_repro.bench.experiment import Record
from locomo_repro.data.dataset import Question, Turn
from locomo_repro.data.records import record
from locomo_repro.memory.kg import Triple
from locomo_repro.memory.reason import Fact
from locomo_repro.memory.talk import Claim


@dataclass(frozen=True, slots=True)
class Plain:
    name: str
    count: int = 3
    tags: tuple[str, ...] = ()


@record
@dataclass(frozen=True, slots=True)
class Quick:
    name: str
    count: int = 3
    tags: tuple[str, ...] = ()


def test_the_quick_init_takes_what_the_dataclasss_takes():
    assert Quick("a") == Quick("a", 3, ()) == Quick(name="a", tags=(), count=3)
    assert (Quick("a").name, Quick("a").count, Quick("a").tags) == ("a", 3, ())
    assert str(inspect.signature(Quick)) == str(inspect.signature(Plain))
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("a", 1, (), 4)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("a", name="b")  # type: ignore[misc]


def test_a_record_stays_frozen_slotted_compared_hashed_and_printed_as_its_dataclass():
    q = Quick("a", 1, ("x",))
    with pytest.raises(FrozenInstanceError):
        q.name = "b"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        q.other = 1  # type: ignore[attr-defined]
    assert not hasattr(q, "__dict__")
    assert q == Quick("a", 1, ("x",)) and q != Quick("a", 2, ("x",))
    assert hash(q) == hash(Quick("a", 1, ("x",)))
    assert repr(q) == repr(Plain("a", 1, ("x",))).replace("Plain", "Quick")
    assert dataclasses.replace(q, count=5) == Quick("a", 5, ("x",))


@given(st.text(), st.integers(), st.lists(st.text(), max_size=3).map(tuple))
def test_a_record_comes_back_from_pickling_with_every_field(name, count, tags):
    q = Quick(name, count, tags)
    back = pickle.loads(pickle.dumps(q))
    assert back == q and type(back) is Quick
    assert [getattr(back, f.name) for f in dataclasses.fields(Quick)] == [name, count, tags]


def test_the_kits_records_pickle_every_field_a_worker_needs():
    held = Question("When?", "May", 2, ("D1:3",), held=True)
    assert pickle.loads(pickle.dumps(held)).held
    graded = Record("conv-1", "When?", "May", 2, ("D1:3",), "in May", ("D1:3",), 0.5, 1.0, 1.0, held=True)
    assert pickle.loads(pickle.dumps(graded)) == graded
    for made in (Turn("D1:1", 1, None, "Ann", "Hi."), Triple("ann", "went", "paris", "D1:1", 2, 0.9),
                 Claim("ann", "went", "paris", 0.9, "8 May, 2023", "D1:1", 0, "Ann went to Paris."),
                 Fact(Triple("a", "b", "c"), "naming", ("k",), 1)):
        assert pickle.loads(pickle.dumps(made)) == made


def test_a_class_that_is_not_a_plain_frozen_slotted_record_is_refused_when_made():
    class NotData:
        pass

    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(slots=True)
    class NotFrozen:
        a: int

    @dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = field(default_factory=list)

    @dataclass(frozen=True, slots=True)
    class KeywordOnly:
        a: int = field(kw_only=True)

    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (NotData, NoSlots, NotFrozen, Factory, KeywordOnly, Checked):
        with pytest.raises(TypeError, match="not a frozen, slotted dataclass of plain fields"):
            record(cls)
