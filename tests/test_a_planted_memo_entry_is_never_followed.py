"""What is planted in a shared memo folder where an answer would be kept is never followed: a symbolic
link (dangling or not), a file with other hard links, a FIFO.  Nothing is read through it (a link to any
file of the user's would be shown as the model's answer; a FIFO would block the run) and nothing is
written through it (a dangling link made the run create its target): the model is asked, its answer
used, and one warning names the entry; the link or file stays as it was."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

from locomo_repro.read import model

PROMPT = "Where did Ann go?"


def memo(folder: Path) -> tuple[model.Memo, list[str], io.StringIO]:
    asked: list[str] = []

    def complete(prompt: str) -> str:
        asked.append(prompt)
        return "Paris"

    errors = io.StringIO()
    return model.Memo(complete, folder, "m", errors), asked, errors


def finished(call, timeout: float = 30):
    """``call()``'s result, or a failure if it is still running after ``timeout`` seconds (a blocked read)."""
    box: list = []
    thread = threading.Thread(target=lambda: box.append(call()), daemon=True)
    thread.start()
    thread.join(timeout)
    assert box, f"still blocked after {timeout} s"
    return box[0]


def test_a_dangling_link_does_not_make_the_run_create_its_target(tmp_path):
    kept, asked, errors = memo(tmp_path / "said")
    entry = kept.path(PROMPT)
    entry.parent.mkdir()
    target = tmp_path / "elsewhere" / "created"
    target.parent.mkdir()
    entry.symlink_to(target)
    assert kept(PROMPT) == "Paris" and asked == [PROMPT]
    assert not target.exists() and entry.is_symlink()
    (line,) = errors.getvalue().splitlines()
    assert str(entry) in line and "symbolic link" in line and "not followed" in line


def test_a_link_to_a_file_is_not_read_as_the_answer(tmp_path):
    kept, asked, _ = memo(tmp_path / "said")
    entry = kept.path(PROMPT)
    entry.parent.mkdir()
    secret = tmp_path / "secret"
    secret.write_text("the user's private text")
    entry.symlink_to(secret)
    assert kept(PROMPT) == "Paris" and asked == [PROMPT] and kept.hits == 0
    assert secret.read_text() == "the user's private text"


def test_a_file_with_another_hard_link_is_not_written_through(tmp_path):
    kept, asked, errors = memo(tmp_path / "said")
    entry = kept.path(PROMPT)
    entry.parent.mkdir()
    other = tmp_path / "other"
    other.write_bytes(b"\xff not an answer")  # unreadable as UTF-8, so the answer is asked and would be kept
    os.link(other, entry)
    assert kept(PROMPT) == "Paris" and asked == [PROMPT]
    assert other.read_bytes() == b"\xff not an answer"
    assert "hard links" in errors.getvalue()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_neither_blocks_nor_is_written(tmp_path):
    kept, asked, errors = memo(tmp_path / "said")
    entry = kept.path(PROMPT)
    entry.parent.mkdir()
    os.mkfifo(entry)
    assert finished(lambda: kept(PROMPT)) == "Paris" and asked == [PROMPT]
    assert "not a regular file" in errors.getvalue()


def test_a_plain_entry_is_still_kept_and_read(tmp_path):
    kept, asked, errors = memo(tmp_path / "said")
    assert kept(PROMPT) == "Paris" and kept(PROMPT) == "Paris"
    assert asked == [PROMPT] and kept.hits == 1 and errors.getvalue() == ""
    assert kept.path(PROMPT).read_text() == "Paris"
