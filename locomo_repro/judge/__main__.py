"""Command line: ``locomo-repro judge COMMAND …``, each subcommand carried out by its module's ``main``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..go.flags import Parser, UsageError

PROG = "locomo-repro judge"

#: Every subcommand: the module whose ``main(argv)`` carries it out, and one line of help.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("locomo_repro.judge.run", "send every reply of predictions files to one judge; write its verdicts"),
}


def parser() -> Parser:
    p = Parser(prog=PROG, description="LLM judges: "
               + "; ".join(f"{name}: {help}" for name, (_, help) in COMMANDS.items()))
    p.add_argument("command", choices=list(COMMANDS), metavar="COMMAND", help=", ".join(COMMANDS))
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="the command's flags (COMMAND --help)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
    except UsageError as err:
        print(f"{PROG}: {err} (see {PROG} --help)", file=sys.stderr)
        return 2
    return importlib.import_module(COMMANDS[args.command][0]).main(args.args)


if __name__ == "__main__":
    sys.exit(main())
