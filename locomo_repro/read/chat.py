"""A small client for OpenAI-compatible chat-completions endpoints.

Standard library only (urllib). One call is one HTTP request: ``POST
{base_url}/chat/completions`` with a JSON body; failures come back as typed
``ChatError`` subclasses so callers can choose what to retry. ``retry`` is a
plain retry loop with a caller-chosen delay, shared by every user of the client.

Credentials stay with the endpoint (docs/model.md): the key is
sent to the base URL's origin only (a redirect to another origin is refused,
not followed), a base URL holding a user name or password is refused (the
client has no use for it, and it would be shown in every failure), and the
key is never in a failure nor in a reply handed back.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import re
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ..data.stop import pause

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
    """``url`` as it may be printed: a user name or password in it replaced by ``[redacted]`` (also in a
    URL the parser refuses)."""
    return re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@", r"\1[redacted]@", url)


def url_problem(url: str) -> str | None:
    """What makes ``url`` unusable as a base URL, in words that never quote a password; None when it is fine."""
    if not is_http_url(url):
        return "is not an http(s) URL"
    if "@" in urllib.parse.urlsplit(url).netloc:
        return ("holds a user name or password, which the kit never sends "
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


def endpoint(url: str) -> str:
    """An endpoint URL as the kit shows it anywhere: scheme, host and path, without credentials, query or
    fragment."""
    split = urllib.parse.urlsplit(url)
    host = split.hostname or ""
    if split.port is not None:
        host = f"{host}:{split.port}"
    return urllib.parse.urlunsplit((split.scheme, host, split.path.rstrip("/"), "", ""))


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
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    return SameOriginRedirects


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
        handlers: list[urllib.request.BaseHandler] = [_same_origin_redirects()()]
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
        try:
            with self._opener().open(request, timeout=self.timeout) as response:
                payload = response.read()
        except _Refused as refused:
            raise ChatRedirected(refused.status, origin(refused.location), url) from None
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
        return _parse_reply(payload, url, self.api_key)


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
