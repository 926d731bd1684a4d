"""An endpoint whose reply holds the API key (echoed, or escaped in the JSON) never gets the key printed,
written to ``-out`` or kept in the memo folder: the chat client hands every reply back with the key
replaced by ``[redacted]``, its text and the whole decoded response alike."""

from __future__ import annotations

import json

import pytest
from kit_child import run, tiny
from stub_server import Stub, completion

from locomo_repro.read.chat import ChatClient, user_message

KEY = 'sk-SE"CRET/1'


def echoing(body, n):
    """The reply names the key plainly, and again with every character as a JSON \\u escape."""
    escaped = "".join(f"\\u{ord(c):04x}" for c in KEY)
    text = json.dumps(completion(f"Answer: Paris {KEY}"))[:-1] + f', "echo": "{escaped}", "{escaped}": 1}}'
    return 200, text.encode(), 0


def test_the_client_hands_back_no_key():
    with Stub(echoing) as stub:
        reply = ChatClient(model="m", base_url=stub.base_url, api_key=KEY, timeout=5).complete(user_message("q"))
    assert reply.content == "Answer: Paris [redacted]"
    assert reply.raw["echo"] == "[redacted]" and "[redacted]" in reply.raw
    assert KEY not in json.dumps(reply.raw, ensure_ascii=False) and KEY not in repr(reply)


def test_without_a_key_a_reply_is_as_sent():
    with Stub(echoing) as stub:
        reply = ChatClient(model="m", base_url=stub.base_url, timeout=5).complete(user_message("q"))
    assert reply.content == f"Answer: Paris {KEY}"


@pytest.mark.slow
def test_a_model_run_prints_writes_and_keeps_no_key(tmp_path):
    data = tiny(tmp_path / "d.json")
    with Stub(echoing) as stub:
        done = run(["-model", "m", "-base", stub.base_url, "-memo", "said", "-closed", "-show", "1",
                    "-out", "out.json", "-data", str(data)], tmp_path, {"HANZO_API_KEY": KEY})
    assert done.returncode == 0 and stub.requests
    assert "Paris [redacted]" in done.stdout
    assert KEY not in done.stdout + done.stderr
    kept = sorted((tmp_path / "said").iterdir())
    answers = [p for p in kept if p.suffix != ".whole"]  # the memo's answers, beside its note that they are whole
    written = [(tmp_path / "out.json").read_text()] + [p.read_text() for p in answers]
    escaped = json.dumps(KEY)[1:-1]  # as -out's JSON would write it
    assert len(written) > 1 and all(KEY not in text and escaped not in text and "[redacted]" in text for text in written)
    assert all(KEY not in p.read_text() and escaped not in p.read_text() for p in kept)
