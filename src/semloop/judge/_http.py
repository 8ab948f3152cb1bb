"""The one place judge backends touch the network: POST JSON, retry, map failures.

Standard library only. The socket sits behind a ``send(request) -> response`` callable, so
tests can swap it without patching; the request and response shapes, the retry policy and
its loop are :mod:`semloop._http`'s, shared with alerts and the SDK. Error messages are
pure functions of their inputs. The default ``send`` is a :class:`ConnectionPool`:
HTTP/1.1 keep-alive over :mod:`http.client`.
"""

from __future__ import annotations

import functools
import http.client
import io
import json
import math
import os
import random
import select
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._exceptions import (
    ConfigError,
    JudgeAnswerError,
    JudgeAuthError,
    JudgeConnectionError,
    JudgeStatusError,
)
from .._http import (
    HttpRequest,
    HttpResponse,
    RetryPolicy,
    Send,
    lower_keys,
    retry_after_s,
    send_retrying,
    urllib_send,
)

if TYPE_CHECKING:  # typing.Self is 3.11+; at run time this module needs the stdlib alone
    from typing_extensions import Self

__all__ = [
    "ConnectionPool",
    "HttpClient",
    "HttpRequest",
    "HttpResponse",
    "JsonReply",
    "RetryPolicy",
    "Send",
    "check_key",
    "check_url",
    "error_detail",
    "finite_number",
    "jsonable",
    "post_json",
    "post_question",
    "retry_after_s",
    "urllib_send",
    "user_agent",
]

# How much of an error body goes into an exception message.
_EXCERPT_CHARS = 500


#: Errors that mean the host closed the connection, as opposed to a timeout or a bad reply.
_CLOSED = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError,
           http.client.RemoteDisconnected, ssl.SSLEOFError, ssl.SSLZeroReturnError)


class _Stale(Exception):
    """A reused connection died before any byte of the response came back."""


class _Counting(io.RawIOBase):
    """A socket reader that tells its connection how many response bytes arrived, so a
    failure can be judged safe to resend (nothing came back) or not."""

    def __init__(self, raw: io.RawIOBase, owner: _Counted) -> None:
        super().__init__()
        self._raw = raw
        self._owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        n = self._raw.readinto(buffer)
        if n:
            self._owner.received += n
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()


class _SocketView:
    """What :class:`http.client.HTTPResponse` needs of a socket (``makefile``), counted."""

    def __init__(self, sock: socket.socket, owner: _Counted) -> None:
        self._sock = sock
        self._owner = owner

    def makefile(self, mode: str) -> io.BufferedReader:
        raw = self._sock.makefile("rb", buffering=0)
        return io.BufferedReader(_Counting(raw, self._owner))


class _Counted(http.client.HTTPConnection):
    """An HTTP connection that knows how often it served and what its reply received."""

    served = 0  # requests fully answered on this connection
    received = 0  # response bytes of the current request

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # http.client builds the response from the bare socket; give it a counting one.
        self.response_class = self._response  # type: ignore[assignment]

    def _response(self, sock: socket.socket, *args: Any, **kwargs: Any) -> http.client.HTTPResponse:
        return http.client.HTTPResponse(_SocketView(sock, self), *args, **kwargs)  # type: ignore[arg-type]


class _CountedTLS(_Counted, http.client.HTTPSConnection):
    pass


def _dropped(sock: socket.socket | None) -> bool:
    """Whether an idle connection is unusable: closed by us, or readable while idle, which
    means the host closed it (EOF) or sent something nobody asked for."""
    if sock is None:
        return True
    if isinstance(sock, ssl.SSLSocket) and sock.pending():
        return True
    try:
        if hasattr(select, "poll"):
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            return bool(poller.poll(0))
        return bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):
        return True


def _close_all(idle: list[_Counted], lock: threading.Lock) -> None:
    with lock:
        connections, idle[:] = list(idle), []
    for conn in connections:
        conn.close()


class ConnectionPool:
    """The default :data:`Send`: HTTP/1.1 keep-alive over :mod:`http.client`.

    Why the judge alone has its own transport: it asks one host many short questions, a
    run at a time, and a new TCP and TLS handshake per question costs more than the
    question (``bench/judge_http.py``); alerts and the SDK send rarely, in the background.

    Each request takes an idle connection to its host (or opens one) for itself and puts
    it back when the whole reply is read, so threads sharing a backend never share a
    socket and one thread reuses one TCP (and TLS) session across asks. At most
    ``max_idle`` connections wait between requests; more are closed.

    A reused connection the host closed while idle is replaced before use when that is
    visible, else the request is sent once more on a fresh connection, but only if the
    failure came before any byte of the response: a request the host may have processed is
    never sent twice by the pool (the caller's :class:`RetryPolicy` decides that). Hosts
    behind a configured proxy (``HTTPS_PROXY`` and friends) go through :func:`urllib_send`,
    one connection per request, as before.

    ``close()`` closes the idle connections; the pool stays usable. A pool that is
    garbage-collected closes them too, so a backend nobody closed leaks no socket.
    """

    def __init__(self, *, max_idle: int = 4, keep_alive: bool = True,
                 context: ssl.SSLContext | None = None) -> None:
        if max_idle < 0:
            raise ValueError(f"max_idle must be >= 0, got {max_idle}")
        self.max_idle = max_idle
        self.keep_alive = keep_alive
        self._context = context
        self._lock = threading.Lock()
        self._idle: list[_Counted] = []
        #: Connections opened so far, and stale ones replaced (for tests and benchmarks).
        self.opened = 0
        self.resent = 0
        self._pid = os.getpid()
        self._finalizer = weakref.finalize(self, _close_all, self._idle, self._lock)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        parts = urllib.parse.urlsplit(request.url)
        if _proxied(parts):
            return urllib_send(request)
        tls = parts.scheme == "https"
        host = parts.hostname or ""
        port = parts.port or (443 if tls else 80)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        headers = dict(request.headers)
        if not self.keep_alive:
            headers["Connection"] = "close"
        conn = self._take(tls, host, port)
        if conn is not None:
            try:
                return self._exchange(conn, target, headers, request)
            except _Stale:
                with self._lock:
                    self.resent += 1
        conn = self._open(tls, host, port, request.timeout)
        return self._exchange(conn, target, headers, request)

    def close(self) -> None:
        """Close every idle connection (one in use closes when its request ends)."""
        _close_all(self._idle, self._lock)

    def __enter__(self) -> ConnectionPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _take(self, tls: bool, host: str, port: int) -> _Counted | None:
        if self._pid != os.getpid():
            # A forked worker inherited the parent's sockets: sharing them would interleave
            # two processes' requests on one stream. Closing our copies leaves the parent's.
            self._pid = os.getpid()
            self.close()
        while True:
            with self._lock:
                match = next((c for c in reversed(self._idle)
                              if isinstance(c, _CountedTLS) == tls
                              and (c.host, c.port) == (host, port)), None)
                if match is None:
                    return None
                self._idle.remove(match)
            if not _dropped(match.sock):
                return match
            match.close()

    def _open(self, tls: bool, host: str, port: int, timeout: float) -> _Counted:
        conn: _Counted
        if tls:
            if self._context is None:
                self._context = ssl.create_default_context()
            conn = _CountedTLS(host, port, timeout=timeout, context=self._context)
        else:
            conn = _Counted(host, port, timeout=timeout)
        with self._lock:
            self.opened += 1
        return conn

    def _exchange(self, conn: _Counted, target: str, headers: dict[str, str],
                  request: HttpRequest) -> HttpResponse:
        reused = conn.served > 0
        conn.received = 0
        conn.timeout = request.timeout
        if conn.sock is not None:
            conn.sock.settimeout(request.timeout)
        try:
            conn.request("POST", target, body=request.body, headers=headers)
            reply = conn.getresponse()
            body = reply.read()
        except BaseException as err:
            conn.close()
            if reused and conn.received == 0 and isinstance(err, _CLOSED):
                raise _Stale from err
            raise
        conn.served += 1
        if reply.will_close or not self.keep_alive:
            conn.close()
        else:
            self._give_back(conn)
        return HttpResponse(reply.status, lower_keys(reply.getheaders()), body)

    def _give_back(self, conn: _Counted) -> None:
        with self._lock:
            if len(self._idle) < self.max_idle:
                self._idle.append(conn)
                return
        conn.close()


class HttpClient:
    """What a judge backend needs of HTTP: a ``send``, its own keep-alive pool unless one
    is injected, and ``close()`` / ``with`` for that pool (an injected send is the
    caller's to close)."""

    _pool: ConnectionPool | None
    _send: Send

    def _connect(self, send: Send | None, *, keep_alive: bool) -> None:
        self._pool = None if send is not None else ConnectionPool(keep_alive=keep_alive)
        self._send = send if send is not None else self._pool  # type: ignore[assignment]

    def close(self) -> None:
        """Close the connections kept open between asks. Asking again opens new ones."""
        if self._pool is not None:
            self._pool.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _proxied(parts: urllib.parse.SplitResult) -> bool:
    """Whether urllib would send to this URL through a proxy from the environment."""
    proxies = urllib.request.getproxies()
    if parts.scheme not in proxies:
        return False
    return not urllib.request.proxy_bypass(parts.netloc)



def check_url(url: str, key: str) -> str:
    """``url`` if it is an absolute http(s) URL urllib can send to, else a
    :class:`ConfigError` naming ``key`` now, rather than an odd failure on the first call."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as err:
        raise ConfigError(f"{url!r} is not a valid URL ({err})", key=key) from None
    if parts.scheme not in ("http", "https") or not parts.hostname or not url.isascii():
        raise ConfigError(f"{url!r} is not an absolute http(s) URL", key=key)
    return url


def check_key(key: str | None, env: str) -> str | None:
    """``key`` stripped, ``None`` when absent or blank, else a :class:`ConfigError` naming
    ``env`` if it could not go into a header."""
    if key is None:
        return None
    key = key.strip()
    if not key:
        return None
    # A key with spaces or control characters would corrupt the header; say so without
    # echoing it.
    if not key.isascii() or not key.isprintable() or any(c.isspace() for c in key):
        raise ConfigError("the API key contains spaces, control or non-ASCII characters",
                          key=env)
    return key


def finite_number(value: Any) -> float | None:
    """``value`` as a float if it is a finite JSON number (not a bool), else ``None``.

    JSON integers are unbounded: ``1e400`` written out in digits must not escape as an
    ``OverflowError``.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def error_detail(body: bytes) -> str:
    """What an error body says, for a message: the FastAPI validation list as
    ``loc: msg`` pairs, ``detail.message``, ``error(.message)`` or ``message``; else an
    excerpt of the raw body."""
    text = body.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return _excerpt(text)
    if isinstance(data, dict):
        detail = data.get("detail")
        if isinstance(detail, list) and detail:
            parts = []
            for item in detail:
                if isinstance(item, Mapping):
                    loc = ".".join(str(p) for p in item.get("loc", ()) or ())
                    msg = str(item.get("msg", item))
                    parts.append(f"{loc}: {msg}" if loc else msg)
                else:
                    parts.append(str(item))
            return _excerpt("; ".join(parts))
        if isinstance(detail, Mapping) and "message" in detail:
            return _excerpt(str(detail["message"]))
        if isinstance(detail, str):
            return _excerpt(detail)
        error = data.get("error")
        if isinstance(error, Mapping) and "message" in error:
            return _excerpt(str(error["message"]))
        if isinstance(error, str):
            return _excerpt(error)
        if isinstance(data.get("message"), str):
            return _excerpt(data["message"])
    return _excerpt(text)


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= _EXCERPT_CHARS:
        return text
    return text[:_EXCERPT_CHARS] + f"… [{len(text) - _EXCERPT_CHARS} more chars]"


@functools.lru_cache(maxsize=1)
def user_agent() -> str:
    try:
        from importlib.metadata import version

        return f"semloop/{version('semloop')}"
    except Exception:  # noqa: BLE001 - an uninstalled checkout still gets a User-Agent
        return "semloop"


@dataclass(frozen=True)
class JsonReply:
    """A successful reply: its decoded JSON, how many retries it took, and its headers."""

    data: Any
    retries: int
    headers: Mapping[str, str]


def post_json(
    url: str,
    payload: Any,
    headers: Mapping[str, str],
    *,
    timeout: float,
    policy: RetryPolicy,
    service: str,
    auth_hint: str,
    send: Send = urllib_send,
    secrets: tuple[str, ...] = (),
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    rand: Callable[[], float] = random.random,
) -> JsonReply:
    """POST ``payload`` as JSON and decode the JSON reply, retrying transient failures.

    ``service`` names the host kind in messages ("System One host"); ``auth_hint`` says
    what to do about a 401/403. Strings in ``secrets`` are blanked out of every message.
    """
    body = json.dumps(payload, ensure_ascii=False, default=jsonable).encode("utf-8")
    tried = send_retrying(send, HttpRequest(url, headers, body, timeout), policy,
                          sleep=sleep, clock=clock, rand=rand)
    response = tried.response
    if response is None:
        raise JudgeConnectionError(_scrub(
            f"Could not reach the {service} at {url} ({tried.retries + 1} "
            f"attempt{'s' if tried.retries else ''}): {_reason(tried.error)}", secrets))
    if 200 <= response.status < 300:
        return JsonReply(_decode(response.body, service, secrets), tried.retries,
                         response.headers)
    # A status the policy does not retry is the host's answer to this request, not the
    # end of a retry schedule: its message counts no retries.
    retries = tried.retries if response.status in policy.statuses else 0
    raise _status_error(response, url, service, auth_hint, secrets, retries)


def jsonable(value: Any) -> Any:
    """``json.dumps``'s ``default``: mappings and sets/tuples as objects and lists."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def post_question(
    url: str,
    payload: Any,
    api_key: str | None,
    *,
    timeout: float,
    policy: RetryPolicy,
    service: str,
    auth_hint: str,
    send: Send,
) -> tuple[Mapping[str, Any], float]:
    """One judge call: :func:`post_json` with the JSON headers and, when there is a key, a
    Bearer token (blanked out of messages). The reply's JSON object and the latency in ms."""
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "User-Agent": user_agent(),
    }
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    started = time.monotonic()
    reply = post_json(
        url, payload, headers,
        timeout=timeout, policy=policy, service=service, send=send,
        auth_hint=auth_hint, secrets=(api_key,) if api_key else (),
    )
    latency_ms = (time.monotonic() - started) * 1000.0
    if not isinstance(reply.data, Mapping):
        raise JudgeAnswerError(f"The {service} replied with JSON that is not an object")
    return reply.data, latency_ms


def _reason(err: BaseException | None) -> str:
    if err is None:
        return "no answer"
    if isinstance(err, urllib.error.URLError) and not isinstance(err, urllib.error.HTTPError):
        inner = err.reason
        if isinstance(inner, BaseException):
            return _reason(inner)
        return str(inner)
    if isinstance(err, TimeoutError):
        return "timed out"
    return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__


def _decode(body: bytes, service: str, secrets: tuple[str, ...]) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise JudgeAnswerError(_scrub(
            f"The {service} replied with a body that is not JSON ({err}): "
            f"{_excerpt(body.decode('utf-8', 'replace'))!r}", secrets)) from None


def _status_error(
    response: HttpResponse,
    url: str,
    service: str,
    auth_hint: str,
    secrets: tuple[str, ...],
    retries: int = 0,
) -> JudgeStatusError:
    detail = _scrub(error_detail(response.body), secrets)
    raw = _scrub(response.body.decode("utf-8", "replace")[:_EXCERPT_CHARS], secrets)
    after = f" after {retries} retr{'ies' if retries != 1 else 'y'}" if retries else ""
    message = f"HTTP {response.status} from the {service} at {url}{after}: {detail}"
    if response.status in (401, 403):
        return JudgeAuthError(f"{message}. {auth_hint}", status=response.status, body=raw)
    return JudgeStatusError(message, status=response.status, body=raw)


def _scrub(text: str, secrets: tuple[str, ...]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
