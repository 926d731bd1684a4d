"""Command lines read as Go's ``flag`` package reads them: whole names only, one-line errors, checked numbers.

Every command of the kit builds its parser on :class:`Parser` (an ``argparse.ArgumentParser``):

* **one dash or two**: ``-out`` is ``--out`` wherever a command spells it with two (as Go reads ``-flag``
  and ``--flag`` alike);
* **whole names only**: argparse takes an abbreviation (``--eval`` for
  ``--evaluation-py``, ``-flo`` for ``-floor``) or a glued value (``-k5``);
  here those are unknown flags, as in Go;
* **one line**: an error raises :class:`UsageError`, whose message is one line
  (no usage dump); the command prints it and exits with status 2;
* **numbers**: ``type=int`` takes an integer that fits an int64 (else "value
  out of range", as Go says), ``type=float`` a finite number, and
  :func:`seconds` a wait a clock can keep (0 to ``threading.TIMEOUT_MAX``);
* **no control character** in any argument (a newline, a carriage return, an
  escape): every value may end up in a one-line message or a signature line,
  where it could forge a second line.  The message names the flag, never the
  value (it may be a key).
"""

from __future__ import annotations

import argparse
import math
import sys
import threading
from collections.abc import Sequence
from typing import Any, NoReturn


class UsageError(Exception):
    """A command line that cannot run: a flag unknown, malformed or out of range; the message is one line."""


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character (C0, DEL or C1)."""
    return any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in text)


def shown(text: str) -> str:
    """``text`` quoted for a one-line message (control characters escaped, a long text cut)."""
    return repr(text if len(text) <= 60 else f"{text[:60]}…")


def go_int(text: str) -> int:
    """An int flag's value as Go's flag package takes it: a number that fits an int64 (else "value out of range")."""
    value = int(text)
    if not -(2**63) <= value < 2**63:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: value out of range")
    return value


def finite(text: str) -> float:
    """A float flag's value: a finite number ("1e400", "nan" and "inf" are refused)."""
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: not a finite number")
    return value


def seconds(text: str) -> float:
    """A wait in seconds: a finite number from 0 to ``threading.TIMEOUT_MAX`` (what a clock can wait)."""
    value = finite(text)
    if not 0 <= value <= threading.TIMEOUT_MAX:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: seconds from 0 to {threading.TIMEOUT_MAX:.0f}")
    return value


def _which(args: list[str], at: int) -> str:
    """Names ``args[at]`` without quoting it (it may be a secret): the flag it belongs to, or its position."""
    arg = args[at]
    if arg.startswith("-") and "=" in arg:
        return f"the value of {arg.partition('=')[0]}"
    if at and args[at - 1].startswith("-") and not has_control(args[at - 1]):
        return f"the value of {args[at - 1]}"
    return f"argument {at + 1}"


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with the rules of the module: whole names, one-line errors, checked numbers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.register("type", int, go_int)  # every ``type=int``, in argument groups and subcommands too
        self.register("type", float, finite)

    _checking = False

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """argparse's ``add_argument``.  It makes a formatter for each flag, only to check the flag's metavar
        against its ``nargs``; that one is given a width, so the terminal is not asked for one (nor ``shutil``
        imported, 2 ms of a one-conversation run) until help is printed."""
        self._checking = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._checking = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        if self._checking:
            return self.formatter_class(prog=self.prog, width=80)  # type: ignore[call-arg]  # as argparse's all do
        return super()._get_formatter()

    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise UsageError(" ".join(message.split()))

    def _get_option_tuples(self, option_string: str) -> list:
        """No prefix matching at all, as Go's flag package: argparse (3.11) still reads ``-flo`` as
        ``-floor`` and ``-k5`` as ``-k 5`` with ``allow_abbrev=False``; those are unknown flags."""
        return []

    def parse(self, args: Sequence[str] | None = None) -> argparse.Namespace:
        """``parse_args``; an error is printed as one line, ``PROG: error: MESSAGE``, and exits with status 2
        (argparse's status, without its usage dump)."""
        try:
            return self.parse_args(args)
        except UsageError as err:
            print(f"{self.prog}: error: {err}", file=sys.stderr)
            raise SystemExit(2) from None

    def parse_known_args(  # type: ignore[override]  # the same call, checked first
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> Any:
        given = list(sys.argv[1:] if args is None else args)
        for at, arg in enumerate(given):
            if isinstance(arg, str) and has_control(arg):
                self.error(f"{_which(given, at)} holds a control character "
                           f"(U+{ord(next(c for c in arg if has_control(c))):04X}); it is not shown")
        given = self.one_dash(given)
        # argparse checks the required flags before it names the unknown ones: ``--ar`` for ``--arm`` would be
        # said to be a missing --arm; the flag refused is named instead (through the error of this parser's class)
        error = self.error

        def named(message: str) -> NoReturn:
            unknown = self._unknown(given) if message.startswith("the following arguments are required") else None
            error(message if unknown is None else f"unrecognized arguments: {unknown}")

        self.error = named  # type: ignore[method-assign]
        try:
            return super().parse_known_args(given, namespace)
        finally:
            del self.error

    def _unknown(self, given: list[str]) -> str | None:
        """The first of ``given`` that is a flag this parser does not know (its name only, before any ``=``),
        or None; a parser with subcommands leaves theirs to them."""
        if self._subparsers is not None:
            return None
        for arg in given:
            if arg == "--":
                return None
            name = arg.partition("=")[0]
            if arg.startswith("-") and arg != "-" and not self._negative_number_matcher.match(arg) \
                    and name not in self._option_string_actions:
                return name
        return None

    def one_dash(self, given: list[str]) -> list[str]:
        """``given`` with every ``-name`` (or ``-name=value``) of a flag this parser spells ``--name`` spelt so:
        Go's flag package reads a flag with one dash or two, and so does every command of the kit.  Nothing
        after a ``--`` is touched."""
        out: list[str] = []
        for at, arg in enumerate(given):
            if arg == "--":
                return [*out, *given[at:]]
            flag = arg.partition("=")[0]
            if (flag.startswith("-") and not flag.startswith("--") and len(flag) > 2
                    and flag not in self._option_string_actions and f"-{flag}" in self._option_string_actions):
                arg = f"-{arg}"
            out.append(arg)
        return out
