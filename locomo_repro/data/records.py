"""Frozen records made as fast as mutable ones, and pickled as their fields.

A frozen dataclass's generated ``__init__`` stores each field through
``object.__setattr__`` (so that its own ``__setattr__``, which refuses, is
passed by): some 0.1 µs a field, three to four times what storing into a slot
costs.  The kit makes tens of thousands of claims, triples and facts a
conversation, so :func:`record` gives a frozen, slotted dataclass an
``__init__`` that stores into the slots through their descriptors instead:
the same signature, defaults and result.  It also gives it a ``__reduce__``
that pickles the record as every field's value in order, made again by the
class (half the time of the state a frozen dataclass otherwise pickles, for the
thousands of turns, questions and graded records a ``-jobs`` run sends between
processes; and no field can be left out, as one once was).  The class is
otherwise untouched: still frozen, hashed, compared and printed as the
dataclass made it.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import TypeVar

T = TypeVar("T", bound=type)


def record(cls: T) -> T:
    """Give a frozen dataclass made with ``slots=True`` an ``__init__`` that fills the slots directly and a
    ``__reduce__`` that pickles it as its fields.

    Only a plain record qualifies: every field in ``__init__``, positional, with at most a plain default (no
    ``default_factory``), no ``__post_init__`` and no ``__reduce__`` of its own; anything else raises
    ``TypeError`` when the class is made.
    """
    params = getattr(cls, "__dataclass_params__", None)
    every = fields(cls) if is_dataclass(cls) else ()
    if (params is None or not params.frozen or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__")
            or "__reduce__" in cls.__dict__
            or any(not f.init or f.kw_only or f.default_factory is not MISSING for f in every)):
        raise TypeError(f"record: {cls.__qualname__} is not a frozen, slotted dataclass of plain fields")
    space: dict[str, object] = {"_made_by": cls}
    heads, body = [], []
    for f in every:
        space[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is MISSING:
            heads.append(f.name)
        else:
            space[f"_default_{f.name}"] = f.default
            heads.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})\n")
    values = "".join(f"self.{f.name}, " for f in every)
    exec(f"def __init__(self, {', '.join(heads)}):\n{''.join(body) or '    pass'}\n"
         f"def __reduce__(self):\n    return _made_by, ({values})\n", space)
    init = space["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    init.__annotations__ = {**{f.name: f.type for f in every}, "return": None}  # type: ignore[attr-defined]
    init.__doc__ = cls.__init__.__doc__  # type: ignore[misc]
    cls.__init__ = init  # type: ignore[misc]
    reduce = space["__reduce__"]
    reduce.__qualname__ = f"{cls.__qualname__}.__reduce__"  # type: ignore[attr-defined]
    reduce.__doc__ = "Pickled as every field's value, in order, made again by the class."  # type: ignore[attr-defined]
    cls.__reduce__ = reduce  # type: ignore[method-assign,assignment]
    return cls
