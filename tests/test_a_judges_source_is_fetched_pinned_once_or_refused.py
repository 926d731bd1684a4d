"""A judge's source is fetched once, at its pinned commit, into the cache, and read there afterwards; a
download or a cached copy whose sha256 is not the pinned one is never used (the download refused with
nothing written, the stale copy fetched again); the source is read as data, never run.

No network: ``urlopen`` is replaced by a stand-in serving a made-up source whose sum is pinned for the test."""

from __future__ import annotations

import hashlib
import io

import pytest

from locomo_repro.judge import prompts

SOURCE = b'''raise SystemExit("a judge's source is never run")

ACCURACY_PROMPT = """Q {question} G {gold_answer} A {generated_answer}"""


def evaluate_llm_judge(question, gold_answer, generated_answer):
    return client.chat.completions.create(model="gpt-4o-mini", messages=[], response_format={"type": "json_object"},
                                          temperature=0.0)
'''


@pytest.fixture
def served(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(prompts.ENV, raising=False)
    pinned = prompts.Source("o/r", "c" * 40, "judge.py", hashlib.sha256(SOURCE).hexdigest())
    monkeypatch.setitem(prompts.SOURCES, "mem0", (pinned,))
    asked: list[str] = []
    body = [SOURCE]

    def urlopen(url, timeout):
        asked.append(url)
        return io.BytesIO(body[0])

    monkeypatch.setattr(prompts.urllib.request, "urlopen", urlopen)
    return tmp_path / "locomo-repro" / "judges" / "o" / "r" / "judge.py", asked, body


def test_the_source_is_fetched_once_into_the_cache_and_read_as_data(served, capsys):
    cached, asked, _ = served
    judge = prompts.load("mem0")
    assert asked == [f"https://raw.githubusercontent.com/o/r/{'c' * 40}/judge.py"]
    assert cached.read_bytes() == SOURCE
    request = judge.build(prompts.Item("q?", "g", "a", 4))
    assert request.messages == ({"role": "user", "content": "Q q? G g A a"},)
    assert request.params == {"response_format": {"type": "json_object"}, "temperature": 0.0}
    prompts.load("mem0")
    assert len(asked) == 1  # the cached copy, checked, is read
    cached.write_bytes(SOURCE + b"#")
    prompts.load("mem0")
    assert len(asked) == 2 and cached.read_bytes() == SOURCE  # a stale copy is fetched again
    assert capsys.readouterr().err.count("fetching https://raw.githubusercontent.com/o/r/") == 2


def test_a_download_that_is_not_the_pinned_source_is_refused_and_nothing_is_written(served):
    cached, _, body = served
    body[0] = SOURCE.replace(b"Q {question}", b"Q: {question}")
    with pytest.raises(prompts.PromptError, match=r"sha256 [0-9a-f]{64}, expected [0-9a-f]{64}; nothing written"):
        prompts.load("mem0")
    assert not cached.parent.exists()
