"""The endpoint rule, finished: a reply body is read up to a cap (a 1 GB body ended in MemoryError); the
per-request limit is a deadline for the whole request, not a pause between two bytes (a server sending a
byte at a time held every request open); what a server says is shown in one line, its control characters
escaped; the pre-run check of the endpoint is skipped when the memo answers every question of the run;
a ``-base`` with a token in its query is refused without showing it."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from stub_server import Stub, completion, dead_url

import kit_child
from locomo_repro.read import chat
from locomo_repro.read.chat import ChatBadReply, ChatClient, ChatHTTPError, ChatTimeout, user_message

ROOT = Path(__file__).resolve().parent.parent


class Raw:
    """A loopback server that answers every connection with ``serve(connection)``, as bytes of its own."""

    def __init__(self, serve) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base_url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1"
        self.serve = serve
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(connection,), daemon=True).start()

    def _one(self, connection) -> None:
        with connection:
            connection.recv(65536)
            try:
                self.serve(connection)
            except OSError:
                pass  # the client went away

    def __enter__(self) -> Raw:
        return self

    def __exit__(self, *exc) -> None:
        self.listener.close()


def ended(call, within: float = 60):
    """What ``call()`` raised, failing if it is still running after ``within`` seconds (a request held open)."""
    box: list = []

    def run():
        try:
            call()
            box.append(None)
        except Exception as err:  # noqa: BLE001 - the test looks at what it was
            box.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(within)
    assert box, f"the request was still open after {within} s"
    return box[0]


def test_a_reply_body_is_read_up_to_a_cap(monkeypatch):
    monkeypatch.setattr(chat, "MAX_REPLY", 1 << 16)

    def huge(connection):
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n")
        block = b" " * (1 << 16)
        for _ in range(1 << 14):
            connection.sendall(block)

    with Raw(huge) as server:
        err = ended(lambda: ChatClient(model="m", base_url=server.base_url, timeout=30).complete(user_message("q")))
    assert isinstance(err, ChatBadReply) and err.detail == "reply longer than 0 MiB, not read"


def test_the_timeout_is_a_deadline_for_the_whole_request():
    stop = threading.Event()

    def trickle(connection):
        for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + b"X-Slow: " + b"a" * 100000:
            if stop.wait(0.05):
                return
            connection.sendall(bytes([byte]))

    with Raw(trickle) as server:
        err = ended(lambda: ChatClient(model="m", base_url=server.base_url, timeout=0.5).complete(user_message("q")))
        stop.set()
    assert isinstance(err, ChatTimeout) and err.detail == "timed out after 0.5s"


def test_what_a_server_says_is_one_line_with_its_control_characters_escaped():
    with Stub(lambda body, n: (400, b"bad\nrequest\r\n\x1b[2Jcleared", 0)) as stub:
        err = ended(lambda: ChatClient(model="m", base_url=stub.base_url, timeout=5).complete(user_message("q")))
    assert isinstance(err, ChatHTTPError)
    assert err.detail == "HTTP 400: bad request \\x1b[2Jcleared" and "\n" not in str(err) and "\x1b" not in str(err)

    def garbled(connection):
        connection.sendall(b"HTTP/1.1 2\x1b[2J00\r\n\r\n")

    with Raw(garbled) as server:
        err = ended(lambda: ChatClient(model="m", base_url=server.base_url, timeout=5).complete(user_message("q")))
    assert "\x1b" not in str(err) and "\n" not in str(err)


def kit(tmp_path: Path, base: str, *more: str) -> subprocess.CompletedProcess:
    kit_child.tiny(tmp_path / "data.json")
    env = kit_child.environment({"HANZO_API_KEY": "secret-key"})
    return subprocess.run([sys.executable, "-m", "locomo_repro", "-data", "data.json", "-quiet", "-jobs", "1",
                           "-floor", "0", "-model", "stub", "-base", base, "-memo", "memo", *more], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_endpoint_is_not_checked_when_the_memo_answers_every_question(tmp_path):
    with Stub(lambda body, n: (200, completion("Paris"), 0)) as stub:
        first = kit(tmp_path, stub.base_url)
    assert first.returncode == 0, first.stderr
    again = kit(tmp_path, stub.base_url)  # the endpoint is gone: every answer comes from the memo
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[:-1] == first.stdout.splitlines()[:-1]
    assert again.stdout.splitlines()[-1] == "model stub: 3 questions asked, 3 answered from disk, 0 bought, 0 failed"
    other = kit(tmp_path, stub.base_url, "-k", "3")  # another run: its answers are not all there, so it is checked
    assert other.returncode == 2 and "cannot connect" in other.stderr


@pytest.mark.parametrize("query", ["?api_key=sk-secret-token", "?token=sk-secret-token#x", "#sk-secret-token"])
def test_a_base_with_a_token_in_its_query_is_refused_without_showing_it(query, tmp_path):
    done = kit(tmp_path, f"{dead_url()}{query}")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert "query or a fragment" in done.stderr and "sk-secret-token" not in done.stderr
