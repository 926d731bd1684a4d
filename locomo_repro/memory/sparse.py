"""A float32 vector kept by its non-zero components: what ``terms.Vocabulary.weigh`` makes and
``store.Store`` files and searches with (a text's vector has some ten non-zero components of thousands)."""

from __future__ import annotations


from ..data.records import record


@record
class Sparse:
    """A float32 vector of length ``size`` given by its non-zero components: ``dims`` ascending, each
    value in ``values`` a float32 held in a Python float (NaN counts as non-zero, -0.0 does not)."""

    size: int
    dims: tuple[int, ...]
    values: tuple[float, ...]

    def dense(self) -> list[float]:
        """Every component, in order."""
        out = [0.0] * self.size
        for j, x in zip(self.dims, self.values):
            out[j] = x
        return out
