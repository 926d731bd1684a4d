"""A claim's run: the benchmark's flags (``"-arms walk -blind"``), parsed by the kit's own command line."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from functools import cache

from .. import cli
from ..bench.names import ARM_SETS
from ..read.reader import Options

#: The flags a claim's run may set: the arm set, the two ablations, coreference, a sweep and the settings.
RUN_FLAGS = ("arms", "blind", "no_derived", "coref", "sweep", "k", "floor", "span", "band", "parts", "quiet")

#: The settings whose values are whole numbers.
WHOLE = ("k", "span", "parts")


@dataclass(frozen=True)
class Run:
    """A command line of the benchmark, parsed: arm set, blind, derived facts, coreference, settings, sweep."""

    arms: str
    blind: bool
    derive: bool
    options: Options
    sweep: str | None
    coref: bool = False

    @property
    def build(self) -> tuple[str, bool, bool, bool]:
        """What the run's cases are built with: ``Builds.cases`` arguments."""
        return (self.arms, self.blind, self.derive, self.coref)


@cache
def parse_run(flags: str) -> Run:
    """Parse the benchmark's flags with the kit's own command-line parser; ValueError says what is wrong."""
    parser = cli.parser()
    try:
        args = parser.parse_args(shlex.split(flags))
        options = cli.options(args)
    except cli.UsageError as err:
        raise ValueError(str(err)) from None
    if args.arms not in ARM_SETS:  # a claim measures the publication's arm sets, never a plug-in
        raise ValueError(f"-arms {args.arms} is not one of the publication's arm sets ({', '.join(ARM_SETS)})")
    other = sorted(k for k, v in vars(args).items() if k not in RUN_FLAGS and v != parser.get_default(k))
    if other:
        raise ValueError(f"-{other[0].replace('_', '-')} does not make a run here (only {', '.join(RUN_FLAGS)})")
    return Run(args.arms, args.blind, not args.no_derived, options, args.sweep, args.coref)


def cast(setting: str, value: float) -> float | int:
    """A setting's value as its flag reads it (whole numbers for k, span and parts)."""
    return int(value) if setting in WHOLE else float(value)
