"""A reader with a language model behind it, read beside the deterministic one.

Matches ``Model`` (``Read``, ``Alone``, ``Cost``), ``Memo``, ``tidy``,
and ``Nothing`` of hanzoai/semantic bench/locomo (model.go) and the
chat settings ``NewModel`` gives ``extract.Chat`` (temperature 0, a 384-token
reply cap, seven attempts with a doubling pause of at most 30 s, a two-minute
request timeout).  The prompts are the kit's own wording.

The floor is applied before the model is asked, so a memory that declines
costs nothing; a failed call declines and is counted; every answer is kept on
disk under a hash of (model, prompt) so a stopped run resumes and a repeat is
free, and failures are never kept; what is planted in a shared memo folder (a
symbolic link, a FIFO) is never followed.  The requests go through the kit's
``locomo_repro.read.chat`` client.  Beyond the reference: a busy endpoint's
``Retry-After`` is honoured, and a model may be asked from many threads at once
(``bench.experiment`` does so for ``-concurrency``): the counts, the memo and
every answer stay what a sequential run gives.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

# re-exported: model.DEFAULT_BASE_URL, model.KEY_VARIABLES, model.api_key, ... are the endpoint's
from ..read.endpoint import DEFAULT_BASE_URL as DEFAULT_BASE_URL, DEFAULT_MEMO as DEFAULT_MEMO
from ..read.endpoint import KEY_VARIABLES as KEY_VARIABLES, api_key as api_key
from ..read.chat import (ChatBadReply, ChatClient, ChatError, ChatHTTPError, ChatRedirected, endpoint, retry,
                         user_message)
from ..data import stop
from ..data import jsonio
from ..data.atomic import write_kept
from ..data.progress import EVERY, Progress
from ..text.lexicon import DECLINE
from ..memory.cite import Cite
from ..read.reader import Options
from ..memory.terms import Vocabulary

#: Most tokens a reply may run to: room for a short answer after some thinking.
REPLY_CAP = 384
#: Attempts per request, the first pause, the longest pause, and the per-request timeout (seconds).
ATTEMPTS = 7
FIRST_PAUSE = 1.0
LONGEST_PAUSE = 30.0
TIMEOUT = 120.0
#: HTTP statuses worth another attempt: busy, or broken behind the endpoint.
TRANSIENT = frozenset({429, 500, 502, 503, 504})
#: Failures described on stderr; the rest are only counted.
SHOWN_FAILURES = 5
#: Statuses whose ``Retry-After`` header says how long to wait before the next attempt.
ASKS_TO_WAIT = frozenset({429, 503})
#: The longest ``Retry-After`` honoured (seconds): a longer ask (a 400-digit one cannot even be slept) waits this.
LONGEST_ASKED = 3600.0
#: Seconds between progress lines off a terminal (the kit's one rule, ``progress.EVERY``); a shorter run shows none.
PROGRESS_EVERY = EVERY

#: Sends one prompt and returns the model's raw reply; raises ``ChatError`` on failure.
Complete = Callable[[str], str]


class _Final(Exception):
    """Carries a failure that another attempt would only repeat past ``retry``."""

    def __init__(self, error: ChatError) -> None:
        super().__init__(str(error))
        self.error = error


def retry_after(error: BaseException, now: Callable[[], float] = time.time) -> float | None:
    """Seconds a 429 or 503 reply asked to wait (``Retry-After``: seconds or an HTTP date; at most
    ``LONGEST_ASKED``), else ``None`` (no such header, or one that is neither)."""
    if not isinstance(error, ChatHTTPError) or error.status not in ASKS_TO_WAIT or not error.retry_after:
        return None
    value = error.retry_after.strip()
    if value.isascii() and value.isdigit():  # not "²", which str.isdigit() also calls a digit
        return min(float(value), LONGEST_ASKED)
    import email.utils  # here: a run without -model needs no mail parser

    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return min(max(0.0, when.timestamp() - now()), LONGEST_ASKED)


def pause(error: BaseException, attempt: int) -> float:
    """The wait after failed attempt ``attempt``: what a 429 or 503 asked for in ``Retry-After``,
    else 1 s doubled each time, at most 30 s."""
    asked = retry_after(error)
    if asked is not None:
        return asked
    return min(FIRST_PAUSE * 2 ** (attempt - 1), LONGEST_PAUSE)


class Tokens:
    """The tokens an endpoint reported for the replies it gave (the ``usage`` of each chat completion):
    prompt and completion tokens summed, and how many replies said any.  Threads may add at once."""

    def __init__(self) -> None:
        self.prompt = self.completion = self.replies = 0
        self._lock = threading.Lock()

    def add(self, response: object) -> None:
        """Count one reply's ``usage``, where it has whole numbers of tokens (else nothing)."""
        usage = response.get("usage") if isinstance(response, dict) else None
        prompt = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        completion = usage.get("completion_tokens") if isinstance(usage, dict) else None
        if all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (prompt, completion)):
            with self._lock:
                self.prompt += prompt  # type: ignore[operator]
                self.completion += completion  # type: ignore[operator]
                self.replies += 1


def chat_completer(
    client: ChatClient, attempts: int = ATTEMPTS, sleep: Callable[[float], object] = stop.pause,
    tokens: Tokens | None = None,
) -> Complete:
    """A ``Complete`` over a chat client: one user turn, temperature 0, the reply cap.

    A timeout, a lost connection or a transient status is tried again; any
    other status or an unreadable reply fails at once (the reference's rule);
    the pause is ``pause``'s, slept with ``sleep`` (``stop.pause``: it ends when the run is interrupted);
    each reply's reported tokens are added to ``tokens``.
    """

    def once(prompt: str) -> str:
        try:
            reply = client.complete(user_message(prompt), temperature=0, max_tokens=REPLY_CAP)
            if tokens is not None:
                tokens.add(reply.raw)
            return reply.content
        except ChatHTTPError as error:
            if error.status in TRANSIENT:
                raise
            raise _Final(error) from None
        except ChatBadReply as error:
            raise _Final(error) from None

    def complete(prompt: str) -> str:
        try:
            return retry(lambda: once(prompt), attempts=attempts, delay=pause, sleep=sleep)
        except _Final as final:
            raise final.error from None

    return complete


class Memo:
    """A ``Complete`` whose answers are kept in a folder, one file per (model, prompt).

    The file is named by the first 32 hex digits of sha256(model + newline +
    prompt) and holds the raw reply.  A failure is not written down, so the
    next run asks again.  With no folder every prompt is asked.  Threads may
    call it at once: one prompt is asked by one thread at a time, so a second
    caller finds the first one's answer on disk, as it would in a sequential run.
    """

    def __init__(self, complete: Complete, folder: str | os.PathLike[str] | None, model: str,
                 errors: TextIO | None = None) -> None:
        self._complete = complete
        self.folder = Path(folder) if folder else None
        self.model = model
        self.hits = 0
        self.kept = 0
        self._errors = errors
        self._warned = False
        self._lock = threading.Lock()
        #: Per prompt being asked: its lock and how many threads hold or wait for it.
        self._asking: dict[Path, tuple[threading.Lock, list[int]]] = {}

    def path(self, prompt: str) -> Path | None:
        """Where the answer to ``prompt`` is kept (``None`` without a folder)."""
        if self.folder is None:
            return None
        digest = hashlib.sha256(f"{self.model}\n{prompt}".encode()).hexdigest()
        return self.folder / digest[:32]

    def whole(self, run: str) -> Path | None:
        """Where the memo notes that it holds every answer of the run signed ``run`` (``None`` without a folder)."""
        if self.folder is None:
            return None
        digest = hashlib.sha256(f"{self.model}\n{run}".encode()).hexdigest()
        return self.folder / f"{digest[:32]}.whole"

    def holds(self, run: str) -> bool:
        """Whether a run signed ``run`` ended with every answer kept here (:meth:`note`), so that a rerun of it
        asks the endpoint nothing (a file of it removed since is asked, as any answer not kept)."""
        path = self.whole(run)
        try:
            kept = None if path is None else jsonio.read_kept(path)
        except jsonio.InputError:
            return False
        return kept is not None and kept.raw == run.encode()

    def note(self, run: str) -> None:
        """Note that the run signed ``run`` has every answer kept here (a failure to note it is only a check more
        at the next run)."""
        path = self.whole(run)
        if path is not None:
            try:
                write_kept(path, run.encode())
            except OSError:
                pass

    def __call__(self, prompt: str) -> str:
        path = self.path(prompt)
        if path is None:
            return self._complete(prompt)
        with self._lock:
            asking, users = self._asking.setdefault(path, (threading.Lock(), [0]))
            users[0] += 1
        try:
            with asking:
                return self._kept_or_asked(path, prompt)
        finally:
            with self._lock:
                users[0] -= 1
                if not users[0]:
                    del self._asking[path]

    def _kept_or_asked(self, path: Path, prompt: str) -> str:
        said = _kept(path)
        if said is not None:
            with self._lock:
                self.hits += 1
            return said
        said = self._complete(prompt)
        try:
            write_kept(path, said.encode("utf-8"))
            with self._lock:
                self.kept += 1
        except OSError as error:
            with self._lock:
                if not self._warned and self._errors is not None:
                    print(f"locomo-repro: answers are not being kept in {self.folder}: {error}", file=self._errors)
                self._warned = True
        return said


def _kept(path: Path) -> str | None:
    """The answer kept at ``path``: a regular file's UTF-8 text, read by the kit's reader of kept files (never
    through a symbolic link, which could show any file of the user's as an answer, nor from a FIFO or a
    device, which could block the run); None when there is none."""
    try:
        source = jsonio.read_kept(path)
    except jsonio.InputError:
        return None
    try:
        return None if source is None else source.raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


_EVIDENCE_PROMPT = """\
The lines below are taken from a long chat between two friends that ran over many months. \
Each line starts with the date, then names who spoke and quotes them.

{lines}

Question: {question}

Reply with a short answer of a few words, borrowing the chat's own words where you can. \
Separate several items with commas. For a question about when something happened, give a date \
written like "8 May, 2023". If the lines above do not hold the answer, reply exactly: No information available.

Give only the answer, with nothing before or after it."""

_BARE_PROMPT = """\
Two friends chatted with each other over many months. This question is about their chat.

Question: {question}

Reply with a short answer of a few words. \
Separate several items with commas. For a question about when something happened, give a date \
written like "8 May, 2023". If you do not know, reply exactly: No information available.

Give only the answer, with nothing before or after it."""


def evidence_prompt(question: str, cites: Sequence[Cite]) -> str:
    """The question with the cited turns, each turn once in first-cited order, as ``Turn.line`` writes it."""
    seen: set[str] = set()
    lines: list[str] = []
    for c in cites:
        if c.turn.id not in seen:
            seen.add(c.turn.id)
            lines.append(c.turn.line())
    return _EVIDENCE_PROMPT.format(lines="\n".join(lines), question=question)


def bare_prompt(question: str) -> str:
    """The question with no conversation: the contamination control's prompt."""
    return _BARE_PROMPT.format(question=question)


_QUOTES = "\"'\u201c\u201d"
#: What Go's ``strings.TrimSpace`` trims (Python's ``str.strip`` also trims U+001C..U+001F).
_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def tidy(said: str) -> str:
    """The model's reply cut to its answer: only wrapping goes, never content.

    Drops what precedes the last ``</think>``, a leading ``Answer:``, quotes
    at either end and one final full stop (not an ellipsis); nothing left
    declines.  Matches the reference's ``tidy``.
    """
    out = said.strip(_SPACE)
    at = out.rfind("</think>")
    if at >= 0:
        out = out[at + len("</think>"):].strip(_SPACE)
    out = out.removeprefix("Answer:").strip(_SPACE)
    # Quotes go before the full stop, so '"Paris".' keeps its closing quote (reference behaviour).
    out = out.strip(_QUOTES)
    if len(out.encode()) > 1 and out.endswith(".") and not out.endswith(".."):
        out = out[:-1]
    return out or DECLINE


class Model:
    """Reads evidence with a model; counts what was asked, answered from disk, and lost.

    ``read`` and ``alone`` have the signature of ``locomo_repro.read.reader.reply``,
    so either plugs into ``bench.Arm``; threads may call them at once.  After
    ``expect(n)``, progress against ``n`` reads goes to ``errors`` every
    ``PROGRESS_EVERY`` seconds (none for a shorter run).
    """

    def __init__(self, name: str, memo: Memo, errors: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, tokens: Tokens | None = None) -> None:
        self.name = name
        self.memo = memo
        self.tokens = tokens if tokens is not None else Tokens()  # what the endpoint reported of its replies
        self._errors = errors
        self.calls = 0
        self.fails = 0
        self._lock = threading.Lock()
        self._progress = Progress(f"model {name}", 0, errors, clock, PROGRESS_EVERY, verb="read") if errors else None

    def expect(self, reads: int) -> None:
        """Announce how many reads are to come: progress is shown against that number."""
        if self._progress is not None:
            self._progress.expect(reads)

    def _done(self) -> None:
        """Count one read; now and then, say how far the reads are (``data.progress``)."""
        if self._progress is not None and self._progress.total:
            self._progress.advance(note=f"{self.fails} failed")

    def __repr__(self) -> str:  # never the client, which holds the key
        return f"Model({self.name!r})"

    def whole(self) -> bool:
        """Whether every read asked so far was answered from the memo or kept in it (none failed)."""
        return self.fails == 0 and self.calls == self.memo.hits + self.memo.kept

    @property
    def hits(self) -> int:
        """Answers that cost nothing: read from the memo folder."""
        return self.memo.hits

    def _ask(self, prompt: str) -> str:
        with self._lock:
            self.calls += 1
        try:
            said = self.memo(prompt)
        except ChatError as error:
            with self._lock:
                self.fails += 1
                if self.fails <= SHOWN_FAILURES and self._errors is not None:
                    print(f"locomo-repro: model {self.name}: {error}", file=self._errors)
            return DECLINE
        return tidy(said)

    def read(self, question: str, cites: Sequence[Cite], confidence: float, vocab: Vocabulary,
             options: Options) -> str:
        """The model's answer from the cited turns; declines, unasked, under the floor or with no cites."""
        said = DECLINE if not cites or confidence < options.floor else self._ask(evidence_prompt(question, cites))
        self._done()
        return said

    def alone(self, question: str, cites: Sequence[Cite], confidence: float, vocab: Vocabulary,
              options: Options) -> str:
        """The model's answer to the question alone: evidence and floor ignored (the control)."""
        said = self._ask(bare_prompt(question))
        self._done()
        return said

    def cost(self) -> str:
        """One line: questions asked, answered from disk, bought (asked less from disk, failures
        included, as the reference counts), and failed."""
        return (f"model {self.name}: {self.calls} questions asked, {self.hits} answered from disk, "
                f"{self.calls - self.hits} bought, {self.fails} failed")


def open_model(
    name: str,
    base_url: str = DEFAULT_BASE_URL,
    key: str | None = None,
    memo: str | os.PathLike[str] | None = DEFAULT_MEMO,
    *,
    errors: TextIO | None = sys.stderr,
    attempts: int = ATTEMPTS,
    timeout: float = TIMEOUT,
    sleep: Callable[[float], object] = stop.pause,
) -> Model:
    """The model a run reads with: a chat endpoint behind a memo folder (``NewModel``)."""
    client = ChatClient(model=name, base_url=base_url, api_key=key, timeout=timeout)
    tokens = Tokens()
    memoised = Memo(chat_completer(client, attempts, sleep, tokens), memo, name, errors)
    return Model(name, memoised, errors, tokens=tokens)


#: What the endpoint check asks: one word back, so that the check costs next to nothing.
PROBE = "Reply with the word ok."


def probe(name: str, base_url: str, key: str | None, timeout: float = 30.0) -> str | None:
    """Ask the endpoint one tiny question before a run builds anything; what is wrong, in one line, or None.

    An endpoint that cannot be reached, or that answers 400, 401, 403 or 404 (a refused key, a wrong path or
    model), would decline every question of the run after its retries: the run is refused instead.  A busy
    endpoint (429, 5xx) is no reason to refuse: the run's own retries wait for it.
    """
    client = ChatClient(model=name, base_url=base_url, api_key=key, timeout=timeout)
    try:
        client.complete(user_message(PROBE), temperature=0, max_tokens=1)
    except ChatRedirected as error:  # says where it pointed and why it was not followed
        return f"{endpoint(error.url)}: {error.detail}"
    except ChatHTTPError as error:
        if error.status in TRANSIENT:
            return None
        why = {401: "refused the API key", 403: "refused the API key",
               404: "has no such path or model (check -base and -model)"}.get(error.status, "refused the request")
        return f"{endpoint(error.url)} {why} (HTTP {error.status})"
    except ChatBadReply:
        return None  # it answered: a reply the kit cannot read is the run's business, question by question
    except ChatError as error:
        return f"{endpoint(error.url)}: {error.detail}"
    return None


class Nothing:
    """A memory that holds nothing: what the contamination control answers from."""

    name = "closed"

    def recall(self, question: str, k: int) -> list[Cite]:
        return []
