"""Reading and writing LoCoMo-Refined's JSON and JSONL files.

Matches Refined's export.py record I/O: a ``.jsonl`` path holds one JSON value
per line (blank lines and non-object lines skipped), any other path holds one
JSON array (non-object items skipped); output is ``ensure_ascii=False``, JSONL
ends with a newline when it has lines, a JSON array is indented by two.
Every write here goes through the kit's one writer, ``locomo_repro.data.atomic``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..data import atomic, jsonio


class InputError(Exception):
    """Bad input, described in one line that names the file."""


def read_source(path: Path | jsonio.Source) -> jsonio.Source:
    """The bytes of ``path``, read once by the kit's one reader (or ``path`` itself when already read)."""
    if isinstance(path, jsonio.Source):
        return path
    try:
        return jsonio.read(path)
    except jsonio.InputError as exc:
        raise InputError(str(exc)) from None


def read_json(path: Path | jsonio.Source) -> Any:
    """The JSON value in ``path`` (the kit's one reader: strict JSON, see ``locomo_repro.data.jsonio``)."""
    try:
        return jsonio.loads(read_source(path))
    except jsonio.InputError as exc:
        raise InputError(str(exc)) from None


def load_records(path: Path | jsonio.Source) -> list[dict[str, Any]]:
    """The object records of a JSONL file or of a JSON array file (``path``, or its bytes already read)."""
    source = read_source(path)
    if Path(source.name).suffix != ".jsonl":
        payload = read_json(source)
        if not isinstance(payload, list):
            raise InputError(f"{source.name}: expected a JSON array of records")
        return [item for item in payload if isinstance(item, dict)]
    try:
        return [value for _, value in jsonio.lines(source) if isinstance(value, dict)]
    except jsonio.InputError as exc:
        raise InputError(str(exc)) from None


def records_text(records: Sequence[Mapping[str, Any]], path: Path) -> str:
    """The text Refined writes for ``records`` at ``path`` (JSONL or JSON array by suffix)."""
    if path.suffix == ".jsonl":
        lines = [jsonio.dumps(record, ensure_ascii=False) for record in records]
        return "\n".join(lines) + ("\n" if lines else "")
    return jsonio.dumps(list(records), ensure_ascii=False, indent=2)


def json_text(value: Any) -> str:
    """An indented JSON document, without a trailing newline (as Refined writes its manifest and summary)."""
    return jsonio.dumps(value, ensure_ascii=False, indent=2)


def write_atomic(files: Mapping[Path, str] | Iterable[tuple[Path, str]]) -> None:
    """Write every (path, text) pair as UTF-8, all or none, by the kit's one writer
    (``locomo_repro.data.atomic``: symlinks followed, special files written through, modes kept)."""
    pairs = files.items() if isinstance(files, Mapping) else files
    try:
        atomic.write_files((path, text.encode("utf-8")) for path, text in pairs)
    except atomic.WriteError as exc:
        raise InputError(str(exc)) from None
