"""The names a run can ask for: the arm sets and the swept settings with their values.

Kept apart from ``experiment`` so that the command line can offer them as
choices (``--help`` included) without importing the memories, numpy or NLTK.
"""

from __future__ import annotations

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
