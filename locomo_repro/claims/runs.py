"""A claim's run: the benchmark's flags (``"-arms walk -blind"``), read into the settings a run is made with.

A claim names its run as the command line would (``claims.yaml``), with the
flags that make a run: the arm set, the two ablations, coreference, a sweep
and the reader's settings, each spelt as the command line spells it (one dash
or two, ``-k 5`` or ``-k=5``: ``go.flags.Parser``), checked as the command line
checks it (``Options.problem``, the arm sets and sweeps of ``bench.names``).  What the
run measures is then the settings themselves (``bench.stream.Settings``): the
command line is not involved.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from functools import cache

from ..bench.names import ARM_SETS, STEPS
from ..bench.stream import Settings
from ..go.flags import Parser, UsageError
from ..read.reader import Options

#: The flags a claim's run may set: the arm set, the two ablations, coreference, a sweep and the settings.
RUN_FLAGS = ("arms", "blind", "no_derived", "coref", "sweep", "k", "floor", "span", "band", "parts", "quiet")

#: The settings whose values are whole numbers.
WHOLE = ("k", "span", "parts")


@dataclass(frozen=True)
class Run:
    """A command line of the benchmark, read: arm set, blind, derived facts, coreference, settings, sweep."""

    arms: str
    blind: bool
    derive: bool
    options: Options
    sweep: str | None
    coref: bool = False

    @property
    def build(self) -> tuple[str, bool, bool, bool]:
        """What the run's cases are built with: arm set, blind, derived facts, coreference."""
        return (self.arms, self.blind, self.derive, self.coref)

    @property
    def settings(self) -> Settings:
        """What the run builds and asks, as ``bench.stream`` takes it."""
        return Settings(self.options, self.arms, self.blind, self.derive, self.coref, self.sweep)


@cache
def _parser() -> Parser:
    p = Parser(prog="run", add_help=False)
    default = Options()
    for name in ("k", "floor", "span", "band", "parts"):
        p.add_argument(f"-{name}", f"--{name}", type=int if name in WHOLE else float, default=getattr(default, name))
    p.add_argument("-arms", "--arms", default="main")
    p.add_argument("-sweep", "--sweep", choices=sorted(STEPS))
    for name in ("blind", "no-derived", "coref", "quiet"):
        p.add_argument(f"-{name}", f"--{name}", dest=name.replace("-", "_"), action="store_true")
    return p


@cache
def parse_run(flags: str) -> Run:
    """Read a run's flags; ValueError says what is wrong (a flag that makes no run, a setting out of range)."""
    try:
        args, other = _parser().parse_known_args(shlex.split(flags))
    except UsageError as err:
        raise ValueError(str(err)) from None
    if other:
        raise ValueError(f"{other[0]} does not make a run here (only {', '.join(RUN_FLAGS)})")
    if args.arms not in ARM_SETS:  # a claim measures the publication's arm sets, never a plug-in
        raise ValueError(f"-arms {args.arms} is not one of the publication's arm sets ({', '.join(ARM_SETS)})")
    options = Options(k=args.k, floor=args.floor, span=args.span, band=args.band, parts=args.parts)
    if problem := options.problem():
        raise ValueError(problem)
    return Run(args.arms, args.blind, not args.no_derived, options, args.sweep, args.coref)


def cast(setting: str, value: float) -> float | int:
    """A setting's value as its flag reads it (whole numbers for k, span and parts)."""
    return int(value) if setting in WHOLE else float(value)
