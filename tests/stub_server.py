"""A real OpenAI-compatible chat-completions server on 127.0.0.1, for tests that make HTTP calls.

``Stub(respond)`` serves every POST from ``respond(body, n) -> (status, payload, delay)``,
where ``n`` is the request's 0-based number; a ``bytes`` payload is sent as it is,
anything else as JSON.  A fourth item, a dict, adds response headers (``Retry-After``, ``Location``).
A GET (what a redirected POST becomes) is served the same way with ``body`` None. It records each
request and how many were in flight at once.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Respond = Callable[[dict, int], tuple]


def completion(content: Any) -> dict:
    """A chat-completion response whose first choice says ``content``."""
    return {"id": "c1", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": "stop"}]}


def dead_url() -> str:
    """A loopback base URL on a port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


class Stub:
    """The server; use it as a context manager. ``base_url`` ends in ``/v1``."""

    def __init__(self, respond: Respond):
        stub = self
        #: Every request: {"method", "path", "headers", "body"}, in arrival order.
        self.requests: list[dict] = []
        self.in_flight = self.max_in_flight = 0
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.answer(json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0)))))

            def do_GET(self):
                self.answer(None)

            def answer(self, body):
                with lock:
                    n = len(stub.requests)
                    stub.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                          "body": body})
                    stub.in_flight += 1
                    stub.max_in_flight = max(stub.max_in_flight, stub.in_flight)
                try:
                    status, payload, delay, *more = respond(body, n)
                    time.sleep(delay)
                    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in (more[0] if more else {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (a timeout test)
                finally:
                    with lock:
                        stub.in_flight -= 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, args=(0.01,), daemon=True).start()

    @property
    def bodies(self) -> list[dict]:
        """The JSON body of every request."""
        return [r["body"] for r in self.requests]

    @property
    def headers(self) -> list[dict]:
        """The headers of every request."""
        return [r["headers"] for r in self.requests]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
