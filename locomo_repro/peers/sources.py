"""The files of the publications checked beside the README, each pinned: where a claim of theirs (and the
leaderboard's rows of their runs) read them.

locomo-audit (dial481/locomo-audit, CC BY-NC 4.0, commit 9493fb4b) and LoCoMo-Plus (``peers.plus``) are
fetched the peers' way (``peers.fetch``: raw.githubusercontent.com at the commit, sha256-checked, written
atomically into the cache: ``audit/``, where ``data.audit`` keeps its errors file, and ``locomo-plus/``), or
read from a local copy of the same layout named by ``LOCOMO_AUDIT`` or ``LOCOMO_PLUS``.  A file that is in
neither, and cannot be fetched, is not at hand: the claims reading it are skipped, naming it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ..data import audit
from . import fetch, plus
from ..score.formats import PeersError

_AUDIT = ("dial481/locomo-audit", audit.COMMIT)


@dataclass(frozen=True)
class Publication:
    """A publication's pinned files, its variable naming a local copy, and its folder of the cache."""

    name: str
    env: str
    folder: str
    files: tuple[fetch.Pinned, ...]

    def pinned(self, local: str) -> fetch.Pinned:
        for p in self.files:
            if p.local == local:
                return p
        raise KeyError(f"{local} is no pinned file of {self.name}")


def _audit(local: str, sha256: str) -> fetch.Pinned:
    return fetch.Pinned(*_AUDIT, local, local, sha256)


#: locomo-audit's files the claims read: its documents, its errors, its answer key, its judged runs and its
#: per-system figures (``per_category_breakdown.json``: counts of the systems' runs, which it does not publish).
AUDIT = Publication("locomo-audit", audit.ENV, "audit", (
    _audit("README.md", "d7d692c7c8ca984f88d410e56e176c63b24bd4bd6ad30c97828428fcbac51e6a"),
    _audit("AUDIT_REPORT.md", "03db4b96ef2f6e06d6109daa0b5bd732db22322bdd2a5d82cf94ec03c4cbd1ac"),
    _audit("results-audit/RESULTS_AUDIT.md", "bc027c84d4bc0ca3ec9083d0f572398fbe18178d3f3452edca2ad004bdaa2f29"),
    _audit("results-audit/STATISTICAL_VALIDITY.md", "58174dbfda41534f49b86451a54257366d35e4ae7a0cffce1af04044a1d47821"),
    _audit("results-audit/per_category_breakdown.json",
           "b29d2cff2644f182aedc0a8d2aa66dcd194a336ab0e9ff948a965c0c77019ac1"),
    _audit("fc-baseline/README.md", "2a1c9a67c79de11436afa3619dffae66930e7b1c6b292b8b57e2fae2cceb9437"),
    _audit("ap-baseline/README.md", "f356175b2d3869a72923ffaefff372601d9578396c26bbe70babd2c1acbdc7c6"),
    _audit("errors.json", audit.SHA256),
    _audit("ap-baseline/answer_key.json", "7345d1c23c5a182be7ccc35b184b405a136134f2e28323e41c6698322902737b"),
    _audit("ap-baseline/v1/ap_eval_results_scored.json",
           "a83882eda3ff02fd04dace6edddd0ceed533a245fedb3069ffde02a9503c4e3a"),
    _audit("ap-baseline/v2/ap_eval_results_scored.json",
           "3c32acbdcf667967a4e1f9f541b06566ae5e7361dc92f79f9043af7d068adc6b"),
    # fc-baseline/README.md's own table of sums ("Result Integrity") names these four.
    _audit("fc-baseline/results/gpt-4o-mini-memos/eval_results.json",
           "1c55eb0ee66f9eb784c222ec54492cc39702652baa4e6c66b7fb89a7bb8a3d8f"),
    _audit("fc-baseline/results/gpt-4o-mini-cot/eval_results.json",
           "08212320401c65fa9a97f78dd18adfb1d527137ec9f04b1b518420aa8e651bfe"),
    _audit("fc-baseline/results/gpt-4.1-mini-memos/eval_results.json",
           "f573c091606b5c7691d7801ef30aada0bc8c54e406e31da3a2f807ab1ffa02e8"),
    _audit("fc-baseline/results/gpt-4.1-mini-cot/eval_results.json",
           "7fa10ba1d8976bdc215172f9d4e1840c015644b28e8e97de840b690051e354f3"),
))
#: LoCoMo-Plus's files (``peers.plus``).
PLUS = Publication("LoCoMo-Plus", plus.ENV, plus.FOLDER, plus.FILES)
#: The publications by the name a manifest's ``publication.repository`` gives.
PUBLICATIONS = {p.name: p for p in (AUDIT, PLUS)}


class Missing(Exception):
    """A publication's file that is not at hand (the message names it, and how to give it)."""


def locate(publication: Publication, local: str) -> Path:
    """One pinned file of a publication: under its variable's folder as given, else in the cache (its sum
    checked), else fetched into the cache; :class:`Missing` when none works."""
    pinned = publication.pinned(local)
    base = fetch.root(publication.env, publication.folder)
    where = base / local
    if base != fetch.cache_dir(publication.folder):
        if where.is_file():
            return where
        raise Missing(f"{publication.name}'s {local} ({publication.env} names {base}, which lacks it)")
    if where.is_file() and hashlib.sha256(where.read_bytes()).hexdigest() == pinned.sha256:
        return where
    try:
        fetch.fetch(base, files=(pinned,), env=publication.env, folder=publication.folder)
    except PeersError as err:
        raise Missing(f"{publication.name}'s {local} (set {publication.env} to a copy; {err})") from None
    return where
