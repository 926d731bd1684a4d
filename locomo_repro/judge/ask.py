"""Asking a judge over an OpenAI-compatible endpoint: one request, retried, its reply parsed into a label.

The retry rule is LoCoMo-Refined's (src/llm_judge_runtime.py), the one rule of every judge the kit asks: any
failure, an unreadable reply included, is tried again, up to ``Backoff.attempts`` times, ``Backoff.wait``
seconds apart, or a uniformly random pause in ``Backoff.rate_limit_wait`` when the failure reads like a rate
limit (429, "limit", "tpm").  A field of the request body a judge sends only while the server takes it
(Refined's ``enable_thinking: false``) is dropped, for the rest of the run, the first time the server refuses
it, and that request is sent again without it (not counted as a retry).  :meth:`Asker.cancel` makes every
judgement in progress give up at its next pause.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..read.chat import ChatClient, ChatError, ChatReply, retry

T = TypeVar("T")

_RATE_LIMIT_WORDS = ("tpm", "limit", "rate limit", "429")
_REFUSAL_WORDS = ("unknown", "unsupported", "unexpected", "unrecognized", "not allowed", "not permit",
                  "extra inputs", "additional properties", "invalid parameter")


class JudgeError(Exception):
    """A judgement that failed after every attempt."""


class JudgeCancelled(JudgeError):
    """A judgement abandoned because the run is stopping."""

    cancelled_run = True


def refuses_field(message: str, name: str) -> bool:
    """Whether an error says the server does not accept the request body's field ``name``."""
    low = message.lower()
    return name.lower() in low and any(word in low for word in _REFUSAL_WORDS)


def _message(exc: BaseException) -> str:
    return exc.detail if isinstance(exc, ChatError) else str(exc)


def is_rate_limited(exc: BaseException) -> bool:
    """Whether a failure reads like a rate limit (Refined's word test, the endpoint's address excluded)."""
    low = _message(exc).lower()
    return any(word in low for word in _RATE_LIMIT_WORDS)


@dataclass(frozen=True)
class Backoff:
    """Attempts per judgement and the pauses between them, in seconds."""

    attempts: int = 10
    wait: float = 1.0
    rate_limit_wait: tuple[float, float] = (20.0, 60.0)


def log_line(line: str) -> None:
    """One line to stderr in a single write, so lines from worker threads do not interleave."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


@dataclass
class Asker:
    """Sends a judge's requests to ``client`` with the retry rule of the module; safe to share between threads."""

    client: ChatClient
    backoff: Backoff = field(default_factory=Backoff)
    log: Callable[[str], None] = log_line
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._refused: set[str] = set()
        self._stop = threading.Event()

    def cancel(self) -> None:
        """Make judgements in progress give up at their next pause."""
        self._stop.set()

    def __repr__(self) -> str:  # never the client, which holds the key
        return f"Asker({self.client.model!r})"

    def ask(self, messages: Sequence[Mapping[str, str]], params: Mapping[str, Any],
            parse: Callable[[ChatReply], T], where: str, optional: Sequence[str] = ()) -> T:
        """``parse`` of the endpoint's reply to ``messages`` with the body fields ``params``; a reply ``parse``
        refuses (ValueError) is a failed attempt.  :class:`JudgeError` when every attempt failed, naming
        ``where`` (the question)."""

        def attempt() -> T:
            if self._stop.is_set():
                raise JudgeCancelled("run stopped")
            return parse(self._send(messages, params, optional))

        def delay(exc: BaseException, _: int) -> float:
            if is_rate_limited(exc):
                low, high = self.backoff.rate_limit_wait
                return low + self.rng.random() * (high - low)
            return self.backoff.wait

        def note(exc: BaseException, number: int, seconds: float) -> None:
            self.log(f"judge: attempt {number}/{self.backoff.attempts} failed ({exc}); "
                     f"retrying in {seconds:.2f}s; {where}")

        def pause(seconds: float) -> None:
            if self._stop.wait(seconds):
                raise JudgeCancelled("run stopped")

        try:
            return retry(attempt, attempts=self.backoff.attempts, delay=delay,
                         retry_on=(ChatError, ValueError), on_retry=note, sleep=pause)
        except JudgeCancelled:
            raise
        except (ChatError, ValueError) as exc:
            raise JudgeError(f"no verdict after {self.backoff.attempts} attempt(s): {exc}; {where}") from exc

    def _send(self, messages: Sequence[Mapping[str, str]], params: Mapping[str, Any],
              optional: Sequence[str]) -> ChatReply:
        with self._lock:
            body = {k: v for k, v in params.items() if k not in self._refused}
        try:
            return self.client.complete(messages, **body)
        except ChatError as exc:
            refused = next((name for name in optional if name in body and refuses_field(exc.detail, name)), None)
            if refused is None:
                raise
            with self._lock:
                if refused not in self._refused:
                    self._refused.add(refused)
                    self.log(f"judge: the server refuses {refused} for {self.client.model}; "
                             "sending requests without it")
            body.pop(refused)
            return self.client.complete(messages, **body)
