"""chat.ChatClient and chat.retry against a real OpenAI-compatible stub on 127.0.0.1."""

from __future__ import annotations

import threading

import pytest
from stub_server import Stub, completion, dead_url

from locomo_repro.read.chat import (
    ChatBadReply,
    ChatClient,
    ChatError,
    ChatHTTPError,
    ChatTimeout,
    ChatUnreachable,
    retry,
    user_message,
)


def test_one_request_carries_model_messages_extra_fields_and_key():
    with Stub(lambda body, n: (200, completion("hello"), 0)) as stub:
        client = ChatClient(model="m-1", base_url=stub.base_url + "/", api_key="sekret", timeout=5)
        reply = client.complete(user_message("hi"), temperature=0.0, enable_thinking=False)
    assert reply.content == "hello"
    assert reply.raw["id"] == "c1"
    (request,) = stub.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["body"] == {"model": "m-1", "messages": [{"role": "user", "content": "hi"}],
                               "temperature": 0.0, "enable_thinking": False}
    assert request["headers"]["Authorization"] == "Bearer sekret"


def test_no_key_sends_no_authorization_header():
    with Stub(lambda body, n: (200, completion("x"), 0)) as stub:
        ChatClient(model="m", base_url=stub.base_url, timeout=5).complete(user_message("q"))
    assert "Authorization" not in stub.requests[0]["headers"]


def test_null_content_is_empty_text_and_parts_are_joined():
    with Stub(lambda body, n: (200, completion(None), 0)) as stub:
        assert ChatClient(model="m", base_url=stub.base_url, timeout=5).complete(user_message("q")).content == ""
    parts = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    with Stub(lambda body, n: (200, completion(parts), 0)) as stub:
        assert ChatClient(model="m", base_url=stub.base_url, timeout=5).complete(user_message("q")).content == "ab"


def test_http_error_keeps_status_and_body_and_its_detail_omits_the_address():
    with Stub(lambda body, n: (429, {"error": {"message": "slow down"}}, 0)) as stub:
        client = ChatClient(model="m", base_url=stub.base_url, timeout=5)
        with pytest.raises(ChatHTTPError) as caught:
            client.complete(user_message("q"))
    assert caught.value.status == 429
    assert "slow down" in caught.value.body
    assert caught.value.detail.startswith("HTTP 429:")
    assert stub.base_url not in caught.value.detail
    assert stub.base_url in str(caught.value)


def test_reply_that_is_not_a_completion_is_a_bad_reply():
    with Stub(lambda body, n: (200, b"<html>oops</html>", 0)) as stub:
        with pytest.raises(ChatBadReply):
            ChatClient(model="m", base_url=stub.base_url, timeout=5).complete(user_message("q"))
    with Stub(lambda body, n: (200, {"choices": []}, 0)) as stub:
        with pytest.raises(ChatBadReply):
            ChatClient(model="m", base_url=stub.base_url, timeout=5).complete(user_message("q"))


def test_slow_server_is_a_timeout():
    gave_up = threading.Event()

    def respond(body, n):
        gave_up.wait(60)  # answers only once the client has given up: a client that waited would get "late"
        return 200, completion("late"), 0

    with Stub(respond) as stub:
        client = ChatClient(model="m", base_url=stub.base_url, timeout=0.15)
        with pytest.raises(ChatTimeout) as caught:
            client.complete(user_message("q"))
        gave_up.set()
    assert caught.value.detail == "timed out after 0.15s"


def test_nothing_listening_is_a_failed_connection():
    with pytest.raises(ChatUnreachable) as caught:
        ChatClient(model="m", base_url=dead_url(), timeout=2).complete(user_message("q"))
    assert "cannot connect" in caught.value.detail


def test_loopback_requests_ignore_proxy_settings(monkeypatch):
    monkeypatch.setenv("http_proxy", dead_url().removesuffix("/v1"))
    monkeypatch.setenv("HTTP_PROXY", dead_url().removesuffix("/v1"))
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    with Stub(lambda body, n: (200, completion("direct"), 0)) as stub:
        assert ChatClient(model="m", base_url=stub.base_url, timeout=5).complete(user_message("q")).content == "direct"


# -- retry --------------------------------------------------------------------


def test_retry_returns_the_first_success_and_pauses_between_failures():
    outcomes = iter([ChatTimeout("t", "u"), ChatUnreachable("c", "u"), "ok"])
    pauses, notes = [], []

    def call():
        value = next(outcomes)
        if isinstance(value, Exception):
            raise value
        return value

    result = retry(call, attempts=5, delay=lambda exc, n: n * 0.5, sleep=pauses.append,
                   on_retry=lambda exc, n, s: notes.append((type(exc).__name__, n, s)))
    assert result == "ok"
    assert pauses == [0.5, 1.0]
    assert notes == [("ChatTimeout", 1, 0.5), ("ChatUnreachable", 2, 1.0)]


def test_retry_reraises_the_last_failure_after_the_last_attempt():
    calls = []

    def call():
        calls.append(1)
        raise ChatHTTPError(500, f"boom {len(calls)}", "u")

    with pytest.raises(ChatHTTPError, match="boom 3"):
        retry(call, attempts=3, delay=lambda e, n: 0, sleep=lambda s: None)
    assert len(calls) == 3


def test_retry_lets_other_errors_through_at_once():
    calls = []

    def call():
        calls.append(1)
        raise KeyError("bug")

    with pytest.raises(KeyError):
        retry(call, attempts=5, delay=lambda e, n: 0, sleep=lambda s: None)
    assert calls == [1]


def test_retry_stops_when_sleep_raises():
    class Stop(Exception):
        pass

    def sleep(seconds):
        raise Stop

    def fail():
        raise ChatError("x", "u")

    with pytest.raises(Stop):
        retry(fail, attempts=5, delay=lambda e, n: 1, sleep=sleep)
