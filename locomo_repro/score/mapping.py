"""``locomo-repro categories FILE``: which category mapping a file of any harness uses, with the evidence.

The file's records are found wherever they are (any list of objects, at any depth); a record that gives a
category number and a category name (``category`` with ``question_type``, ``category_name``, ``type``…) says
which name that harness gives that number, and each mapping of ``data.categories.MAPPINGS`` agrees with
so many of those pairs.  A record that gives a question's text and a number is also looked up in the
dataset: the number locomo10 gives that question says whether the file numbers categories as the dataset does.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator, Sequence

from ..data import jsonio
from ..data.categories import MAPPINGS, spelled
from ..data.dataset import DatasetError, load as load_dataset
from ..go import flags

PROG = "locomo-repro categories"

#: The fields a record may name its category's name in.
NAME_FIELDS = ("question_type", "category_name", "type", "category_type")


def records(value: object) -> Iterator[dict]:
    """Every object of a JSON value that holds a ``category``, at any depth."""
    if isinstance(value, dict):
        if "category" in value:
            yield value
        for v in value.values():
            yield from records(v)
    elif isinstance(value, list):
        for v in value:
            yield from records(v)


def _number(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 3:
        return int(value)
    return None


def evidence(data: object, questions: dict[str, set[int]]) -> tuple[Counter, Counter]:
    """The (number, name) pairs the file's records give, and (number the file gives, number locomo10 gives)
    for the records whose question text the dataset holds (``questions``: text -> its categories)."""
    named: Counter = Counter()
    numbered: Counter = Counter()
    for r in records(data):
        number = _number(r.get("category"))
        if number is None:
            name = r.get("category")
            if isinstance(name, str):
                named[(None, spelled(name))] += 1
            continue
        for f in NAME_FIELDS:
            if isinstance(r.get(f), str):
                named[(number, spelled(r[f]))] += 1
                break
        asked = r.get("question")
        if isinstance(asked, str) and len(questions.get(asked, ())) == 1:
            (theirs,) = questions[asked]
            numbered[(number, theirs)] += 1
    return named, numbered


def verdict(path: str, named: Counter, numbered: Counter) -> str:
    """The report: per mapping how many named records agree with it, the numbers against locomo10's, and the
    mapping the evidence points to."""
    lines = [f"{path}:"]
    pairs = {pair: n for pair, n in named.items() if pair[0] is not None}
    total = sum(pairs.values())
    agree = {m: sum(n for (k, name), n in pairs.items() if table.get(k) == name) for m, (table, _) in MAPPINGS.items()}
    if total:
        seen = ", ".join(f"{k} {name} ({n})" for (k, name), n in sorted(pairs.items(), key=lambda p: (p[0][0], p[0][1])))
        lines.append(f"  names given to numbers: {seen}")
        for m, (_, where) in MAPPINGS.items():
            lines.append(f"  {m:<10} {agree[m]} of {total} agree  ({where})")
    bare = {name: n for (k, name), n in named.items() if k is None}
    if bare:
        lines.append(f"  categories by name only: {', '.join(f'{name} ({n})' for name, n in sorted(bare.items()))}")
    if numbered:
        same = sum(n for (mine, theirs), n in numbered.items() if mine == theirs)
        lines.append(f"  numbers against locomo10's, by question text: {same} of {sum(numbered.values())} the same")
    best = [m for m in MAPPINGS if total and agree[m] == total]
    if best:
        lines.append(f"  mapping: {' = '.join(best)}")
    elif total:
        lines.append("  mapping: none of the known ones (its names disagree with each)")
    elif numbered:
        lines.append("  mapping: numbers only: " + ("locomo10's own" if same == sum(numbered.values())
                                                   else "not locomo10's numbering"))
    else:
        lines.append("  mapping: no record gives a category the kit can read")
    return "\n".join(lines) + "\n"


def parser() -> flags.Parser:
    """This command's flags."""
    p = flags.Parser(prog=PROG, description="Which category mapping a file of any harness uses, with the evidence.")
    p.add_argument("files", nargs="+", metavar="FILE", help="a JSON file of any harness (records with a category)")
    p.add_argument("-data", "--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro categories FILE...``: the report on stdout; a bad file one line on stderr, exit 2."""
    args = parser().parse(argv)
    try:
        questions: dict[str, set[int]] = {}
        for s in load_dataset(args.data):
            for q in s.questions:
                questions.setdefault(q.text, set()).add(q.category)
        out = []
        for path in args.files:
            out.append(verdict(path, *evidence(jsonio.load(path), questions)))
    except (jsonio.InputError, DatasetError) as err:
        print(err, file=sys.stderr)
        return 2
    sys.stdout.write("".join(out))
    return 0
