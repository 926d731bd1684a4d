"""locomo-audit's list of wrong gold answers (dial481/locomo-audit ``errors.json``, CC BY-NC 4.0): located,
fetched, read.

The audit checked every answerable question of locomo10 and lists 156 problems, each with the question it
is about (``locomo_<sample position>_qa<question position>``, both from 0), the gold answer and evidence
as the dataset has them, the error's type, and the corrected answer and evidence.  The kit never ships
the file: it is fetched once at the pinned commit, its sha256 checked, into the cache beside the dataset;
``LOCOMO_AUDIT`` names a local copy of the audit's folder instead (its ``errors.json`` is read as given,
and its digest named wherever it is used).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

from . import jsonio
from .atomic import write_atomic
from .categories import ANSWERABLE
from .records import record

#: The pinned copy: commit, address, digest.
COMMIT = "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539"
URL = f"https://raw.githubusercontent.com/dial481/locomo-audit/{COMMIT}/errors.json"
SHA256 = "f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e"
ENV = "LOCOMO_AUDIT"

#: The error types whose gold answer is wrong (score-corrupting, AUDIT_REPORT.md's taxonomy), in its order.
CORRUPTING = ("HALLUCINATION", "TEMPORAL_ERROR", "ATTRIBUTION_ERROR", "AMBIGUOUS", "INCOMPLETE")
#: The score-corrupting type whose right answer the audit leaves open: held apart, never guessed.
AMBIGUOUS = "AMBIGUOUS"
#: The type whose gold answer is right and whose cited evidence is wrong (citation-only).
CITATION = "WRONG_CITATION"
TYPES = (*CORRUPTING, CITATION)

_ID = re.compile(r"locomo_([0-9]{1,6})_qa([0-9]{1,6})")
_FIELDS = ("question_id", "question", "golden_answer", "category", "error_type", "cited_evidence",
           "correct_evidence", "correct_answer")


class AuditError(Exception):
    """An errors file that cannot be found, fetched or read; the message is one line naming it."""


@record
class Error:
    """One problem the audit found: the question (``sample``, ``index``: positions from 0), its text, category
    and gold as the dataset has them, the error type, and the corrected answer and evidence."""

    id: str
    sample: int
    index: int
    question: str
    category: int
    type: str
    golden: str
    cited: tuple[str, ...]
    answer: str
    evidence: tuple[str, ...]

    @property
    def corrupting(self) -> bool:
        """Whether the gold answer is wrong (every type but the citation-only one)."""
        return self.type != CITATION


@record
class Errors:
    """An errors file read: where it came from, its whole sha256, and its errors in file order."""

    path: Path
    sha256: str
    errors: tuple[Error, ...]


def cache_path() -> Path:
    """Where a fetched copy is kept: ``audit/errors.json`` beside the dataset's cached copy."""
    from .dataset import cache_path as dataset_cache

    return dataset_cache().parent / "audit" / "errors.json"


def resolve() -> Path:
    """The errors file: ``LOCOMO_AUDIT``'s ``errors.json``, else the cache (fetched, sha-checked, if absent)."""
    folder = os.environ.get(ENV)
    if folder:
        path = Path(folder) / "errors.json"
        if not path.is_file():
            raise AuditError(f"{path}: no such file ({ENV} names the audit's folder)")
        return path
    cached = cache_path()
    if not cached.is_file():
        fetch(cached)
    return cached


def fetch(dest: Path, url: str = URL, *, timeout: float = 60.0) -> None:
    """Download the pinned errors file to ``dest``, checking its sha256; nothing is kept on failure."""
    import http.client  # here: only a first audited run without the file pays for the HTTP client
    import urllib.error
    import urllib.request

    print(f"locomo-repro: fetching {url}", file=sys.stderr)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body = response.read()
    except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
        why = " ".join(str(getattr(err, "reason", None) or err).split())
        raise AuditError(f"{url}: cannot download ({why}); nothing cached; point {ENV} at a copy of the "
                         f"audit's folder") from None
    got = hashlib.sha256(body).hexdigest()
    if got != SHA256:
        raise AuditError(f"{url}: sha256 {got}, expected {SHA256}; nothing cached")
    write_atomic(dest, body)


def load(path: Path | None = None) -> Errors:
    """Read an errors file (``resolve``'s when none is given): every entry checked, one line if one is bad.

    The cached copy must be the pinned one; a local copy is read as given (its digest names it)."""
    path = resolve() if path is None else path
    try:
        source = jsonio.read(path)
        raw = jsonio.loads(source)
    except jsonio.InputError as err:
        raise AuditError(str(err)) from None
    sha256 = source.sha256
    if path == cache_path() and sha256 != SHA256:
        raise AuditError(f"{path}: the cached copy is not the pinned errors.json (sha256 {sha256}); delete it "
                         f"to fetch it again")
    if not isinstance(raw, list) or not raw:
        raise AuditError(f"{path}: not locomo-audit's errors.json (expected a non-empty list of errors)")
    errors = tuple(_error(path, i, item) for i, item in enumerate(raw))
    seen: set[str] = set()
    for e in errors:
        if e.id in seen:
            raise AuditError(f"{path}: question {e.id} is listed twice")
        seen.add(e.id)
    return Errors(path, sha256, errors)


def _ids(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _error(path: Path, i: int, item: object) -> Error:
    where = f"{path}: error {i}"
    if not isinstance(item, dict):
        raise AuditError(f"{where}: not an object (not locomo-audit's errors.json)")
    missing = [f for f in _FIELDS if f not in item]
    if missing:
        raise AuditError(f"{where}: no field {missing[0]!r} (not locomo-audit's errors.json)")
    qid = item["question_id"]
    m = _ID.fullmatch(qid) if isinstance(qid, str) else None
    if m is None:
        raise AuditError(f"{where}: question_id {str(qid)[:40]!r} is not locomo_<sample>_qa<question>")
    where = f"{path}: {qid}"
    category = item["category"]
    if isinstance(category, bool) or category not in ANSWERABLE:
        raise AuditError(f"{where}: category {str(category)[:20]!r} is not an answerable category (1-4)")
    if item["error_type"] not in TYPES:
        raise AuditError(f"{where}: error_type {str(item['error_type'])[:40]!r} is none of {', '.join(TYPES)}")
    for name in ("question", "golden_answer", "correct_answer"):
        if not isinstance(item[name], str):
            raise AuditError(f"{where}: {name} is not text")
    cited, evidence = _ids(item["cited_evidence"]), _ids(item["correct_evidence"])
    if cited is None or evidence is None:
        raise AuditError(f"{where}: cited_evidence and correct_evidence must be lists of dialogue ids")
    return Error(id=qid, sample=int(m.group(1)), index=int(m.group(2)), question=item["question"],
                 category=category, type=item["error_type"], golden=item["golden_answer"], cited=cited,
                 answer=item["correct_answer"], evidence=evidence)
