"""peers fetch: the pinned files, sha256-checked, written atomically into the cache; a bad download writes nothing.

No network: ``urlopen`` is replaced by a stand-in serving made-up bodies whose sums are pinned for the test."""

from __future__ import annotations

import hashlib
import io

import pytest

from locomo_repro.peers import fetch
from locomo_repro.peers.__main__ import main


def body(pinned: fetch.Pinned) -> bytes:
    return f"made-up content of {pinned.local}".encode()


@pytest.fixture
def served(monkeypatch):
    """Pins the made-up bodies' sums and serves them; returns the URLs asked for."""
    pinned = tuple(fetch.Pinned(p.repo, p.commit, p.path, p.local, hashlib.sha256(body(p)).hexdigest())
                   for p in fetch.FILES)
    monkeypatch.setattr(fetch, "FILES", pinned)
    by_url = {p.url: body(p) for p in pinned}
    asked = []

    def urlopen(url, timeout):
        asked.append(url)
        return io.BytesIO(by_url[url])

    monkeypatch.setattr(fetch.urllib.request, "urlopen", urlopen)
    return asked


def test_every_pinned_file_is_fetched_into_the_cache_and_not_again(tmp_path, monkeypatch, served, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["fetch"]) == 0
    where = tmp_path / "locomo-repro" / "peers"
    assert capsys.readouterr().out == f"{where}\n"
    assert len(served) == len(fetch.FILES) == 13
    assert all((where / p.local).read_bytes() == body(p) for p in fetch.FILES)
    assert all(u.startswith("https://raw.githubusercontent.com/") for u in served)
    assert main(["fetch"]) == 0 and len(served) == 13  # all present with the right sums: nothing asked


def test_a_wrong_sum_is_one_line_and_nothing_is_written(tmp_path, monkeypatch, served, capsys):
    last = fetch.FILES[-1]
    monkeypatch.setattr(fetch, "FILES", (*fetch.FILES[:-1], fetch.Pinned(last.repo, last.commit, last.path,
                                                                          last.local, "0" * 64)))
    assert main(["fetch", "--dir", str(tmp_path / "peers")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"{last.url}: sha256 ") and err[-1].endswith("nothing written")
    assert not (tmp_path / "peers").exists()


def test_a_server_nothing_answers_at_is_one_line_naming_the_address(tmp_path, monkeypatch, capsys):
    def urlopen(url, timeout):
        raise fetch.urllib.error.URLError("no network here")

    monkeypatch.setattr(fetch.urllib.request, "urlopen", urlopen)
    assert main(["fetch", "--dir", str(tmp_path / "p")]) == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith(fetch.FILES[0].url) and "no network here" in err and "LOCOMO_PEERS" in err


@pytest.mark.outside("LOCOMO_PEERS")
def test_the_pinned_sums_are_the_published_files_sums_when_a_copy_is_at_hand():
    import os
    from pathlib import Path

    root = Path(os.environ["LOCOMO_PEERS"])
    assert {p.local: hashlib.sha256((root / p.local).read_bytes()).hexdigest() for p in fetch.FILES} == {
        p.local: p.sha256 for p in fetch.FILES}
