"""Every number the published README states, measured with the kit.

``claims.yaml`` (repository root) lists each numeric claim of the
publication (hanzoai/semantic ``bench/locomo/README.md``): where it stands,
what it measures, the value as printed, its precision and its status.  This
module reads and checks that manifest, turns a claim's ``measures`` into a
number with the kit's own API, and decides whether the measurement agrees with
the printed value.  The tests (``tests/test_claims.py``) and the command line
share it:

    python -m locomo_repro.claims [--manifest claims.yaml] [--markdown PATH]

prints the count of claims per status and every claim that is not simply
reproduced, with the published and the measured value.

Statuses: ``reproduced`` (measured equals published at the printed
precision), ``refuted`` (it does not; the entry records what the kit
measures), ``refuted-by-reconstruction`` (as refuted, measured with an
experiment the publication removed and the kit rebuilt from its description:
``-arms hops``, ``-coref``, ``timewords``), ``reported`` (a figure of the
author's machine, such as a timing: the kit measures its own and reports it
beside the published one; nothing about its size is asserted) and
``unverifiable`` (no definition or code to measure it with).

Precision is the printed step (``0.001``, ``1``), ``exact`` for text and flags,
or ``fraction`` for a word naming a fraction (half, quarter, fifth).  A word for
a fraction agrees with a measurement when that fraction is the simple fraction
nearest to it — the fractions with denominators 1 to 5 (0, 1/5, 1/4, 1/3, 2/5,
1/2, ...) — that is, when the measurement lies strictly within half the gap to
each neighbouring simple fraction: "quarter" takes 0.225 to 0.2917 (exclusive),
"half" 0.45 to 0.55, "fifth" 0.1 to 0.225.

A claim that needs something not on this machine (the official
``evaluation.py``) is skipped, naming what is missing; it is never measured
another way.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import io
import math
import os
import re
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import yaml

STATUSES = ("reproduced", "refuted", "refuted-by-reconstruction", "reported", "unverifiable")
#: Statuses whose entry records the value the kit measures instead of the published one.
REFUTING = ("refuted", "refuted-by-reconstruction")
UNITS = ("number", "percent", "text", "bool")
COMPARES = ("equal", "brackets", "at-most", "above")
METRICS = ("F1", "recall", "quiet", "n", "declined")
COLUMNS = ("1-4", "adv", "all", "quiet")

#: Each kind of measurement: its required keys and its optional keys (``kind`` itself aside).
KINDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "dataset": (frozenset({"field"}), frozenset({"categories", "index"})),
    "build": (frozenset({"conversation", "field"}), frozenset()),
    "subjects": (frozenset({"field"}), frozenset({"share"})),
    "table": (frozenset({"run", "row", "metric"}), frozenset({"arm"})),
    "sweep": (frozenset({"run", "arm", "column"}), frozenset({"value", "reduce"})),
    "check": (frozenset({"run", "row", "metric"}), frozenset({"arm"})),
    "stats": (frozenset({"run", "stat"}), frozenset({"arm", "arms", "half", "bound", "row"})),
    "reach": (frozenset({"conversations"}), frozenset({"hops", "category", "reduce", "shape"})),
    "example": (frozenset({"run", "sample", "question", "field"}), frozenset({"arm", "turn"})),
    "golden": (frozenset({"list"}), frozenset()),
    "option": (frozenset({"name"}), frozenset()),
    "arms": (frozenset({"runs"}), frozenset()),
    "identical": (frozenset({"runs", "arms"}), frozenset()),
    "agrees": (frozenset({"runs"}), frozenset()),
    "shift": (frozenset({"runs", "metrics"}), frozenset({"rows", "places"})),
    "gains": (frozenset({"run", "pairs", "above"}), frozenset()),
    "expr": (frozenset({"expr"}), frozenset()),
    "timing": (frozenset({"of"}), frozenset()),
    "same": (frozenset({"run", "pairs", "metrics"}), frozenset({"rows", "places"})),
    "delta": (frozenset({"runs", "arm", "row", "metric"}), frozenset()),
    "bound": (frozenset({"run"}), frozenset()),
    "timewords": (frozenset(), frozenset()),
    "empty-context": (frozenset(), frozenset()),
    "undefined": (frozenset({"what"}), frozenset()),
}
#: Kinds that cannot yield a number: the claim's status must be ``unverifiable``.
UNMEASURABLE = ("undefined",)

CLAIM_REQUIRED = ("id", "section", "where", "measures", "published", "precision", "status")
CLAIM_OPTIONAL = ("unit", "value", "compare", "measured", "reason", "note")
NOT_CLAIM_REQUIRED = ("section", "value", "reason")
NOT_CLAIM_OPTIONAL = ("count",)
TOP_KEYS = ("publication", "sections", "claims", "not_claims")

#: The README's row names and the categories each covers (all when empty).
ROWS: dict[str, tuple[int, ...]] = {
    "single hop": (4,),
    "multi hop": (1,),
    "temporal": (2,),
    "open domain": (3,),
    "adversarial": (5,),
    "answerable": (1, 2, 3, 4),
    "overall": (),
}
CATEGORY_NAMES = {name: kinds[0] for name, kinds in ROWS.items() if len(kinds) == 1}

_ID = re.compile(r"[a-z0-9][a-z0-9.+\-]*\Z")


# --- numbers in text ----------------------------------------------------------------------

#: Number words the completeness check counts as numbers, with their values.
NUMBER_WORDS: dict[str, Fraction] = {
    "zero": Fraction(0), "one": Fraction(1), "two": Fraction(2), "three": Fraction(3),
    "four": Fraction(4), "five": Fraction(5), "six": Fraction(6), "seven": Fraction(7),
    "eight": Fraction(8), "nine": Fraction(9), "ten": Fraction(10), "eleven": Fraction(11),
    "twelve": Fraction(12), "half": Fraction(1, 2), "quarter": Fraction(1, 4), "fifth": Fraction(1, 5),
}

#: The words for a fraction (precision ``fraction``), with their values.
FRACTION_WORDS = {word: value for word, value in NUMBER_WORDS.items() if 0 < value < 1}

#: The simple fractions a reader names in words: n/d for every denominator d from 1 to 5, from 0 to 1.
SIMPLE_FRACTIONS = tuple(sorted({Fraction(n, d) for d in range(1, 6) for n in range(d + 1)}))


def names_fraction(value: Fraction, x: float) -> bool:
    """Whether a word for the fraction ``value`` describes ``x``: ``value`` is the simple fraction nearest ``x``.

    That is, ``x`` lies strictly within half the gap from ``value`` to each
    neighbouring simple fraction (:data:`SIMPLE_FRACTIONS`); a measurement
    exactly halfway between two of them is named by neither.
    """
    at = SIMPLE_FRACTIONS.index(value)
    low = (SIMPLE_FRACTIONS[at - 1] + value) / 2 if at else value
    high = (value + SIMPLE_FRACTIONS[at + 1]) / 2 if at + 1 < len(SIMPLE_FRACTIONS) else value
    return low < Fraction(x) < high


_NUMBERS = re.compile(
    r"""
      (?P<sha>\b[0-9a-f]{64}\b)                       # a SHA-256 digest
    | (?P<turn>\bD\d+:\d+\b)                          # a dialogue id, D20:2
    | (?P<conv>\bconv-\d+\b)                          # a conversation id, conv-43
    | (?P<shape>\b\d+x\d+\b)                          # a table shape, 2x2
    | (?P<num>(?<![\w.])(?:[+\-\u2212](?=\d))?\d+(?:,\d{3})*(?:\.\d+)?(?:%|s\b)?(?!\w))
    | (?P<word>\b(?:"""
    + "|".join(NUMBER_WORDS)
    + r""")\b)
    """,
    re.VERBOSE | re.IGNORECASE,
)


def numbers(text: str) -> list[str]:
    """Every number in ``text`` as printed, in order.

    A number is a figure (``1,986``, ``-0.029``, ``+0.152``, ``24%``, ``5.2s``;
    a figure glued to letters, as in ``F1`` or ``path2``, is a name), a
    dialogue id (``D20:2``), a conversation id (``conv-43``), a SHA-256 digest,
    a table shape (``2x2``) or a number word (``ten``, ``half``; lower-cased).
    A range such as ``58–79%`` is two numbers.
    """
    out = []
    for m in _NUMBERS.finditer(text):
        out.append(m.group().lower() if m.lastgroup == "word" else m.group())
    return out


def figure(token: str) -> Decimal | None:
    """The value of a figure token (``1,986`` -> 1986, ``−0.029`` -> -0.029, ``24%`` -> 24); None otherwise."""
    m = re.fullmatch(r"([+\-\u2212]?)(\d+(?:,\d{3})*(?:\.\d+)?)(%|s)?", token)
    if not m:
        return None
    sign = "-" if m.group(1) in ("-", "\u2212") else ""
    return Decimal(sign + m.group(2).replace(",", ""))


def split_sections(text: str, headings: Sequence[str], first: str = "intro") -> dict[str, str]:
    """The publication cut at its headings (lines equal to one of ``headings``): text per section.

    A section's text starts with its heading line; text before the first
    heading is section ``first``.  Raises ValueError when a heading is missing
    or repeated.
    """
    found = Counter(line.strip() for line in text.splitlines() if line.strip() in headings)
    for h in headings:
        if found[h] != 1:
            raise ValueError(f"heading {h!r} occurs {found[h]} times in the publication (expected once)")
    out: dict[str, list[str]] = {first: []}
    at = first
    for line in text.splitlines():
        if line.strip() in headings:
            at = line.strip()
            out[at] = []
        out[at].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


# --- the manifest ---------------------------------------------------------------------------


class ManifestError(ValueError):
    """A manifest that does not have the shape of claims.yaml; the message names the entry."""


@dataclass(frozen=True)
class Claim:
    """One number the publication states, what measures it, and whether the kit agrees."""

    id: str
    section: str
    where: str
    measures: Mapping[str, Any]
    published: str
    precision: str
    status: str
    unit: str = "number"
    value: Any = None
    compare: str = "equal"
    measured: Any = None
    reason: str | None = None
    note: str | None = None

    @property
    def kind(self) -> str:
        return self.measures["kind"]


@dataclass(frozen=True)
class NotClaim:
    """A number in the publication that is not a claim (a flag value, a label), with the reason."""

    section: str
    value: str
    reason: str
    count: int = 1


@dataclass(frozen=True)
class Manifest:
    """claims.yaml, checked."""

    publication: Mapping[str, str]
    sections: tuple[str, ...]
    claims: tuple[Claim, ...]
    not_claims: tuple[NotClaim, ...]

    def claim(self, claim_id: str) -> Claim:
        for c in self.claims:
            if c.id == claim_id:
                return c
        raise KeyError(claim_id)

    def counts(self) -> Counter:
        """Numbers accounted for, per (section, number as printed): claims' published values and not-claims."""
        out: Counter = Counter()
        for c in self.claims:
            for token in numbers(c.published):
                out[c.section, token] += 1
        for n in self.not_claims:
            for token in numbers(n.value):
                out[n.section, token] += n.count
        return out


def default_path() -> Path:
    """claims.yaml: ``$LOCOMO_CLAIMS``, else ./claims.yaml, else next to the package."""
    if os.environ.get("LOCOMO_CLAIMS"):
        return Path(os.environ["LOCOMO_CLAIMS"])
    here = Path.cwd() / "claims.yaml"
    return here if here.is_file() else Path(__file__).resolve().parents[2] / "claims.yaml"


def load(path: str | os.PathLike[str] | None = None) -> Manifest:
    """Read and check a manifest (default :func:`default_path`)."""
    where = Path(path) if path is not None else default_path()
    try:
        # libyaml's loader when PyYAML has it: the manifest is long.
        data = yaml.load(where.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except OSError as err:
        raise ManifestError(f"{where}: cannot read: {err.strerror or err}") from None
    except yaml.YAMLError as err:
        raise ManifestError(f"{where}: not YAML: {' '.join(str(err).split())}") from None
    return validate(data, str(where))


def _keys(entry: object, required: Sequence[str], optional: Sequence[str], what: str) -> dict:
    if not isinstance(entry, dict):
        raise ManifestError(f"{what}: not a mapping")
    unknown = sorted(set(entry) - set(required) - set(optional), key=str)
    if unknown:
        raise ManifestError(f"{what}: unknown key {unknown[0]!r} (allowed: {', '.join([*required, *optional])})")
    missing = [k for k in required if k not in entry or entry[k] is None]
    if missing:
        raise ManifestError(f"{what}: missing {missing[0]!r}")
    return entry


def _text(entry: dict, key: str, what: str) -> str:
    value = entry[key]
    if not isinstance(value, str) or not value.strip():
        raise ManifestError(f"{what}: {key!r} must be a non-empty string, got {value!r}")
    return value


#: The precision of a word naming a fraction: agreement by :func:`names_fraction`.
FRACTION = "fraction"


def _precision_step(precision: str) -> Fraction | None:
    """A printed precision as a step (``0.001`` -> 1/1000, ``1`` -> 1); None for ``exact`` and ``fraction``."""
    if precision in ("exact", FRACTION):
        return None
    if re.fullmatch(r"1|0\.0*1", precision):
        return Fraction(Decimal(precision))
    raise ValueError(precision)


def validate(data: object, source: str = "claims.yaml") -> Manifest:
    """Check decoded YAML against the manifest's schema; raise :class:`ManifestError` naming the entry."""
    top = _keys(data, TOP_KEYS, (), source)
    publication = _keys(top["publication"], ("file", "sha256"), (), f"{source}: publication")
    sections = top["sections"]
    if not isinstance(sections, list) or not all(isinstance(s, str) for s in sections) or not sections:
        raise ManifestError(f"{source}: sections must be a list of headings")
    known_sections = {"intro", *sections}
    if not isinstance(top["claims"], list):
        raise ManifestError(f"{source}: claims must be a list")
    claims: list[Claim] = []
    seen: set[str] = set()
    for i, entry in enumerate(top["claims"]):
        label = entry.get("id") if isinstance(entry, dict) else None
        what = f"{source}: claim {label!r} (entry {i + 1})" if label else f"{source}: claim entry {i + 1}"
        claims.append(_claim(entry, what, known_sections))
        if claims[-1].id in seen:
            raise ManifestError(f"{what}: duplicate id")
        seen.add(claims[-1].id)
    for c in claims:
        if c.kind == "expr":
            for ref in _refs(c.measures["expr"]):
                if ref not in seen:
                    raise ManifestError(f"{source}: claim {c.id!r}: expr refers to unknown claim {ref!r}")
    if not isinstance(top["not_claims"], list):
        raise ManifestError(f"{source}: not_claims must be a list")
    not_claims = []
    for i, entry in enumerate(top["not_claims"]):
        what = f"{source}: not_claims entry {i + 1}"
        e = _keys(entry, NOT_CLAIM_REQUIRED, NOT_CLAIM_OPTIONAL, what)
        if e["section"] not in known_sections:
            raise ManifestError(f"{what}: unknown section {e['section']!r}")
        value = str(e["value"])
        if not numbers(value):
            raise ManifestError(f"{what}: value {value!r} holds no number")
        count = e.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ManifestError(f"{what}: count must be a positive integer, got {count!r}")
        not_claims.append(NotClaim(e["section"], value, _text(e, "reason", what), count))
    return Manifest(dict(publication), tuple(sections), tuple(claims), tuple(not_claims))


def _claim(entry: object, what: str, sections: set[str]) -> Claim:
    e = _keys(entry, CLAIM_REQUIRED, CLAIM_OPTIONAL, what)
    cid = _text(e, "id", what)
    if not _ID.match(cid):
        raise ManifestError(f"{what}: id must be lower-case letters, digits and . + - only")
    if e["section"] not in sections:
        raise ManifestError(f"{what}: unknown section {e['section']!r}")
    status = e["status"]
    if status not in STATUSES:
        raise ManifestError(f"{what}: status {status!r} is not one of {', '.join(STATUSES)}")
    unit = e.get("unit", "number")
    if unit not in UNITS:
        raise ManifestError(f"{what}: unit {unit!r} is not one of {', '.join(UNITS)}")
    compare = e.get("compare", "equal")
    if compare not in COMPARES:
        raise ManifestError(f"{what}: compare {compare!r} is not one of {', '.join(COMPARES)}")
    published = e["published"]
    if not isinstance(published, str):
        raise ManifestError(f"{what}: published must be the text as printed (a string), got {published!r}")
    precision = str(e["precision"])
    try:
        step = _precision_step(precision)
    except ValueError:
        raise ManifestError(f"{what}: precision {precision!r} is not 'exact', 'fraction' or a power of ten") from None
    if (precision == "exact") != (unit in ("text", "bool")):
        raise ManifestError(f"{what}: precision 'exact' goes with units text and bool, and only with them")
    if precision == FRACTION and (
        published.strip().lower() not in FRACTION_WORDS or unit != "number" or compare == "brackets"
    ):
        raise ManifestError(f"{what}: precision 'fraction' goes with a word for a fraction ({', '.join(FRACTION_WORDS)})")
    measures = e["measures"]
    _measures(measures, what)
    kind = measures["kind"]
    if (kind in UNMEASURABLE) != (status == "unverifiable"):
        raise ManifestError(f"{what}: a {kind!r} measure and status {status!r} do not go together")
    if status in REFUTING and "measured" not in e:
        raise ManifestError(f"{what}: status {status} needs 'measured' (the value the kit measures)")
    if status not in REFUTING and "measured" in e:
        raise ManifestError(f"{what}: 'measured' is recorded only for a refuted claim")
    if status != "reproduced" and not e.get("reason"):
        raise ManifestError(f"{what}: status {status} needs a 'reason'")
    for key in ("reason", "note"):
        if key in e:
            _text(e, key, what)
    claim = Claim(
        id=cid, section=e["section"], where=_text(e, "where", what), measures=dict(measures),
        published=published, precision=precision, status=status, unit=unit, value=e.get("value"),
        compare=compare, measured=e.get("measured"), reason=e.get("reason"), note=e.get("note"),
    )
    try:
        expected(claim)
        if status in REFUTING:
            expected(claim, measured=True)
    except ValueError as err:
        raise ManifestError(f"{what}: {err}") from None
    word = published.strip().lower()
    if word in NUMBER_WORDS and unit == "number":
        if claim.value is None or Fraction(Decimal(str(claim.value))) != NUMBER_WORDS[word]:
            raise ManifestError(f"{what}: published {published!r} means {NUMBER_WORDS[word]}, value says {claim.value!r}")
    if claim.value is None and step is not None:
        places = _places(step)
        for token in numbers(published):
            f = figure(token)
            if f is not None and max(0, -int(f.as_tuple().exponent)) != places:
                raise ManifestError(f"{what}: published {token!r} is not printed at precision {precision}")
    return claim


def _measures(m: object, what: str) -> None:
    if not isinstance(m, dict) or "kind" not in m:
        raise ManifestError(f"{what}: measures must be a mapping with a 'kind'")
    kind = m["kind"]
    if kind not in KINDS:
        raise ManifestError(f"{what}: measures kind {kind!r} is not one of {', '.join(KINDS)}")
    required, optional = KINDS[kind]
    _keys(m, ("kind", *sorted(required)), sorted(optional), f"{what}: measures ({kind})")
    if "metric" in m and m["metric"] not in METRICS:
        raise ManifestError(f"{what}: measures metric {m['metric']!r} is not one of {', '.join(METRICS)}")
    if "row" in m and m["row"] not in ROWS:
        raise ManifestError(f"{what}: measures row {m['row']!r} is not one of {', '.join(ROWS)}")
    for key, known in (("metrics", METRICS), ("rows", ROWS)):
        if key in m and (not isinstance(m[key], list) or not set(m[key]) <= set(known)):
            raise ManifestError(f"{what}: measures {key} must be a list of {', '.join(known)}")
    if "pairs" in m and not (
        isinstance(m["pairs"], list) and m["pairs"] and all(isinstance(p, list) and len(p) == 2 for p in m["pairs"])
    ):
        raise ManifestError(f"{what}: measures pairs must be a list of [arm, arm] pairs")
    if kind == "delta" and len(m["runs"]) != 2:
        raise ManifestError(f"{what}: a delta compares two runs, got {m['runs']!r}")
    if "column" in m and m["column"] not in COLUMNS:
        raise ManifestError(f"{what}: measures column {m['column']!r} is not one of {', '.join(COLUMNS)}")
    if "run" in m:
        _run_flags(m["run"], what)
    if "runs" in m:
        if not isinstance(m["runs"], list) or not m["runs"]:
            raise ManifestError(f"{what}: measures runs must be a list of flag strings")
        for flags in m["runs"]:
            _run_flags(flags, what)
    if kind == "expr":
        try:
            _compile(m["expr"])
        except (SyntaxError, ValueError) as err:
            raise ManifestError(f"{what}: expr {m['expr']!r}: {err}") from None


def _run_flags(flags: object, what: str) -> None:
    if not isinstance(flags, str):
        raise ManifestError(f"{what}: a run is the benchmark's flags as a string, got {flags!r}")
    try:
        parse_run(flags)
    except ValueError as err:
        raise ManifestError(f"{what}: run {flags!r}: {err}") from None


def _places(step: Fraction) -> int:
    """Decimal places of a power-of-ten step (1 -> 0, 1/1000 -> 3)."""
    places = 0
    while step < 1:
        step *= 10
        places += 1
    return places


# --- agreement --------------------------------------------------------------------------------


def _as_value(raw: object, unit: str) -> Any:
    """A recorded value (published text, or an explicit ``value``/``measured``) as numbers, text or a flag."""
    if unit == "bool":
        if not isinstance(raw, bool):
            raise ValueError(f"a bool claim needs value true or false, got {raw!r}")
        return raw
    if unit == "text":
        return str(raw)
    if isinstance(raw, bool):
        raise ValueError(f"a {unit} claim cannot have the value {raw!r}")
    if isinstance(raw, (int, float)):
        return Fraction(Decimal(str(raw)))
    if isinstance(raw, list):
        return tuple(_as_value(x, unit) for x in raw)
    text = str(raw)
    figures = [figure(t) for t in numbers(text)]
    if not figures or any(f is None for f in figures):
        raise ValueError(f"{text!r} is not a figure or a range of figures; give 'value'")
    if len(figures) > 2:
        raise ValueError(f"{text!r} holds more than two figures")
    values = tuple(Fraction(f) for f in figures if f is not None)  # none is None (checked above)
    return values[0] if len(values) == 1 else values


def expected(claim: Claim, measured: bool = False) -> Any:
    """What a claim's test compares with: the published value (or ``value``), or the recorded ``measured``."""
    if measured:
        return _as_value(claim.measured, claim.unit)
    if claim.value is not None:
        return _as_value(claim.value, claim.unit)
    return _as_value(claim.published, claim.unit)


def _rounded(x: float, step: Fraction) -> Fraction:
    """``x`` at the printed precision, as ``%.Nf`` prints it."""
    return Fraction(Decimal(f"{x:.{_places(step)}f}"))


def agrees(claim: Claim, got: Any, want: Any) -> bool:
    """Whether a measured value agrees with ``want`` at the claim's precision and comparison."""
    if claim.unit in ("bool", "text"):
        return got == want
    step = _precision_step(claim.precision)
    scale = 100 if claim.unit == "percent" else 1

    def one(g: float, w: Fraction) -> bool:
        g = float(g) * scale
        if claim.compare == "at-most":
            return Fraction(g) <= w
        if claim.compare == "above":
            return Fraction(g) > w
        if claim.precision == FRACTION:
            return names_fraction(w, g)
        return rounded(g) == w

    def rounded(x: float) -> Fraction:
        assert step is not None  # only precisions 'exact' and 'fraction' have none, and neither rounds
        return _rounded(x, step)

    if claim.compare == "brackets":
        gs = [rounded(float(g) * scale) for g in _tuple(got)]
        return min(gs) <= want <= max(gs)
    if isinstance(want, tuple):
        each = _tuple(got)
        return len(each) == len(want) and all(one(g, w) for g, w in zip(each, want))
    return all(one(g, want) for g in _tuple(got))


def _tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def show(claim: Claim, got: Any) -> str:
    """A measured value printed the way the claim prints its value."""
    if isinstance(got, bool) or claim.unit == "text":
        return str(got).lower() if isinstance(got, bool) else str(got)
    if isinstance(got, (tuple, list)):
        ranged = claim.compare == "equal" and isinstance(expected(claim), tuple)
        return ("–" if ranged else ", ").join(show(claim, g) for g in got)
    step = _precision_step(claim.precision)
    places = _places(step) if step is not None else 3
    sign = "+" if claim.published.lstrip().startswith("+") else ""
    comma = "," if re.search(r"\d,\d{3}", claim.published) else ""
    if claim.unit == "percent":
        return f"{100 * float(got):{sign}{comma}.{places}f}%"
    if claim.kind == "timing":
        return f"{float(got):.1f}s"
    return f"{float(got):{sign}{comma}.{places}f}"


# --- runs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A command line of the benchmark, parsed: arm set, blind, derived facts, coreference, settings, sweep."""

    arms: str
    blind: bool
    derive: bool
    options: Any  # read.Options
    sweep: str | None
    coref: bool = False

    @property
    def build(self) -> tuple[str, bool, bool, bool]:
        """What the run's cases are built with: ``Builds.cases`` arguments."""
        return (self.arms, self.blind, self.derive, self.coref)


@cache
def parse_run(flags: str) -> Run:
    """Parse the benchmark's flags (``"-arms walk -blind"``) with the kit's own command-line parser."""
    from .. import cli

    parser = cli.parser()
    try:
        args = parser.parse_args(shlex.split(flags))
        options = cli.options(args)
    except cli.UsageError as err:
        raise ValueError(str(err)) from None
    other = sorted(k for k, v in vars(args).items() if k not in _RUN_FLAGS and v != parser.get_default(k))
    if other:
        raise ValueError(f"-{other[0].replace('_', '-')} does not make a run here (only {', '.join(_RUN_FLAGS)})")
    return Run(args.arms, args.blind, not args.no_derived, options, args.sweep, args.coref)


#: The flags a claim's run may set: the arm set, the two ablations, coreference, a sweep and the settings.
_RUN_FLAGS = ("arms", "blind", "no_derived", "coref", "sweep", "k", "floor", "span", "band", "parts", "quiet")


def _cast(setting: str, value: float) -> float | int:
    return int(value) if setting in ("k", "span", "parts") else float(value)


class Unverifiable(Exception):
    """The claim cannot be measured: the kit has no definition or code for it (the message says why)."""


class NotAtHand(Exception):
    """Something the claim needs is not on this machine (the message names it): the claim is skipped, never
    measured another way."""


class Builds:
    """Every conversation built once per (arm set, blind, derive, coref): ``bench.build``, cached.

    One instance can serve a whole test session (conftest's ``builds``
    fixture hands the same one to the parity tests and to the claims' ``Lab``).
    ``seconds`` holds the (CPU, wall) seconds each build took when it was made.
    """

    def __init__(self, samples: Sequence[Any]):
        self.samples = list(samples)
        self._cases: dict[tuple[str, bool, bool, bool], list] = {}
        self.seconds: dict[tuple[str, bool, bool, bool], tuple[float, float]] = {}

    def cases(self, arms: str = "main", blind: bool = False, derive: bool = True, coref: bool = False) -> list:
        from ..bench import experiment as bench

        key = (arms, blind, derive, coref)
        if key not in self._cases:
            cpu, wall = time.process_time(), time.perf_counter()
            self._cases[key] = bench.build(self.samples, arms, blind, derive=derive, coref=coref)
            self.seconds[key] = (time.process_time() - cpu, time.perf_counter() - wall)
        return self._cases[key]


#: The default build: ``Builds.cases()``.
_DEFAULT_BUILD = ("main", False, True, False)


class Lab:
    """The kit's measurements, each made once: builds (through :class:`Builds`), runs per settings.

    ``builds`` may be shared with other users of the same samples (a test
    session).  ``seconds`` records machine-dependent timings: the default build
    with its default run (CPU and wall), and the two-conversation reach (wall).
    """

    def __init__(
        self,
        samples: Sequence[Any],
        data_path: str | os.PathLike[str] | None = None,
        builds: Builds | None = None,
    ):
        self.samples = list(samples)
        self.data_path = data_path
        self.builds = builds if builds is not None else Builds(self.samples)
        self._records: dict[tuple, dict] = {}
        self._reach: dict[int, dict] = {}
        self._predictions: dict[tuple, Any] = {}
        self._check: dict[tuple, dict] = {}
        self._cache: dict[tuple, Any] = {}
        self.values: dict[str, Any] = {}
        self.seconds: dict[str, float] = {}

    # builds and runs

    def cases(self, arms: str = "main", blind: bool = False, derive: bool = True, coref: bool = False) -> list:
        """Every conversation built for one arm set (once).  The default build is timed with its default run."""
        from ..bench import experiment as bench
        from ..read.reader import Options

        key = (arms, blind, derive, coref)
        cases = self.builds.cases(*key)
        if key == _DEFAULT_BUILD and "default-wall" not in self.seconds:
            cpu, wall = time.process_time(), time.perf_counter()
            self._records[key, Options()] = bench.run(cases, Options())
            built_cpu, built_wall = self.builds.seconds[key]
            self.seconds["default-cpu"] = built_cpu + time.process_time() - cpu
            self.seconds["default-wall"] = built_wall + time.perf_counter() - wall
        return cases

    def _key(self, run: Run | str, settings: Mapping[str, float]) -> tuple[Run, tuple]:
        run = parse_run(run) if isinstance(run, str) else run
        options = replace(run.options, **{k: _cast(k, v) for k, v in settings.items()})
        return run, (run.build, options)

    def records(self, run: Run | str, **settings: float) -> dict:
        """Every arm's graded records for a run (``settings`` override its options, as a sweep row does)."""
        from ..bench import experiment as bench

        run, key = self._key(run, settings)
        if key not in self._records:
            cases = self.cases(*run.build)
            if key not in self._records:  # building the default arm set runs the default settings
                self._records[key] = bench.run(cases, key[1])
        return self._records[key]

    def tally(self, run: Run | str, arm: str, **settings: float):
        """One arm's ``bench.Tally`` for a run."""
        from ..bench import experiment as bench

        records = self.records(run, **settings)
        if arm not in records:
            raise ValueError(f"arm {arm!r} is not in this run (it has {', '.join(sorted(records))})")
        return self.memo(("tally", self._key(run, settings)[1], arm), lambda: bench.Tally(records[arm]))

    def memo(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per key."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def predictions(self, run: Run | str):
        """The run's predictions in the official shape, read back as ``-stats`` and the cross-check read them."""
        from .. import cli
        from ..score.predictions import parse

        run = parse_run(run) if isinstance(run, str) else run
        key = (run.build, run.options)
        if key not in self._predictions:
            self._predictions[key] = parse(cli.predictions(self.samples, self.records(run)), "<run>")
        return self._predictions[key]

    def reach(self, conversations: int) -> dict:
        """Evidence reach at one and two hops over the first ``conversations`` conversations (timed)."""
        from ..bench import reach

        if conversations not in self._reach:
            wall = time.perf_counter()
            self._reach[conversations] = reach.reach(self.samples[:conversations])
            self.seconds[f"reach-{conversations}-wall"] = time.perf_counter() - wall
        return self._reach[conversations]

    def default_run(self) -> str:
        """What the default command (``locomo-repro``, no flags) prints over these samples: the kit's own
        parser reads the empty command line and its own report prints the run, on the lab's build."""
        from .. import cli

        def printed() -> str:
            args = cli.parser().parse_args([])
            out = io.StringIO()
            cases = self.cases(args.arms, args.blind, not args.no_derived, args.coref)
            cli.report(self.samples, cases, args, cli.options(args), out)
            return out.getvalue()

        return self.memo(("default-run",), printed)

    def scorer(self) -> Callable:
        """The official ``eval_question_answering``, from the evaluation.py ``official.locate`` finds
        (``$LOCOMO_EVALUATION_PY``, else the cache).

        Raises :class:`NotAtHand` when there is none on this machine: the kit's
        own metric never stands in for it.  A file that is there but is not the
        pinned scorer is a ValueError naming it.
        """
        from ..score import official

        where = official.locate()
        if where is None:
            raise NotAtHand(
                f"the official evaluation.py: set {official.ENV} to it, or fetch it into {official.cache_path()} "
                "(make golden)"
            )
        try:
            return self.memo(("scorer", str(where)), lambda: official.official_scorer(where))
        except official.OfficialUnavailable as err:
            raise ValueError(str(err)) from None

    def check(self, run: Run | str) -> dict:
        """The make-check table of a run: per arm and row, (F1, evidence recall) as the official scorer reports them,
        scored by the official ``evaluation.py`` itself (:meth:`scorer`)."""
        run = parse_run(run) if isinstance(run, str) else run
        key = (run.build, run.options)
        if key not in self._check:
            scorer = self.scorer()
            self._check[key] = check_table(self.predictions(run), scorer)
        return self._check[key]


def check_table(predictions: Any, scorer: Callable) -> dict[str, dict[str, tuple[float, float]]]:
    """F1 and evidence recall per arm and row, as the official scorer reports a predictions file.

    The numbers of ``official.scores``, the computation ``official.report``
    prints (the reference ``score.py``'s feeding, summation order and rows).
    """
    from ..score import official

    return official.scores(predictions, scorer)


# --- measuring --------------------------------------------------------------------------------

_REF = re.compile(r"\{([a-z0-9][a-z0-9.+\-]*)\}")
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "abs": abs,
    "range": lambda *xs: (min(xs), max(xs)),
    "each": lambda *xs: tuple(xs),
    "mean": lambda *xs: sum(xs) / len(xs),
}


def _refs(expr: str) -> list[str]:
    return _REF.findall(expr)


def _compile(expr: str) -> tuple[ast.Expression, list[str]]:
    """An arithmetic expression over ``{claim-id}`` references: + - * /, numbers, min max abs range each mean."""
    refs = _refs(expr)
    source = _REF.sub(lambda m: f"_{refs.index(m.group(1))}", expr)
    tree = ast.parse(source, mode="eval")
    for node in ast.walk(tree):
        ok = isinstance(
            node,
            (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.UAdd,
             ast.Constant, ast.Name, ast.Load, ast.Call),
        )
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            ok = False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS):
            ok = False
        if isinstance(node, ast.Name) and not (node.id in _FUNCTIONS or re.fullmatch(r"_\d+", node.id)):
            ok = False
        if not ok:
            raise ValueError(f"{type(node).__name__} is not allowed")
    return tree, refs


def _evaluate(expr: str, values: Mapping[str, Any]) -> Any:
    tree, refs = _compile(expr)
    scope = {f"_{i}": values[r] for i, r in enumerate(refs)}
    return eval(compile(tree, "<claim>", "eval"), {"__builtins__": {}, **_FUNCTIONS}, scope)  # noqa: S307 - checked above


def measure(claim: Claim, lab: Lab, manifest: Manifest) -> Any:
    """The value the kit measures for a claim: a float, a tuple of floats, text or a flag.

    Raises :class:`Unverifiable` for a claim the kit cannot measure.
    """
    if claim.id in lab.values:
        return lab.values[claim.id]
    m = claim.measures
    value = _MEASURES[m["kind"]](m, lab, manifest)
    lab.values[claim.id] = value
    return value


def _dataset(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    from ..data import dataset

    samples = lab.samples
    got = m["field"]
    questions = [q for s in samples for q in s.questions if q.category in m.get("categories", (1, 2, 3, 4, 5))]
    if got == "conversations":
        return len(samples)
    if got == "sessions":
        return sum(s.sessions for s in samples)
    if got == "turns":
        return sum(len(s.turns) for s in samples)
    if got == "questions":
        return len(questions)
    if got == "list-answers":
        return sum("," in q.answer for q in questions)
    if got == "sample-id":
        return samples[m["index"]].id
    path = dataset.resolve(lab.data_path)
    if got == "bytes":
        return path.stat().st_size
    if got == "sha256":
        return hashlib.sha256(path.read_bytes()).hexdigest()
    raise ValueError(f"unknown dataset field {got!r}")


def _build(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    cases = lab.cases("main")
    pick = cases if m["conversation"] == "total" else [c for c in cases if c.sample.id == m["conversation"]]
    if not pick:
        raise ValueError(f"no conversation {m['conversation']!r}")
    got = m["field"]
    if got == "turns":
        return sum(len(c.sample.turns) for c in pick)
    if got == "terms":
        return sum(c.vocab.size for c in pick)
    return sum(getattr(c.knowledge, got) for c in pick)


def _subjects(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    from ..bench import experiment as bench

    speaker, known, asked = lab.memo(("subjects",), lambda: bench.subjects(lab.cases("main")))
    got = {"speaker": speaker, "known": known, "unresolved": asked - known, "asked": asked}[m["field"]]
    return got / asked if m.get("share") else got


def _table(m: Mapping, lab: Lab, manifest: Manifest) -> Any:  # a figure, or one per arm of a list
    kinds = ROWS[m["row"]]
    metric = m["metric"]
    if metric == "n":
        records = lab.records(m["run"])
        return lab.tally(m["run"], next(iter(sorted(records)))).count(kinds)
    if isinstance(m["arm"], list):
        return tuple(_table({**m, "arm": arm}, lab, manifest) for arm in m["arm"])
    t = lab.tally(m["run"], m["arm"])
    if metric == "F1":
        return t.mean(kinds)
    if metric == "recall":
        return t.reach(kinds)
    if metric == "quiet":
        return t.quiet_share(kinds)
    return round(t.quiet_share(kinds) * t.count(kinds))  # declined: a count


def _sweep(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    from ..bench import experiment as bench

    run = parse_run(m["run"])
    if run.sweep is None:
        raise ValueError(f"run {m['run']!r} is not a sweep")
    values = bench.STEPS[run.sweep] if m.get("value", "all") == "all" else (m["value"],)
    out = [_column(lab.tally(run, m["arm"], **{run.sweep: v}), m["column"]) for v in values]
    return _reduce(out, m.get("reduce"))


def _column(t: Any, column: str) -> float:
    """A sweep row's cell: F1 over answerable (1-4), adversarial (adv) or all questions, or the quiet share."""
    if column == "1-4":
        return t.mean((1, 2, 3, 4))
    if column == "adv":
        return t.mean((5,))
    return t.mean() if column == "all" else t.quiet_share()


def _check(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """A cell of the make-check table: F1 and recall from the official scorer (:meth:`Lab.check`), n counted
    from the predictions file as ``score.py`` counts it."""
    from ..score import official

    if m["metric"] == "n":
        return official.counts(lab.predictions(m["run"]))[m["row"]]
    f1, recall = lab.check(m["run"])[m["arm"]][m["row"]]
    return {"F1": f1, "recall": recall}[m["metric"]]


def _answer(q: Any) -> str:
    """The answer ``-stats`` grades against (a non-string answer grades as "", as the reference reads it)."""
    return q.answer if isinstance(q.answer, str) else ""


def _stats(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    from ..score import stats
    from ..score.metric import DECLINE, grade

    preds = lab.predictions(m["run"])
    stat = m["stat"]
    if stat == "draws":
        return stats.draw_count(len(preds.conversations))
    if stat == "abstention":
        kinds = ROWS[m["row"]] or (1, 2, 3, 4, 5)
        chosen = [q for q in preds.questions if q.category in kinds]
        return sum(grade(q.category, DECLINE, _answer(q)) for q in chosen) / len(chosen)
    if stat == "auc":
        answerable = [q.predictions[m["arm"]].confidence for q in preds.questions if q.category != 5]
        adversarial = [q.predictions[m["arm"]].confidence for q in preds.questions if q.category == 5]
        return stats.auc(answerable, adversarial)
    if stat == "paired":
        one, two = m["arms"]
        kinds = (5,) if m["half"] == "adversarial" else (1, 2, 3, 4)
        at = {c: i for i, c in enumerate(preds.conversations)}
        diff = [0.0] * len(at)
        size = [0.0] * len(at)
        for q in preds.questions:
            if q.category in kinds:
                a = grade(q.category, q.predictions[one].reply, _answer(q))
                b = grade(q.category, q.predictions[two].reply, _answer(q))
                diff[at[q.sample]] += a - b
                size[at[q.sample]] += 1
        point, low, high = stats.interval(diff, size)
        return {"point": point, "low": low, "high": high}[m["bound"]]
    raise ValueError(f"unknown stat {stat!r}")


def _reach(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    found = lab.reach(m["conversations"])
    if m.get("shape"):
        # The shape reach_test.go asserts: one hop reaches at least 0.80 of every answerable
        # category's evidence and at most 0.55 of the adversarial; two hops at least 0.85 of it.
        return all(found[1][k] >= 0.80 for k in (1, 2, 3, 4)) and found[1][5] <= 0.55 and found[2][5] >= 0.85
    names = m["category"] if isinstance(m["category"], list) else [m["category"]]
    got = [found[m["hops"]][CATEGORY_NAMES[name]] for name in names]
    return _reduce(got, m.get("reduce"))


def _reduce(values: Sequence[float], how: str | None) -> Any:
    if how == "range":
        return (min(values), max(values))
    if how is not None:
        raise ValueError(f"unknown reduce {how!r}")
    return values[0] if len(values) == 1 else tuple(values)


def _example(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    from ..memory import kg

    cases = lab.cases(*parse_run(m["run"]).build)
    at = 0
    for case in cases:
        if case.sample.id == m["sample"]:
            break
        at += len(case.sample.questions)
    else:
        raise ValueError(f"no conversation {m['sample']!r}")
    question = case.sample.questions[m["question"]]
    got = m["field"]
    if got == "evidence":
        return " ".join(question.evidence)
    if got == "piece":
        who = kg.fold(case.knowledge.subject(question.text))
        return f"{who}@{m['turn']}" in case.knowledge.pieces
    record = lab.records(m["run"])[m["arm"]][at + m["question"]]
    if got == "reply":
        return record.reply
    if got == "context":
        return " ".join(record.context)
    if got == "first":
        return record.context[0] if record.context else ""
    if got == "cited":
        return m["turn"] in record.context
    raise ValueError(f"unknown example field {got!r}")


def _golden(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    from ..data import dataset
    from ..score import golden
    from ..text.reduce import normalise

    data = lab.memo(("golden",), lambda: golden.read_dataset(dataset.resolve(lab.data_path)))
    got = m["list"]
    if got == "stems":
        return len(golden.stem_words(data, normalise))
    if got == "corpus-words":
        return len({w for text in golden.texts(data) for w in normalise(text).split()})
    if got == "normalise":
        return len(golden.distinct_texts(data))
    if got == "grade":
        return len(golden.grade_cases(data))
    raise ValueError(f"unknown golden list {got!r}")


def _option(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """One setting as the default run prints it on its settings line (``k=5 floor=0.30 span=4 band=0.90 parts=2``,
    ``bench.header``): the line of :meth:`Lab.default_run` made only of ``name=value`` words."""
    for line in lab.default_run().splitlines():
        words = [word.partition("=") for word in line.split()]
        if words and all(name and sep for name, sep, _ in words):
            settings = {name: value for name, _, value in words}
            if m["name"] in settings:
                return float(Decimal(settings[m["name"]]))
    raise ValueError(f"the default run prints no setting {m['name']!r}")


def _arms(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    return len({arm for run in m["runs"] for arm in lab.records(run)})


def _identical(m: Mapping, lab: Lab, manifest: Manifest) -> bool:
    first, *rest = (lab.records(run) for run in m["runs"])
    return all(other[arm] == first[arm] for other in rest for arm in m["arms"])


def _agrees(m: Mapping, lab: Lab, manifest: Manifest) -> bool:
    """Whether the make-check table prints every F1 and recall of the run's own table, at three decimals."""
    for run in m["runs"]:
        checked = lab.check(run)
        for arm in lab.records(run):
            t = lab.tally(run, arm)
            for row, kinds in ROWS.items():
                f1, recall = checked[arm][row]
                if f"{f1:.3f}" != f"{t.mean(kinds):.3f}" or f"{recall:.3f}" != f"{t.reach(kinds):.3f}":
                    return False
    return True


#: The ``Tally`` method that reads each metric of a table cell.
_READ = {"F1": "mean", "recall": "reach", "quiet": "quiet_share"}


def _shift(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """The largest change of any listed cell between two runs (unrounded, or at ``places`` decimals)."""
    one, two = m["runs"]
    rows = m.get("rows", list(ROWS))
    places = m.get("places")
    largest = 0.0
    for arm in lab.records(one):
        a, b = lab.tally(one, arm), lab.tally(two, arm)
        for row in rows:
            kinds = ROWS[row]
            for metric in m["metrics"]:
                x, y = getattr(a, _READ[metric])(kinds), getattr(b, _READ[metric])(kinds)
                if places is not None:
                    x, y = float(f"{x:.{places}f}"), float(f"{y:.{places}f}")
                largest = max(largest, abs(x - y))
    return largest


def _gains(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """How many categories in which every (arm, other arm) pair gains more than ``above`` F1."""
    from ..data.dataset import CATEGORIES

    return sum(
        all(lab.tally(m["run"], b).mean((k,)) - lab.tally(m["run"], a).mean((k,)) > m["above"] for a, b in m["pairs"])
        for k in CATEGORIES
    )


def _expr(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    values = {ref: measure(manifest.claim(ref), lab, manifest) for ref in _refs(m["expr"])}
    return _evaluate(m["expr"], values)


def _timing(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    if m["of"] in ("default-cpu", "default-wall"):
        lab.cases("main")
    elif m["of"] == "reach-2-wall":
        lab.reach(2)
    return lab.seconds[m["of"]]


def _same(m: Mapping, lab: Lab, manifest: Manifest) -> bool:
    """Whether each pair of arms of one run prints the same listed cells (at ``places`` decimals, default 3)."""
    places = m.get("places", 3)
    for one, two in m["pairs"]:
        a, b = lab.tally(m["run"], one), lab.tally(m["run"], two)
        for row in m.get("rows", list(ROWS)):
            for metric in m["metrics"]:
                x, y = getattr(a, _READ[metric])(ROWS[row]), getattr(b, _READ[metric])(ROWS[row])
                if f"{x:.{places}f}" != f"{y:.{places}f}":
                    return False
    return True


def _delta(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """One table cell of the first run less the same cell of the second, unrounded."""
    first, second = (_table({**m, "run": run}, lab, manifest) for run in m["runs"])
    return first - second


def _bound(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """The share of statement sentences whose subject a pronoun bound by coreference decided (``Knowledge.bound``)."""
    cases = lab.cases(*parse_run(m["run"]).build)
    if any(c.knowledge.bound is None for c in cases):
        raise ValueError(f"run {m['run']!r} builds no coreference (add -coref)")
    return sum(c.knowledge.bound[0] for c in cases) / sum(c.knowledge.bound[1] for c in cases)


def _timewords(m: Mapping, lab: Lab, manifest: Manifest) -> int:
    """Multi-hop questions holding a word about time, by the kit's own list (``timewords.timed``)."""
    from ..data import timewords

    return timewords.timed(lab.samples)[0]


def _empty_context(m: Mapping, lab: Lab, manifest: Manifest) -> str:
    """What the official ``eval_question_answering`` makes of an arm that returned nothing, its context an empty
    list (no ``score.py`` placeholder): the recall it gives, printed to one decimal, or the error it raises.

    The row is answerable (single hop) with one piece of evidence, as every
    predictions file the reference writes holds the context key.
    """
    row = {"question": "q", "answer": "a", "category": 4, "evidence": ["D1:1"],
           "prediction": "No information available", "prediction_context": []}
    scorer = lab.scorer()
    try:
        _, _, recalls = scorer([row], "prediction")
    except Exception as err:  # what the official code does here is the measurement
        return f"{type(err).__name__}: {err}"
    return f"{recalls[0]:.1f}"


def _undefined(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    raise Unverifiable(m["what"])


_MEASURES: dict[str, Callable[[Mapping, Lab, Manifest], Any]] = {
    "dataset": _dataset,
    "build": _build,
    "subjects": _subjects,
    "table": _table,
    "sweep": _sweep,
    "check": _check,
    "stats": _stats,
    "reach": _reach,
    "example": _example,
    "golden": _golden,
    "option": _option,
    "arms": _arms,
    "identical": _identical,
    "agrees": _agrees,
    "shift": _shift,
    "gains": _gains,
    "expr": _expr,
    "timing": _timing,
    "same": _same,
    "delta": _delta,
    "bound": _bound,
    "timewords": _timewords,
    "empty-context": _empty_context,
    "undefined": _undefined,
}
assert set(_MEASURES) == set(KINDS)


# --- verdicts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """One claim measured: the value, as printed, and whether it is what the entry says it is."""

    claim: Claim
    value: Any = None
    shown: str = ""
    holds: bool | None = None  # None: reported (nothing asserted), unverifiable, or skipped
    problem: str = ""
    missing: str = ""  # skipped: what the claim needs that is not on this machine

    @property
    def ok(self) -> bool:
        return self.holds is not False and not self.problem


def verdict(claim: Claim, lab: Lab, manifest: Manifest) -> Verdict:
    """Measure a claim and judge it by its status.

    reproduced: the measurement must agree with the published value; refuted
    and refuted-by-reconstruction: with the recorded ``measured`` and not with
    the published value; reported: a measurement (a finite, non-negative number
    of seconds for a timing) shown beside the published one, its size never
    judged; unverifiable: no number.  A claim needing what is not at hand
    (:class:`NotAtHand`) is skipped: ``missing`` names it.
    """
    try:
        got = measure(claim, lab, manifest)
    except NotAtHand as why:
        return Verdict(claim, shown="—", missing=str(why))
    except Unverifiable as why:
        if claim.status == "unverifiable":
            return Verdict(claim, shown="—", holds=None)
        return Verdict(claim, shown="—", holds=False, problem=f"cannot be measured: {why}")
    except (ValueError, KeyError, IndexError) as err:
        return Verdict(claim, shown="—", holds=False, problem=f"{type(err).__name__}: {err}")
    shown = show(claim, got)
    if claim.status == "unverifiable":
        return Verdict(claim, got, shown, False, "status unverifiable, yet the kit measured it")
    if claim.status == "reported":
        fine = isinstance(got, (int, float)) and not isinstance(got, bool) and math.isfinite(got) and got >= 0
        return Verdict(claim, got, shown, None, "" if fine else f"not a duration in seconds: {got!r}")
    if claim.status in REFUTING:
        if agrees(claim, got, expected(claim)):
            return Verdict(claim, got, shown, False, "recorded as refuted, yet the measurement agrees with the publication")
        holds = agrees(claim, got, expected(claim, measured=True))
        return Verdict(claim, got, shown, holds, "" if holds else f"measured {shown}, the entry records {claim.measured}")
    holds = agrees(claim, got, expected(claim))
    return Verdict(claim, got, shown, holds, "" if holds else f"measured {shown}, published {claim.published}")


# --- the report -------------------------------------------------------------------------------


def summary(verdicts: Sequence[Verdict], markdown: bool = False) -> str:
    """Counts per status, then every claim that is not simply reproduced, published against measured.

    Unverifiable claims sharing a reason are one row; reproduced claims that
    carry a note (a reading of an imprecise phrase, a reconstruction) are
    listed too.
    """
    from tabulate import tabulate

    fmt = "github" if markdown else "simple"

    def title(text: str) -> str:
        return f"## {text}" if markdown else text

    counts = Counter(v.claim.status for v in verdicts)
    rows = [[s, counts.get(s, 0)] for s in STATUSES] + [["total", len(verdicts)]]
    parts = [tabulate(rows, headers=["status", "claims"], tablefmt=fmt)]
    for status in ("refuted", "refuted-by-reconstruction", "reported"):
        chosen = [v for v in verdicts if v.claim.status == status]
        if chosen:
            parts.append(title(f"{status} ({len(chosen)})"))
            table: list[list[Any]] = [[v.claim.id, v.claim.published, v.shown, _one_line(v.claim.reason)] for v in chosen]
            parts.append(tabulate(table, headers=["claim", "published", "measured", "why"], tablefmt=fmt))
    unverifiable = [v for v in verdicts if v.claim.status == "unverifiable"]
    if unverifiable:
        groups: dict[str, list[Verdict]] = {}
        for v in unverifiable:
            groups.setdefault(_one_line(v.claim.reason), []).append(v)
        parts.append(title(f"unverifiable ({len(unverifiable)})"))
        table = [
            [len(vs), _ids(vs), " ".join(v.claim.published for v in vs), why]
            for why, vs in groups.items()
        ]
        parts.append(tabulate(table, headers=["claims", "ids", "published", "why"], tablefmt=fmt))
    noted = [v for v in verdicts if v.claim.status == "reproduced" and v.claim.note]
    if noted:
        parts.append(title(f"reproduced, with a note ({len(noted)})"))
        table = [[v.claim.id, v.claim.published, v.shown, _one_line(v.claim.note)] for v in noted]
        parts.append(tabulate(table, headers=["claim", "published", "measured", "note"], tablefmt=fmt))
    skipped = [v for v in verdicts if v.missing]
    if skipped:
        parts.append(title(f"not measured here ({len(skipped)})"))
        needs: dict[str, list[Verdict]] = {}
        for v in skipped:
            needs.setdefault(v.missing, []).append(v)
        table = [[len(vs), _ids(vs), need] for need, vs in needs.items()]
        parts.append(tabulate(table, headers=["claims", "ids", "needs"], tablefmt=fmt))
    failing = [v for v in verdicts if not v.ok]
    if failing:
        parts.append(title(f"FAILING ({len(failing)})"))
        parts.append(tabulate([[v.claim.id, v.problem] for v in failing], headers=["claim", "problem"], tablefmt=fmt))
    return "\n\n".join(parts) + "\n"


def _ids(verdicts: Sequence[Verdict]) -> str:
    """Claim ids for a table cell: all of them when few, else the first and last."""
    ids = [v.claim.id for v in verdicts]
    return ", ".join(ids) if len(ids) <= 5 else f"{ids[0]}, {ids[1]} … {ids[-1]} ({len(ids)})"


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m locomo_repro.claims``: measure every claim, print the status table; exit 1 if any fails."""
    from ..data import atomic, dataset

    p = argparse.ArgumentParser(prog="python -m locomo_repro.claims", description=__doc__.splitlines()[0])
    p.add_argument("--manifest", metavar="PATH", help="claims.yaml (default: $LOCOMO_CLAIMS, ./claims.yaml)")
    p.add_argument("--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    p.add_argument("--markdown", metavar="PATH", help="also write the summary as markdown to PATH")
    args = p.parse_args(argv)
    if args.markdown and (problem := atomic.unwritable(args.markdown)):  # refused before the long run
        print(f"locomo-repro: --markdown {args.markdown}: {problem}", file=sys.stderr)
        return 2
    try:
        manifest = load(args.manifest)
        samples = dataset.load(args.data)
    except (ManifestError, dataset.DatasetError) as err:
        print(f"locomo-repro: {err}", file=sys.stderr)
        return 2
    lab = Lab(samples, args.data)
    verdicts = [verdict(c, lab, manifest) for c in manifest.claims]
    sys.stdout.write(summary(verdicts))
    if args.markdown:
        others = sum(n.count for n in manifest.not_claims)
        head = (
            "# Claims of the published README, measured\n\n"
            f"Generated by `python -m locomo_repro.claims` from claims.yaml: {len(manifest.claims)} claims, and "
            f"{others} further numbers of the README listed as not claims (flag values, labels, figures of speech), "
            "each with its reason.\n\n"
        )
        try:
            atomic.write_atomic(args.markdown, (head + summary(verdicts, markdown=True)).encode("utf-8"))
        except OSError as err:
            print(f"locomo-repro: {err}", file=sys.stderr)
            return 2
    return 0 if all(v.ok for v in verdicts) else 1

