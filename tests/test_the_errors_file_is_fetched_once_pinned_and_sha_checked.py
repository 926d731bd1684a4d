"""The audited key's errors.json: fetched once from the pinned commit into the cache, sha256-checked, never again
while the cached copy is the pinned one; a wrong sum or an unreachable server is one line and caches nothing.

No network: ``urlopen`` is replaced by a stand-in serving the toy errors file, whose sum is pinned for the test.
Where LOCOMO_AUDIT names the audit's folder, its errors.json is the pinned one and is about locomo10's questions."""

from __future__ import annotations

import hashlib
import io
import json
import urllib.error
import urllib.request
from collections import Counter

import pytest

import toy_audit
from locomo_repro import cli
from locomo_repro.data import audit
from locomo_repro.score import key

BODY = json.dumps(toy_audit.errors()).encode()


def refused(capsys, code: int, *parts: str) -> str:
    """A refused fetch: exit 2, nothing on stdout, no traceback; the progress line saying what is fetched, then
    one line holding every part."""
    captured = capsys.readouterr()
    assert code == 2 and "Traceback" not in captured.err and captured.out == "", captured.err
    fetching, line = captured.err.splitlines()
    assert fetching.startswith("locomo-repro: fetching https://") and all(p in line for p in parts), line
    return line


@pytest.fixture
def served(tmp_path, monkeypatch):
    """A cache of its own, no LOCOMO_AUDIT, the toy body pinned and served; returns the URLs asked for."""
    monkeypatch.delenv(audit.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(audit, "SHA256", hashlib.sha256(BODY).hexdigest())
    asked: list[str] = []

    def urlopen(url, timeout):
        asked.append(url)
        return io.BytesIO(BODY)

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    return asked


def test_the_errors_are_fetched_once_from_the_pinned_commit(served, capsys):
    assert len(key.load("audited").errors) == 6
    assert served == [f"https://raw.githubusercontent.com/dial481/locomo-audit/{audit.COMMIT}/errors.json"]
    assert audit.cache_path().read_bytes() == BODY
    assert len(key.load("audited").errors) == 6 and len(served) == 1  # the cached copy: not fetched again
    assert "fetching" in capsys.readouterr().err


def test_a_wrong_sum_is_one_line_and_nothing_is_cached(served, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(audit, "SHA256", "0" * 64)
    toy_audit.write(tmp_path, monkeypatch)
    monkeypatch.delenv(audit.ENV)
    code = cli.main(["-data", str(tmp_path / "d.json"), "-arms", "toy_plugins:Parrot", "-key", "audited"])
    line = refused(capsys, code, "errors.json: sha256 ", "expected 0000", "nothing cached")
    assert line.startswith("locomo-repro: https://raw.githubusercontent.com/dial481/locomo-audit/")
    assert not audit.cache_path().exists()


def test_a_changed_cached_copy_is_refused_until_deleted(served, capsys):
    key.load("audited")
    audit.cache_path().write_bytes(BODY + b" ")
    with pytest.raises(audit.AuditError, match="the cached copy is not the pinned errors.json .* delete it"):
        key.load("audited")


def test_an_unreachable_server_is_one_line_naming_the_variable(served, monkeypatch, capsys):
    def urlopen(url, timeout):
        raise urllib.error.URLError("no network here")

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    code = cli.main(["key"])
    refused(capsys, code, "cannot download (no network here)", "nothing cached", "LOCOMO_AUDIT")


@pytest.mark.outside("LOCOMO_AUDIT")
def test_the_audits_own_errors_are_the_pinned_file_about_locomo10s_own_questions(samples):
    read = audit.load()
    assert read.sha256 == audit.SHA256
    assert Counter(e.type for e in read.errors) == {"HALLUCINATION": 33, "TEMPORAL_ERROR": 26, "ATTRIBUTION_ERROR": 24,
                                                     "AMBIGUOUS": 13, "INCOMPLETE": 3, "WRONG_CITATION": 57}
    audited = key.load("audited").samples(samples)  # every error is about the dataset's own question
    pairs = [(a, b) for s, t in zip(samples, audited) for a, b in zip(s.questions, t.questions)]
    assert sum(b.held for _, b in pairs) == 13
    assert sum(a.answer != b.answer for a, b in pairs) == 86  # the score-corrupting, ambiguous ones aside
    assert sum(a.evidence != b.evidence for a, b in pairs) > 57
