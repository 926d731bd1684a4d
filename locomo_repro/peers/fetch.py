"""The peers' published files, fetched at pinned commits: ``locomo-repro peers fetch``.

The files are their authors' (not the kit's to ship): each is downloaded from raw.githubusercontent.com at
the commit below, its sha256 checked against the pinned sum, and only when every file checks are they
written, each atomically, under ``peers/`` beside the dataset's cached copy
(``${XDG_CACHE_HOME:-~/.cache}/locomo-repro/peers``).  A file already there with the right sum is not
fetched again.  ``LOCOMO_PEERS=DIR`` names a local copy with the same layout instead.  Other publications'
files (LoCoMo-Plus: ``peers.plus``) are pinned and fetched the same way, each into its own folder of the cache
and with its own variable.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..data import dataset
from ..score.formats import PeersError

ENV = "LOCOMO_PEERS"


@dataclass(frozen=True)
class Pinned:
    """One published file: where it lives (repository, commit, path) and where the kit keeps it, with its sum."""

    repo: str
    commit: str
    path: str
    local: str
    sha256: str

    @property
    def url(self) -> str:
        return f"https://raw.githubusercontent.com/{self.repo}/{self.commit}/{self.path}"


_MEMOBASE = ("memodb-io/memobase", "56b633695bcebb2479da0e703e6f31a669a2e97a")
_ZEP = "getzep/zep-papers"
_BACKBOARD = ("Backboard-io/Backboard-Locomo-Benchmark", "164d45c06f860d832bbe598f0dde0ea66b05f384")
_BACKBOARD_SUMS = {
    1: "37bb7859491caa56722ef091a508f63953a335543b441c7c02a17773a49d40d7",
    2: "0ac9d86ea03f7876b364320a5bfac2dcc9ac9459c7e2a743d5c302d40813b866",
    3: "b1317355bfbab78dd5f0e2b4115d033aecc306d5a947a05d7b62a368786a4b0b",
    4: "93ec286cb45d1724103996d4f2b1a0a6bb789e1a41b74d7c5db7330b72157933",
    5: "6025c1269cc27b68fe7e54505911bf1589b46d82a72707302bd26c3a33763916",
    6: "4172a332b5b3232e595676e123ea0d25c647a18635cdca00bfa1d3c896e8b5c8",
    7: "22d4289de11a6f6913c9a8ad8fbed471085f96d7768648668cbb8743dcdace1a",
    8: "45906ec131dc41fb21f3db85d0608623845dfe222226b58529c1ed66ebe59184",
    9: "c83018022f3df406ba0f083b61823788987ee5c354bd70930ea9f47161a73940",
    10: "8a2a792d3aa6171fb14010761d964201262dbd220b35a439b334bc51b1c30673",
}

#: Every file the peers manifest reads, pinned.
FILES: tuple[Pinned, ...] = (
    Pinned(*_MEMOBASE, "docs/experiments/locomo-benchmark/fixture/memobase/memobase_eval_0710_3000.json",
           "memobase/memobase_eval_0710_3000.json",
           "171489e7a60dd6275027a9897270ad5a9bce83193c2b64863ecd43eba9582b5a"),
    Pinned(_ZEP, "d7401e89325dd5e4bd1d52cf1bb47782caf84aef",
           "kg_architecture_agent_memory/locomo_eval/data/zep_locomo_responses.json",
           "zep/zep_locomo_responses.json", "c4943a6e15013e8af07a079d285a0d8206282ff6815429db2f5f5d5d5ad28b6d"),
    Pinned(_ZEP, "4306ce68cbe2fe32396c2ec7572cc3d07e4e1029",
           "kg_architecture_agent_memory/locomo_eval/data/zep_locomo_grades.json",
           "zep/zep_locomo_grades.json", "2ecb701017bb007306e88abd1af88a9cddac06098e6a7f666e4640aadce23fc6"),
    *(Pinned(*_BACKBOARD, f"locomo_conversation_{i}.json", f"backboard/locomo_conversation_{i}.json", sha)
      for i, sha in _BACKBOARD_SUMS.items()),
)


def cache_dir(folder: str = "peers") -> Path:
    """Where fetched files are kept: ``peers/`` (or another publication's ``folder``) beside the dataset's
    cached copy."""
    return dataset.cache_path().parent / folder


def root(env: str = ENV, folder: str = "peers") -> Path:
    """The peers' files (or another publication's): its variable (``LOCOMO_PEERS``) when set, else the cache."""
    return Path(os.environ[env]) if os.environ.get(env) else cache_dir(folder)


def _good(path: Path, sha256: str) -> bool:
    return path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256


def fetch(dest: Path | None = None, *, files: Sequence[Pinned] | None = None, env: str = ENV,
          folder: str = "peers", timeout: float = 60.0) -> Path:
    """Download every pinned file (``FILES``, or another publication's ``files``) missing or wrong under ``dest``
    (default the cache's ``folder``); all verified, then written.

    Raises :class:`PeersError` (one line, nothing written, naming ``env`` for a local copy) when a download fails
    or a sum differs.
    """
    dest = cache_dir(folder) if dest is None else dest
    bodies: dict[Path, bytes] = {}
    for pinned in FILES if files is None else files:
        target = dest / pinned.local
        if _good(target, pinned.sha256):
            continue
        print(f"fetching {pinned.url}", file=sys.stderr)
        try:
            with urllib.request.urlopen(pinned.url, timeout=timeout) as response:
                body = response.read()
        except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
            why = " ".join(str(getattr(err, "reason", None) or err).split())
            raise PeersError(f"{pinned.url}: cannot download ({why}); nothing written; "
                             f"point {env} at a local copy instead") from None
        got = hashlib.sha256(body).hexdigest()
        if got != pinned.sha256:
            raise PeersError(f"{pinned.url}: sha256 {got}, expected {pinned.sha256}; nothing written")
        bodies[target] = body
    for target, body in bodies.items():
        dataset.write_kept(target, body)
    return dest
