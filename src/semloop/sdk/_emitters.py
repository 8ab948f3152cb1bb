"""Where batches of events go. An emitter sends one batch or raises; it never retries.

Retry, backoff and counting live once in the sender (``_sender.py``), so every emitter
gets the same policy. An emitter says whether a failure is worth retrying by raising
:class:`SendError` with ``retryable``; any other exception is treated as retryable.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Protocol, runtime_checkable

from .._defaults import DEFAULT_URL
from .._exceptions import InputError
from .._http import HttpRequest, retryable, urllib_send
from ..events import Event

__all__ = [
    "DEFAULT_ENDPOINT",
    "DiscardEmitter",
    "Emitter",
    "FileEmitter",
    "HttpEmitter",
    "SendError",
    "StoreEmitter",
]

DEFAULT_ENDPOINT = DEFAULT_URL


@runtime_checkable
class Emitter(Protocol):
    """Sends batches of events somewhere; called from the sender thread only.

    An emitter may also define ``after_fork()``: it is called in a forked child before
    the child's sender thread starts, to renew locks or connections.
    """

    def send(self, events: Sequence[Event]) -> None: ...

    def close(self) -> None: ...


class SendError(Exception):
    """A batch was not delivered.

    ``retryable``: another attempt could succeed (connection error, 429, 408, 5xx).
    ``status``: the HTTP status, if any. ``retry_after``: seconds the server asked for.
    ``failed``: how many events of the batch were lost when the receiver kept the rest
    (it rejected some as invalid); None means the whole batch.
    """

    def __init__(
        self, message: str, *, retryable: bool, status: int | None = None,
        retry_after: float | None = None, failed: int | None = None,
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        self.failed = failed


class HttpEmitter:
    """POSTs each batch to ``{endpoint}/v1/ingest`` as ``{"api_key", "events"}`` JSON.

    Wire-compatible with the ingest API and with the envelope the Dunetrace SDK sends.
    ``endpoint`` defaults to ``$SEMLOOP_ENDPOINT`` or :data:`DEFAULT_ENDPOINT`
    (``http://127.0.0.1:8001``, where ``semloop up`` serves),
    ``api_key`` to ``$SEMLOOP_API_KEY``.
    """

    def __init__(
        self, endpoint: str | None = None, api_key: str | None = None, *,
        timeout: float = 10.0,
    ) -> None:
        endpoint = endpoint or os.environ.get("SEMLOOP_ENDPOINT") or DEFAULT_ENDPOINT
        self.endpoint = endpoint.rstrip("/")
        self.url = self.endpoint + "/v1/ingest"
        self.api_key = api_key if api_key is not None else os.environ.get("SEMLOOP_API_KEY", "")
        self.timeout = timeout

    def __repr__(self) -> str:  # never show the key
        return f"HttpEmitter({self.endpoint!r})"

    def send(self, events: Sequence[Event]) -> None:
        body = json.dumps(
            {"api_key": self.api_key, "events": [e.to_dict() for e in events]},
            ensure_ascii=False, allow_nan=False, separators=(",", ":"),
        ).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        # urllib, one connection per batch: a batch leaves every flush_interval at most,
        # from one background thread, so a kept-alive socket would mostly sit idle.
        try:
            response = urllib_send(HttpRequest(self.url, headers, body, self.timeout))
        except OSError as exc:  # refused, reset, timed out, not HTTP, a bad URL
            raise SendError(f"{self.url} unreachable: {exc}", retryable=True) from None
        if not 200 <= response.status < 300:
            raise SendError(
                f"{self.url} answered HTTP {response.status}",
                retryable=retryable(response.status), status=response.status,
                retry_after=response.retry_after_s) from None
        _check_rejections(response.body, len(events))

    def close(self) -> None:
        pass


def _check_rejections(reply: bytes, sent: int) -> None:
    # The ingest API accepts a batch with some invalid events (202) and lists the
    # rejected ones by index and reason; those are lost, and must be counted as such.
    try:
        body = json.loads(reply) if reply else None
    except ValueError:
        return
    rejected = body.get("rejected") if isinstance(body, dict) else None
    if not rejected or not isinstance(rejected, list):
        return
    reasons = "; ".join(
        f"event {r.get('index')}: {r.get('field') or ''} {r.get('reason')}".strip()
        for r in rejected[:5] if isinstance(r, dict)
    )
    raise SendError(f"the server rejected {len(rejected)} of {sent} events: {reasons}",
                    retryable=False, failed=min(len(rejected), sent))


class FileEmitter:
    """Appends each event as one line of JSON (``Event.to_dict()``) to ``path``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._file: IO[str] | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"FileEmitter({str(self.path)!r})"

    def send(self, events: Sequence[Event]) -> None:
        lines = "".join(
            json.dumps(e.to_dict(), ensure_ascii=False, allow_nan=False) + "\n" for e in events
        )
        with self._lock:
            if self._file is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = self.path.open("a", encoding="utf-8")
            # One write per batch and a flush, so a crash loses at most the batch in hand
            # and another process appending to the same file never splits a line.
            self._file.write(lines)
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def after_fork(self) -> None:
        # The parent's sender thread may have held the lock at fork time; in the child
        # nobody would ever release it. The shared append-mode file stays usable.
        self._lock = threading.Lock()


class StoreEmitter:
    """Writes batches straight into an event store (embedded mode, no HTTP).

    ``store`` is anything with ``add_events(org_id, events)``, such as
    :class:`semloop.store.Store`.
    """

    def __init__(self, store: Any, org_id: str) -> None:
        if not callable(getattr(store, "add_events", None)):
            raise TypeError(f"{type(store).__name__} has no add_events(org_id, events) method")
        self.store = store
        self.org_id = org_id

    def __repr__(self) -> str:
        return f"StoreEmitter({type(self.store).__name__}, org_id={self.org_id!r})"

    def send(self, events: Sequence[Event]) -> None:
        batch = list(events)
        try:
            self.store.add_events(self.org_id, batch)
        except InputError:
            # The store refuses a whole batch for one bad event: keep the good ones.
            if len(batch) == 1:
                raise SendError("the store rejected the event", retryable=False) from None
            failed = []
            for index, event in enumerate(batch):
                try:
                    self.store.add_events(self.org_id, [event])
                except InputError as exc:
                    failed.append(f"event {index}: {exc}")
            if failed:
                raise SendError(
                    f"the store rejected {len(failed)} of {len(batch)} events: "
                    + "; ".join(failed[:5]), retryable=False, failed=len(failed),
                ) from None

    def close(self) -> None:
        pass  # the store belongs to the caller


class DiscardEmitter:
    """Drops every batch; counts what it was given. For benchmarks and tests."""

    def __init__(self) -> None:
        self.batches = 0
        self.events = 0

    def send(self, events: Sequence[Event]) -> None:
        self.batches += 1
        self.events += len(events)

    def close(self) -> None:
        pass
