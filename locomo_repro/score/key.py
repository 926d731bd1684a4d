"""Answer keys: the gold answer and evidence each question is graded against (``-key official|audited``).

``official`` is the dataset's own gold, as every command grades by default.  ``audited`` is locomo-audit's
correction of it (``data.audit``): a question whose gold answer the audit finds wrong (hallucinated,
temporal, attribution, incomplete) is graded against the corrected answer and its evidence recall counted
from the corrected evidence; a citation-only error changes the evidence alone; an ambiguous one, whose
right answer the audit leaves open, keeps the official gold and is held apart (``Gold.held``: reported on
its own row, in no category and no total), never guessed.

A key is a function any grader can apply: ``Key.gold(sample position, question position, answer,
evidence)`` gives the gold under the key.  ``Key.sample`` rewrites a conversation's questions, checking
that the errors are about this very dataset; ``Key.predictions`` rewrites a predictions file's gold, so
that any scorer of predictions (the official ``evaluation.py`` included) grades against the key.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..data import dataset
from ..data.dataset import Sample
from ..data.records import record

if TYPE_CHECKING:
    from ..data.audit import Error
    from .predictions import Predictions

OFFICIAL = "official"
AUDITED = "audited"
#: The keys a command can grade against, the default first.
NAMES = (OFFICIAL, AUDITED)


@record
class Gold:
    """What one question is graded against under a key: the answer, the evidence ids, and whether it is held
    apart (an ambiguous question under the audited key)."""

    answer: str
    evidence: tuple[str, ...]
    held: bool = False


@dataclass(frozen=True)
class Key:
    """An answer key: its name, the errors file it applies (its path and sha256; none for ``official``) and
    those errors by (sample position, question position)."""

    name: str = OFFICIAL
    path: str = ""
    sha256: str = ""
    errors: Mapping[tuple[int, int], Error] = field(default_factory=dict)

    @property
    def official(self) -> bool:
        return self.name == OFFICIAL

    def signed(self) -> tuple[tuple[str, str], ...]:
        """The signature's field naming the key and its errors file's digest (none for the official key, so
        that the default signature is unchanged)."""
        return () if self.official else (("key", f"{self.name}-{self.sha256[:8]}"),)

    def gold(self, sample: int, index: int, answer: str, evidence: tuple[str, ...]) -> Gold:
        """The gold of the ``index``-th question of the ``sample``-th conversation, whose official gold is
        ``answer`` and ``evidence``, under this key."""
        error = self.errors.get((sample, index))
        if error is None:
            return Gold(answer, evidence)
        from ..data.audit import AMBIGUOUS, CITATION  # here: the official key reads no errors file

        if error.type == CITATION:
            return Gold(answer, error.evidence)
        if error.type == AMBIGUOUS:
            return Gold(answer, evidence, held=True)
        return Gold(error.answer, error.evidence)

    def sample(self, position: int, sample: Sample) -> Sample:
        """The conversation at ``position`` of the dataset with its questions' gold under this key; an
        ``AuditError`` when an error of that position is not about one of its questions."""
        if self.official:
            return sample
        from ..data.audit import AuditError

        questions = list(sample.questions)
        for (at, index), error in self.errors.items():
            if at != position:
                continue
            if index >= len(questions):
                raise AuditError(f"{self.path}: {error.id}: the dataset's {sample.id} has no question {index} "
                                 f"({len(questions)} questions)")
            q = questions[index]
            if (q.text, q.answer, q.category) != (error.question, error.golden, error.category):
                raise AuditError(f"{self.path}: {error.id} is not question {index} of the dataset's {sample.id} "
                                 f"(a key applied to another dataset?)")
            gold = self.gold(position, index, q.answer, q.evidence)
            questions[index] = replace(q, answer=gold.answer, evidence=gold.evidence, held=gold.held)
        return replace(sample, questions=tuple(questions))

    def covered(self, samples: int) -> None:
        """Refuse (``AuditError``) an error about a conversation beyond the ``samples`` the dataset holds."""
        beyond = [e for (at, _), e in self.errors.items() if at >= samples]
        if beyond:
            from ..data.audit import AuditError

            raise AuditError(f"{self.path}: {beyond[0].id}: the dataset has {samples} conversations "
                             f"(a key applied to another dataset?)")

    def each(self, samples: Iterable[Sample], only: int = 0) -> Iterator[Sample]:
        """The conversations of a dataset read one at a time (the first ``only`` when above 0), each under this
        key (``sample``); once they are all read, ``covered`` checked unless ``only`` cut the dataset short."""
        count = 0
        for count, sample in enumerate(samples, start=1):
            yield self.sample(count - 1, sample)
        if not self.official and not (only and count == only):
            self.covered(count)

    def samples(self, samples: Sequence[Sample]) -> list[Sample]:
        """Every conversation of a whole dataset under this key, checked (``sample``, ``covered``)."""
        self.covered(len(samples))
        return [self.sample(i, s) for i, s in enumerate(samples)]

    def predictions(self, predictions: Predictions, samples: Sequence[Sample]) -> tuple[Predictions, int]:
        """A predictions file with its gold under this key, and how many questions were held apart (left out
        of the file returned).  Its questions are found in ``samples`` (the dataset, already under this key)
        as ``found`` finds them; a question the dataset does not hold keeps its gold."""
        if self.official:
            return predictions, 0
        kept = []
        for q, at in zip(predictions.questions, found(predictions, samples)):
            if at is not None:
                asked = samples[at[0]].questions[at[1]]
                if asked.held:
                    continue
                if at in self.errors:
                    q = replace(q, answer=asked.answer, evidence=asked.evidence)
            kept.append(q)
        held = len(predictions.questions) - len(kept)
        return replace(predictions, questions=tuple(kept)), held


def found(predictions: Predictions, samples: Sequence[Sample]) -> list[tuple[int, int] | None]:
    """Where each question of a predictions file is in the dataset ``samples``: (sample position, question
    position), found by sample id and text, a text asked twice taken in order; None where it is not there."""
    where = {s.id: i for i, s in enumerate(samples)}
    used: dict[int, set[int]] = {}
    out: list[tuple[int, int] | None] = []
    for q in predictions.questions:
        position = where.get(q.sample)
        at = None
        if position is not None:
            taken = used.setdefault(position, set())
            at = next((i for i, d in enumerate(samples[position].questions) if i not in taken and d.text == q.question),
                      None)
            if at is not None:
                taken.add(at)
        out.append(None if at is None or position is None else (position, at))
    return out

def load(name: str) -> Key:
    """The key called ``name`` (one of ``NAMES``); the audited key reads the errors file (``data.audit``)."""
    if name == OFFICIAL:
        return Key()
    from ..data.audit import AuditError, load as load_errors  # here: the official key reads no errors file

    if name != AUDITED:
        raise AuditError(f"-key {name!r}: no such key (keys: {', '.join(NAMES)})")
    read = load_errors()
    return Key(AUDITED, str(read.path), read.sha256, {(e.sample, e.index): e for e in read.errors})


def flag(parser: argparse.ArgumentParser) -> None:
    """Add ``-key NAME`` (``--key``), the answer key a command grades against, to a command's flags."""
    parser.add_argument("-key", "--key", choices=NAMES, default=OFFICIAL,
                        help="the answer key graded against: official (the dataset's gold, the default) or audited "
                             "(locomo-audit's corrections; LOCOMO_AUDIT, else fetched; docs/key.md)")


def keyed(name: str, predictions: Predictions, data: str | None = None) -> tuple[Predictions, Key]:
    """A predictions file under the key ``name`` (``Key.predictions`` over the dataset ``data``, resolved as
    every command resolves it), and the key; how many questions it holds apart is said on stderr.  Raises
    ``AuditError`` or ``DatasetError`` (one line)."""
    key = load(name)
    if key.official:
        return predictions, key
    got, held = key.predictions(predictions, key.samples(dataset.load(data)))
    if held:
        print(f"note: {predictions.path}: {held} ambiguous questions held apart (the audited key leaves their "
              f"answer open)", file=sys.stderr)
    return got, key
