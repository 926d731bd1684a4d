"""An endpoint that redirects to another origin (scheme, host or port differ) is not followed: the request
fails at once with the redirect's status, naming the origin it pointed to, and that origin never sees a
request, let alone the key; the model reader (``-model``) and ``refined judge`` alike.  A redirect within
the endpoint's own origin is followed as before, key included."""

from __future__ import annotations

import pytest
from kit_child import run, tiny
from stub_server import Stub, completion

from locomo_repro.read.chat import ChatClient, ChatHTTPError, same_origin, user_message
from locomo_repro.refined.__main__ import main as refined_main

KEY = "sk-SECRET"


def redirecting(to: str, status: int = 302):
    return lambda body, n: (status, b"", 0, {"Location": to})


def answering(body, n):
    return 200, completion("elsewhere"), 0


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_to_another_port_is_refused_and_sends_nothing_there(status):
    with Stub(answering) as other, Stub(redirecting(other.base_url + "/chat/completions", status)) as endpoint:
        client = ChatClient(model="m", base_url=endpoint.base_url, api_key=KEY, timeout=5)
        with pytest.raises(ChatHTTPError) as caught:
            client.complete(user_message("q"))
    assert other.requests == [] and len(endpoint.requests) == 1
    assert caught.value.status == status
    port = other.base_url.split(":")[2].split("/")[0]
    assert f"redirected to another origin (http://127.0.0.1:{port}), not followed" in str(caught.value)
    assert KEY not in str(caught.value)


def test_a_redirect_within_the_origin_is_followed_with_the_key():
    def respond(body, n):
        return (302, b"", 0, {"Location": "/v1/moved"}) if n == 0 else answering(body, n)

    with Stub(respond) as endpoint:
        reply = ChatClient(model="m", base_url=endpoint.base_url, api_key=KEY, timeout=5).complete(user_message("q"))
    assert reply.content == "elsewhere"
    first, second = endpoint.requests
    assert second["path"] == "/v1/moved" and second["headers"]["Authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize(("a", "b", "same"), [
    ("http://h/v1", "http://h:80/x", True),
    ("https://h/v1", "https://h:443/x", True),
    ("http://H/v1", "http://h/x", True),
    ("http://h/v1", "https://h/v1", False),
    ("http://h/v1", "http://h:8080/v1", False),
    ("http://h/v1", "http://g/v1", False),
    ("http://127.0.0.1:1/v1", "http://localhost:1/v1", False),
])
def test_an_origin_is_scheme_host_and_port(a, b, same):
    assert same_origin(a, b) is same


@pytest.mark.slow
def test_a_model_run_redirected_elsewhere_is_refused_and_never_sends_the_key_there(tmp_path):
    data = tiny(tmp_path / "d.json")
    with Stub(answering) as other, Stub(redirecting(other.base_url + "/chat/completions")) as endpoint:
        done = run(["-model", "m", "-base", endpoint.base_url, "-memo", "", "-closed", "-quiet", "-data", str(data)],
                   tmp_path, {"OPENAI_API_KEY": KEY})
    assert done.returncode == 2 and other.requests == [] and len(endpoint.requests) == 1  # the endpoint check
    (line,) = done.stderr.splitlines()
    assert "redirected to another origin" in line and "not followed" in line and KEY not in line


def test_refined_judge_redirected_elsewhere_never_sends_the_key_there(judge_argv, monkeypatch, capsys):
    for name in ("EVALUATOR_API_BASE", "EVALUATOR_BASE_URL", "OPENAI_API_BASE", "OPENAI_BASE_URL",
                 "EVALUATOR_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with Stub(answering) as other, Stub(redirecting(other.base_url + "/chat/completions")) as endpoint:
        code = refined_main(judge_argv + ["--model", "qwen3-14b", "--timeout", "5", "--attempts", "2",
                                          "--retry-wait", "0", "--base-url", endpoint.base_url, "--api-key", KEY])
    assert code == 1 and other.requests == [] and len(endpoint.requests) == 2
    err = capsys.readouterr().err
    assert "not followed" in err and KEY not in err
