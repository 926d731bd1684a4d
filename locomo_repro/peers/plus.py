"""LoCoMo-Plus (xjtuleeyf/Locomo-Plus): its files pinned, its cognitive items and its predictions read.

LoCoMo-Plus adds a sixth category, Cognitive, to LoCoMo: 401 items (``data/locomo_plus.json``), each a cue
dialogue and a later trigger query between speakers A and B, a relation type and a time gap ("two weeks
later"), stitched into a LoCoMo conversation (``stitch``).  Its published run (``unified_predictions.json``,
one record per question: ``question_input``, ``evidence`` as text, ``category`` by name, ``ground_truth``,
``prediction``, ``model``, and ``time_gap`` for a cognitive one) and its judged files are kept in the repository
history only; the kit fetches them at the commits below (``locomo-repro plus fetch``, sha256-checked, into
``${XDG_CACHE_HOME:-~/.cache}/locomo-repro/locomo-plus``) or reads a local copy of the same layout named by
``LOCOMO_PLUS``.  Nothing of them is shipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..data import jsonio
from .fetch import Pinned, root
from ..score.formats import PeersError

ENV = "LOCOMO_PLUS"
FOLDER = "locomo-plus"
REPO = "xjtuleeyf/Locomo-Plus"
#: The data's commit (the repository's head) and the last commit before its outputs were deleted.
DATA_COMMIT = "059f4e3d38f7f1f96765e8e2cb7de3097551bffb"
OUTPUT_COMMIT = "69c001951039463cded06dcbffa826ca5abd5a6f"

ITEMS = "data/locomo_plus.json"
PREDICTIONS = "output/unified_predictions.json"
JUDGED = "output/judged.json"
JUDGED_V2 = "output/judged_v2.json"
SUMMARY = "output/judge_summary.json"
README = "README.md"

#: Every LoCoMo-Plus file the kit reads, pinned (``local`` is the path under ``LOCOMO_PLUS``).
FILES: tuple[Pinned, ...] = (
    Pinned(REPO, DATA_COMMIT, README, README, "5aa75d1d1c6c741ce47317365f9ea0f7a0adb1c82e16fc93e5f6270d22ace61b"),
    Pinned(REPO, DATA_COMMIT, ITEMS, ITEMS, "af2fc6e5e0e88735e28d8dd1ef474b718861a73beb21779809e3b9e1a4fe3d23"),
    *(Pinned(REPO, OUTPUT_COMMIT, f"evaluation_framework/{local}", local, sha) for local, sha in (
        (PREDICTIONS, "922406697409c29bd028a8165b2b34e03dfd0a4fa226f481ec79b0167b623a67"),
        (JUDGED, "dfadb86714be50efb643deaaffdd3fc8c0d41c19d6513eadc8b6d86574cb69be"),
        (JUDGED_V2, "072763c220a7696a1b124c8749364fc12a07383b3b1c8de98ad303c902b8a3a3"),
        (SUMMARY, "5424162ae04c812eca2542f01f0259bd0fbbe07515e7fbc4edf91ecfb76b0185"),
    )),
)

#: LoCoMo-Plus's names of the categories (``unified_input.py``), by the dataset's numbers; 6 is its Cognitive.
NAMES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "common-sense", 4: "single-hop", 5: "adversarial",
                         6: "Cognitive"}
#: The fields of a published prediction record; ``time_gap`` too on a cognitive one.
RECORD = ("question_input", "evidence", "category", "ground_truth", "prediction", "model")


def folder() -> Path:
    """LoCoMo-Plus's files: ``LOCOMO_PLUS`` when set, else the cache."""
    return root(ENV, FOLDER)


def path(local: str, base: Path | None = None) -> Path:
    """One of the files (``ITEMS``, ``PREDICTIONS``...) under ``base`` (default :func:`folder`); a missing one is
    a :class:`PeersError` saying how to get it."""
    where = (folder() if base is None else base) / local
    if not where.is_file():
        raise PeersError(f"{where}: no such file (locomo-repro plus fetch, or set {ENV} to a copy of "
                         f"{REPO} laid out as data/ and output/)")
    return where


@dataclass(frozen=True)
class Line:
    """One line of a cue or trigger dialogue: ``A`` or ``B``, and what is said."""

    speaker: str
    text: str


@dataclass(frozen=True)
class Item:
    """One cognitive item: its position in locomo_plus.json, relation type, cue and trigger (as published and as
    lines), and time gap."""

    index: int
    relation: str
    cue: str
    trigger: str
    time_gap: str

    @property
    def cue_lines(self) -> tuple[Line, ...]:
        return lines(self.cue)

    @property
    def trigger_lines(self) -> tuple[Line, ...]:
        return lines(self.trigger)


def lines(dialogue: str) -> tuple[Line, ...]:
    """A dialogue's lines as ``build_conv.parse_ab_dialogue`` reads them: each line stripped, those starting
    ``A:`` or ``B:`` kept with the rest stripped, every other line dropped."""
    out = []
    for line in dialogue.split("\n"):
        line = line.strip()
        if line.startswith(("A:", "B:")):
            out.append(Line(line[0], line[2:].strip()))
    return tuple(out)


def _load(file: Path) -> object:
    try:
        return jsonio.load(file)
    except jsonio.InputError as err:
        raise PeersError(str(err)) from None


def items(file: Path) -> list[Item]:
    """locomo_plus.json's items, in order; a file not of its shape is a :class:`PeersError` naming the entry."""
    raw = _load(file)
    if not isinstance(raw, list) or not raw:
        raise PeersError(f"{file}: expected a non-empty list of cue/trigger items")
    out = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise PeersError(f"{file}: item {i}: not an object")
        fields: list[str] = []
        for key in ("relation_type", "cue_dialogue", "trigger_query", "time_gap"):
            value = entry.get(key)
            if not isinstance(value, str):
                raise PeersError(f"{file}: item {i}: field {key!r} is not a string")
            fields.append(value)
        out.append(Item(i, *fields))
    return out


def records(file: Path) -> list[dict]:
    """The published prediction records, each checked to have the fields of one (``RECORD``); in file order."""
    raw = _load(file)
    if not isinstance(raw, list) or not raw:
        raise PeersError(f"{file}: expected a non-empty list of prediction records")
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise PeersError(f"{file}: record {i}: not an object")
        missing = [key for key in RECORD if key not in entry]
        if missing:
            raise PeersError(f"{file}: record {i}: no field {missing[0]!r}")
        if entry["category"] not in NAMES.values():
            raise PeersError(f"{file}: record {i}: category {entry['category']!r} is none of LoCoMo-Plus's six")
        for key in ("question_input", "evidence", "prediction", "model"):
            if not isinstance(entry[key], str):
                raise PeersError(f"{file}: record {i}: field {key!r} is not a string")
    return raw


def answered(predictions: Sequence[dict], plus: Sequence[Item], file: Path) -> list[Item]:
    """The items whose triggers the cognitive records of a predictions file answer, in the file's order: the
    published run answers 254 of the 401, a subset in locomo_plus.json's own order."""
    by_trigger = {item.trigger.strip(): item for item in plus}
    out = []
    for i, r in enumerate(predictions):
        if r["category"] != NAMES[6]:
            continue
        item = by_trigger.get(r["question_input"])
        if item is None:
            raise PeersError(f"{file}: record {i}: its trigger is no item of locomo_plus.json")
        out.append(item)
    return out
