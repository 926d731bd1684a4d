"""The LoCoMo dataset (snap-research/locomo ``data/locomo10.json``): locating, fetching, reading.

Records follow the reference loader (hanzoai/semantic bench/locomo, locomo.go):
sessions in numeric order, session dates parsed from "1:56 pm on 8 May, 2023",
a shared image's caption appended to the turn as ``"\\n[shares <caption>]"``,
and an adversarial question's ``adversarial_answer`` held as its answer.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import re
import sys
from collections.abc import Iterator
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from ..go.strings import trim_space
from . import jsonio
from .categories import ANSWERABLE as ANSWERABLE, CATEGORIES as CATEGORIES  # re-exported: dataset.CATEGORIES
from .categories import COGNITIVE as _COGNITIVE, LOCOMO as LOCOMO
from .digest import file_sha256
from .records import record
from .atomic import write_atomic as write_atomic, write_kept  # the kit's one writer; dataset.write_atomic is it

#: LoCoMo-Plus's sixth category's number, never folded into another.
COGNITIVE = _COGNITIVE.number

#: The pinned copy of the dataset: commit, address, digest and size.
COMMIT = "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376"
URL = f"https://raw.githubusercontent.com/snap-research/locomo/{COMMIT}/data/locomo10.json"
SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"
SIZE = 2_805_274


#: English month names, independent of the locale.
MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)

_SESSION = re.compile(r"session_([0-9]+)")
# Go's layout "3:04 pm on 2 January, 2006": ASCII digits, lowercase am/pm, any-case month name.
_STAMP = re.compile(r"([0-9]{1,2}):([0-9]{2}) (am|pm) on ([0-9]{1,2}) ([A-Za-z]+), ([0-9]{4})")


class DatasetError(Exception):
    """A dataset that cannot be found, fetched or read; the message is one line."""


@record
class Turn:
    """A turn of the conversation: dialogue id ("D3:12"), session number and date, speaker, text."""

    id: str
    session: int
    date: datetime | None
    speaker: str
    text: str

    @property
    def day(self) -> str:
        """The session's day in prose ("8 May, 2023"; "" when the session has no date)."""
        return day(self.date)

    def line(self) -> str:
        """The turn as a retriever indexes it: date and speaker included."""
        return f'({self.day}) {self.speaker} said, "{self.text}"'

    def line_parts(self) -> tuple[str, str, str, str]:
        """The parts of ``line()`` between its runs of punctuation and spaces: day, speaker, "said", text (a
        text's stems are those of its parts in turn: ``text.reduce.joined_stems``)."""
        return self.day, self.speaker, "said", self.text


@record
class Question:
    """One question with its answer (the adversarial answer for category 5) and evidence ids; ``held`` when an
    answer key holds it apart from every category (``score.key``)."""

    text: str
    answer: str
    category: int
    evidence: tuple[str, ...]
    held: bool = False


@record
class Sample:
    """One conversation between two speakers, its turns in order and its questions."""

    id: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]

    @property
    def sessions(self) -> int:
        """How many sessions hold at least one turn."""
        return len({t.session for t in self.turns})


def day(date: datetime | None) -> str:
    """A date in the dataset's prose form, "8 May, 2023" ("" for no date): Go's layout "2 January, 2006"."""
    return "" if date is None else day_of(date.year, date.month, date.day)


@lru_cache(maxsize=1 << 12)  # a conversation has some thirty session days, asked for by every turn
def day_of(year: int, month: int, mday: int) -> str:
    """The calendar day Go's ``time.Date(year, month, mday)`` names, in ``day``'s form.

    An out-of-range day rolls over into the next or previous month ("31 April"
    is 1 May), and the year may be 0 or earlier (the proleptic Gregorian
    calendar, as Go keeps it); the year has at least four digits.
    """
    y, m, d = _civil(_days(year, month, 1) + mday - 1)
    return f"{d} {MONTH_NAMES[m - 1]}, {y:04d}"


def _days(year: int, month: int, mday: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + mday - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def _civil(days: int) -> tuple[int, int, int]:
    """The proleptic Gregorian (year, month, day) a day count from 1970-01-01 falls on."""
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, doy - (153 * mp + 2) // 5 + 1


def parse_stamp(stamp: str) -> datetime:
    """Parse a session stamp such as "1:56 pm on 8 May, 2023" as Go's ``time.Parse`` reads that layout."""
    m = _STAMP.fullmatch(trim_space(stamp))
    if not m or m.group(5).capitalize() not in MONTH_NAMES or int(m.group(1)) > 12:
        raise ValueError(stamp)
    hour, minute, half, mday, month, year = m.groups()
    hour24 = int(hour) % 12 + (12 if half == "pm" else 0)
    return datetime(int(year), MONTH_NAMES.index(month.capitalize()) + 1, int(mday), hour24, int(minute))


def cache_path() -> Path:
    """Where a fetched copy is kept: ``${XDG_CACHE_HOME:-~/.cache}/locomo-repro/locomo10.json``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "locomo-repro" / "locomo10.json"


def resolve(path: str | os.PathLike[str] | None = None) -> Path:
    """The dataset file: the given path, else ``LOCOMO_DATA``, else the cache (fetched if absent)."""
    if path:
        return _existing(Path(path), "given with --data")
    env = os.environ.get("LOCOMO_DATA")
    if env:
        return _existing(Path(env), "named by LOCOMO_DATA")
    cached = cache_path()
    if not cached.exists():
        try:
            fetch(cached)
        except DatasetError as err:
            # Say where the file was looked for before the cache and the download.
            raise DatasetError(f"no --data given and LOCOMO_DATA not set; {err}") from None
    else:
        _verify_cached(cached)
    return cached


def pinned(file: Path) -> bool:
    """Whether ``file`` holds the pinned dataset's very bytes (its size, then its sha256: ``SIZE``, ``SHA256``)."""
    try:
        return file.stat().st_size == SIZE and file_sha256(file) == SHA256
    except OSError:
        return False


def _verify_cached(cached: Path) -> None:
    """Check the cached copy against the pinned size and sha256 each time it is used: a truncated or
    changed copy is an error that says to delete it (the next run fetches it afresh)."""
    try:  # the cache is the kit's own folder: what is planted there (a link, a FIFO) is not followed
        kept = jsonio.read_kept(cached)
    except jsonio.InputError as err:
        raise DatasetError(f"{cached}: the cached copy cannot be read ({str(err).removeprefix(f'{cached}: ')}); "
                           "delete it to fetch it again") from None
    body = b"" if kept is None else kept.raw
    if len(body) < SIZE:
        raise DatasetError(
            f"{cached}: the cached copy is truncated ({len(body):,} of {SIZE:,} bytes); delete it to fetch it again"
        )
    digest = hashlib.sha256(body).hexdigest()
    if digest != SHA256 or len(body) != SIZE:
        raise DatasetError(
            f"{cached}: the cached copy is not the pinned dataset (sha256 {digest}, {len(body):,} bytes; "
            f"expected {SHA256}, {SIZE:,} bytes); delete it to fetch it again"
        )


def _existing(path: Path, how: str) -> Path:
    if not path.is_file():
        raise DatasetError(f"{path}: no such dataset file ({how})")
    return path


def fetch(dest: Path, url: str = URL) -> None:
    """Download the pinned dataset to ``dest``, verifying size and sha256; nothing is kept on failure."""
    import http.client  # here: only a first run without the dataset pays for the HTTP client
    import urllib.error
    import urllib.request

    print(f"locomo-repro: fetching {url}", file=sys.stderr)
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            body = _read_with_progress(response)
    except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
        why = " ".join(str(err).split())  # one line, whatever the server sent
        raise DatasetError(
            f"{dest}: not found, and fetching {url} failed ({why}); "
            "point LOCOMO_DATA (or --data) at a copy of locomo10.json"
        ) from None
    digest = hashlib.sha256(body).hexdigest()
    if digest != SHA256 or len(body) != SIZE:
        raise DatasetError(
            f"{url}: refused: expected sha256 {SHA256} ({SIZE} bytes), "
            f"got {digest} ({len(body)} bytes); nothing cached"
        )
    write_kept(dest, body)


def _read_with_progress(response) -> bytes:
    chunks: list[bytes] = []
    got = 0
    while chunk := response.read(1 << 16):
        chunks.append(chunk)
        got += len(chunk)
        print(f"\rlocomo-repro: {got:,} of {SIZE:,} bytes", end="", file=sys.stderr)
    print(file=sys.stderr)
    return b"".join(chunks)


def load(path: str | os.PathLike[str] | None = None) -> list[Sample]:
    """Read the dataset (resolved as ``resolve`` does) into samples."""
    file = resolve(path)
    try:
        raw = jsonio.load(file)
    except jsonio.InputError as err:
        raise DatasetError(str(err)) from None
    if not isinstance(raw, list):
        raise DatasetError(f"{file}: expected a list of samples, found {type(raw).__name__}")
    if not raw:
        raise DatasetError(f"{file}: holds no samples")
    return [_sample(file, i, item) for i, item in enumerate(raw)]


def load_each(path: str | os.PathLike[str] | None = None, only: int = 0) -> Iterator[Sample]:
    """The samples ``load`` reads (the first ``only`` of them when above 0), one at a time.

    Only one sample's JSON is held at a time, so a run's memory does not grow
    with the file.  Every sample is still read and checked: a file ``load``
    refuses is refused with ``load``'s own message (possibly after the samples
    before the problem were handed out), and a file the incremental reader
    cannot follow but ``load`` accepts (a UTF-16 file, a byte-order mark) is
    read by ``load``.  The one exception is the pinned dataset (``pinned``):
    its bytes are known to be read without a refusal, so the samples after the
    first ``only`` are not read at all.
    """
    file = resolve(path)
    enough = only if only > 0 and pinned(file) else 0
    handed = 0
    try:
        for i, item in enumerate(items(file)):
            if enough and i == enough:
                return
            sample = _sample(file, i, item)
            if only <= 0 or i < only:
                handed += 1
                yield sample
        if handed:
            return
    except (ValueError, OSError, RecursionError, DatasetError):
        pass
    samples = load(file)  # raises load's message when the file is bad
    yield from samples[handed: only if only > 0 else None]


def items(file: Path, chunk: int = 1 << 20) -> Iterator[object]:
    """The items of the JSON list in ``file``, decoded one at a time from UTF-8 read ``chunk`` bytes at a time,
    each by the rules of the kit's one reader (``jsonio``).

    Raises ``ValueError`` when the file is not a JSON list this reader can follow (``jsonio.InputError`` for
    what that reader refuses).
    """
    decoder = jsonio.DECODER
    decode = codecs.getincrementaldecoder("utf-8")().decode
    with file.open("rb") as f:
        text, at, done = "", 0, False

        def fill() -> None:
            nonlocal text, at, done
            data = f.read(chunk)
            done = not data
            text, at = text[at:] + decode(data, final=done), 0

        def peek() -> str:
            """The next character that is not white space ("" at the end of the file)."""
            nonlocal at
            while True:
                while at < len(text) and text[at] in " \t\n\r":
                    at += 1
                if at < len(text) or done:
                    return text[at: at + 1]
                fill()

        if peek() != "[":
            raise ValueError("not a list")
        at += 1
        if peek() == "]":
            raise ValueError("an empty list")
        while True:
            while True:
                peek()  # raw_decode takes no leading white space
                try:
                    start = at
                    item, at = decoder.raw_decode(text, at)
                    jsonio.check_piece(text, start, at, item, str(file))
                    break
                except json.JSONDecodeError:
                    if done:
                        raise
                    fill()
            yield item
            after = peek()
            at += 1
            if after == "]":
                break
            if after != ",":
                raise ValueError("expected , or ]")
        if peek():
            raise ValueError("extra data")


def _sample(file: Path, index: int, item: object) -> Sample:
    where = f"{file}: sample {index}"
    if not isinstance(item, dict):
        raise DatasetError(f"{where}: not an object")
    sample_id = item.get("sample_id")
    if not isinstance(sample_id, str):
        raise DatasetError(f"{where}: missing field 'sample_id'")
    where = f"{file}: sample {sample_id}"
    conv = item.get("conversation")
    if not isinstance(conv, dict):
        raise DatasetError(f"{where}: missing field 'conversation'")
    speakers = tuple(_field(conv, key, str, where) for key in ("speaker_a", "speaker_b"))
    qa = item.get("qa")
    if not isinstance(qa, list):
        raise DatasetError(f"{where}: missing field 'qa'")
    return Sample(
        id=sample_id,
        speakers=speakers,  # type: ignore[arg-type]
        turns=_turns(conv, where),
        questions=tuple(_question(q, f"{where}: qa {i}") for i, q in enumerate(qa)),
    )


def _field(obj: dict, key: str, kind: type, where: str):
    value = obj.get(key)
    if not isinstance(value, kind):
        raise DatasetError(f"{where}: missing field '{key}'")
    return value


def _turns(conv: dict, where: str) -> tuple[Turn, ...]:
    numbers = []
    for key in conv:
        if m := _SESSION.fullmatch(key):
            n = jsonio.index(m.group(1))
            if n is None:
                raise DatasetError(f"{where}: session key {key[:20]}… has {len(m.group(1))} digits (at most "
                                   f"{jsonio.INDEX_DIGITS})")
            numbers.append(n)
    numbers.sort()
    out: list[Turn] = []
    for n in numbers:
        stamp = conv.get(f"session_{n}_date_time")
        date = None
        if stamp is not None:
            try:
                date = parse_stamp(str(stamp))
            except ValueError:
                raise DatasetError(f"{where}: session {n}: bad date {stamp!r}") from None
        said = conv.get(f"session_{n}")
        if said is None:
            raise DatasetError(f"{where}: no key 'session_{n}' (a session key with a leading zero?)")
        if not isinstance(said, list):
            raise DatasetError(f"{where}: session_{n} is not a list of turns")
        for i, turn in enumerate(said):
            if not isinstance(turn, dict):
                raise DatasetError(f"{where}: session_{n} turn {i}: not an object")
            text, id, speaker = turn.get("text"), turn.get("dia_id"), turn.get("speaker")
            if not isinstance(text, str) or not isinstance(id, str) or not isinstance(speaker, str):
                # the turn's place is written out only for the one line that refuses it
                missing = next(k for k, v in (("text", text), ("dia_id", id), ("speaker", speaker))
                               if not isinstance(v, str))
                raise DatasetError(f"{where}: session_{n} turn {i}: missing field '{missing}'")
            caption = turn.get("blip_caption") or ""
            if caption:
                text += f"\n[shares {caption}]"
            out.append(Turn(id=id, session=n, date=date, speaker=speaker, text=text))
    return tuple(out)


def _answer_text(value: object) -> str:
    """An answer as text: strings as they are, numbers as written, null as empty."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value)


def _question(q: object, where: str) -> Question:
    if not isinstance(q, dict):
        raise DatasetError(f"{where}: not an object")
    text = _field(q, "question", str, where)
    category = q.get("category")
    if isinstance(category, bool) or not isinstance(category, int) or category not in CATEGORIES:  # Go: no bool
        raise DatasetError(f"{where}: missing or unknown field 'category'")
    evidence = q.get("evidence", [])
    if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
        raise DatasetError(f"{where}: field 'evidence' is not a list of ids")
    answer = _answer_text(q.get("answer")) or _answer_text(q.get("adversarial_answer"))
    return Question(text=text, answer=answer, category=category, evidence=tuple(evidence))
