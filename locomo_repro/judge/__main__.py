"""``locomo-repro judge COMMAND``: the judge's subcommands, each carried out by its module's ``main(argv)``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..go import flags

PROG = "locomo-repro judge"

#: Every subcommand of ``locomo-repro judge``: its module and one line of help, in the order ``--help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "stats": ("locomo_repro.judge.stats", "what judged files' verdicts measure: J, repeats, agreement, F1, leniency"),
}


def parser() -> argparse.ArgumentParser:
    """The command word and the arguments left to it (``--help`` lists the subcommands)."""
    listed = "\n".join(f"  {name:<10}{help}" for name, (_, help) in COMMANDS.items())
    p = flags.Parser(prog=PROG, usage=f"%(prog)s COMMAND [ARGS ...]    ({PROG} COMMAND --help for its flags)",
                     description=f"LLM-judge verdicts read and measured.\n\ncommands:\n{listed}",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=list(COMMANDS), metavar="COMMAND", help=", ".join(COMMANDS))
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="the command's own")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro judge COMMAND ARGS``: the subcommand named first; none or an unknown one is one line, exit 2."""
    try:
        args = parser().parse_args(argv)
    except flags.UsageError as err:
        print(f"{PROG}: error: {err} (see {PROG} --help)", file=sys.stderr)
        return 2
    return importlib.import_module(COMMANDS[args.command][0]).main(args.args)


if __name__ == "__main__":
    sys.exit(main())
