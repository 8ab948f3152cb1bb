"""What every HTTP caller shares (judge backends, alert delivery, the SDK's emitter): the
request and response shapes, a POST over :mod:`urllib`, which answers are worth another
try, how long the host asked us to wait, the one :class:`RetryPolicy` and the loop that
follows it. Standard library only (the judges must import with it alone); each caller
keeps its own limits, and the judge its keep-alive pool.
"""

from __future__ import annotations

import email.utils
import http.client
import math
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

__all__ = ["RETRYABLE_STATUSES", "HttpRequest", "HttpResponse", "RetryPolicy", "Send", "Tried",
           "backoff_s", "lower_keys", "retry_after_s", "retryable", "send_retrying",
           "urllib_send"]


@dataclass(frozen=True)
class HttpRequest:
    url: str
    headers: Mapping[str, str]
    body: bytes
    timeout: float


@dataclass(frozen=True)
class HttpResponse:
    """One answer, whatever its status: ``headers`` keys lower-cased."""

    status: int
    headers: Mapping[str, str]
    body: bytes = b""

    @property
    def retry_after_s(self) -> float | None:
        """The wait the host asked for (:func:`retry_after_s`)."""
        return retry_after_s(self.headers)

#: Answers another attempt may turn into a success: request timeout, rate limited, and
#: every server-side failure.
RETRYABLE_STATUSES = frozenset({408, 429, *range(500, 600)})


def lower_keys(items: Iterable[tuple[object, object]]) -> dict[str, str]:
    """Header pairs as a dict with lower-cased keys (HTTP names are case-insensitive)."""
    return {str(k).lower(): str(v) for k, v in items}


def retryable(status: int) -> bool:
    """Whether an HTTP status is worth another try (:data:`RETRYABLE_STATUSES`)."""
    return status in RETRYABLE_STATUSES


def retry_after_s(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """The wait the host asked for: ``retry-after-ms``, else ``Retry-After`` in seconds or
    as an HTTP date. ``headers`` keys lower-cased; ``None`` when absent or unreadable;
    never negative."""
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            value = float(ms)
        except ValueError:
            value = math.nan
        if math.isfinite(value):
            return max(0.0, value / 1000.0)
    after = headers.get("retry-after")
    if after is None:
        return None
    after = after.strip()
    try:
        value = float(after)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(after)
        except (TypeError, ValueError):
            return None
        now = time.time() if now is None else now
        return max(0.0, when.timestamp() - now)
    return max(0.0, value) if math.isfinite(value) else None


def backoff_s(retry: int, base: float, cap: float, *, factor: float = 2.0,
              retry_after: float | None = None, jitter: float = 0.0, rand: float = 0.0,
              ) -> float:
    """The wait before retry number ``retry`` (1-based): ``base * factor**(retry-1)``, at
    most ``cap``, less up to ``jitter`` of it at random (``rand`` in [0, 1)); at least what
    the host asked for (``retry_after``), still never past ``cap``."""
    delay = min(cap, base * factor ** (retry - 1)) * (1.0 - jitter * rand)
    if retry_after is not None:
        delay = min(cap, max(delay, retry_after))
    return delay


@dataclass(frozen=True)
class RetryPolicy:
    """When to send again and how long to wait first.

    At most ``max_retries`` retries. Before retry k the wait is ``backoff_s *
    factor**(k-1)``, at most ``max_backoff_s``, less up to ``jitter`` of it at random.
    With a ``budget_s`` (seconds of waiting in all) a host's Retry-After is followed as
    given, sooner or later than the backoff, and a wait that would pass the budget gives
    up instead. Without one each wait is bounded by ``max_backoff_s`` alone, so the hint
    can only lengthen the backoff, up to that cap. The defaults are the judges' (the
    official System One client's); alerts and the SDK set theirs.
    """

    max_retries: int = 2
    backoff_s: float = 0.5
    max_backoff_s: float = 5.0
    factor: float = 2.0
    jitter: float = 0.25
    budget_s: float | None = 30.0
    statuses: frozenset[int] = RETRYABLE_STATUSES

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {self.max_retries}")
        if self.backoff_s < 0:
            raise ValueError(f"backoff_s must be >= 0, got {self.backoff_s}")
        if self.factor < 1:
            raise ValueError(f"factor must be >= 1, got {self.factor}")
        if not 0.0 <= self.jitter <= 1.0:
            raise ValueError(f"jitter must be in [0, 1], got {self.jitter}")

    @property
    def attempts(self) -> int:
        """The first try and every retry."""
        return self.max_retries + 1

    def backoff(self, retry: int, rand: float = 0.0) -> float:
        """The wait before retry number ``retry`` (1-based) when the host gave no hint."""
        return backoff_s(retry, self.backoff_s, self.max_backoff_s, factor=self.factor,
                         jitter=self.jitter, rand=rand)

    def delays(self) -> list[float]:
        """The longest waits between attempts without a hint: ``max_retries`` of them."""
        return [self.backoff(retry) for retry in range(1, self.attempts)]

    def wait(self, retry: int, hint: float | None = None, *, waited: float = 0.0,
             rand: float = 0.0) -> float | None:
        """The wait before retry number ``retry``, or ``None`` when the policy is spent
        (no retries left, or the wait would take the time waited past the budget)."""
        if retry > self.max_retries:
            return None
        if self.budget_s is None:
            return backoff_s(retry, self.backoff_s, self.max_backoff_s, factor=self.factor,
                             retry_after=hint, jitter=self.jitter, rand=rand)
        delay = hint if hint is not None else self.backoff(retry, rand)
        return None if waited + delay > self.budget_s else delay


#: Sends one request. Raises ``OSError`` or ``http.client.HTTPException`` when the host
#: cannot be reached or does not answer in time; any HTTP status is a response, not an error.
Send = Callable[[HttpRequest], HttpResponse]


def urllib_send(request: HttpRequest, *,
                opener: urllib.request.OpenerDirector | None = None) -> HttpResponse:
    """One POST over :mod:`urllib` (through ``opener``, default urllib's own), no retries.
    Every status is a response; a host that cannot be reached, a reply that is not HTTP
    and a malformed URL are a :class:`ConnectionError`."""
    req = urllib.request.Request(request.url, data=request.body, method="POST",
                                 headers=dict(request.headers))
    open_ = opener.open if opener is not None else urllib.request.urlopen
    try:
        with open_(req, timeout=request.timeout) as resp:
            return HttpResponse(resp.status, lower_keys(resp.headers.items()), resp.read())
    except urllib.error.HTTPError as err:
        # An error status is still an answer from the host: hand it back for mapping.
        with err:
            body = err.read()
        return HttpResponse(err.code, lower_keys(err.headers.items() if err.headers else ()), body)
    except urllib.error.URLError as err:
        raise ConnectionError(str(err.reason)) from err
    except http.client.HTTPException as err:
        raise ConnectionError(f"{type(err).__name__}: {err}") from err
    except ValueError as err:
        raise ConnectionError(f"bad URL: {err}") from err


@dataclass(frozen=True)
class Tried:
    """How a retried request ended: the last answer (``None`` when the last attempt got
    none, ``error`` then says why) and how many retries it took."""

    response: HttpResponse | None
    error: BaseException | None
    retries: int


def send_retrying(
    send: Send,
    request: HttpRequest,
    policy: RetryPolicy,
    *,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    rand: Callable[[], float] = random.random,
) -> Tried:
    """Send ``request`` until a 2xx, a status ``policy`` does not retry, or the policy is
    spent. Never raises for a network failure: :class:`Tried` holds the last outcome."""
    waited = 0.0
    retries = 0
    while True:
        response: HttpResponse | None = None
        error: BaseException | None = None
        try:
            response = send(request)
        except (OSError, http.client.HTTPException) as err:
            error = err
        if response is not None and (200 <= response.status < 300
                                     or response.status not in policy.statuses):
            return Tried(response, None, retries)
        hint = response.retry_after_s if response is not None else None
        delay = policy.wait(retries + 1, hint, waited=waited, rand=rand())
        if delay is None:
            return Tried(response, error, retries)
        started = clock()
        sleep(delay)
        waited += max(delay, clock() - started)
        retries += 1
