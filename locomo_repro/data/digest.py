"""A file's sha256, read once however many parts of a run ask for it.

The run of one conversation asks for the dataset's twice (``dataset.pinned``, which lets it stop reading after
the conversations it asks, and the run's signature): 2 ms of CPU each.  The digest is kept for the file as it
is (its device, inode, size, modification and change times), so a file written again is read again.  A file
changed in the last two seconds is read each time, as git re-reads a racily clean file: the clock that stamps
a file moves in ticks of milliseconds, so a second write within one tick would leave the stamps as they were.
A pipe or other file that is not a regular file is read each time.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from functools import lru_cache

#: How long ago a file must have last changed for its digest to be kept (nanoseconds).
SETTLED = 2_000_000_000


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The whole sha256 of a file's bytes, in hex, read a block at a time (a large file costs no memory)."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode) or max(st.st_mtime_ns, st.st_ctime_ns) > time.time_ns() - SETTLED:
        return _read(path)
    return _kept(os.path.abspath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


@lru_cache(maxsize=64)
def _kept(path: str, *_as_it_is: int) -> str:
    return _read(path)


def _read(path: str | os.PathLike[str]) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()
