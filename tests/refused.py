"""What a refused command leaves, for the tests of bad input: exit status 2, one line on stderr that holds
every given part, nothing on stdout, no traceback."""

from __future__ import annotations


def one_line(capsys, code: int, *parts: str) -> str:
    """The one line a refused command printed (``code`` is its exit status), checked."""
    captured = capsys.readouterr()
    assert code == 2 and "Traceback" not in captured.err and captured.out == "", captured.err
    (line,) = captured.err.splitlines()
    assert all(p in line for p in parts), line
    return line
