"""The API key is checked before any work and never printed.

A key with a carriage return (read from a CRLF file), a line break, whitespace,
a control or a non-ASCII character is refused in one line that does not quote
it (exit 2, no request made); an endpoint that echoes the request's headers in
its error body never gets the key onto the screen, in the model reader's
failure lines or in the refined judge's retry lines.
"""

from __future__ import annotations

import pytest
from stub_server import Stub

from locomo_repro import cli
from locomo_repro.read import model
from locomo_repro.read.chat import ChatClient, ChatHTTPError, key_problem, user_message
from locomo_repro.refined.__main__ import main as refined_main

SECRET = 'sk-SECRET"quoted\\slash'
BAD_KEYS = {
    "sk-SECRET\r": "carriage return",
    "sk-SE\nCRET": "line break",
    "sk-SE CRET": "whitespace",
    "sk-SE\x00CRET": "control",
    "sk-SECRÉT": "non-ASCII",
    "": "empty",
}


@pytest.mark.parametrize("key", BAD_KEYS)
def test_a_key_that_is_not_one_printable_word_is_refused_without_quoting_it(key):
    problem = key_problem(key)
    assert BAD_KEYS[key] in problem and "SE" not in problem
    with pytest.raises(ValueError) as caught:
        ChatClient(model="m", api_key=key)
    assert "SE" not in str(caught.value)
    assert "SE" not in repr(ChatClient(model="m", api_key="sk-SECRET"))
    assert key_problem(SECRET) is None


def echo_headers(stub_box: list, status: int):
    """A server that answers every request with ``status`` and the request's headers in the body."""

    def respond(body, n):
        return status, {"error": {"message": "bad request", "headers": stub_box[0].requests[n]["headers"]}}, 0

    return respond


def test_an_endpoint_that_echoes_the_headers_never_shows_the_key():
    box: list = []
    with Stub(echo_headers(box, 401)) as stub:
        box.append(stub)
        with pytest.raises(ChatHTTPError) as caught:
            ChatClient(model="m", base_url=stub.base_url, api_key=SECRET, timeout=5).complete(user_message("q"))
    assert stub.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"  # the echo is real
    shown = str(caught.value) + caught.value.body
    assert "SECRET" not in shown and "Bearer [redacted]" in shown


@pytest.mark.parametrize("key", ["sk-SECRET\r", "sk-SE\nCRET"])
def test_the_kit_refuses_a_bad_key_before_reading_the_dataset(key, monkeypatch, capsys, tmp_path):
    for name in model.KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", key)
    assert cli.main(["-model", "m", "-data", str(tmp_path / "no-such.json"), "-memo", ""]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "SE" not in captured.err and "no-such" not in captured.err
    (line,) = captured.err.splitlines()
    assert "the API key in OPENAI_API_KEY contains a" in line


#: A judge run that gives up after three quick attempts.
QUICK = ["--model", "qwen3-14b", "--timeout", "5", "--attempts", "3", "--retry-wait", "0", "--rate-limit-wait", "0", "0"]


@pytest.fixture
def no_judge_env(monkeypatch):
    for name in ("EVALUATOR_MODEL", "EVALUATOR_API_BASE", "EVALUATOR_BASE_URL", "OPENAI_API_BASE",
                 "OPENAI_BASE_URL", "EVALUATOR_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_refined_judge_refuses_a_key_with_a_line_break_before_any_request(tmp_path, judge_argv, capsys, no_judge_env):
    box: list = []
    with Stub(echo_headers(box, 500)) as stub:
        box.append(stub)
        code = refined_main(judge_argv + QUICK + ["--base-url", stub.base_url, "--api-key", "sk-SE\nCRET"])
    assert code == 2 and stub.requests == []
    err = capsys.readouterr().err
    # refused with every other control character in an argument (go.flags), the key never quoted
    assert err == "error: the value of --api-key holds a control character (U+000A); it is not shown\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl", "prompt.txt", "q.jsonl"]


def test_refined_judge_retry_lines_never_show_the_key(judge_argv, capsys, no_judge_env):
    box: list = []
    with Stub(echo_headers(box, 500)) as stub:
        box.append(stub)
        code = refined_main(judge_argv + QUICK + ["--base-url", stub.base_url, "--api-key", SECRET])
    assert code == 1 and len(stub.requests) == 3
    err = capsys.readouterr().err
    assert err.count("retrying in") == 2 and "[redacted]" in err and "SECRET" not in err
