"""The manifest, claims.yaml: every number of the publication, what measures it, and its status, checked on reading.

Each claim names its place in the publication, the value as printed, its
precision, what measures it (a kind registered in :mod:`.measures`, whose keys
are the schema of its entry) and its status; every other number of the
publication is a not-claim with its reason.  :func:`load` refuses a manifest
that does not have this shape with one line naming the entry.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import yaml

from ..data import jsonio, shipped
from . import expr
from . import publications as _publications  # noqa: F401  registers the other publications' measure kinds
from .agree import FRACTION, expected, places, precision_step
from .measures import COLUMNS, KINDS, METRICS, ROWS
from .numbers import FRACTION_WORDS, NUMBER_WORDS, figure, numbers
from .records import Claim, Manifest, NotClaim
from .runs import parse_run

STATUSES = ("reproduced", "refuted", "refuted-by-reconstruction", "reported", "unverifiable")
#: Statuses whose entry records the value the kit measures instead of the published one.
REFUTING = ("refuted", "refuted-by-reconstruction")
UNITS = ("number", "percent", "text", "bool")
COMPARES = ("equal", "brackets", "at-most", "above")

CLAIM_REQUIRED = ("id", "section", "where", "measures", "published", "precision", "status")
CLAIM_OPTIONAL = ("unit", "value", "compare", "measured", "reason", "note")
NOT_CLAIM_REQUIRED = ("section", "value", "reason")
NOT_CLAIM_OPTIONAL = ("count",)
TOP_KEYS = ("publication", "sections", "claims", "not_claims")

_ID = re.compile(r"[a-z0-9][a-z0-9.+\-]*\Z")


class ManifestError(ValueError):
    """A manifest that does not have the shape of claims.yaml; the message names the entry."""


#: The kit's manifests by the publication they check (``locomo-repro claims --of NAME``): the README of
#: bench/locomo, locomo-audit's documents, LoCoMo-Plus's README and judge summary.
MANIFESTS = {"readme": "claims.yaml", "audit": "claims-audit.yaml", "plus": "claims-plus.yaml"}


def default_path(of: str = "readme") -> Path:
    """A manifest of :data:`MANIFESTS`: the README's is ``$LOCOMO_CLAIMS`` when set; each is else the kit's own
    (``data.shipped``), wherever the command runs."""
    if of == "readme" and os.environ.get("LOCOMO_CLAIMS"):
        return Path(os.environ["LOCOMO_CLAIMS"])
    try:
        return shipped.path(MANIFESTS[of])
    except shipped.ShippedError as err:
        raise ManifestError(str(err)) from None


def load(path: str | os.PathLike[str] | None = None) -> Manifest:
    """Read and check a manifest (default :func:`default_path`)."""
    where = Path(path) if path is not None else default_path()
    try:
        # libyaml's loader when PyYAML has it: the manifest is long.
        data = yaml.load(jsonio.read_text(where), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except jsonio.InputError as err:
        raise ManifestError(str(err)) from None
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
            for ref in expr.refs(c.measures["expr"]):
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
        step = precision_step(precision)
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
    if KINDS[kind].measurable == (status == "unverifiable"):
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
        printed = places(step)
        for token in numbers(published):
            f = figure(token)
            exponent = f.as_tuple().exponent if f is not None else None
            if isinstance(exponent, int) and max(0, -exponent) != printed:
                raise ManifestError(f"{what}: published {token!r} is not printed at precision {precision}")
    return claim


def _measures(m: object, what: str) -> None:
    if not isinstance(m, dict) or "kind" not in m:
        raise ManifestError(f"{what}: measures must be a mapping with a 'kind'")
    kind = m["kind"]
    if kind not in KINDS:
        raise ManifestError(f"{what}: measures kind {kind!r} is not one of {', '.join(KINDS)}")
    required, optional = KINDS[kind].required, KINDS[kind].optional
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
            expr.parse(m["expr"])
        except (SyntaxError, ValueError) as err:
            raise ManifestError(f"{what}: expr {m['expr']!r}: {err}") from None


def _run_flags(flags: object, what: str) -> None:
    if not isinstance(flags, str):
        raise ManifestError(f"{what}: a run is the benchmark's flags as a string, got {flags!r}")
    try:
        parse_run(flags)
    except ValueError as err:
        raise ManifestError(f"{what}: run {flags!r}: {err}") from None


