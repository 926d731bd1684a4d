"""Evidence reach of the knowledge graph: how much annotated evidence a walk from the question's subject touches.

Reproduces the measurement of hanzoai/semantic bench/locomo reach_test.go:
for every question whose subject resolves to a known name, walk the graph
from that node (undirected, each edge once at its first hop) and count the
question's evidence ids (trimmed of brackets) found among the reached edges'
turns; reach is hits over evidence ids, pooled per category.

``locomo-repro reach [--only N] [--data PATH]`` prints one line per
category, by bare number in the reference's order 4, 1, 2, 3, 5: over all ten
conversations these are the reference harness's own lines (kept in
``golden/reference/extra-reach-all10-and-graph-gather.txt`` after the ``ALL10``
label of its log), so they keep its bytes; ``--named`` names each category by its number and official
name, in number order (``category 1 multi hop: …``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..go import flags
from ..memory import kg
from ..data.dataset import CATEGORIES, LOCOMO, DatasetError, Sample, load
from ..arms.graph import Knowledge
from ..memory.terms import Vocabulary

HOPS = (1, 2)


def reach(samples: Sequence[Sample], hops: Sequence[int] = HOPS) -> dict[int, dict[int, float]]:
    """For each hop count and category, the share of evidence ids the walk reaches."""
    hit = {h: dict.fromkeys(CATEGORIES, 0) for h in hops}
    want = dict.fromkeys(CATEGORIES, 0)
    for sample in samples:
        know = Knowledge(sample, Vocabulary([t.text for t in sample.turns]))
        reached: dict[tuple[str, int], frozenset[str]] = {}
        for q in sample.questions:
            node = kg.fold(know.subject(q.text))
            if not node:
                continue
            want[q.category] += len(q.evidence)
            for h in hops:
                if (node, h) not in reached:
                    reached[node, h] = frozenset(d for step in know.graph.walk(node, h) for d in step.edge.docs)
                docs = reached[node, h]
                hit[h][q.category] += sum(e.strip("()") in docs for e in q.evidence)
    return {h: {c: hit[h][c] / want[c] if want[c] else 0.0 for c in CATEGORIES} for h in hops}


def report(found: dict[int, dict[int, float]], named: bool = False) -> str:
    """One line per category: one-hop and two-hop reach; by bare number in the reference's order, or
    ``named``: by number and official name, in number order."""
    kinds = sorted(LOCOMO) if named else list(LOCOMO)
    return "".join(
        f"category {c}{' ' + CATEGORIES[c] if named else ''}: one hop reaches {found[1][c]:.3f}, "
        f"two {found[2][c]:.3f}\n" for c in kinds
    )


def parser() -> flags.Parser:
    """This command's flags (the docs' commands are parsed with it)."""
    p = flags.Parser(prog="locomo-repro reach", description=__doc__.splitlines()[0])
    p.add_argument("--data", "-data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    p.add_argument("--only", "-only", type=int, default=0, metavar="N", help="only the first N conversations")
    p.add_argument("--named", "-named", action="store_true",
                   help="name each category by number and official name, in number order (not the reference's lines)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    args = p.parse(argv)
    if args.only < 0:
        print(f"{p.prog}: error: --only takes a count of 0 or more, got {args.only}", file=sys.stderr)
        return 2
    try:
        samples = load(args.data)
    except DatasetError as err:
        print(f"locomo-repro: {err}", file=sys.stderr)
        return 2
    if args.only > 0:
        samples = samples[: args.only]
    sys.stdout.write(report(reach(samples), args.named))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
