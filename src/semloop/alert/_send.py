"""Sending one alert: :mod:`semloop._http`'s retry loop around an injectable HTTP send.

Connection errors and the statuses every semloop HTTP caller retries (408, 429, 5xx) are
retried with exponential backoff; any other status is final. alerts.yml's ``retry`` keys
(``max_attempts``, ``base_delay_s``, ``factor``, ``max_delay_s``) map onto the one
:class:`~semloop._http.RetryPolicy` (:func:`retry_policy`). The default send is ``urllib``
(standard library), so alerts need no extra package.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._exceptions import ConfigError
from .._http import HttpRequest, HttpResponse, RetryPolicy, Send, retryable, send_retrying
from .._http import urllib_send as _urllib_send

__all__ = [
    "DEFAULT_RETRY",
    "Attempt",
    "HttpResponse",
    "RetryPolicy",
    "Send",
    "SendResult",
    "retry_policy",
    "retryable",
    "send_with_retry",
    "urllib_send",
]


def retry_policy(max_attempts: int = 4, base_delay_s: float = 0.5, factor: float = 2.0,
                 max_delay_s: float = 30.0) -> RetryPolicy:
    """alerts.yml's ``retry`` keys as the one :class:`RetryPolicy`: at most
    ``max_attempts`` tries; the wait before try k+1 is ``min(max_delay_s, base_delay_s *
    factor**(k-1))`` (a Retry-After may lengthen it, never past ``max_delay_s``); no jitter
    and no budget (the worker's lease covers the whole schedule). A bad value raises a
    :class:`ConfigError` naming its key."""
    if not 1 <= max_attempts <= 20:
        raise ConfigError("must be between 1 and 20", key="retry.max_attempts")
    if base_delay_s < 0:
        raise ConfigError("must not be negative", key="retry.base_delay_s")
    if factor < 1:
        raise ConfigError("must be at least 1", key="retry.factor")
    if max_delay_s < base_delay_s:
        raise ConfigError("must be at least base_delay_s", key="retry.max_delay_s")
    return RetryPolicy(max_retries=max_attempts - 1, backoff_s=base_delay_s, factor=factor,
                       max_backoff_s=max_delay_s, jitter=0.0, budget_s=None)


#: The policy when alerts.yml sets no ``retry``: 4 tries, 0.5 s doubling, at most 30 s.
DEFAULT_RETRY = retry_policy()


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
    send: Send,
    url: str,
    payload: Mapping[str, Any],
    *,
    headers: Mapping[str, str] | None = None,
    retry: RetryPolicy = DEFAULT_RETRY,
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

    def attempt(request: HttpRequest) -> HttpResponse:
        at = clock()
        try:
            response = send(request)
        except (OSError, http.client.HTTPException) as exc:
            result.attempts.append(Attempt(at, error=f"{type(exc).__name__}: {exc}"[:500]))
            raise
        result.attempts.append(Attempt(at, status=response.status))
        return response

    tried = send_retrying(attempt, HttpRequest(url, all_headers, body, timeout_s), retry,
                          sleep=sleep)
    result.delivered = tried.response is not None and 200 <= tried.response.status <= 299
    return result


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # urllib would follow a 301/302 with a GET and no body, and call that delivered; a
    # webhook that moved is a configuration to fix, so its 3xx is the final answer.
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def urllib_send(request: HttpRequest) -> HttpResponse:
    """The default :data:`Send`: one POST with the standard library. Why alerts have
    their own opener: a redirect is not followed (see ``_NoRedirect``)."""
    return _urllib_send(request, opener=_OPENER)
