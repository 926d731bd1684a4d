"""A run that stops resumes conversation by conversation: each finished conversation's outcome kept in a folder.

``-resume DIR`` keeps one JSON file per finished conversation, named by its sample id and by a key made
from the run's signature (the dataset's digest, the arms with every plug-in's version, every setting), so
a run with other settings or another dataset never looks for them.  A kept outcome is read back as the very
records it was written from (JSON gives back every float exactly), so a resumed run prints and writes the
same bytes as one that never stopped.

What is read back is proven to be this run's: a kept file is read by the kit's reader of kept files (a
link or a FIFO planted there is refused, ``jsonio.read_kept``), parsed by its one JSON reader, and must
have the layout :func:`_outcome` checks, this run's signature, this conversation's id, the number of
passes this run asks, and the sha256 of everything else it holds (an edited score changes it).  A file
that fails any of these is never merged: the conversation is computed again, said on stderr in one
line naming the file, and the file replaced.  A plug-in whose code changed without a new version is not
told apart: empty the folder after changing it.
"""

from __future__ import annotations

import hashlib
import math
import sys
from dataclasses import astuple
from pathlib import Path
from typing import Any, TextIO

from ..data import jsonio
from ..data.atomic import write_kept
from . import experiment as bench
from .stream import Outcome, Spent

#: The kept files' schema and the version of their layout.
SCHEMA = "locomo-repro/kept"
VERSION = 2


class _Bad(ValueError):
    """What makes a kept file not this run's (the message says what)."""


class Kept:
    """The finished conversations of one run (named by its signature) in ``folder``, each asked ``passes``
    times (one, or one per swept value)."""

    def __init__(self, folder: str | Path, run: str, passes: int = 1, errors: TextIO | None = None) -> None:
        self.folder = Path(folder)
        self.run = run
        self.passes = passes
        self.key = hashlib.sha256(run.encode()).hexdigest()[:16]
        self.errors = errors if errors is not None else sys.stderr
        self.read = 0

    def path(self, sample: str) -> Path:
        """Where a conversation's outcome is kept (the sample id hashed: any id makes a plain file name)."""
        return self.folder / f"{hashlib.sha256(sample.encode()).hexdigest()[:16]}-{self.key}.json"

    def get(self, sample: str) -> Outcome | None:
        """The kept outcome of a conversation of this run, or None when there is none or it is not this run's
        (said on stderr).  A link or a special file planted there is an ``InputError``."""
        path = self.path(sample)
        source = jsonio.read_kept(path)
        if source is None:
            return None
        try:
            kept = jsonio.loads(source)
            got = _outcome(kept, self.run, sample, self.passes)
        except jsonio.InputError as err:
            why = str(err).removeprefix(f"{path}: ")
            print(f"locomo-repro: {path}: {why}; computed again", file=self.errors)
            return None
        except _Bad as err:
            print(f"locomo-repro: {path}: not a kept outcome of this run ({err}); computed again", file=self.errors)
            return None
        self.read += 1
        return got

    def put(self, outcome: Outcome) -> None:
        """Keep a finished conversation's outcome (written atomically: a stop leaves no half file)."""
        rows = [{arm: [list(astuple(r)) for r in records] for arm, records in one.items()} for one in outcome.records]
        kept: dict[str, Any] = {
            "schema": SCHEMA, "version": VERSION, "signature": self.run, "sample": outcome.sample,
            "sessions": outcome.sessions, "questions": outcome.questions, "built": list(outcome.built),
            "terms": outcome.terms, "bound": outcome.bound, "subjects": list(outcome.subjects), "records": rows,
            "spent": {name: [cost.built, list(cost.calls), cost.failures, cost.of, list(cost.sessions)]
                      for name, cost in outcome.spent.items()},
            "evidence": [{arm: list(got) for arm, got in each.items()} for each in outcome.evidence]}
        kept["sha256"] = _digest(kept)
        write_kept(self.path(outcome.sample), jsonio.dumps(kept).encode())


def _digest(kept: dict[str, Any]) -> str:
    """The sha256 of everything a kept file holds but its digest, as the kit writes JSON (keys sorted)."""
    return hashlib.sha256(jsonio.dumps({k: v for k, v in kept.items() if k != "sha256"}, sort_keys=True).encode()
                          ).hexdigest()


def _is_int(value: object) -> bool:
    return type(value) is int and value >= 0


def _ints(value: object, n: int) -> bool:
    return type(value) is list and len(value) == n and all(_is_int(v) for v in value)


def _strings(value: object) -> bool:
    return type(value) is list and all(type(v) is str for v in value)


def _number(value: object) -> bool:
    return type(value) in (int, float) and math.isfinite(value)  # type: ignore[arg-type]


def _record(row: object, sample: str) -> bench.Record:
    """One kept record, its every field of the type it is written with."""
    if type(row) is not list or len(row) != 11:
        raise _Bad("a record is not a list of 11 fields")
    at, question, answer, category, evidence, reply, context, sure, score, recall, held = row
    if at != sample or not all(type(v) is str for v in (question, answer, reply)) or not _is_int(category) \
            or not _strings(evidence) or not (context is None or _strings(context)) \
            or not (sure is None or _number(sure)) or not _number(score) or not (recall is None or _number(recall)) \
            or type(held) is not bool:
        raise _Bad("a record's fields are not of the kept types")
    return bench.Record(sample, question, answer, category, tuple(evidence), reply,
                        None if context is None else tuple(context), sure, score, recall, held)


def _outcome(kept: object, run: str, sample: str, passes: int) -> Outcome:
    """The outcome a kept file holds, if it is this run's file of this conversation with the layout
    :meth:`Kept.put` writes; else ``_Bad`` saying what is not."""
    if type(kept) is not dict or kept.get("schema") != SCHEMA or kept.get("version") != VERSION:
        raise _Bad(f"no \"schema\": \"{SCHEMA}\", \"version\": {VERSION}")
    if kept.get("signature") != run:
        raise _Bad("another run's signature")
    if kept.get("sample") != sample:
        raise _Bad("another conversation's")
    if kept.get("sha256") != _digest(kept):
        raise _Bad("its sha256 is not that of what it holds: edited")
    bound, records = kept.get("bound"), kept.get("records")
    if not (all(_is_int(kept.get(k)) for k in ("sessions", "questions", "terms")) and _ints(kept.get("built"), 5)
            and (bound is None or _ints(bound, 2)) and _ints(kept.get("subjects"), 2)):
        raise _Bad("its counts are not of the kept types")
    if type(records) is not list or len(records) != passes or not all(type(one) is dict for one in records):
        raise _Bad(f"not {passes} passes of records")
    done: list[dict[str, list[bench.Record]]] = []
    for one in records:
        done.append({})
        for arm, rows in one.items():
            if type(rows) is not list or len(rows) != kept["questions"]:
                raise _Bad("an arm's records are not one per question")
            done[-1][arm] = [_record(r, sample) for r in rows]
    spent, evidence = kept.get("spent"), kept.get("evidence")
    if type(spent) is not dict or not all(_spent(cost) for cost in spent.values()):
        raise _Bad("its costs are not of the kept types")
    if type(evidence) is not list or len(evidence) != passes or not all(
            type(each) is dict and all(_ints(got, 4) for got in each.values()) for each in evidence):
        raise _Bad(f"not {passes} passes of evidence sizes")
    return Outcome(sample=sample, sessions=kept["sessions"], questions=kept["questions"],
                   built=tuple(kept["built"]),  # type: ignore[arg-type]
                   terms=kept["terms"], bound=None if bound is None else (bound[0], bound[1]),
                   subjects=(kept["subjects"][0], kept["subjects"][1]), records=tuple(done),
                   spent={name: Spent(built, tuple(calls), failures, of, tuple(added))
                          for name, (built, calls, failures, of, added) in spent.items()},
                   evidence=tuple({arm: (got[0], got[1], got[2], got[3]) for arm, got in each.items()}
                                  for each in evidence))


def _spent(cost: object) -> bool:
    """Whether a kept cost is ``[built, calls, failures, of, sessions]`` of the types ``stream.Spent`` has."""
    if type(cost) is not list or len(cost) != 5:
        return False
    built, calls, failures, of, added = cost
    return (_seconds(built) and type(calls) is list and all(_seconds(c) for c in calls) and _is_int(failures)
            and type(of) is str and type(added) is list and all(_seconds(a) for a in added))


def _seconds(value: object) -> bool:
    return _number(value) and value >= 0  # type: ignore[operator]
