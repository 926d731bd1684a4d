"""LoCoMo's question categories: the one table the kit takes their names from, and the mappings others use.

The official mapping is the authors' own code's: ``task_eval/evaluation.py`` (commit 3eb6f2c5) scores
category 1 by the comma-separated parts of the answer (a multi-hop answer names several things), cuts a
category 3 answer at its first ``;`` (the open-domain answers hold a reason after it), takes plain F1 for 2
and 4, and counts a category 5 reply right when it declines (adversarial: the answer was never said);
``evaluation_stats.py`` prints them in the order 4, 1, 2, 3, 5 under the paper's table heads Single Hop,
Multi Hop, Temporal, Open Domain, Adversarial.  Other harnesses number them as the paper's prose does
(memorybench: 1 single-hop, 2 multi-hop, 3 temporal, 4 world-knowledge) or otherwise again (Backboard's
files: 1 single_hop, 2 temporal_reasoning, 3 multi_hop, 4 open_domain): ``MAPPINGS``.

A category a further benchmark adds (LoCoMo-Plus's Cognitive) is a further row of its own, named, never
folded into one of these.
"""

from __future__ import annotations

from .records import record


@record
class Category:
    """One category: its number in the data, its official name, how the official scorer grades it
    (``parts``, ``f1``, ``cut`` at ``;``, ``declined``) and whether its answer is in the conversation."""

    number: int
    name: str
    rule: str
    answerable: bool = True


#: Every category of locomo10, in the order the tables list them (the reference's and ``evaluation_stats.py``'s).
TABLE: tuple[Category, ...] = (
    Category(4, "single hop", "f1"),
    Category(1, "multi hop", "parts"),
    Category(2, "temporal", "f1"),
    Category(3, "open domain", "cut"),
    Category(5, "adversarial", "declined", answerable=False),
)

#: LoCoMo-Plus's sixth category (xjtuleeyf/Locomo-Plus: cue/trigger items stitched into the conversations, judged
#: correct / partial / wrong, no gold answer): the official scorer has no branch for it.
COGNITIVE = Category(6, "cognitive", "judged", answerable=False)
#: LoCoMo's own five categories by number, in table order, as the official scorer grades them.
OFFICIAL: dict[int, str] = {c.number: c.name for c in TABLE}
#: LoCoMo's five numbers in table order.  A table lists a category beyond them (cognitive) only where its
#: questions hold one, so locomo10's tables are the five rows they always were.
LOCOMO: tuple[int, ...] = tuple(OFFICIAL)
#: Question categories by the dataset's numbers, in the order tables list them: LoCoMo's five, then cognitive.
CATEGORIES: dict[int, str] = {**OFFICIAL, COGNITIVE.number: COGNITIVE.name}
#: Categories whose answer is in the conversation (5 asks about what was never said).
ANSWERABLE: tuple[int, ...] = tuple(sorted(c.number for c in TABLE if c.answerable))

#: The mappings from category number to name in use, each with where it is written.  A name is compared
#: after ``spelled`` (lower case, ``-`` and ``_`` as spaces); ``world knowledge`` is memorybench's open domain.
MAPPINGS: dict[str, tuple[dict[int, str], str]] = {
    "official": (OFFICIAL, "snap-research/locomo task_eval/evaluation.py and evaluation_stats.py"),
    "paper": ({1: "single hop", 2: "multi hop", 3: "temporal", 4: "open domain", 5: "adversarial"},
              "the LoCoMo paper's prose enumeration; supermemoryai/memorybench src/benchmarks/locomo "
              "(4: world-knowledge)"),
    "backboard": ({1: "single hop", 2: "temporal", 3: "multi hop", 4: "open domain", 5: "adversarial"},
                  "Backboard-io/Backboard-Locomo-Benchmark's question_type"),
}

#: Names other harnesses give a category, as the official name they mean.
SYNONYMS = {"world knowledge": "open domain", "temporal reasoning": "temporal"}


def spelled(name: str) -> str:
    """A category name as compared: lower case, ``-`` and ``_`` read as spaces, a synonym as its official name."""
    plain = " ".join(name.lower().replace("_", " ").replace("-", " ").split())
    return SYNONYMS.get(plain, plain)
