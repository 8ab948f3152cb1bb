"""What every HTTP caller shares (judge backends, alert delivery, the SDK's emitter): the
request and response shapes, which answers are worth another try, how long the host asked
us to wait, and the backoff otherwise. Pure functions, standard library only (the judges must import
with it alone); each caller keeps its own transport and its own limits.
"""

from __future__ import annotations

import email.utils
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["RETRYABLE_STATUSES", "HttpRequest", "HttpResponse", "backoff_s", "lower_keys",
           "retry_after_s", "retryable"]


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
