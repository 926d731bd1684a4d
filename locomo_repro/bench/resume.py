"""A run that stops resumes conversation by conversation: each finished conversation's outcome kept in a folder.

``-resume DIR`` keeps one JSON file per finished conversation, named by its sample id and by a key made
from the run's signature (the dataset's digest, the arms with every plug-in's version, every setting), so
a run with other settings or another dataset never reads them.  A kept outcome is read back as the very
records it was written from (JSON gives back every float exactly), so a resumed run prints and writes the
same bytes as one that never stopped.  A plug-in whose code changed without a new version is not told
apart: empty the folder after changing it.
"""

from __future__ import annotations

import hashlib
from dataclasses import astuple
from pathlib import Path

from ..data import jsonio
from ..data.atomic import write_atomic
from . import experiment as bench
from .stream import Outcome, Spent

#: The version of the kept files' layout; a file of another version is computed again, not read.
VERSION = 2


class Kept:
    """The finished conversations of one run (named by its signature) in ``folder``."""

    def __init__(self, folder: str | Path, run: str) -> None:
        self.folder = Path(folder)
        self.key = hashlib.sha256(run.encode()).hexdigest()[:16]
        self.read = 0

    def path(self, sample: str) -> Path:
        """Where a conversation's outcome is kept (the sample id hashed: any id makes a plain file name)."""
        return self.folder / f"{hashlib.sha256(sample.encode()).hexdigest()[:16]}-{self.key}.json"

    def get(self, sample: str) -> Outcome | None:
        """The kept outcome of a conversation of this run, or None when it was not finished (or is unreadable)."""
        try:
            kept = jsonio.load(self.path(sample))
            if kept.get("version") != VERSION or kept.get("sample") != sample:
                return None
            got = _outcome(kept)
        except (OSError, ValueError, TypeError, KeyError):
            return None
        self.read += 1
        return got

    def put(self, outcome: Outcome) -> None:
        """Keep a finished conversation's outcome (written atomically: a stop leaves no half file)."""
        rows = [{arm: [list(astuple(r)) for r in records] for arm, records in one.items()} for one in outcome.records]
        kept = {"version": VERSION, "sample": outcome.sample, "sessions": outcome.sessions,
                "questions": outcome.questions, "built": list(outcome.built), "terms": outcome.terms,
                "bound": outcome.bound, "subjects": list(outcome.subjects), "records": rows,
                "spent": {name: [cost.built, list(cost.calls), cost.failures, cost.of, list(cost.sessions)]
                          for name, cost in outcome.spent.items()},
                "evidence": [{arm: list(got) for arm, got in each.items()} for each in outcome.evidence]}
        write_atomic(self.path(outcome.sample), jsonio.dumps(kept).encode())


def _record(row: list) -> bench.Record:
    sample, question, answer, category, evidence, reply, context, sure, score, recall = row
    return bench.Record(sample, question, answer, category, tuple(evidence), reply,
                        None if context is None else tuple(context), sure, score, recall)


def _outcome(kept: dict) -> Outcome:
    return Outcome(
        sample=kept["sample"], sessions=kept["sessions"], questions=kept["questions"],
        built=tuple(kept["built"]),  # type: ignore[arg-type]
        terms=kept["terms"], bound=None if kept["bound"] is None else tuple(kept["bound"]),  # type: ignore[arg-type]
        subjects=tuple(kept["subjects"]),  # type: ignore[arg-type]
        records=tuple({arm: [_record(r) for r in rows] for arm, rows in one.items()} for one in kept["records"]),
        spent={name: Spent(built, tuple(calls), failures, of, tuple(added))
               for name, (built, calls, failures, of, added) in kept["spent"].items()},
        evidence=tuple({arm: tuple(got) for arm, got in each.items()} for each in kept["evidence"]),  # type: ignore[misc]
    )
