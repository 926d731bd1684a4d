"""The kit's one writer never clobbers what an output path names.

A symlink is followed and its target written; a FIFO or a character device is
written through, never replaced by a regular file; a hard-linked file is written
in place (the links stay one file); a replaced file keeps its mode; a folder is
an error naming the path.  Every writer of the kit (``-out``, golden, refined)
goes through ``locomo_repro.data.atomic``.
"""

from __future__ import annotations

import os
import stat
import threading

import pytest

from locomo_repro.data import atomic, dataset
from locomo_repro.refined import files as refined_files
from locomo_repro.score import golden


def test_every_writer_of_the_kit_is_the_one_writer():
    assert dataset.write_atomic is atomic.write_atomic
    assert golden.atomic is atomic and refined_files.atomic is atomic


def test_a_symlink_is_followed_and_its_target_written(tmp_path):
    target = tmp_path / "real" / "out.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    chain = tmp_path / "chain.json"
    chain.symlink_to(link)
    atomic.write_atomic(chain, b"new")
    assert chain.is_symlink() and link.is_symlink()
    assert target.read_bytes() == b"new"
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "real" / "later.json")
    atomic.write_atomic(dangling, b"made")
    assert dangling.is_symlink() and (tmp_path / "real" / "later.json").read_bytes() == b"made"
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["later.json", "out.json"]


def test_a_fifo_is_written_through_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic.write_atomic(fifo, b"through the pipe")
    reader.join()
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_character_device_is_written_through_not_replaced(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mknod of a character device needs root; the FIFO test covers special files otherwise")
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a copy of /dev/null
    atomic.write_atomic(null, b"gone")
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


def test_dev_null_itself_stays_a_device(tmp_path):
    atomic.write_atomic("/dev/null", b"nothing")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_a_hard_linked_file_is_written_in_place(tmp_path):
    first = tmp_path / "a.json"
    first.write_text("old")
    second = tmp_path / "b.json"
    os.link(first, second)
    atomic.write_atomic(second, b"new")
    assert os.path.samefile(first, second) and first.read_bytes() == b"new"


def test_a_replaced_file_keeps_its_mode(tmp_path):
    private = tmp_path / "private.json"
    private.write_text("old")
    private.chmod(0o600)
    atomic.write_atomic(private, b"new")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600 and private.read_bytes() == b"new"
    shared = tmp_path / "shared.json"
    shared.write_text("old")
    shared.chmod(0o664)
    refined_files.write_atomic({shared: "new"})
    assert stat.S_IMODE(shared.stat().st_mode) == 0o664


def test_a_new_file_gets_the_mode_open_gives(tmp_path):
    old = os.umask(0o027)
    try:
        atomic.write_atomic(tmp_path / "new.json", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640


def test_a_folder_is_an_error_naming_it(tmp_path):
    with pytest.raises(atomic.WriteError) as caught:
        atomic.write_atomic(tmp_path, b"x")
    assert str(caught.value) == f"{tmp_path}: cannot write: is a folder"


def test_what_can_be_written_is_known_before_a_run(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert atomic.unwritable(fifo) is None and atomic.unwritable("/dev/null") is None
    assert atomic.unwritable(tmp_path / "new" / "deeper" / "out.json") is None
    assert atomic.unwritable(tmp_path) == "is a folder"
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert atomic.unwritable(blocker / "out.json") == "Not a directory"
    if os.geteuid() != 0:  # root may write anything, so only an ordinary user sees these refused
        fifo.chmod(0o400)
        assert atomic.unwritable(fifo) == "not writable"
