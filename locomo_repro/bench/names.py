"""The names a run can ask for: the arm sets and the swept settings with their values.

Kept apart from ``experiment`` so that the command line can offer them as
choices (``--help`` included) without importing the memories, numpy or NLTK.
"""

from __future__ import annotations

import math
import re
from ..data.records import record

#: The arm sets a run can ask for, each with the arms it builds (in the order it builds them).
ARM_SETS: dict[str, tuple[str, ...]] = {
    "main": ("vector", "graph", "graph+edge", "oracle"),
    "factor": ("vector", "scoped", "span", "graph"),
    "walk": ("vector", "vector+set", "graph", "path", "path+set", "oracle", "oracle+set"),
    "read": ("oracle", "oracle+set"),
    "gather": ("graph", "graph+set"),
    "hops": ("graph+set", "path+set", "path2", "path3", "walk2", "walk3"),
}

#: The names of the built-in memories (and of the contamination control's), which a plug-in's arm may not take.
MEMORIES = frozenset({"vector", "graph", "oracle", "scoped", "span", "path", "path2", "path3", "walk2", "walk3",
                      "closed"})

#: The values each setting is swept over.
STEPS: dict[str, tuple[float, ...]] = {
    "k": (1, 2, 5, 10, 20, 50),
    "floor": (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8),
    "span": (2, 3, 4, 5, 6, 8, 12),
    "band": (0.5, 0.7, 0.8, 0.9, 0.95, 1),
    "parts": (1, 2, 3, 4),
}


@record
class PluginSweep:
    """A sweep over a plug-in's setting, ``-sweep 'ARM(KEY=V1,V2,...)'``: the plug-in (its arm's name, or its
    name in ``-arms``), the setting's key, and the values, each a number, in the order given."""

    arm: str
    key: str
    values: tuple[float, ...]

    @property
    def setting(self) -> str:
        """How a results file names the swept setting: ``ARM.KEY``."""
        return f"{self.arm}.{self.key}"


_PLUGIN_SWEEP = re.compile(r"(?P<arm>[^()]+)\((?P<key>[A-Za-z_][A-Za-z0-9_]*)=(?P<values>[^()=]+)\)\Z")


def plugin_sweep(text: str) -> PluginSweep | None:
    """``-sweep``'s value as a sweep over a plug-in's setting, or None when it is not one (a reader setting's
    name, or malformed: a value that is not a finite number, one given twice)."""
    found = _PLUGIN_SWEEP.match(text)
    if found is None:
        return None
    values: list[float] = []
    for item in found["values"].split(","):
        try:
            number: float = int(item)
        except ValueError:
            try:
                number = float(item)
            except ValueError:
                return None
        if not math.isfinite(number) or number in values:
            return None
        values.append(number)
    return PluginSweep(found["arm"], found["key"], tuple(values))


def steps(sweep: str) -> tuple[str, tuple[float, ...]]:
    """A sweep's label (the swept reader setting, or the plug-in setting's key) and its values in order."""
    plugged = plugin_sweep(sweep)
    return (plugged.key, plugged.values) if plugged else (sweep, STEPS[sweep])
