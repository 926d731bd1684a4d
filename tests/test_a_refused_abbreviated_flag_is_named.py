"""A flag refused for being abbreviated (or unknown) is the flag the message names, not a required flag
the command then finds missing (``--ar`` for ``--arm`` was said to be a missing ``--arm``)."""

from __future__ import annotations

import pytest

from locomo_repro import cli
from refused import one_line


@pytest.mark.parametrize(("argv", "flag"), [
    (["peers", "import", "--ar", "m=x.json", "-out", "o.json"], "--ar"),
    (["import", "--arm=m=x.json", "--ou=o.json"], "--ou"),
    (["refined", "score", "--predic", "p.jsonl"], "--predic"),
    (["refined", "predict", "--ar", "vector"], "--ar"),
])
def test_a_refused_abbreviation_is_named_not_the_required_flag_it_misses(argv, flag, tmp_path, capsys,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_line(capsys, cli.main(argv), f"unrecognized arguments: {flag}")
    assert "required" not in line and not list(tmp_path.iterdir())
