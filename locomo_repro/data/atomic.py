"""The kit's one writer of output files: all or nothing, never clobbering what the path names.

Every output of the kit (``-out``, the dataset and evaluation.py caches, the
model's memo folder, golden files, every LoCoMo-Refined file) goes through
:func:`write_files`.  What a write does depends on what is at the path:

* nothing: a new regular file, with the mode a plain ``open`` gives (0666 less the umask);
* a regular file: replaced atomically (a temporary file in the same folder,
  then a rename); the new file keeps the old one's permission bits (0600 stays
  0600) and, where permitted, its owner; a file no one may write (no write bit,
  0444) or that this process may not write is refused, not replaced;
* a symbolic link: followed to its final target, which is written as above;
  the link stays a link;
* a regular file with other hard links (``st_nlink > 1``): written in place,
  so every link sees the new text (this write is not atomic);
* anything else but a folder (a FIFO, ``/dev/null``, another character
  device), and any existing path in ``/dev`` or ``/proc`` (``/dev/stdout``,
  ``/dev/fd/1``, ``/proc/self/fd/N``, whatever they lead to: a pipe, ``>(gzip)``):
  opened by the name given and written directly, never replaced, after what the
  process printed so far is flushed (so a table and ``-out /dev/stdout`` keep their order);
* a folder: an error.

A file in a folder the kit owns (the ``-resume`` folder, the model's memo
folder, the cache) is written by :func:`write_kept`, which follows nothing:
what is planted at its path (a symbolic link, dangling or not, a file with
other hard links, a FIFO, a device) is refused in one line, never written
through, and the rename replaces the name itself.

Several files are staged first and renamed into place only once every one is
written, so a failure while writing (a full disk) leaves none of them new.  The
renames are all or none too: each replaced file is kept (a hard link, else a
copy) until every rename is done, and a rename that fails (an immutable file)
puts back every file replaced before it and removes every file created.  Two
outputs of one call that are the same file (by path or by inode) are refused
before anything is written (:func:`unwritable_all` says so before a command's
work, and refuses an output that is one of the command's inputs); a device, a FIFO or a pipe may take several.  A SIGTERM or SIGHUP while
a write runs removes the temporary files and puts back what the renames replaced
(a file written in place excepted) before the signal takes its usual course, so the
process ends by it with the old files or the new ones; one arriving during the
renames is held back by the kernel until they are done (never lost between the
interpreter's noticing it and the old handler's return), and none is held back
while a file is written in place (a FIFO no one reads would hold it for ever).  Temporary files
are named ``.<name>.<pid>-<8 hex digits>.tmp``; a write to a path first removes
such files for the same name whose process is gone (a ``kill -9`` left them).
Errors are :class:`WriteError`, one line naming the file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import FrameType
from .records import record

#: The signals whose arrival removes the temporary files before they end the process.
SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None)


class WriteError(OSError):
    """An output that could not be written; ``str()`` is one line naming the file."""

    def __str__(self) -> str:
        return f"{self.filename}: cannot write: {self.strerror}"


@record
class _Plan:
    """How one path is written: ``target`` is the path with symlinks followed, ``st`` what is there now."""

    path: Path
    target: Path
    st: os.stat_result | None
    data: bytes
    #: Written directly into what is there: a special file, a file with other hard links, anything in /dev or /proc.
    in_place: bool

    def _checked(self) -> _Plan:
        """This plan, unless its regular file is read-only: no write bit at all (0444, refused even to root,
        who may write anything), or none this process has."""
        st = self.st
        if st is not None and stat.S_ISREG(st.st_mode) and (
            not st.st_mode & 0o222 or not os.access(self.target, os.W_OK)
        ):
            mode = f"mode {stat.S_IMODE(st.st_mode):04o}"
            raise WriteError(errno.EACCES, f"a read-only file ({mode}): not replaced", str(self.path))
        return self


def write_atomic(dest: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``dest`` as :func:`write_files` does."""
    write_files([(Path(dest), data)])


def write_kept(dest: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``dest``, a file in a folder the kit owns, following nothing (the module docstring):
    nothing or a plain file of one link may be there.  Raises :class:`WriteError`."""
    write_files([(Path(dest), data)], follow=False)


def write_files(files: Iterable[tuple[str | os.PathLike[str], bytes]], *, follow: bool = True) -> None:
    """Write every ``(path, data)`` pair as the module docstring describes, or (short of a special file
    or a hard-linked file failing midway) none of them (``follow=False``: as :func:`write_kept`).
    Raises :class:`WriteError`."""
    plans = [_plan(Path(path), bytes(data)) if follow else _kept(Path(path), bytes(data)) for path, data in files]
    if clash := _clash([(str(plan.path), plan) for plan in plans]):
        raise WriteError(errno.EINVAL, clash, str(plans[0].path))
    staged: list[tuple[str, _Plan]] = []
    kept: list[tuple[str, _Plan]] = []  # the files the renames replace, until every rename is done
    done: list[_Plan] = []
    with _Signals(", ".join(str(plan.path) for plan in plans)) as signals:
        try:
            for plan in plans:
                if not plan.in_place:
                    _stage(plan, staged)
            if len(plans) > 1:
                for _, plan in staged:
                    if plan.st is not None:
                        _keep(plan, kept)
            with signals.held():  # the renames: a signal waits until they are all done
                for temp, plan in staged:
                    _attempt(plan.path, os.replace, temp, plan.target)
                    done.append(plan)
            signals.check()  # one that came meanwhile ends the write here, every old file put back
            if any(plan.in_place for plan in plans):
                sys.stdout.flush()
                sys.stderr.flush()
            for plan in plans:
                if plan.in_place:
                    _attempt(plan.path, _write_through, plan)
        except BaseException:
            _undo(done, dict((plan.target, copy) for copy, plan in kept))
            for temp, _ in (*staged, *kept):
                with contextlib.suppress(OSError):
                    os.unlink(temp)
            raise
        for copy, _ in kept:
            with contextlib.suppress(OSError):
                os.unlink(copy)


def flushed(status: int) -> int:
    """``status`` once everything printed has reached stdout: the flush happens here, inside the caller's
    error handling, not at interpreter exit, where a full disk would end the process with status 120."""
    sys.stdout.flush()
    return status


def silence_stdout() -> None:
    """Point stdout at /dev/null after a failed print, so the interpreter's last flush of what is left
    cannot fail again (and turn a one-line error into a traceback)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)


def unwritable_all(outputs: Iterable[tuple[str, str | os.PathLike[str]]],
                   inputs: Iterable[tuple[str, str | os.PathLike[str] | None]] = ()) -> str | None:
    """Why :func:`write_files` could not write these outputs of one command, each ``(what, path)`` (``what``
    names it in the message: ``--summary``), for a check before the command's work; None when it could.

    Each must be writable (:func:`unwritable`), no two may be the same file, and none may be one of the
    command's ``inputs`` (``(what, path)``, a None path left out): the same file by device and inode, by
    whatever link it is reached (``-out`` naming the ``-data`` file would replace the dataset)."""
    named = [(what, Path(path)) for what, path in outputs]
    read: list[tuple[str, tuple[int, int]]] = []
    for what, path in inputs:
        with contextlib.suppress(OSError, TypeError):
            st = os.stat(path)  # type: ignore[arg-type]
            if stat.S_ISREG(st.st_mode):
                read.append((f"{what} {path}", (st.st_dev, st.st_ino)))
    plans = []
    for what, path in named:
        if problem := unwritable(path):
            return f"{what} {path}: {problem}"
        plan = _plan(path, b"")
        if plan.st is not None and stat.S_ISREG(plan.st.st_mode):
            for given, same in read:
                if same == (plan.st.st_dev, plan.st.st_ino):
                    return f"{what} {path}: the input {given} is that file: it would be overwritten"
        plans.append((f"{what} {path}", plan))
    return _clash(plans)


def unwritable(dest: str | os.PathLike[str]) -> str | None:
    """Why :func:`write_files` could not write ``dest``, for a check before a long run; None when it could.

    Written in place (a FIFO, a device, a hard-linked file): the file must be
    writable; replaced or new: the nearest existing folder of the target must be.
    """
    try:
        plan = _plan(Path(dest), b"")
    except WriteError as err:
        return err.strerror
    if plan.in_place:
        return None if os.access(plan.target, os.W_OK) else "not writable"
    folder = plan.target.parent
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder} is not a writable folder"
    return None


def _plan(path: Path, data: bytes) -> _Plan:
    if Path(os.path.abspath(path)).parts[1:2] in (("dev",), ("proc",)):
        # /dev/stdout, /dev/fd/63, /proc/self/fd/1: the kernel's links lead to whatever the descriptor is open on
        # (a pipe has no name to follow), so the path as given is what is stat'ed and opened.
        with contextlib.suppress(FileNotFoundError):
            st = _stat(path, path)
            return _Plan(path, path, st, data, True)._checked()
    target = Path(os.path.realpath(path))
    try:
        st = _stat(target, path)
    except FileNotFoundError:
        return _Plan(path, target, None, data, False)
    special = not stat.S_ISREG(st.st_mode) or st.st_nlink > 1
    return _Plan(path, target, st, data, special)._checked()


def _kept(path: Path, data: bytes) -> _Plan:
    """How a file in a folder the kit owns is written: the name itself replaced, where nothing or a plain
    file of one link is (anything else planted there is refused, not followed)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return _Plan(path, path, None, data, False)
    except OSError as err:
        raise WriteError(err.errno, err.strerror, str(path)) from None
    if not (stat.S_ISREG(st.st_mode) and st.st_nlink == 1):
        what = ("a symbolic link" if stat.S_ISLNK(st.st_mode) else "a folder" if stat.S_ISDIR(st.st_mode)
                else "a file with other hard links" if stat.S_ISREG(st.st_mode) else "not a regular file")
        raise WriteError(errno.EEXIST, f"{what} is there (not followed)", str(path))
    return _Plan(path, path, st, data, False)._checked()


def _stat(where: Path, path: Path) -> os.stat_result:
    """``os.stat(where)``; FileNotFoundError passes, any other error is a WriteError naming ``path``."""
    try:
        st = os.stat(where)
    except FileNotFoundError:
        raise
    except OSError as err:
        raise WriteError(err.errno, err.strerror, str(path)) from None
    if stat.S_ISDIR(st.st_mode):
        raise WriteError(errno.EISDIR, "is a folder", str(path))
    return st


def _clash(plans: list[tuple[str, _Plan]]) -> str | None:
    """Two outputs that are the same regular file (by inode, or by path when new), as a message; None if none."""
    seen: dict[object, str] = {}
    for what, plan in plans:
        st = plan.st
        if st is not None and not stat.S_ISREG(st.st_mode):
            continue  # a device, a FIFO or a pipe takes one write after another
        same = (st.st_dev, st.st_ino) if st is not None else str(plan.target)
        if same in seen:
            return f"{seen[same]} and {what} name the same file: one would overwrite the other"
        seen[same] = what
    return None


def _attempt(path: Path, action, *args) -> None:
    """``action(*args)``, an OSError becoming a WriteError that names ``path``."""
    try:
        action(*args)
    except WriteError:
        raise
    except OSError as err:
        raise WriteError(err.errno, err.strerror or str(err), str(path)) from None


def _stage(plan: _Plan, staged: list[tuple[str, _Plan]]) -> None:
    """A temporary file beside the target holding ``plan.data``, with the replaced file's mode, added
    to ``staged`` as soon as it exists (so that whatever happens next, the caller removes it)."""
    folder = plan.target.parent
    _attempt(plan.path, folder.mkdir, 0o777, True, True)
    _remove_stale(folder, plan.target.name)
    mode = 0o666 if plan.st is None else stat.S_IMODE(plan.st.st_mode)
    while True:
        temp = str(folder / f".{plan.target.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            break
        except FileExistsError:
            continue
        except OSError as err:
            raise WriteError(err.errno, err.strerror, str(plan.path)) from None
    staged.append((temp, plan))
    try:
        _attempt(plan.path, _put, fd, plan.data)
    finally:
        os.close(fd)
    if plan.st is not None:
        _attempt(plan.path, os.chmod, temp, mode)  # the exact bits, whatever the umask
        if (plan.st.st_uid, plan.st.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(PermissionError):
                os.chown(temp, plan.st.st_uid, plan.st.st_gid)


def _keep(plan: _Plan, kept: list[tuple[str, _Plan]]) -> None:
    """Keep the file a rename will replace under a temporary name (a hard link, else a copy with its mode),
    added to ``kept``, so that a later rename's failure can put it back."""
    folder = plan.target.parent
    while True:
        copy = str(folder / f".{plan.target.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
        try:
            os.link(plan.target, copy)
            kept.append((copy, plan))
            return
        except FileExistsError:
            continue
        except OSError:
            break  # no hard links here (or none allowed on this file): a copy
    try:
        with open(plan.target, "rb") as f:
            old = f.read()
        fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as err:
        raise WriteError(err.errno, err.strerror, str(plan.path)) from None
    kept.append((copy, plan))
    try:
        _attempt(plan.path, _put, fd, old)
    finally:
        os.close(fd)
    if plan.st is not None:
        _attempt(plan.path, os.chmod, copy, stat.S_IMODE(plan.st.st_mode))


def _undo(done: list[_Plan], kept: dict[Path, str]) -> None:
    """Put back what the renames in ``done`` replaced (from ``kept``) and remove what they created, last first."""
    for plan in reversed(done):
        with contextlib.suppress(OSError):
            if plan.target in kept:
                os.replace(kept.pop(plan.target), plan.target)
            elif plan.st is None:
                os.unlink(plan.target)


def _put(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the open file ``fd``."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_through(plan: _Plan) -> None:
    """Write into what is at the target (truncating a regular file), without replacing it."""
    fd = os.open(plan.target, os.O_WRONLY | os.O_TRUNC)
    try:
        _put(fd, plan.data)
    finally:
        os.close(fd)


#: The kit's temporary file names: ``.<name>.<pid>-<8 hex digits>.tmp``.
_TEMP = re.compile(r"\.(.+)\.([0-9]+)-[0-9a-f]{8}\.tmp")
#: Per folder, the other processes' temporary files found in it, by target name and with their pid.
#: A folder is listed once per process: the model's memo folder holds thousands of files.
_FOUND: dict[Path, dict[str, list[tuple[str, int]]]] = {}
_FOUND_LOCK = threading.Lock()


def _remove_stale(folder: Path, name: str) -> None:
    """Remove this kit's temporary files for ``name`` left by processes that no longer run."""
    with _FOUND_LOCK:
        if folder not in _FOUND:
            found: dict[str, list[tuple[str, int]]] = {}
            with contextlib.suppress(OSError):
                for entry in os.scandir(folder):
                    m = _TEMP.fullmatch(entry.name)
                    if m and int(m.group(2)) != os.getpid():
                        found.setdefault(m.group(1), []).append((entry.path, int(m.group(2))))
            _FOUND[folder] = found
        left = _FOUND[folder].pop(name, [])
    for path, pid in left:
        if not _running(pid):
            with contextlib.suppress(OSError):
                os.unlink(path)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process, or no pid at all: leave the file alone
    return True


class _Stopped(BaseException):
    """A terminating signal arrived while temporary files existed."""


class _Signals:
    """While a write runs (main thread only): a terminating signal raises ``_Stopped`` (so the temporary
    files go), or inside ``held()`` is held back by the kernel and noted; on leaving, a noted signal is
    sent again under the handler that was in place before."""

    def __init__(self, paths: str) -> None:
        self.paths = paths
        self.saved: dict[int, Callable[[int, FrameType | None], object] | int | None] = {}
        self.pending: list[int] = []
        self.deferred = False

    def _handle(self, signum: int, frame) -> None:
        self.pending.append(signum)
        if not self.deferred:
            raise _Stopped(signum)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The signals held back by the kernel while inside (one that had already arrived is noted as the
        mask is set: ``pthread_sigmask`` runs the handlers waiting), and noted as the block ends."""
        self.deferred = True
        masked = bool(self.saved) and hasattr(signal, "pthread_sigmask")
        before = signal.pthread_sigmask(signal.SIG_BLOCK, self.saved) if masked else set()
        try:
            yield
        finally:
            if masked:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)
            self.deferred = False

    def check(self) -> None:
        """Raise ``_Stopped`` if a signal was noted."""
        if self.pending:
            raise _Stopped(self.pending[0])

    def __enter__(self) -> _Signals:
        if threading.current_thread() is threading.main_thread():
            for signum in SIGNALS:
                old = signal.getsignal(signum)
                if old not in (signal.SIG_IGN, None):
                    self.saved[signum] = old
                    signal.signal(signum, self._handle)
        return self

    def __exit__(self, kind, value, traceback) -> None:
        self.deferred = True  # a signal arriving from here on is noted, not raised
        for signum, old in self.saved.items():
            signal.signal(signum, old)
        for signum in dict.fromkeys(self.pending):
            os.kill(os.getpid(), signum)
        if isinstance(value, _Stopped):  # the handler before ours let the process live on
            raise WriteError(errno.EINTR, f"stopped by signal {value.args[0]}", self.paths) from None
