"""``data.digest.file_sha256``: a file's sha256, read once however many parts of a run ask (the pinned dataset's
check and the run's signature), read again once the file is written again, read every time while it has just
changed (its time stamps could not show a second change) and every time from a pipe."""

from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path

import pytest

from locomo_repro.data import digest
from locomo_repro.score import signature


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The files the digest reads, in order (the memo emptied first)."""
    got: list[object] = []
    read = digest._read
    monkeypatch.setattr(digest, "_read", lambda path: got.append(path) or read(path))
    digest._kept.cache_clear()
    return got


def _later(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the clock the digest reads stand three seconds on: the files just written have settled."""
    now = time.time_ns
    monkeypatch.setattr(digest.time, "time_ns", lambda: now() + 3_000_000_000)


def test_a_settled_files_digest_is_its_sha256_read_once(tmp_path: Path, reads, monkeypatch):
    file = tmp_path / "data.json"
    file.write_bytes(b'[{"a": 1}]')
    _later(monkeypatch)
    assert digest.file_sha256(file) == hashlib.sha256(b'[{"a": 1}]').hexdigest()
    assert digest.file_sha256(str(file)) == signature.file_sha256(file) == digest.file_sha256(file)
    assert len(reads) == 1


def test_a_file_written_again_is_read_again(tmp_path: Path, reads, monkeypatch):
    file = tmp_path / "data.json"
    file.write_bytes(b"[1]")
    _later(monkeypatch)
    first = digest.file_sha256(file)
    stamped = os.stat(file).st_mtime_ns
    file.write_bytes(b"[2]")  # the same size
    os.utime(file, ns=(stamped + 1_000_000_000, stamped + 1_000_000_000))
    assert first == hashlib.sha256(b"[1]").hexdigest()
    assert digest.file_sha256(file) == hashlib.sha256(b"[2]").hexdigest()
    assert len(reads) == 2


def test_a_file_that_has_just_changed_is_read_each_time(tmp_path: Path, reads):
    file = tmp_path / "data.json"
    file.write_bytes(b"[1]")
    assert digest.file_sha256(file) == digest.file_sha256(file) == hashlib.sha256(b"[1]").hexdigest()
    assert len(reads) == 2


def test_a_pipe_is_read_each_time(tmp_path: Path, monkeypatch):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    _later(monkeypatch)
    got = []
    for body in (b"one", b"two"):
        writer = threading.Thread(target=pipe.write_bytes, args=(body,))
        writer.start()
        got.append(digest.file_sha256(pipe))
        writer.join()
    assert got == [hashlib.sha256(b"one").hexdigest(), hashlib.sha256(b"two").hexdigest()]
