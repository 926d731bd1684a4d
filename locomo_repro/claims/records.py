"""The manifest's records: a published number that is a claim, one that is not, and the whole manifest.

Kept apart from ``manifest`` (which reads and checks claims.yaml) so that what measures and judges a claim
can name these types without importing the reader, which imports them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .numbers import numbers


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
