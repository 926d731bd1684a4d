"""The files the kit ships inside the package, found wherever it is installed.

``locomo_repro/shipped/`` holds copies of the repository's top-level ``claims.yaml`` (the publication's
numbers), ``peers.yaml`` (the peers' published cells) and ``golden/`` (the official scorer's golden files,
``reference/``: the reference's outputs as the kit keeps them, ``publication/``: the published README).
The top-level files are the ones to edit; ``make shipped`` copies them into the package (``make golden``
and ``make reference-golden`` do it after writing), and a test holds the two byte-identical.  Commands read
the package's copy (:mod:`importlib.resources`), so an installed kit works from any folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The folder inside the package, relative to it.
FOLDER = "shipped"


class ShippedError(Exception):
    """The kit is installed where its shipped files are not files on disk (one line)."""


def path(*parts: str) -> Path:
    """The shipped file at ``parts`` under ``locomo_repro/shipped/`` (``path("golden", "grade.tsv")``).

    The kit reads its files as files (a digest, a message naming the path): installed unpacked, as pip does,
    they are; a zipped package is refused in one line rather than read from a temporary copy."""
    found = resources.files("locomo_repro").joinpath(FOLDER, *parts)
    if not isinstance(found, Path):
        raise ShippedError(f"the kit's {'/'.join(parts)} is not a file on disk ({found}): install the kit unpacked")
    return found
