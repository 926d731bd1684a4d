"""``data.records.record``: a class made a record behaves exactly as the same class made by
``@dataclass(frozen=True, slots=True)``: the same signature and defaults, frozen with the same error, equal, hashed
and printed the same, the same fields to ``dataclasses`` (``replace``, ``asdict``, a frozen dataclass made on it),
and pickled and copied with every field (a hand-written ``__reduce__`` once left one out, so a ``-jobs`` worker saw
the answer key's held questions as not held)."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from typing import ClassVar

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
    """A class with three fields."""

    name: str
    count: int = 3
    tags: tuple[str, ...] = ()


@record
class Quick:
    """A class with three fields."""

    name: str
    count: int = 3
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlainOne:
    only: object


@record
class QuickOne:
    only: object


@dataclass(frozen=True, slots=True)
class PlainNone:
    pass


@record
class QuickNone:
    pass


@dataclass(frozen=True, slots=True)
class PlainLonger(Plain):
    extra: int = 0


@record
class QuickLonger(Quick):
    extra: int = 0


def _as_plain(text: str) -> str:
    return text.replace("Quick", "Plain")


def test_the_init_takes_what_the_dataclasss_takes():
    assert Quick("a") == Quick("a", 3, ()) == Quick(name="a", tags=(), count=3)
    assert (Quick("a").name, Quick("a").count, Quick("a").tags) == ("a", 3, ())
    for quick, plain in ((Quick, Plain), (QuickOne, PlainOne), (QuickNone, PlainNone)):
        assert str(inspect.signature(quick)) == str(inspect.signature(plain))
        assert quick.__match_args__ == plain.__match_args__
        assert quick.__slots__ == plain.__slots__
        assert quick.__dataclass_params__.__repr__() == plain.__dataclass_params__.__repr__()
        assert _as_plain(quick.__doc__ or "") == plain.__doc__
        assert quick.__init__.__qualname__ == f"{quick.__qualname__}.__init__"
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("a", 1, (), 4)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("a", name="b")  # type: ignore[misc]


def _refusals(made: object) -> list[str]:
    """What the record refuses of a change to a field, as the dataclass's errors say it."""
    said = []
    for attempt in (lambda: setattr(made, "name", "b"), lambda: delattr(made, "name")):
        with pytest.raises(FrozenInstanceError) as refused:
            attempt()
        said.append(str(refused.value))
    return said


def test_a_record_is_frozen_slotted_and_refuses_a_change_as_its_dataclass_does():
    q = Quick("a", 1, ("x",))
    assert not hasattr(q, "__dict__")
    assert _refusals(q) == _refusals(Plain("a", 1, ("x",))) == ["cannot assign to field 'name'",
                                                                "cannot delete field 'name'"]
    # Another name is refused too (3.11's slotted dataclass means to, but its check names the class it had
    # before the slots were added and so fails with a TypeError of super()'s instead)
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'other'"):
        q.other = 1  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'other'"):
        del q.other  # type: ignore[attr-defined]
    assert q == Quick("a", 1, ("x",))


@given(st.text(), st.integers(), st.lists(st.text(), max_size=3).map(tuple),
       st.text(), st.integers(), st.lists(st.text(), max_size=3).map(tuple))
def test_a_record_is_compared_hashed_and_printed_as_its_dataclass(name, count, tags, name2, count2, tags2):
    q, p = Quick(name, count, tags), Plain(name, count, tags)
    q2, p2 = Quick(name2, count2, tags2), Plain(name2, count2, tags2)
    assert (q == q2) == (p == p2) and (q != q2) == (p != p2)
    assert hash(q) == hash(p) and hash(q2) == hash(p2)
    assert _as_plain(repr(q)) == repr(p)
    assert q.__eq__(p) is NotImplemented and p.__eq__(q) is NotImplemented
    assert dataclasses.asdict(q) == dataclasses.asdict(p) and dataclasses.astuple(q) == dataclasses.astuple(p)
    assert dataclasses.replace(q, count=count2) == Quick(name, count2, tags)
    assert [f.name for f in dataclasses.fields(q)] == [f.name for f in dataclasses.fields(p)]


@given(st.one_of(st.none(), st.integers(), st.text(), st.tuples(st.integers())))
def test_a_record_of_one_field_or_none_is_compared_hashed_and_printed_as_its_dataclass(value):
    assert hash(QuickOne(value)) == hash(PlainOne(value))
    assert _as_plain(repr(QuickOne(value))) == repr(PlainOne(value))
    assert (QuickOne(value) == QuickOne(value)) == (PlainOne(value) == PlainOne(value))
    assert hash(QuickNone()) == hash(PlainNone()) and QuickNone() == QuickNone()
    assert _as_plain(repr(QuickNone())) == repr(PlainNone())


def test_a_record_holding_itself_is_printed_as_its_dataclass_prints_one():
    held: list[object] = []
    q, p = QuickOne(held), PlainOne([])
    held.append(q)
    p.only.append(p)
    assert _as_plain(repr(q)) == repr(p) == "PlainOne(only=[...])"


def test_a_frozen_dataclass_is_made_on_a_record_as_on_its_dataclass():
    @dataclass(frozen=True)
    class Longer(Quick):
        extra: int = 0

    made = Longer("a", 2, (), 5)
    assert (made.name, made.count, made.extra) == ("a", 2, 5)
    assert [f.name for f in dataclasses.fields(made)] == ["name", "count", "tags", "extra"]
    with pytest.raises(FrozenInstanceError):
        made.extra = 1  # type: ignore[misc]
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        @dataclass
        class Loose(Quick):
            extra: int = 0


def test_a_record_made_on_a_record_is_its_dataclass_made_on_its_dataclass():
    made = QuickLonger("a", 2, ("x",), 5)
    assert (made.name, made.count, made.tags, made.extra) == ("a", 2, ("x",), 5)
    assert repr(made) == repr(PlainLonger("a", 2, ("x",), 5)).replace("Plain", "Quick")
    assert str(inspect.signature(QuickLonger)) == str(inspect.signature(PlainLonger))
    assert hash(made) == hash(PlainLonger("a", 2, ("x",), 5)) and made != Quick("a", 2, ("x",))
    assert pickle.loads(pickle.dumps(made)) == made
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'name'"):
        made.name = "b"  # type: ignore[misc]


@given(st.text(), st.integers(), st.lists(st.text(), max_size=3).map(tuple))
def test_a_record_comes_back_from_pickling_and_copying_with_every_field(name, count, tags):
    q = Quick(name, count, tags)
    for back in (pickle.loads(pickle.dumps(q)), copy.copy(q), copy.deepcopy(q)):
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


def test_a_class_that_is_not_one_of_plain_fields_is_refused_when_made():
    def refused(cls: type) -> None:
        with pytest.raises(TypeError, match="is not a class of plain fields"):
            record(cls)

    @dataclass(frozen=True, slots=True)
    class Already:
        a: int

    class Factory:
        a: list[int] = field(default_factory=list)

    class KeywordOnly:
        a: int = field(kw_only=True)

    class Uncompared:
        a: int = field(compare=False)

    class Unshown:
        a: int = field(repr=False)

    class Shared:
        a: int
        every: ClassVar[int] = 0

    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    class OwnHash:
        a: int

        def __hash__(self) -> int:
            return 0

    for cls in (Already, Factory, KeywordOnly, Uncompared, Unshown, Shared, Checked, OwnHash):
        refused(cls)
    refused(len)  # type: ignore[arg-type]
