"""Command line: ``locomo-repro judge COMMAND …``, each subcommand carried out by its module's ``main``."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

PROG = "locomo-repro judge"

#: Every subcommand, the module whose ``main(argv)`` carries it out, and one line of help.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("locomo_repro.judge.run", "send every reply of predictions files to one judge; write its verdicts"),
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    first = argv[0] if argv else ""
    if first in ("", "-h", "--help", "-help", "help"):
        lines = [f"usage: {PROG} COMMAND [ARGS ...]    ({PROG} COMMAND --help for a command's flags)", "",
                 "commands:", *(f"  {name:<8}{help}" for name, (_, help) in COMMANDS.items())]
        (sys.stdout if first else sys.stderr).write("\n".join(lines) + "\n")
        return 0 if first else 2
    if first not in COMMANDS:
        print(f"{PROG}: unknown command {first!r} (see {PROG} --help)", file=sys.stderr)
        return 2
    return importlib.import_module(COMMANDS[first][0]).main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
