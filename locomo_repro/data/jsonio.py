"""The kit's one reader of input files (JSON above all) and its rule for the JSON it writes.

Every command that reads a file goes through :func:`read` (bytes, read once)
and, for JSON, :func:`loads` or :func:`lines`: the dataset, predictions files
(``-stats``, ``official``, ``report --predictions``), the peers' files, the
LoCoMo-Refined inputs, claims verdicts, the judge's prompt and the manifests.
What is refused, each time as :class:`InputError`, one line naming the file and
where in it:

* **read once**: a file is read one time and those bytes are hashed (for a
  signature) and parsed, so a pipe (``<(cat f)``, ``/dev/fd/N``) works like a file;
* **kept files**: :func:`read_kept` reads a file of a folder the kit owns, following no link and
  refusing a FIFO or a device planted there;
* **size**: what is not a regular file (a pipe, a device such as ``/dev/zero``)
  is read up to :data:`MAX_STREAM` bytes; more is refused;
* **text** is UTF-8 (JSON may also be UTF-16 or UTF-32, as ``json.loads`` of
  bytes detects); a byte sequence that is not is refused, naming its offset;
* **JSON** is strict: ``NaN``, ``Infinity`` and ``-Infinity`` are no JSON; a
  number outside a float64's range (``1e999``, an integer of 400 digits) is
  refused, since Go's decoder and every reader of these files take numbers as
  float64; nesting deeper than :data:`MAX_DEPTH` is refused; a ``\\ud800`` to
  ``\\udfff`` escape that is not half of a surrogate pair names no character
  and is refused (no output could hold it).

:func:`index` reads a decimal index written inside a text (a session key's
number, a ``qa_id``'s question number), refusing more digits than any file
holds items.  :func:`dumps` is ``json.dumps`` writing strict JSON: a float that
is not finite is written ``null``.
"""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

#: The most bytes read from a file that is not a regular file (a pipe, a device): 256 MiB.
MAX_STREAM = 1 << 28

#: The deepest nesting of lists and objects accepted (LoCoMo's files nest six deep; Go's decoder stops at 10,000,
#: Python's parser near 1,000).
MAX_DEPTH = 512

#: The most digits an index written in a text may have (an int64 has 19).
INDEX_DIGITS = 18


class InputError(ValueError):
    """An input that cannot be read; ``str()`` is one line naming the file and where in it."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split("\n")))


@dataclass(frozen=True)
class Source:
    """A file's bytes, read once, with its name as given (for messages)."""

    name: str
    raw: bytes

    @cached_property
    def sha256(self) -> str:
        """The sha256 of the bytes read, in hex."""
        return hashlib.sha256(self.raw).hexdigest()


def read(path: str | os.PathLike[str]) -> Source:
    """The bytes of ``path``, read once; what is not a regular file is read up to :data:`MAX_STREAM` bytes."""
    name = str(path)
    try:
        with open(path, "rb") as f:
            if stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return Source(name, f.read())
            raw = f.read(MAX_STREAM + 1)
    except IsADirectoryError:
        raise InputError(f"{name}: cannot read: a folder, not a file") from None
    except OSError as err:
        raise InputError(f"{name}: cannot read: {err.strerror or err}") from None
    if len(raw) > MAX_STREAM:
        raise InputError(f"{name}: not a regular file and longer than {MAX_STREAM >> 20} MiB: not read")
    return Source(name, raw)


def read_kept(path: str | os.PathLike[str]) -> Source | None:
    """The bytes of a file in a folder the kit owns (the ``-resume`` folder, the model's memo folder), None
    when there is none.  What is planted there is refused (InputError), never followed: a symbolic link
    (it could show any file as the kit's own), a FIFO or a device (it could hold the run for ever)."""
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise InputError(f"{name}: a symbolic link: not followed") from None
        raise InputError(f"{name}: cannot read: {err.strerror or err}") from None
    with open(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{name}: not a regular file: not read")
        return Source(name, f.read())


def text(source: Source) -> str:
    """The bytes of ``source`` as UTF-8 text; an InputError naming the first byte that is not UTF-8."""
    try:
        return source.raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"{source.name}: not UTF-8 (byte 0x{source.raw[err.start]:02x} at offset {err.start})") from None


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of ``path`` (:func:`read`, then :func:`text`)."""
    return text(read(path))


def decoded(source: Source, *, replace: bool = False) -> str:
    """The text of JSON bytes: UTF-8, UTF-16 or UTF-32 as ``json.loads`` detects them; with ``replace``,
    UTF-8 whose invalid bytes become U+FFFD (as Go's decoder reads strings)."""
    if replace:
        return source.raw.decode("utf-8", errors="replace")
    encoding = json.detect_encoding(source.raw)
    try:
        return source.raw.decode(encoding)
    except UnicodeDecodeError as err:
        what = "UTF-8" if encoding.startswith("utf-8") else encoding.upper()
        raise InputError(f"{source.name}: not {what} (byte 0x{source.raw[err.start]:02x} at offset {err.start})") \
            from None


def loads(source: Source, *, replace: bool = False) -> Any:
    """The JSON value in ``source``, by the module's rules (``replace``: see :func:`decoded`)."""
    return parse(decoded(source, replace=replace), source.name)


def load(path: str | os.PathLike[str]) -> Any:
    """The JSON value in the file ``path``."""
    return loads(read(path))


def lines(source: Source) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for every line of a JSONL file that is not blank, each by the module's rules."""
    body = decoded(source)
    if at := _lone_surrogate(body):
        raise InputError(f"{source.name}: {_place(body, at)}: {_SURROGATE_PROBLEM}")
    for number, line in enumerate(body.splitlines(), start=1):
        if line.strip():
            yield number, parse(line, f"{source.name}: line {number}", lines=False)


def parse(body: str, name: str, *, lines: bool = True) -> Any:
    """The JSON value of the text ``body``; ``name`` heads messages (``lines``: say line and column, else column)."""
    if at := _lone_surrogate(body):
        raise InputError(f"{name}: {_place(body, at, lines)}: {_SURROGATE_PROBLEM}")
    try:
        value = DECODER.decode(body)
    except _Refused as refused:
        at = _token_at(body, refused.token)
        head, _, problem = refused.problem.rpartition(": ")
        place = [_place(body, at, lines)] if at is not None else []
        raise InputError(": ".join([name, *([head] if head else []), *place, problem])) from None
    except json.JSONDecodeError as err:
        where = f"line {err.lineno} column {err.colno}" if lines else f"column {err.colno}"
        raise InputError(f"{name}: not JSON: {where}: {err.msg}") from None
    except RecursionError:
        raise InputError(f"{name}: not JSON: nested too deeply (more than {MAX_DEPTH} levels)") from None
    check_depth(value, name)
    return value


def check_depth(value: Any, name: str) -> None:
    """Refuse a value whose lists and objects nest deeper than :data:`MAX_DEPTH` (walked a level at a time)."""
    level = [value] if type(value) is list or type(value) is dict else []
    depth = 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            raise InputError(f"{name}: not JSON: nested too deeply (more than {MAX_DEPTH} levels)")
        level = [c for node in level for c in (node.values() if type(node) is dict else node)
                 if type(c) is dict or type(c) is list]


def index(digits: str) -> int | None:
    """The number a string of ASCII digits writes, or None when it is not one or has more than
    :data:`INDEX_DIGITS` digits (more than any file holds items; ``int()`` stops at 4,300)."""
    if not digits or len(digits) > INDEX_DIGITS or not digits.isascii() or not digits.isdigit():
        return None
    return int(digits)


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps(value, **options)`` as strict JSON: a float that is not finite (NaN, an overflowed
    mean) is written ``null``; for every other value the very bytes ``json.dumps`` writes."""
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError:
        return json.dumps(_finite(value), allow_nan=False, **options)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


# --- the parser's hooks ----------------------------------------------------------------------


class _Refused(ValueError):
    """A token the hooks refuse; the parser lets it through, and ``parse`` places it."""

    def __init__(self, token: str, problem: str) -> None:
        super().__init__(problem)
        self.token, self.problem = token, problem


def _constant(word: str) -> float:
    raise _Refused(word, f"not JSON: {word} is no JSON number")


def _shown(token: str) -> str:
    return token if len(token) <= 24 else f"{token[:12]}…({len(token)} characters)"


def _float(token: str) -> float:
    value = float(token)
    if math.isinf(value):
        raise _Refused(token, f"number {_shown(token)} is out of a float64's range")
    return value


def _int(token: str) -> int:
    if len(token) > 300 and math.isinf(float(token)):
        raise _Refused(token, f"number {_shown(token)} is out of a float64's range")
    return int(token)


#: The strict decoder every JSON input of the kit goes through (a reader that decodes a file piece by piece with
#: its ``raw_decode`` checks each piece with :func:`check_piece`).
DECODER = json.JSONDecoder(parse_float=_float, parse_int=_int, parse_constant=_constant)


def check_piece(body: str, start: int, end: int, value: Any, name: str) -> None:
    """Refuse what the hooks cannot see in ``body[start:end]``, decoded to ``value``: a lone surrogate, too deep."""
    if _SURROGATE_HINT.search(body, start, end) and (at := _lone_surrogate(body[start:end])):
        raise InputError(f"{name}: {_SURROGATE_PROBLEM} (character {start + at} of the piece read)")
    check_depth(value, name)


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?[A-Za-z]+|[-+0-9.eE]+', re.S)


def _token_at(body: str, token: str) -> int | None:
    """Where the first ``token`` outside a string is in ``body`` (None when not found)."""
    for m in _TOKEN.finditer(body):
        if m.group() == token:
            return m.start()
    return None


def _place(body: str, at: int, lines: bool = True) -> str:
    line = body.count("\n", 0, at) + 1
    column = at - (body.rfind("\n", 0, at) + 1) + 1
    return f"line {line} column {column}" if lines else f"column {column}"


_SURROGATE_PROBLEM = "a \\ud800-\\udfff escape that is not half of a surrogate pair (no character)"
_SURROGATE_HINT = re.compile(r"\\u[dD][89a-fA-F]")
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)


def _lone_surrogate(body: str) -> int | None:
    """The offset of the first ``\\uXXXX`` escape of a surrogate outside a pair; None when there is none
    (the common case is one search of the text)."""
    if not _SURROGATE_HINT.search(body):
        return None
    high: int | None = None  # the offset of a high surrogate waiting for its low half
    for m in _ESCAPE.finditer(body):
        code = int(m.group(1), 16) if m.group(1) else None
        if high is not None:
            if code is not None and 0xDC00 <= code <= 0xDFFF and m.start() == high + 6:
                high = None
                continue
            return high
        if code is not None and 0xD800 <= code <= 0xDBFF:
            high = m.start()
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return m.start()
    return high

