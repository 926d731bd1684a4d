"""One LLM-judge verdict as data, and the kit's own judged file (``locomo-repro/judged``, version 1).

A :class:`Verdict` is what one judge said of one reply, once: the question it is about (conversation id
and the question's index in that conversation's ``qa`` list, the pairing key every file is read into), the
reply and the gold answer it was shown, its label as given, the score that label means (1 correct, 0
wrong, 0.5 for a graded judge's partial), which judge (name, model, prompt sha256) and which repeat, and its
raw reason.  A judgement whose reason is an error (an API error, an empty or unparsable label) is a
**failed judgement**: its score is None, it is counted and named, never taken for a verdict.

The kit's judged file is JSON: ``{"schema": "locomo-repro/judged", "version": 1, "judge": {...},
"signature": "...", "verdicts": [...]}``, each verdict an object of :class:`Verdict`'s fields.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ..data import jsonio

SCHEMA = "locomo-repro/judged"
VERSION = 1


@dataclass(frozen=True)
class Verdict:
    """What one judge said of one reply, once (see the module's docstring)."""

    sample_id: str
    qa: int
    category: int
    question: str
    gold: str
    reply: str
    arm: str
    label: str
    score: float | None
    judge: str
    model: str = ""
    prompt_sha256: str = ""
    repeat: int = 0
    reason: str = ""

    def __post_init__(self) -> None:
        if self.score is not None and not (math.isfinite(self.score) and 0.0 <= self.score <= 1.0):
            raise ValueError(f"a verdict's score is in [0, 1], not {self.score!r}")

    @property
    def failed(self) -> bool:
        """A failed judgement: no verdict was had (its ``reason`` says why)."""
        return self.score is None


class JudgedError(jsonio.InputError):
    """A judged file that cannot be read; one line naming it and the problem."""


def dumps(verdicts: list[Verdict], judge: dict[str, Any], signature: str) -> str:
    """The kit's judged file holding ``verdicts``, with the judge's facts (name, model, prompt sha256,
    temperature, repeats, source) and the run's signature."""
    body = {"schema": SCHEMA, "version": VERSION, "judge": judge, "signature": signature,
            "verdicts": [asdict(v) for v in verdicts]}
    return jsonio.dumps(body, indent=1, ensure_ascii=False) + "\n"


#: The fields of a verdict that are not strings, and what they are.
_TYPES = {"qa": "an integer", "category": "an integer", "repeat": "an integer"}


def _typed(field: str, value: object) -> bool:
    """Whether a decoded verdict field has its type: the integers integers (not true/false), the score a number
    or null, the rest strings."""
    if field == "score":
        return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))
    if field in _TYPES:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def loads(data: object, name: str) -> tuple[list[Verdict], dict[str, Any], str]:
    """The verdicts, judge facts and signature of a decoded kit's judged file; :class:`JudgedError` otherwise."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise JudgedError(f"{name}: not a {SCHEMA} file")
    if data.get("version") != VERSION:
        raise JudgedError(f"{name}: {SCHEMA} version {data.get('version')!r}, this kit reads version {VERSION}")
    names = {f.name for f in fields(Verdict)}
    raw = data.get("verdicts")
    if not isinstance(raw, list):
        raise JudgedError(f"{name}: 'verdicts' is not a list")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or set(item) != names:
            raise JudgedError(f"{name}: verdicts[{i}] does not have exactly the fields {', '.join(sorted(names))}")
        if wrong := next((k for k in names if not _typed(k, item[k])), None):
            raise JudgedError(f"{name}: verdicts[{i}]: {wrong} is {type(item[wrong]).__name__}, not "
                              f"{'a number or null' if wrong == 'score' else _TYPES.get(wrong, 'a string')}")
        try:
            out.append(Verdict(**item))
        except (TypeError, ValueError) as err:
            raise JudgedError(f"{name}: verdicts[{i}]: {err}") from None
    judge = data.get("judge")
    signature = data.get("signature")
    if not isinstance(judge, dict) or not isinstance(signature, str):
        raise JudgedError(f"{name}: 'judge' must be an object and 'signature' a string")
    return out, judge, signature


def read(path: str | Path) -> tuple[list[Verdict], dict[str, Any], str]:
    """A kit's judged file read by the kit's one reader (:mod:`locomo_repro.data.jsonio`)."""
    return loads(jsonio.load(path), str(path))
