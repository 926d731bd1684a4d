"""The kit's records: frozen, slotted dataclasses made without compiling five of their six methods.

``@dataclass(frozen=True, slots=True)`` writes each of a class's methods
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``) as source text and compiles it apart: some 0.4 ms a class, and
the run of one conversation imports some thirty such classes (a twentieth of
its CPU).  :func:`record` makes the same class from one compiled function: the
dataclass machinery is asked for the fields, the slots and ``__match_args__``
alone, and the five methods that only read the fields are the same for every
record, written once here.  ``__init__`` is compiled for the class (it is run
tens of thousands of times a conversation): it stores each field through its
slot's descriptor, three to four times quicker than the ``object.__setattr__``
a frozen dataclass's ``__init__`` stores through.  A record also pickles as
every field's value in order, made again by the class (half the time of the
state a frozen dataclass pickles, for the thousands of turns, questions and
graded records a ``-jobs`` run sends between processes; and no field can be
left out, as a hand-written ``__reduce__`` once left one).

Otherwise a record is the dataclass: its parameters (``__dataclass_params__``)
are those of ``@dataclass(frozen=True, slots=True)``, so ``dataclasses.fields``,
``replace``, ``asdict`` and a frozen dataclass made on it as a base take it as
one; it is equal, hashed and printed as the dataclass would be, and refuses to
be changed with the dataclass's ``FrozenInstanceError``.  A test holds the two
to the same behaviour.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, fields, is_dataclass
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T", bound=type)


@dataclass(frozen=True, slots=True)
class _Shape:
    """The dataclass every record is made as: its parameters are the records' (a test holds the classes alike)."""


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    """The fields' values of a record, in order, as a tuple (what the dataclass's methods compare and hash)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        (one,) = names
        return lambda self: (getattr(self, one),)
    return lambda self: ()


@dataclass_transform(frozen_default=True)
def record(cls: T) -> T:
    """``cls`` made a frozen, slotted dataclass, as ``@dataclass(frozen=True, slots=True)`` would make it, with
    one compiled method (``__init__``) where the dataclass compiles six, and a ``__reduce__`` that pickles it
    as its fields.

    Only a plain record qualifies: every field in ``__init__``, positional, compared, hashed and printed, with
    at most a plain default (no ``default_factory``), no ``ClassVar`` or ``InitVar`` pseudo-field, no
    ``__post_init__`` and none of the methods a record is given of its own; anything else raises
    ``TypeError`` when the class is made.
    """
    own = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__reduce__")
    if not isinstance(cls, type) or hasattr(cls, "__post_init__") or any(n in cls.__dict__ for n in own):
        raise TypeError(f"record: {getattr(cls, '__qualname__', cls)!r} is not a class of plain fields")
    undocumented = not cls.__doc__
    # The fields, slots and match args, no method: but made on a frozen dataclass (a record), dataclass asks
    # to be told it is frozen, and then compiles the two methods that refuse a change (replaced below)
    on_frozen = any(is_dataclass(base) and getattr(base, "__dataclass_params__").frozen for base in cls.__mro__[1:])
    made: Any = dataclass(cls, init=False, repr=False, eq=False, frozen=on_frozen, slots=True)
    every = fields(made)
    if (len(every) != len(made.__dataclass_fields__)
            or any(not f.init or f.kw_only or f.default_factory is not MISSING or not f.repr or not f.compare
                   or f.hash is not None for f in every)):
        raise TypeError(f"record: {cls.__qualname__} is not a class of plain fields")
    made.__dataclass_params__ = _Shape.__dataclass_params__  # type: ignore[attr-defined]
    names = tuple(f.name for f in every)
    space: dict[str, object] = {"_made_by": made}
    heads, body = [], []
    for f in every:
        space[f"_set_{f.name}"] = getattr(made, f.name).__set__  # its slot (a base record's, if inherited)
        if f.default is MISSING:
            heads.append(f.name)
        else:
            space[f"_default_{f.name}"] = f.default
            heads.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})\n")
    values = "".join(f"self.{name}, " for name in names)
    exec(f"def __init__(self, {', '.join(heads)}):\n{''.join(body) or '    pass'}\n"
         f"def __reduce__(self):\n    return _made_by, ({values})\n", space)
    init: Any = space["__init__"]
    init.__annotations__ = {**{f.name: f.type for f in every}, "return": None}
    reduce: Any = space["__reduce__"]
    reduce.__doc__ = "Pickled as every field's value, in order, made again by the class."
    of = _values(names)
    fieldset = frozenset(names)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return of(self) == of(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(of(self))

    @recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, of(self)))
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is made or name in fieldset:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(made, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is made or name in fieldset:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(made, self).__delattr__(name)

    for method in (init, reduce, __eq__, __hash__, __repr__, __setattr__, __delattr__):
        method.__qualname__ = f"{made.__qualname__}.{method.__name__}"
        setattr(made, method.__name__, method)
    if undocumented:  # the dataclass names an undocumented class by its signature
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    return made
