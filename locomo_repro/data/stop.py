"""The kit's one rule for the threads and processes a run starts: Ctrl-C ends the run within moments,
whatever it waits on, and nothing the run started outlives it (docs/model.md, docs/speed.md).

* :class:`Threads` is the executor of every thread pool (the ``-model`` run's requests, ``refined
  judge``'s): daemon threads, so that the process never waits for one at exit.  A block that leaves it
  normally waits for its work; one that leaves it with an exception (Ctrl-C's KeyboardInterrupt, a
  failure) drops the work not started, wakes every :func:`pause` of its threads (each gives up with
  :class:`Stopped`), gives them ``GRACE`` seconds to finish what they were writing, and leaves the rest
  (a request the endpoint holds) to end with the process.
* :func:`pause` is the sleep of every retry loop: in a ``Threads`` thread it wakes as soon as its pool
  is abandoned.
* :func:`workers` is the process pool of ``-jobs``: a worker that cannot be started is a
  :class:`WorkerError` (one line naming the cause); a worker ignores SIGINT (the parent decides; a
  terminal's Ctrl-C reaches the whole process group) and dies with its parent, even a ``kill -9`` of it
  (``prctl(PR_SET_PDEATHSIG)`` on Linux; elsewhere a thread that watches the parent's process id); a
  worker that dies is a ``WorkerError``; a block that leaves the pool with an exception kills the
  workers instead of waiting for their conversations.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.process import BaseProcess

#: Seconds an abandoned pool's threads get to finish what they are doing (a memo being written).
GRACE = 1.0
#: Linux's ``prctl`` option that sends the calling process a signal when its parent dies.
PR_SET_PDEATHSIG = 1
#: Seconds between two looks at the parent's process id, where ``PR_SET_PDEATHSIG`` is not to be had.
WATCH_EVERY = 1.0


class Stopped(KeyboardInterrupt):
    """A pause abandoned because its pool was (a KeyboardInterrupt: the run is being interrupted)."""


class WorkerError(Exception):
    """A worker process that could not be started or that died; ``str()`` is one line."""


_local = threading.local()


def pause(seconds: float) -> None:
    """Sleep ``seconds``; in a thread of :class:`Threads`, raise :class:`Stopped` as soon as its pool is abandoned."""
    stop: threading.Event | None = getattr(_local, "stop", None)
    if stop is None:
        time.sleep(seconds)
    elif stop.wait(seconds):
        raise Stopped


class Threads(Executor):
    """At most ``count`` daemon threads named ``<name>_<i>`` running what is submitted, in order.

    Used as a context manager: see the module docstring.  ``stop`` is set once the pool is abandoned.
    """

    def __init__(self, count: int, name: str) -> None:
        if count < 1:
            raise ValueError("a pool needs at least one thread")
        self.count = count
        self.name = name
        self.stop = threading.Event()
        self._work: queue.SimpleQueue = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the {self.name} pool takes no more work")
            self._work.put((future, fn, args, kwargs))
            if len(self._threads) < self.count:
                thread = threading.Thread(target=self._serve, name=f"{self.name}_{len(self._threads)}", daemon=True)
                self._threads.append(thread)
                thread.start()
        return future

    def _serve(self) -> None:
        _local.stop = self.stop
        while (item := self._work.get()) is not None:
            future, fn, args, kwargs = item
            del item
            if future.set_running_or_notify_cancel():
                try:
                    result = fn(*args, **kwargs)
                except BaseException as exc:
                    future.set_exception(exc)
                else:
                    future.set_result(result)
            del future, fn, args, kwargs

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """No more work: with ``cancel_futures`` the work not started is dropped; with ``wait``, this returns
        once every thread has ended."""
        if cancel_futures:
            with contextlib.suppress(queue.Empty):
                while True:
                    if (item := self._work.get_nowait()) is not None:
                        item[0].cancel()
        with self._lock:
            self._closed = True
            threads = list(self._threads)
        for _ in threads:
            self._work.put(None)
        if wait:
            for thread in threads:
                thread.join()

    def abandon(self) -> None:
        """Drop the work not started, wake every pause, give the threads ``GRACE`` seconds, and return."""
        self.stop.set()
        self.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + GRACE
        for thread in list(self._threads):
            thread.join(max(0.0, deadline - time.monotonic()))

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None:
            self.abandon()
            return
        try:
            self.shutdown(wait=True)
        except BaseException:  # Ctrl-C while waiting for the last work
            self.abandon()
            raise


def workers(jobs: int, preload: Sequence[str] = ()) -> contextlib.AbstractContextManager[Executor]:
    """A pool of ``jobs`` worker processes (the start method ``multiprocessing`` is set to); see the module
    docstring.  The modules ``preload`` names are imported before any worker is started, so that no worker
    imports them again: here, for workers forked from this process; with the forkserver start method, by the
    server (started by the first pool) that forks them."""
    return _workers(jobs, preload)


@contextlib.contextmanager
def _workers(jobs: int, preload: Sequence[str]) -> Iterator[Executor]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    method = multiprocessing.get_start_method()
    if method == "forkserver" and preload:
        multiprocessing.set_forkserver_preload(list(preload))
    elif method == "fork":
        for name in preload:
            importlib.import_module(name)
    pool = _Started(ProcessPoolExecutor(jobs, initializer=_worker_starts, initargs=(os.getpid(),)), jobs,
                    set(multiprocessing.active_children()))
    try:
        yield pool
    except BaseException as exc:
        for process in pool.mine():
            with contextlib.suppress(OSError):
                process.kill()
            process.join()
        pool.pool.shutdown(wait=True, cancel_futures=True)
        if isinstance(exc, BrokenProcessPool):
            raise WorkerError(f"a worker process died{_how(pool.started)}") from None
        raise
    pool.pool.shutdown(wait=True)


class _Started(Executor):
    """A process pool whose ``submit`` (which is where its workers are started: all of them at the first
    with the fork start method, one at a time with the others) holds SIGINT back until a new worker
    ignores it, makes a worker that cannot be started a ``WorkerError``, and notes the workers started."""

    def __init__(self, pool: ProcessPoolExecutor, jobs: int, before: set[BaseProcess]) -> None:
        self.pool = pool
        self.jobs = jobs
        self.before = before
        #: The workers started, dead ones included (their exit codes say how a dead one ended).
        self.started: list[BaseProcess] = []

    def mine(self) -> list[BaseProcess]:
        """The pool's workers still running, noted now."""
        import multiprocessing

        running = [p for p in multiprocessing.active_children() if p not in self.before]
        # The pool's own record of its workers too: one that died before it was first noted here (killed
        # right after it was started) is no longer among the running, and is the one whose end says how.
        known = list(self.pool._processes.values())  # type: ignore[attr-defined]
        self.started += [p for p in (*known, *running) if p not in self.started]
        return running

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        try:
            with _no_sigint():
                future = self.pool.submit(fn, *args, **kwargs)
        except OSError as err:
            raise WorkerError(f"cannot start worker process {len(self.mine()) + 1} of {self.jobs}: "
                              f"{err.strerror or err}") from None
        if len(self.started) < self.jobs:
            self.mine()
        return future


def _how(processes: list[BaseProcess]) -> str:
    """How the first worker that ended by itself ended (the others were ended after it), as `` (...)``."""
    codes = [p.exitcode for p in processes if p.exitcode]
    code = next((c for c in codes if c != -signal.SIGTERM), codes[0] if codes else None)
    if code is None:
        return ""
    if code < 0:
        try:
            return f" (killed by {signal.Signals(-code).name})"
        except ValueError:
            return f" (killed by signal {-code})"
    return f" (exit status {code})"


@contextlib.contextmanager
def _no_sigint() -> Iterator[None]:
    """SIGINT held back from this thread (and from the processes and threads it starts) while inside."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _worker_starts(parent: int) -> None:
    """What a worker process does first: leave SIGINT to the run's process ``parent`` and die with its own
    parent (``parent``, or the fork server that starts workers for it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C held back since the start is dropped here
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    watched = os.getppid()
    if not _killed_with_parent():
        threading.Thread(target=_watch, args=(parent, watched), name="parent-watch", daemon=True).start()
    if os.getppid() != watched or not _running(parent):  # gone before this worker could ask to die with it
        os._exit(1)


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs: it exists and, where ``/proc`` says, is no zombie (a killed parent is one
    until its own parent reaps it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def _killed_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies (a worker writes nothing, so has nothing to
    clean up); False where that cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int, watched: int) -> None:
    """End this process once ``parent`` has stopped or ``watched`` is no longer its parent."""
    while os.getppid() == watched and _running(parent):
        time.sleep(WATCH_EVERY)
    os._exit(1)
