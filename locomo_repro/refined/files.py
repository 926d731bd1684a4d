"""Reading and writing LoCoMo-Refined's JSON and JSONL files.

Matches Refined's export.py record I/O: a ``.jsonl`` path holds one JSON value
per line (blank lines and non-object lines skipped), any other path holds one
JSON array (non-object items skipped); output is ``ensure_ascii=False``, JSONL
ends with a newline when it has lines, a JSON array is indented by two.
Every write here goes through the kit's one writer, ``locomo_repro.data.atomic``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..data import atomic


class InputError(Exception):
    """Bad input, described in one line that names the file."""


def _read_text(path: Path) -> str:
    """The UTF-8 text of ``path``; an InputError saying why it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None


def read_json(path: Path) -> Any:
    """The JSON value in ``path``."""
    text = _read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{path}: invalid JSON: nested too deeply") from None
    except ValueError as exc:  # an integer of more than 4300 digits
        raise InputError(f"{path}: invalid JSON: {exc}") from None


def load_records(path: Path) -> list[dict[str, Any]]:
    """The object records of a JSONL file or of a JSON array file."""
    if path.suffix != ".jsonl":
        payload = read_json(path)
        if not isinstance(payload, list):
            raise InputError(f"{path}: expected a JSON array of records")
        return [item for item in payload if isinstance(item, dict)]
    lines = _read_text(path).splitlines()
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: line {number}: invalid JSON: {exc.msg}") from None
        except RecursionError:
            raise InputError(f"{path}: line {number}: invalid JSON: nested too deeply") from None
        except ValueError as exc:  # an integer of more than 4300 digits
            raise InputError(f"{path}: line {number}: invalid JSON: {exc}") from None
        if isinstance(value, dict):
            records.append(value)
    return records


def records_text(records: Sequence[Mapping[str, Any]], path: Path) -> str:
    """The text Refined writes for ``records`` at ``path`` (JSONL or JSON array by suffix)."""
    if path.suffix == ".jsonl":
        lines = [json.dumps(record, ensure_ascii=False) for record in records]
        return "\n".join(lines) + ("\n" if lines else "")
    return json.dumps(list(records), ensure_ascii=False, indent=2)


def json_text(value: Any) -> str:
    """An indented JSON document, without a trailing newline (as Refined writes its manifest and summary)."""
    return json.dumps(value, ensure_ascii=False, indent=2)


def write_atomic(files: Mapping[Path, str] | Iterable[tuple[Path, str]]) -> None:
    """Write every (path, text) pair as UTF-8, all or none, by the kit's one writer
    (``locomo_repro.data.atomic``: symlinks followed, special files written through, modes kept)."""
    pairs = files.items() if isinstance(files, Mapping) else files
    try:
        atomic.write_files((path, text.encode("utf-8")) for path, text in pairs)
    except atomic.WriteError as exc:
        raise InputError(str(exc)) from None
