"""How a ``python -m locomo_repro.<command>`` entry ends: :func:`finish` runs the command's ``main`` and
exits with its status, so that results which cannot be printed (stdout on a full disk) are one line on
stderr and exit status 2, and a reader that went away (``| head``) is exit status 1, never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn

from .data.atomic import flushed, silence_stdout


def finish(main: Callable[[], int], prog: str) -> NoReturn:
    """``raise SystemExit(main())``, with the failures of printing the results said in one line."""
    try:
        status = flushed(main())
    except BrokenPipeError:
        status = 1
        silence_stdout()
    except OSError as err:  # a file the command could not write says which; otherwise it was stdout
        print(f"{prog}: {err.filename or 'standard output'}: {err.strerror or err}", file=sys.stderr)
        status = 2
        silence_stdout()
    raise SystemExit(status)
