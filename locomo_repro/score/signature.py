"""Signatures: one short line naming everything that changes a number the kit prints.

Modelled on sacrebleu's signature.  A signature is ``name:value`` fields joined
by ``|``, in a fixed order, always starting with the kit's version::

    locomo-repro:0.1.0|data:79fa87e9|scorer:kit|arms:main|k:5|floor:0.30|span:4|band:0.90|parts:2

Files are named by the first eight hex digits of their sha256 (never by path),
the scorer by ``kit`` (the kit's metric, fixed by its version) or
``official-<sha256 prefix>`` (the official ``evaluation.py``), and a setting by
its value.  Nothing in it depends on the machine, the folder or the time, so
the same settings over the same files give the same signature anywhere.
Commands print it on stderr as one line, ``signature: ...``; it never goes into
an output that must stay byte-identical to the reference.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from .. import __version__
from ..data.digest import file_sha256 as file_sha256  # signature.file_sha256
from ..go.flags import has_control
from ..read.endpoint import endpoint

#: Hex digits of a sha256 kept in a signature.
PREFIX = 8

#: The kit's own metric as a scorer name.
KIT = "kit"

#: How intervals were taken, for a signature over figures with intervals (``stats``, the report): the exact
#: 95% percentile bootstrap over conversations.
EXACT = ("bootstrap", "exact-95")


@dataclass(frozen=True, slots=True)
class Signature:
    """Ordered ``(name, value)`` fields; ``str()`` gives the printed signature."""

    fields: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        """A field never holds a control character: a newline would print a second, forged ``signature:`` line
        (commands refuse such a value, a model name, before any work)."""
        for name, value in self.fields:
            if has_control(name) or has_control(value):
                raise ValueError(f"signature field {name!r} holds a control character")

    def __str__(self) -> str:
        return "|".join(f"{name}:{value}" for name, value in (("locomo-repro", __version__), *self.fields))

    def plus(self, *fields: tuple[str, str]) -> Signature:
        """The same signature with further fields at its end."""
        return Signature((*self.fields, *fields))


def digest(data: bytes) -> str:
    """The sha256 prefix that names some bytes in a signature."""
    return hashlib.sha256(data).hexdigest()[:PREFIX]


def file_digest(path: str | Path) -> str:
    """The sha256 prefix of a file's bytes (its name and folder play no part)."""
    return file_sha256(path)[:PREFIX]


def official_scorer(sha256: str) -> str:
    """The scorer name of the official ``evaluation.py`` with this sha256: ``official-8e3be5d5``."""
    return f"official-{sha256[:PREFIX]}"


def number(value: float) -> str:
    """A setting's value: integers as integers, fractions with two decimals (``0.30``) unless that loses digits."""
    if isinstance(value, int):
        return str(value)
    short = f"{value:.2f}"
    return short if float(short) == value else repr(float(value))


def run(
    data: str,
    arms: str,
    settings: Iterable[tuple[str, float]],
    *,
    sweep: str | None = None,
    blind: bool = False,
    derive: bool = True,
    coref: bool = False,
    only: int = 0,
    conversations: Iterable[str] = (),
    limit: int = 0,
    model: str | None = None,
    base: str | None = None,
    closed: bool = False,
    plugins: Iterable[str] = (),
) -> Signature:
    """The signature of a benchmark run: dataset, the kit's scorer, arm set, every setting, ablations, model.

    ``data`` is the dataset's :func:`digest`; ``settings`` the reader's
    ``(name, value)`` pairs in flag order (k, floor, span, band, parts); ``plugins`` each plug-in
    of ``arms`` as ``Plugin.describe`` names it (where its factory lives, its package's version).  A
    swept setting's value reads ``sweep``; flags left at their default add
    nothing, so the default run's signature stays short.
    """
    fields = [("data", data)]
    if only:
        fields.append(("only", str(only)))
    if picked := ",".join(conversations):
        fields.append(("conversations", picked))
    if limit:
        fields.append(("limit", str(limit)))
    fields += [("scorer", KIT), ("arms", arms)]
    fields += [("plugin", described) for described in plugins]
    settings = list(settings)
    fields += [(name, "sweep" if name == sweep else number(value)) for name, value in settings]
    if sweep and sweep not in dict(settings):  # a plug-in's setting swept: named as -sweep names it
        fields.append(("sweep", sweep))
    if blind:
        fields.append(("blind", "yes"))
    if not derive:
        fields.append(("derived", "no"))
    if coref:
        fields.append(("coref", "yes"))
    if model:
        fields += [("model", model), ("endpoint", endpoint(base or ""))]
        if closed:
            fields.append(("closed", "yes"))
    return Signature(tuple(fields))


def predictions(path: str | Path, scorer: str, *extra: tuple[str, str], sha256: str = "") -> Signature:
    """The signature of scores read from a predictions file: the file's digest, the scorer, and ``extra``.

    ``sha256`` is the digest of the bytes already read from ``path`` (a pipe can be read only once); without
    it the file is read again."""
    named = sha256[:PREFIX] if sha256 else file_digest(path)
    return Signature((("predictions", named), ("scorer", scorer), *extra))


def emit(signature: Signature, stream: TextIO | None = None) -> None:
    """Print ``signature: ...`` as one line on stderr (or ``stream``)."""
    print(f"signature: {signature}", file=stream if stream is not None else sys.stderr, flush=True)
