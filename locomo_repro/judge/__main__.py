"""Command line: ``locomo-repro judge COMMAND …``, each subcommand carried out by its module's ``main``."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from ..go.flags import Parser, UsageError

PROG = "locomo-repro judge"

#: Every subcommand: the module whose ``parser()`` reads its flags and ``main(argv)`` carries it out, and one
#: line of help.
COMMANDS: dict[str, tuple[str, str]] = {
    "stats": ("locomo_repro.judge.stats", "what judged files' verdicts measure: J, repeats, agreement, F1, leniency"),
    "run": ("locomo_repro.judge.run", "send every reply of predictions files to one judge; write its verdicts"),
}


def parser() -> Parser:
    """Every subcommand with its own flags (``--help``; the docs' commands are parsed with it)."""
    p = Parser(prog=PROG, description="LLM judges: their verdicts read, measured and re-made.")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help) in COMMANDS.items():
        commands.add_parser(name, help=help, add_help=False, parents=[importlib.import_module(module).parser()])
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] not in COMMANDS:
        try:
            parser().parse_args(argv[:1])
        except UsageError as err:
            print(f"{PROG}: {err} (see {PROG} --help)", file=sys.stderr)
            return 2
    return importlib.import_module(COMMANDS[argv[0]][0]).main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
