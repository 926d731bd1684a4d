"""The cached dataset is checked against the pinned size and sha256 every time it is used.

A copy cut short (a download killed midway by another tool, a full disk) or
changed after its download is refused in one line that names the cache file
and says to delete it; nothing is fetched behind the user's back.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from locomo_repro import cli
from locomo_repro.data import dataset

BODY = json.dumps([{"sample_id": "s", "qa": [], "conversation": {"speaker_a": "A", "speaker_b": "B"}}]).encode()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache holding the pinned dataset (``BODY``, pinned for the test), no LOCOMO_DATA, no download."""
    monkeypatch.delenv("LOCOMO_DATA", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(dataset, "SHA256", hashlib.sha256(BODY).hexdigest())
    monkeypatch.setattr(dataset, "SIZE", len(BODY))
    monkeypatch.setattr(dataset, "fetch", lambda *a, **k: pytest.fail("no download expected"))
    cached = dataset.cache_path()
    cached.parent.mkdir(parents=True)
    cached.write_bytes(BODY)
    return cached


def test_the_pinned_copy_is_used(cache):
    assert [s.id for s in dataset.load()] == ["s"]


def test_a_truncated_copy_says_to_delete_it(cache, capsys):
    cache.write_bytes(BODY[:-10])
    with pytest.raises(dataset.DatasetError) as caught:
        dataset.load()
    assert str(caught.value) == (
        f"{cache}: the cached copy is truncated ({len(BODY) - 10:,} of {len(BODY):,} bytes); delete it to fetch it again"
    )
    assert cli.main([]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_changed_copy_says_to_delete_it(cache):
    cache.write_bytes(BODY.replace(b'"A"', b'"Z"'))
    with pytest.raises(dataset.DatasetError, match=rf"^{re.escape(str(cache))}: the cached copy is not the pinned "
                                                   r"dataset \(sha256 [0-9a-f]{64}, .*delete it to fetch it again$"):
        dataset.resolve()
