"""How long work says how far it is: a progress bar on a terminal, a line every ten seconds otherwise.

One rule for every command that runs long (a sweep, a plug-in run, the model's reads, the judge, the claims,
the report): on a terminal, a ``tqdm`` bar on stderr that is gone when the work is done; on anything else (a
log file, a pipe, a test), one line every ``EVERY`` seconds with the rate so far and, where the total is
known, the time left at that rate, so a short run prints nothing and a long one neither floods its log nor
stays silent.  Progress never goes to stdout, which holds the result.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

#: Seconds between two progress lines when stderr is not a terminal.
EVERY = 10.0


class Progress:
    """Work of ``total`` steps (or an unknown number), named ``label``; ``advance`` counts steps, and a line
    says ``label: done/total <verb>, <note>, <rate> a second, about <time> left`` (the time left once the
    total is known).

    Threads may call ``advance`` at once.  Use it as a context manager, or call ``close``.

    ``count`` finds a total that costs something to find (a run counts its questions by reading the dataset
    a second time) when it is first needed: at once on a terminal, for the bar, else at the first line, so
    work too short to say anything never pays for it.
    """

    def __init__(self, label: str, total: int | None = None, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, every: float = EVERY, verb: str = "done",
                 count: Callable[[], int | None] | None = None) -> None:
        self.label = label
        self.verb = verb
        self._stream = sys.stderr if stream is None else stream
        terminal = _is_terminal(self._stream)
        if total is None and count is not None and terminal:
            total, count = count(), None
        self.total = total
        self._count = count
        self.done = 0
        self._clock = clock
        self._every = every
        self._started = self._shown = clock()
        self._lock = threading.Lock()
        self._bar = None
        if terminal:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=label, file=self._stream, leave=False, dynamic_ncols=True)

    def expect(self, steps: int) -> None:
        """Announce ``steps`` more steps to come."""
        with self._lock:
            self.total = (self.total or 0) + steps
            if self._bar is not None:
                self._bar.total = self.total
                self._bar.refresh()

    def advance(self, steps: int = 1, note: str = "") -> None:
        """Count ``steps`` done; ``note`` is added to the line (failures so far, say)."""
        with self._lock:
            self.done += steps
            if self._bar is not None:
                self._bar.update(steps)
                if note:
                    self._bar.set_postfix_str(note, refresh=False)
                return
            now = self._clock()
            if now - self._shown < self._every:
                return
            self._shown = now
            if self._count is not None:  # the first line: the total found now
                counted, self._count = self._count(), None
                if counted is not None:
                    self.total = (self.total or 0) + counted
            of = f"/{self.total}" if self.total else ""
            rate = self.done / (now - self._started) if now > self._started else 0.0
            extra = f", {note}" if note else ""
            eta = f", {left((self.total - self.done) / rate)}" if self.total and self.done < self.total and rate else ""
            print(f"locomo-repro: {self.label}: {self.done}{of} {self.verb}{extra}, {rate:.1f} a second{eta}",
                  file=self._stream, flush=True)

    def say(self, text: str) -> None:
        """A line of its own about the work (``locomo-repro: label: text``), above the bar on a terminal."""
        line = f"locomo-repro: {self.label}: {text}"
        with self._lock:
            if self._bar is not None:
                self._bar.write(line, file=self._stream)
            else:
                print(line, file=self._stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def left(seconds: float) -> str:
    """The time a piece of work still needs at its rate so far, rounded as a person says it."""
    if seconds < 90:
        return f"about {round(seconds)} s left"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} min left"
    return f"about {seconds / 3600:.1f} h left"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
