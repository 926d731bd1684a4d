"""A base URL holding a user name or password (``http://user:PASSWORD@host/v1``) is refused before any
request, in one line that shows ``[redacted]`` in their place, exit 2: by the chat client, ``-model`` and
``refined judge``.  The client has no use for them (they are no bearer key, and urllib took them for part
of the host name, so every request failed with the password in its line); a URL that is refused for
another reason does not show them either."""

from __future__ import annotations

import pytest
from stub_server import Stub, completion

from locomo_repro import cli
from locomo_repro.read import model
from locomo_repro.read.chat import ChatClient, shown_url
from locomo_repro.refined.__main__ import main as refined_main

FORMS = ["http://user:PASSWORD@{host}/v1", "http://PASSWORD@{host}/v1", "http://user:PASSWORD@{host}:port/v1"]


@pytest.fixture
def stub():
    with Stub(lambda body, n: (200, completion("x"), 0)) as running:
        yield running


def forms(stub) -> list[str]:
    host = stub.base_url.split("/")[2]
    return [f.format(host=host) for f in FORMS]


@pytest.mark.parametrize(("url", "shown"), [
    ("http://user:pw@h:1/v1", "http://[redacted]@h:1/v1"),
    ("https://pw@h/v1?q=a@b", "https://[redacted]@h/v1?[redacted]"),
    ("http://u:p@ss@h/v1", "http://[redacted]@h/v1"),
    ("http://h/v1/a@b", "http://h/v1/a@b"),
    ("http://[::1/v1", "http://[::1/v1"),
])
def test_shown_url_hides_the_user_and_password_of_any_url(url, shown):
    assert shown_url(url) == shown


def test_the_chat_client_refuses_it_without_quoting_it(stub):
    for url in forms(stub):
        with pytest.raises(ValueError) as caught:
            ChatClient(model="m", base_url=url, api_key="k")
        assert "PASSWORD" not in str(caught.value) and "[redacted]@" in str(caught.value)
    assert stub.requests == []


def test_model_refuses_it_in_one_line_before_any_request(stub, tmp_path, monkeypatch, capsys):
    for name in model.KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    for url in forms(stub):
        assert cli.main(["-model", "m", "-base", url, "-memo", "", "-data", str(tmp_path / "none.json")]) == 2
        out, err = capsys.readouterr()
        (line,) = err.splitlines()
        assert out == "" and "PASSWORD" not in line and "-base" in line and "[redacted]@" in line
    assert stub.requests == []


def test_refined_judge_refuses_it_in_one_line_before_any_request(stub, judge_argv, monkeypatch, capsys):
    for name in ("EVALUATOR_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for url in forms(stub):
        assert refined_main(judge_argv + ["--model", "qwen3-14b", "--base-url", url, "--attempts", "1"]) == 2
        out, err = capsys.readouterr()
        (line,) = err.splitlines()
        assert out == "" and "PASSWORD" not in line and "--base-url" in line and "[redacted]@" in line
    assert stub.requests == []
