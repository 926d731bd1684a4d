"""``data.stop.Threads``, the executor of every thread pool of a run (``-model``'s requests, ``refined
judge``'s, threaded plug-ins).  A block that ends normally waits for all its work, at most ``count``
pieces at once, each future with its own result; a block left by an exception (Ctrl-C's
KeyboardInterrupt) drops the work not started, wakes every ``stop.pause`` of its threads (``Stopped``),
and returns although a thread is still blocked (a request the endpoint holds): its threads are daemons,
which the process does not wait for at exit."""

from __future__ import annotations

import threading

import pytest

from locomo_repro.data import stop


def test_a_normal_end_waits_for_all_the_work_count_at_a_time():
    together = threading.Barrier(3, timeout=30)  # each piece waits until three run at once
    lock = threading.Lock()
    running = [0, 0]  # now, most

    def work(i: int) -> int:
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        together.wait()
        with lock:
            running[0] -= 1
        return i * i

    with stop.Threads(3, "t") as pool:
        futures = [pool.submit(work, i) for i in range(9)]
        paused = pool.submit(stop.pause, 0)  # a pool not stopped: a pause is a sleep
    assert [f.result(timeout=0) for f in futures] == [i * i for i in range(9)] and paused.result(timeout=0) is None
    assert running == [0, 3] and not together.broken
    with pytest.raises(RuntimeError):
        pool.submit(print, "after the end")


def test_an_exception_drops_the_queue_wakes_the_pauses_and_waits_for_no_blocked_thread(monkeypatch):
    monkeypatch.setattr(stop, "GRACE", 0.0)  # the blocked thread is not given its grace, here
    holding, pausing, release = threading.Event(), threading.Event(), threading.Event()
    left: list = []

    def hold():
        holding.set()
        release.wait(120)

    def sleepy():
        pausing.set()
        stop.pause(300)

    def block():
        try:
            with stop.Threads(2, "t") as pool:
                held, paused = pool.submit(hold), pool.submit(sleepy)
                queued = [pool.submit(print, "never") for _ in range(5)]
                assert holding.wait(30) and pausing.wait(30)
                raise KeyboardInterrupt
        except KeyboardInterrupt:
            left.append((pool, held, paused, queued))

    runner = threading.Thread(target=block, daemon=True)
    try:
        runner.start()
        runner.join(30)
        assert left, "the block waited for its blocked thread"
        pool, held, paused, queued = left[0]
        assert isinstance(paused.exception(timeout=30), stop.Stopped)
        assert all(f.cancelled() for f in queued) and not held.done()
        assert pool.stop.is_set() and all(t.daemon for t in threading.enumerate() if t.name.startswith("t_"))
    finally:
        release.set()


def test_a_pause_outside_a_pool_is_a_plain_sleep():
    assert stop.pause(0) is None
    with pytest.raises(ValueError):
        stop.Threads(0, "t")
