"""A plug-in module that refuses to be imported anywhere but the main process (a worker started afresh
imports the plug-in by name, and this one cannot be)."""

import multiprocessing

if multiprocessing.parent_process() is not None:
    raise ImportError("this memory holds a handle that only the main process has")

from toy_plugins import Vec  # noqa: E402

__all__ = ["Vec"]
