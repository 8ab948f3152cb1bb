"""The retry rules every HTTP caller shares (judge backends, alert delivery, the SDK's
emitter): which answers are worth another try, how long the host asked us to wait, and
the backoff otherwise. Pure functions, standard library only (the judges must import
with it alone); each caller keeps its own transport and its own limits.
"""

from __future__ import annotations

import email.utils
import math
import time
from collections.abc import Mapping

__all__ = ["RETRYABLE_STATUSES", "backoff_s", "retry_after_s", "retryable"]

#: Answers another attempt may turn into a success: request timeout, rate limited, and
#: every server-side failure.
RETRYABLE_STATUSES = frozenset({408, 429, *range(500, 600)})


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
