"""``locomo-repro claims --markdown PATH`` refuses a path the kit's writer cannot write before it
measures anything (one line, exit 2), and writes through the one writer (``locomo_repro.data.atomic``)."""

from __future__ import annotations

import pytest

from locomo_repro import claims
from locomo_repro.claims import report


@pytest.fixture
def no_run(monkeypatch):
    monkeypatch.setattr(report, "load", lambda *a: pytest.fail("the manifest was read"))


def test_a_folder_is_refused_before_the_run(tmp_path, capsys, no_run):
    assert claims.main(["--markdown", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"locomo-repro: --markdown {tmp_path}: is a folder\n"


def test_a_path_under_a_file_is_refused_before_the_run(tmp_path, capsys, no_run):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert claims.main(["--markdown", str(blocker / "claims.md")]) == 2
    assert capsys.readouterr().err == f"locomo-repro: --markdown {blocker / 'claims.md'}: Not a directory\n"
