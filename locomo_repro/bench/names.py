"""The names a run can ask for: the arm sets and the swept settings with their values.

Kept apart from ``experiment`` so that the command line can offer them as
choices (``--help`` included) without importing the memories, numpy or NLTK.
"""

from __future__ import annotations

#: The arm sets a run can ask for.
ARM_SETS = ("main", "factor", "walk", "read", "gather", "hops")

#: The values each setting is swept over.
STEPS: dict[str, tuple[float, ...]] = {
    "k": (1, 2, 5, 10, 20, 50),
    "floor": (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8),
    "span": (2, 3, 4, 5, 6, 8, 12),
    "band": (0.5, 0.7, 0.8, 0.9, 0.95, 1),
    "parts": (1, 2, 3, 4),
}
