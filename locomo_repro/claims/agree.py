"""Whether a measurement agrees with a claim: the value a claim records, compared at its printed precision.

A precision is the printed step (``0.001``, ``1``: the measurement printed the
same way must read the same), ``exact`` (text and flags), or ``fraction``: a
word for a fraction (half, quarter, fifth) agrees when that fraction is the
simple fraction nearest the measurement (:func:`.numbers.names_fraction`).
Comparisons other than equality: ``brackets`` (the value lies between the
measurements, each printed), ``at-most`` and ``above`` (unrounded).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .numbers import figure, names_fraction, numbers

if TYPE_CHECKING:
    from .records import Claim

#: The precision of a word naming a fraction: agreement by :func:`.numbers.names_fraction`.
FRACTION = "fraction"


def precision_step(precision: str) -> Fraction | None:
    """A printed precision as a step (``0.001`` -> 1/1000, ``1`` -> 1); None for ``exact`` and ``fraction``."""
    if precision in ("exact", FRACTION):
        return None
    if re.fullmatch(r"1|0\.0*1", precision):
        return Fraction(Decimal(precision))
    raise ValueError(precision)


def places(step: Fraction) -> int:
    """Decimal places of a power-of-ten step (1 -> 0, 1/1000 -> 3)."""
    count = 0
    while step < 1:
        step *= 10
        count += 1
    return count


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
    tokens = numbers(text)
    figures = [f for f in map(figure, tokens) if f is not None]
    if not tokens or len(figures) != len(tokens):
        raise ValueError(f"{text!r} is not a figure or a range of figures; give 'value'")
    if len(figures) > 2:
        raise ValueError(f"{text!r} holds more than two figures")
    values = tuple(Fraction(f) for f in figures)
    return values[0] if len(values) == 1 else values


def expected(claim: Claim, measured: bool = False) -> Any:
    """What a claim's test compares with: the published value (or ``value``), or the recorded ``measured``."""
    if measured:
        return _as_value(claim.measured, claim.unit)
    if claim.value is not None:
        return _as_value(claim.value, claim.unit)
    return _as_value(claim.published, claim.unit)


def _rounded(x: float, precision: str) -> Fraction:
    """``x`` at a printed precision (a power of ten), as ``%.Nf`` prints it."""
    step = precision_step(precision)
    if step is None:
        raise ValueError(f"precision {precision!r} is not a printed step")
    return Fraction(Decimal(f"{x:.{places(step)}f}"))


def agrees(claim: Claim, got: Any, want: Any) -> bool:
    """Whether a measured value agrees with ``want`` at the claim's precision and comparison."""
    if claim.unit in ("bool", "text"):
        return got == want
    scale = 100 if claim.unit == "percent" else 1

    def one(got: float, w: Fraction) -> bool:
        g = float(got) * scale
        if claim.compare == "at-most":
            return Fraction(g) <= w
        if claim.compare == "above":
            return Fraction(g) > w
        if claim.precision == FRACTION:
            return names_fraction(w, g)
        return _rounded(g, claim.precision) == w

    if claim.compare == "brackets":
        bounds = [_rounded(float(g) * scale, claim.precision) for g in _tuple(got)]
        return min(bounds) <= want <= max(bounds)
    if isinstance(want, tuple):
        each = _tuple(got)
        return len(each) == len(want) and all(one(g, w) for g, w in zip(each, want))
    return all(one(g, want) for g in _tuple(got))


def agrees_recorded(claim: Claim, got: Any) -> bool:
    """Whether a measurement agrees with the entry's recorded ``measured``, at the claim's precision; a claim
    published as a word for a fraction records its measurement as the claims command prints it (:func:`show`,
    three decimals), and is compared so."""
    if claim.precision == FRACTION:
        return show(claim, got) == str(claim.measured)
    return agrees(claim, got, expected(claim, measured=True))


def _tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def show(claim: Claim, got: Any) -> str:
    """A measured value printed the way the claim prints its value."""
    if isinstance(got, bool) or claim.unit == "text":
        return str(got).lower() if isinstance(got, bool) else str(got)
    if isinstance(got, (tuple, list)):
        ranged = claim.compare == "equal" and isinstance(expected(claim), tuple)
        return ("–" if ranged else ", ").join(show(claim, g) for g in got)
    step = precision_step(claim.precision)
    decimals = places(step) if step is not None else 3
    sign = "+" if claim.published.lstrip().startswith("+") else ""
    comma = "," if re.search(r"\d,\d{3}", claim.published) else ""
    if claim.unit == "percent":
        return f"{100 * float(got):{sign}{comma}.{decimals}f}%"
    if claim.kind == "timing":
        return f"{float(got):.1f}s"
    return f"{float(got):{sign}{comma}.{decimals}f}"
