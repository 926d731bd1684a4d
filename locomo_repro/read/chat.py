"""A small client for OpenAI-compatible chat-completions endpoints.

Standard library only (urllib). One call is one HTTP request: ``POST
{base_url}/chat/completions`` with a JSON body; failures come back as typed
``ChatError`` subclasses so callers can choose what to retry. ``retry`` is a
plain retry loop with a caller-chosen delay, shared by every user of the client.
"""

from __future__ import annotations

import ipaddress
import json
import time
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import urllib.request

#: Where requests go when no base URL is configured (the OpenAI SDK's default).
DEFAULT_BASE_URL = "https://api.openai.com/v1"

T = TypeVar("T")


class ChatError(Exception):
    """A chat request that did not produce a usable reply.

    ``detail`` describes the failure without the endpoint address, so callers
    can match on it (a port number must never look like a status code).
    """

    def __init__(self, detail: str, url: str) -> None:
        super().__init__(f"{detail} ({url})")
        self.detail = detail
        self.url = url


class ChatHTTPError(ChatError):
    """The server answered with a non-2xx status; ``retry_after`` is its ``Retry-After`` header, if any."""

    def __init__(self, status: int, body: str, url: str, retry_after: str | None = None) -> None:
        snippet = " ".join(body.split())[:1000]
        super().__init__(f"HTTP {status}: {snippet}" if snippet else f"HTTP {status}", url)
        self.status = status
        self.body = body
        self.retry_after = retry_after


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


def endpoint(url: str) -> str:
    """An endpoint URL as the kit shows it anywhere: scheme, host and path, without credentials, query or
    fragment."""
    split = urllib.parse.urlsplit(url)
    host = split.hostname or ""
    if split.port is not None:
        host = f"{host}:{split.port}"
    return urllib.parse.urlunsplit((split.scheme, host, split.path.rstrip("/"), "", ""))


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

    ``api_key`` is sent as a bearer token when given; a key ``key_problem``
    refuses is a ValueError here, and the key never appears in a ``ChatError``
    (an endpoint that echoes the request's headers in its error body included).
    Requests to a loopback host never go through a proxy from the environment.
    """

    model: str
    base_url: str = DEFAULT_BASE_URL
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 600.0

    def __post_init__(self) -> None:
        problem = None if self.api_key is None else key_problem(self.api_key)
        if problem:
            raise ValueError(f"the API key {problem}")

    @property
    def url(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"

    def _opener(self) -> urllib.request.OpenerDirector:
        import urllib.request

        host = urllib.parse.urlsplit(self.url).hostname
        if _is_loopback(host):
            return urllib.request.build_opener(urllib.request.ProxyHandler({}))
        return urllib.request.build_opener()

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
        try:
            with self._opener().open(request, timeout=self.timeout) as response:
                payload = response.read()
        except urllib.error.HTTPError as exc:
            try:
                text = exc.read().decode("utf-8", "replace")
            except (OSError, http.client.HTTPException):
                text = ""
            text = redact(text, self.api_key)
            raise ChatHTTPError(exc.code, text, url, exc.headers.get("Retry-After") if exc.headers else None) from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise ChatTimeout(f"timed out after {self.timeout:g}s", url) from None
            raise ChatUnreachable(redact(f"cannot connect: {exc.reason}", self.api_key), url) from None
        except TimeoutError:
            raise ChatTimeout(f"timed out after {self.timeout:g}s", url) from None
        except (OSError, http.client.HTTPException) as exc:
            raise ChatUnreachable(redact(f"connection failed: {exc or type(exc).__name__}", self.api_key), url) from None
        return _parse_reply(payload, url)


def _parse_reply(payload: bytes, url: str) -> ChatReply:
    try:
        data = json.loads(payload.decode("utf-8"))
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
    sleep: Callable[[float], object] = time.sleep,
) -> T:
    """Run ``call`` up to ``attempts`` times; re-raise the last failure.

    ``delay(exc, attempt)`` gives the pause after failed attempt ``attempt``
    (1-based); ``sleep`` may raise to abandon the loop early.
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
