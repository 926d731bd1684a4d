"""A small client for OpenAI-compatible chat-completions endpoints.

Standard library only (urllib). One call is one HTTP request: ``POST
{base_url}/chat/completions`` with a JSON body; failures come back as typed
``ChatError`` subclasses so callers can choose what to retry. ``retry`` is a
plain retry loop with a caller-chosen delay, shared by every user of the client.

Credentials stay with the endpoint (docs/model.md): the key is
sent to the base URL's origin only (a redirect to another origin is refused,
not followed), a base URL holding a user name or password, or a query (where a
token would be), is refused without showing either (the client has no use for
them, and they would be shown in every failure), and the key is never in a
failure nor in a reply handed back.

A request ends within its timeout, a deadline for the whole request (the
connection, the redirects, every byte of the reply), not a pause between two
bytes; a reply body is read up to :data:`MAX_REPLY` bytes; what the server
says is shown in one line, its control characters escaped.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import re
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..data.stop import pause
from ..go.flags import has_control
from .endpoint import endpoint as endpoint  # re-exported: chat.endpoint

if TYPE_CHECKING:
    import urllib.request

#: Where requests go when no base URL is configured (the OpenAI SDK's default).
DEFAULT_BASE_URL = "https://api.openai.com/v1"

T = TypeVar("T")

#: The most bytes of a reply body read (a chat completion or an error is a few kilobytes): 16 MiB.
MAX_REPLY = 1 << 24


def one_line(text: str) -> str:
    """What a server said, as the kit shows it: one line (whitespace runs become one space), each control
    character escaped (an ANSI escape never reaches the terminal)."""
    return "".join(f"\\x{ord(c):02x}" if has_control(c) else c for c in " ".join(text.split()))


class ChatError(Exception):
    """A chat request that did not produce a usable reply.

    ``detail`` describes the failure without the endpoint address, so callers
    can match on it (a port number must never look like a status code).
    """

    def __init__(self, detail: str, url: str) -> None:
        detail = one_line(detail)
        super().__init__(f"{detail} ({url})")
        self.detail = detail
        self.url = url


class ChatHTTPError(ChatError):
    """The server answered with a non-2xx status; ``retry_after`` is its ``Retry-After`` header, if any."""

    def __init__(self, status: int, body: str, url: str, retry_after: str | None = None) -> None:
        snippet = one_line(body)[:1000]
        super().__init__(f"HTTP {status}: {snippet}" if snippet else f"HTTP {status}", url)
        self.status = status
        self.body = body
        self.retry_after = retry_after


class ChatRedirected(ChatHTTPError):
    """A redirect to another origin, refused: the key goes to the endpoint's own origin only.

    Refused rather than followed without the key: urllib would turn the POST
    into a body-less GET that no chat endpoint answers, and another origin
    that gets no key answers 401 at best; the redirect itself is what the
    user needs to see.  ``status`` is the redirect's (never a transient one).
    """

    def __init__(self, status: int, where: str, url: str) -> None:
        ChatError.__init__(self, f"HTTP {status}: redirected to another origin ({where}), not followed: "
                                 "the API key is sent to the endpoint's origin only", url)
        self.status = status
        self.body = ""
        self.retry_after = None


class ChatTimeout(ChatError):
    """No answer within the configured timeout."""


class ChatUnreachable(ChatError):
    """The connection could not be made or broke before a reply."""


class ChatBadReply(ChatError):
    """A 2xx reply that is not a chat completion."""


@dataclass(frozen=True)
class ChatReply:
    """The first choice's text and the whole decoded response."""

    content: str
    raw: Mapping[str, Any] = field(repr=False)


def is_http_url(url: str) -> bool:
    """Whether ``url`` is an http(s) URL with a host and, if any, a numeric port (``http://[::1`` and
    ``http://host:port`` are not: the HTTP library would fail on them with an exception of its own)."""
    try:
        split = urllib.parse.urlsplit(url)
        split.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError:
        return False
    return split.scheme in ("http", "https") and bool(split.hostname)


#: The port a URL without one reaches, per scheme.
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin(url: str) -> str:
    """``scheme://host:port`` of ``url``, the port always written and no user name or password."""
    split = urllib.parse.urlsplit(url)
    scheme = split.scheme.lower()
    host = split.hostname or ""
    try:
        port = split.port
    except ValueError:
        port = None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port or _DEFAULT_PORTS.get(scheme, '')}"


def same_origin(a: str, b: str) -> bool:
    """Whether two URLs have one origin: scheme, host and port alike (``http://h`` is ``http://h:80``)."""
    return origin(a) == origin(b)


def shown_url(url: str) -> str:
    """``url`` as it may be printed: a user name or password in it, and its query and fragment (where a token
    may be), replaced by ``[redacted]`` (also in a URL the parser refuses)."""
    url = re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@", r"\1[redacted]@", url)
    return re.sub(r"([?#]).*", r"\1[redacted]", url, count=1, flags=re.S)


def url_problem(url: str) -> str | None:
    """What makes ``url`` unusable as a base URL, in words that never quote a password; None when it is fine."""
    if not is_http_url(url):
        return "is not an http(s) URL"
    split = urllib.parse.urlsplit(url)
    if "@" in split.netloc:
        return ("holds a user name or password, which the kit never sends "
                "(the API key is sent as a bearer token)")
    if split.query or split.fragment or "?" in url or "#" in url:
        return ("holds a query or a fragment (where a token would be), which the kit never sends "
                "(the API key is sent as a bearer token)")
    return None


def key_problem(key: str) -> str | None:
    """What makes ``key`` unusable as a bearer token, in words that never quote it; None when it is fine.

    A key is one word of printable ASCII: a carriage return (a key read from a
    CRLF file), a line break, a space, a control or a non-ASCII character would
    otherwise fail inside the HTTP library, whose message quotes the header.
    """
    for char, problem in (("\r", "a carriage return (read from a CRLF file?)"), ("\n", "a line break")):
        if char in key:
            return f"contains {problem}"
    if not key:
        return "is empty"
    if any(c.isspace() for c in key):
        return "contains whitespace"
    if any(not 0x21 <= ord(c) <= 0x7E for c in key):
        return "contains a control or non-ASCII character"
    return None


def redact(text: str, secret: str | None) -> str:
    """``text`` with ``secret`` (as it is, and as JSON would escape it) replaced by ``[redacted]``."""
    if not secret:
        return text
    for form in dict.fromkeys((secret, json.dumps(secret)[1:-1])):
        text = text.replace(form, "[redacted]")
    return text


class _Refused(Exception):
    """A redirect to another origin, stopped before it is followed."""

    def __init__(self, status: int, location: str) -> None:
        super().__init__(status, location)
        self.status = status
        self.location = location


@functools.cache
def _same_origin_redirects() -> type:
    """urllib's redirect handler, refusing (``_Refused``) a redirect whose target is another origin."""
    import urllib.request

    class SameOriginRedirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):
            if not same_origin(req.full_url, newurl):
                fp.close()
                raise _Refused(code, newurl)
            new = super().redirect_request(req, fp, code, msg, headers, newurl)
            if new is not None:
                new.deadline = req.deadline  # one deadline for the request and its redirects
            return new

    return SameOriginRedirects


class _Deadline:
    """One request's deadline: once ``seconds`` have passed, every connection opened for it (a redirect's
    too) is shut down, so that whatever it waits on (a server sending a byte a second) ends at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.connections: list[Any] = []
        self.lock = threading.Lock()
        self.expired = False
        self.timer = threading.Timer(seconds, self._expire)
        self.timer.daemon = True  # never holds the process at exit (Ctrl-C ends a run at once)

    def left(self) -> float:
        """Seconds left (at least a millisecond: a socket's timeout of 0 would not block at all)."""
        return max(0.001, self.at - time.monotonic())

    def opened(self, connection: Any) -> None:
        with self.lock:
            self.connections.append(connection)
        if self.expired:
            self._expire()

    def _expire(self) -> None:
        with self.lock:
            self.expired = True
            connections = list(self.connections)
        for connection in connections:
            sock = getattr(connection, "sock", None)
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # not connected yet, or already closed

    def __enter__(self) -> _Deadline:
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()


@functools.cache
def _timed_handlers() -> tuple[type, type]:
    """urllib's HTTP and HTTPS handlers, each connection they open given to the request's :class:`_Deadline`
    (``request.deadline``) and connecting within the time it has left."""
    import urllib.request

    class Timed:
        def do_open(self, http_class, req, **kwargs):
            deadline: _Deadline = req.deadline

            def connection(*args: Any, **more: Any) -> Any:
                more["timeout"] = min(more.get("timeout") or deadline.seconds, deadline.left())
                made = http_class(*args, **more)
                deadline.opened(made)
                return made

            return super().do_open(connection, req, **kwargs)  # type: ignore[misc]

    class HTTP(Timed, urllib.request.HTTPHandler):
        pass

    class HTTPS(Timed, urllib.request.HTTPSHandler):
        pass

    return HTTP, HTTPS


def _scrubbed(value: Any, secret: str) -> Any:
    """A decoded JSON value with ``secret`` redacted from every string in it."""
    if isinstance(value, str):
        return redact(value, secret)
    if isinstance(value, list):
        return [_scrubbed(v, secret) for v in value]
    if isinstance(value, dict):
        return {redact(k, secret): _scrubbed(v, secret) for k, v in value.items()}
    return value


def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _content_text(content: Any) -> str:
    """Message content as text: a string, nothing, or a list of text parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", "")) for part in content if isinstance(part, Mapping)
        )
    return str(content)


@dataclass
class ChatClient:
    """One endpoint and model; ``complete`` sends one chat request.

    ``api_key`` is sent as a bearer token when given, to the base URL's origin
    only (a redirect elsewhere is ``ChatRedirected``); a key ``key_problem``
    or a base URL ``url_problem`` refuses is a ValueError here, quoting
    neither.  The key never appears in a ``ChatError`` (an endpoint that
    echoes the request's headers in its error body included) nor in a reply:
    there it reads ``[redacted]``.  Requests to a loopback host never go
    through a proxy from the environment.
    """

    model: str
    base_url: str = DEFAULT_BASE_URL
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 600.0

    def __post_init__(self) -> None:
        problem = None if self.api_key is None else key_problem(self.api_key)
        if problem:
            raise ValueError(f"the API key {problem}")
        if problem := url_problem(self.base_url):
            raise ValueError(f"the base URL {shown_url(self.base_url)!r} {problem}")

    @property
    def url(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"

    def _opener(self) -> urllib.request.OpenerDirector:
        import urllib.request

        host = urllib.parse.urlsplit(self.url).hostname
        handlers: list[urllib.request.BaseHandler] = [_same_origin_redirects()(), *(h() for h in _timed_handlers())]
        if _is_loopback(host):
            handlers.append(urllib.request.ProxyHandler({}))
        return urllib.request.build_opener(*handlers)

    def complete(self, messages: Iterable[Mapping[str, Any]], **params: Any) -> ChatReply:
        """Send ``messages``; extra keyword fields go into the request body as they are."""
        import http.client  # the HTTP stack is loaded by the first request, not by every run
        import urllib.error
        import urllib.request

        url = self.url
        body = {"model": self.model, "messages": [dict(m) for m in messages], **params}
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            url, data=json.dumps(body).encode("utf-8"), headers=headers, method="POST"
        )
        late = f"timed out after {self.timeout:g}s"  # the whole request's deadline
        with _Deadline(self.timeout) as deadline:
            request.deadline = deadline  # type: ignore[attr-defined]  # read by the timed handlers
            try:
                with self._opener().open(request, timeout=self.timeout) as response:
                    payload = _capped(response)
            except _Refused as refused:
                raise ChatRedirected(refused.status, origin(refused.location), url) from None
            except urllib.error.HTTPError as exc:
                try:
                    text = _capped(exc).decode("utf-8", "replace")
                except (OSError, http.client.HTTPException, ChatBadReply):
                    text = ""
                if deadline.expired:
                    raise ChatTimeout(late, url) from None
                text = redact(text, self.api_key)
                raise ChatHTTPError(exc.code, text, url, exc.headers.get("Retry-After") if exc.headers else None) \
                    from None
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, TimeoutError) or deadline.expired:
                    raise ChatTimeout(late, url) from None
                raise ChatUnreachable(redact(f"cannot connect: {exc.reason}", self.api_key), url) from None
            except (OSError, http.client.HTTPException) as exc:
                if isinstance(exc, TimeoutError) or deadline.expired:
                    raise ChatTimeout(late, url) from None
                raise ChatUnreachable(redact(f"connection failed: {exc or type(exc).__name__}", self.api_key),
                                      url) from None
            except ChatBadReply as bad:
                raise ChatBadReply(bad.detail, url) from None
            if deadline.expired:
                raise ChatTimeout(late, url)
        return _parse_reply(payload, url, self.api_key)


def _capped(response: Any) -> bytes:
    """A reply's body, read up to :data:`MAX_REPLY` bytes; a longer one is a ChatBadReply (its URL set by
    the caller)."""
    body = response.read(MAX_REPLY + 1)
    if len(body) > MAX_REPLY:
        raise ChatBadReply(f"reply longer than {MAX_REPLY >> 20} MiB, not read", "")
    return body


def _parse_reply(payload: bytes, url: str, secret: str | None = None) -> ChatReply:
    """The reply in ``payload``, with ``secret`` redacted from every string of it."""
    try:
        data = json.loads(payload.decode("utf-8"))
        if secret:
            data = _scrubbed(data, secret)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ChatBadReply("reply is not JSON", url) from None
    try:
        message = data["choices"][0]["message"]
        content = _content_text(message.get("content"))
    except (KeyError, IndexError, TypeError, AttributeError):
        raise ChatBadReply("reply has no choices[0].message", url) from None
    return ChatReply(content=content, raw=data)


def user_message(text: str) -> list[dict[str, str]]:
    """A conversation of one user turn."""
    return [{"role": "user", "content": text}]


def retry(
    call: Callable[[], T],
    *,
    attempts: int,
    delay: Callable[[BaseException, int], float],
    retry_on: tuple[type[BaseException], ...] = (ChatError,),
    on_retry: Callable[[BaseException, int, float], None] | None = None,
    sleep: Callable[[float], object] = pause,
) -> T:
    """Run ``call`` up to ``attempts`` times; re-raise the last failure.

    ``delay(exc, attempt)`` gives the pause after failed attempt ``attempt``
    (1-based); ``sleep`` may raise to abandon the loop early (``stop.pause``,
    the default, does once the run is interrupted).
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except retry_on as exc:
            if attempt == attempts:
                raise
            seconds = delay(exc, attempt)
            if on_retry is not None:
                on_retry(exc, attempt, seconds)
            sleep(seconds)
    raise AssertionError("unreachable")
