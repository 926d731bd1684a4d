"""In a folder the kit owns (a ``-resume`` folder, the memo folder, the cache) what is planted where a kept
file goes is refused in one line and never followed: a symbolic link to another file (which had that file
overwritten with JSON), a dangling link (which created its target), a FIFO (which held the run for ever)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest

import kit_child
from locomo_repro import cli
from locomo_repro.data import atomic, dataset
from refused import one_line


def kept_files(tmp_path, capsys) -> tuple[list, object]:
    data = kit_child.tiny(tmp_path / "data.json", samples=2)
    folder = tmp_path / "kept"
    assert cli.main(["-data", str(data), "-quiet", "-jobs", "1", "-resume", str(folder)]) == 0
    capsys.readouterr()
    return sorted(folder.iterdir()), data


def test_a_kept_file_linked_to_another_file_is_refused_and_that_file_is_untouched(tmp_path, capsys):
    files, data = kept_files(tmp_path, capsys)
    mine = tmp_path / "mine.txt"
    mine.write_text("the user's own text")
    files[0].unlink()
    files[0].symlink_to(mine)
    code = cli.main(["-data", str(data), "-quiet", "-jobs", "1", "-resume", str(tmp_path / "kept")])
    one_line(capsys, code, str(files[0]), "symbolic link", "not followed")
    assert mine.read_text() == "the user's own text" and files[0].is_symlink()


def test_a_dangling_link_where_a_kept_file_goes_does_not_create_its_target(tmp_path, capsys):
    files, data = kept_files(tmp_path, capsys)
    target = tmp_path / "elsewhere"
    files[1].unlink()
    files[1].symlink_to(target)
    code = cli.main(["-data", str(data), "-quiet", "-jobs", "1", "-resume", str(tmp_path / "kept")])
    one_line(capsys, code, str(files[1]), "symbolic link")
    assert not target.exists() and not os.path.lexists(target)


def test_a_fifo_where_a_kept_file_goes_is_refused_without_waiting_on_it(tmp_path, capsys):
    files, data = kept_files(tmp_path, capsys)
    files[0].unlink()
    os.mkfifo(files[0])
    done = kit_child.run(["-data", str(data), "-quiet", "-jobs", "1", "-resume", str(tmp_path / "kept")], tmp_path,
                         timeout=60)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert str(files[0]) in line and "not a regular file" in line


@pytest.mark.parametrize("planted", ["link to a file", "dangling link", "fifo", "hard link"])
def test_the_kept_files_writer_follows_nothing_planted_at_its_path(planted, tmp_path):
    path = tmp_path / "cache" / "locomo10.json"
    path.parent.mkdir()
    other = tmp_path / "other"
    if planted == "link to a file":
        other.write_text("mine")
        path.symlink_to(other)
    elif planted == "dangling link":
        path.symlink_to(other)
    elif planted == "fifo":
        os.mkfifo(path)
    else:
        other.write_text("mine")
        os.link(other, path)
    with pytest.raises(atomic.WriteError) as caught:
        atomic.write_kept(path, b"[]")
    assert str(caught.value).startswith(f"{path}: cannot write: ") and "(not followed)" in str(caught.value)
    assert (other.read_text() == "mine") if planted in ("link to a file", "hard link") else not os.path.lexists(other)


def test_the_dataset_fetched_into_the_cache_is_not_written_through_a_planted_link(tmp_path, monkeypatch):
    from stub_server import Stub

    body = b"[]"
    monkeypatch.setattr(dataset, "SHA256", hashlib.sha256(body).hexdigest())
    monkeypatch.setattr(dataset, "SIZE", len(body))
    cache = tmp_path / "cache" / "locomo10.json"
    cache.parent.mkdir()
    target = tmp_path / "anywhere"
    cache.symlink_to(target)
    with Stub(lambda request, n: (200, body, 0)) as server:
        with pytest.raises(atomic.WriteError, match="symbolic link is there"):
            dataset.fetch(cache, server.base_url + "/locomo10.json")
    assert not os.path.lexists(target)


def test_a_fifo_planted_as_the_cached_dataset_is_refused_without_waiting_on_it(tmp_path):
    cached = tmp_path / "cache" / "locomo-repro" / "locomo10.json"
    cached.parent.mkdir(parents=True)
    os.mkfifo(cached)
    env = {k: v for k, v in kit_child.environment({"XDG_CACHE_HOME": str(tmp_path / "cache")}).items()
           if k != "LOCOMO_DATA"}
    done = subprocess.run([sys.executable, "-m", "locomo_repro", "-only", "1"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert str(cached) in line and "not a regular file" in line
