"""Sending one alert: a bounded retry schedule (pure) around an injectable HTTP send.

Connection errors and the statuses every semloop HTTP caller retries (408, 429, 5xx:
:mod:`semloop._http`) are retried with exponential backoff; any other status is final. The default send is ``urllib`` (standard library), so alerts need no extra package.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._exceptions import ConfigError
from .._http import HttpResponse, backoff_s, lower_keys, retryable

__all__ = [
    "Attempt",
    "HttpResponse",
    "RetryPolicy",
    "SendFn",
    "SendResult",
    "retryable",
    "send_with_retry",
    "urllib_send",
]


@dataclass(frozen=True)
class RetryPolicy:
    """At most ``max_attempts`` tries; the wait before try k+1 is
    ``min(max_delay_s, base_delay_s * factor**(k-1))`` (a 429's ``Retry-After`` may lengthen
    it, never past ``max_delay_s``)."""

    max_attempts: int = 4
    base_delay_s: float = 0.5
    factor: float = 2.0
    max_delay_s: float = 30.0

    def __post_init__(self) -> None:
        if not 1 <= self.max_attempts <= 20:
            raise ConfigError("must be between 1 and 20", key="retry.max_attempts")
        if self.base_delay_s < 0:
            raise ConfigError("must not be negative", key="retry.base_delay_s")
        if self.factor < 1:
            raise ConfigError("must be at least 1", key="retry.factor")
        if self.max_delay_s < self.base_delay_s:
            raise ConfigError("must be at least base_delay_s", key="retry.max_delay_s")

    def delays(self) -> list[float]:
        """The waits between attempts without a Retry-After: ``max_attempts - 1`` of them."""
        return [self.delay(retry) for retry in range(1, self.max_attempts)]

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        """The wait before retry number ``retry`` (1-based)."""
        return backoff_s(retry, self.base_delay_s, self.max_delay_s, factor=self.factor,
                         retry_after=retry_after)


#: ``send(url, body, headers, timeout_s) -> HttpResponse``; raises ``OSError`` when the
#: host cannot be reached or does not answer in time.
SendFn = Callable[[str, bytes, Mapping[str, str], float], HttpResponse]


@dataclass(frozen=True)
class Attempt:
    at: float
    status: int | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at, "status": self.status, "error": self.error}


@dataclass
class SendResult:
    delivered: bool
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def status(self) -> str:
        return "delivered" if self.delivered else "failed"

    @property
    def gave_up(self) -> bool:
        """Failed after retrying: the receiver is down or overloaded, not refusing this body."""
        if self.delivered or not self.attempts:
            return False
        last = self.attempts[-1]
        return last.status is None or retryable(last.status)

    @property
    def last_error(self) -> str | None:
        if self.delivered or not self.attempts:
            return None
        last = self.attempts[-1]
        return last.error or f"HTTP {last.status}"


def send_with_retry(
    send: SendFn,
    url: str,
    payload: Mapping[str, Any],
    *,
    headers: Mapping[str, str] | None = None,
    retry: RetryPolicy = RetryPolicy(),
    timeout_s: float = 5.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.time,
) -> SendResult:
    """POST ``payload`` as JSON to ``url`` until it is accepted (2xx) or the policy is spent.

    Never raises for a network or HTTP failure: the result records every attempt.
    """
    body = json.dumps(payload, default=str, separators=(",", ":")).encode("utf-8")
    all_headers = {"Content-Type": "application/json", "User-Agent": "semloop-alerts",
                   **(headers or {})}
    result = SendResult(delivered=False)
    for attempt in range(retry.max_attempts):
        at = clock()
        retry_after: float | None = None
        try:
            response = send(url, body, all_headers, timeout_s)
        except OSError as exc:
            result.attempts.append(Attempt(at, error=f"{type(exc).__name__}: {exc}"[:500]))
        else:
            result.attempts.append(Attempt(at, status=response.status))
            if 200 <= response.status <= 299:
                result.delivered = True
                return result
            if not retryable(response.status):
                return result
            retry_after = response.retry_after_s
        if attempt + 1 < retry.max_attempts:
            sleep(retry.delay(attempt + 1, retry_after))
    return result



class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # urllib would follow a 301/302 with a GET and no body, and call that delivered; a
    # webhook that moved is a configuration to fix, so its 3xx is the final answer.
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def urllib_send(url: str, body: bytes, headers: Mapping[str, str], timeout_s: float) -> HttpResponse:
    """The default :data:`SendFn`: one POST with the standard library (redirects not followed)."""
    request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
    try:
        with _OPENER.open(request, timeout=timeout_s) as response:
            response.read()
            return HttpResponse(response.status, lower_keys(response.headers.items()))
    except urllib.error.HTTPError as exc:
        with exc:
            return HttpResponse(exc.code, lower_keys((exc.headers or {}).items()))
    except urllib.error.URLError as exc:
        reason = exc.reason
        raise ConnectionError(str(reason)) from exc
    except http.client.HTTPException as exc:  # a reply that is not HTTP
        raise ConnectionError(f"{type(exc).__name__}: {exc}") from exc
    except ValueError as exc:  # a malformed URL
        raise ConnectionError(f"bad URL: {exc}") from exc
