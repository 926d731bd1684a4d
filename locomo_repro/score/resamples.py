"""How the bootstrap resamples ``n`` conversations: every distinct resample, enumerated and weighted (the
exact bootstrap, up to :data:`MAX_DRAWS` of them: twelve conversations), else :data:`RESAMPLES` drawn from
:data:`SEED` (the Monte Carlo bootstrap), and how a signature names which.  Counting only: no numpy, so a
run that takes no interval (no ``-json``) imports none (``stats`` takes the intervals)."""

from __future__ import annotations

import math

#: Most draws the exact bootstrap may enumerate: 12 conversations need
#: 1,352,078; 13 would need 5,200,300.
MAX_DRAWS = 2_000_000

#: Past that, the Monte Carlo bootstrap: this many resamples, drawn by numpy's PCG64 from this seed, so that
#: the same data gives the same interval every run.
RESAMPLES = 10_000
SEED = 0


def _amount(count: int) -> str:
    """A count with thousands separators, or from 10^15 on a power of ten it exceeds (a file of a
    thousand conversations would otherwise print a number of 600 digits)."""
    if count < 10**15:
        return f"{count:,}"
    return f"more than 10^{int((count.bit_length() - 1) * math.log10(2))}"


def draw_count(n: int) -> int:
    """How many distinct resamples of n conversations from n there are: C(2n−1, n)."""
    return math.comb(2 * n - 1, n)


def unenumerable(n: int) -> str | None:
    """Why the exact bootstrap cannot be taken over ``n`` conversations (one line), None when it can."""
    if n < 1:
        return "no conversation to resample"
    if draw_count(n) > MAX_DRAWS:
        return f"{n} conversations: the exact bootstrap would enumerate {_amount(draw_count(n))} resamples " \
               f"(at most {MAX_DRAWS:,})"
    return None


def method(n: int) -> dict[str, object]:
    """How :func:`bootstrap` takes its intervals over ``n`` conversations: ``method`` (``exact`` or
    ``monte-carlo``), ``resamples`` (every distinct resample, or those drawn) and ``seed`` (None when exact)."""
    if n >= 1 and unenumerable(n) is not None:
        return {"method": "monte-carlo", "resamples": RESAMPLES, "seed": SEED}
    return {"method": "exact", "resamples": draw_count(n) if n else 0, "seed": None}


def signed(n: int) -> tuple[str, str]:
    """The signature field naming :func:`bootstrap`'s method over ``n`` conversations: ``exact-95``, or
    ``monte-carlo-95-10000-seed0`` with its resamples and seed."""
    how = method(n)
    return ("bootstrap", "exact-95" if how["method"] == "exact"
            else f"monte-carlo-95-{how['resamples']}-seed{how['seed']}")
