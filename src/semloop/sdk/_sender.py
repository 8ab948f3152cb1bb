"""The bounded buffer and the one background thread that empties it.

The agent's side is :meth:`Sender.put`: a cheap measure of the record (its texts cut to
the field cap, their length summed), a ``deque.append`` and two checks. When the buffer
holds more than ``buffer_size`` records or ``buffer_bytes`` bytes, the **oldest** records
are dropped and counted; the agent never waits. The thread, started lazily on
the first record, wakes every ``flush_interval`` seconds (or early once ``batch_size``
records wait), turns records into events, batches them and hands each batch to the
emitter, retrying with exponential backoff. Nothing here raises into the agent.
"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass

from .._http import RetryPolicy
from ..events import Event
from ._emitters import Emitter, SendError
from ._records import Record, RedactError

__all__ = ["ClientStats", "Sender"]

logger = logging.getLogger("semloop.sdk")


@dataclass(frozen=True)
class ClientStats:
    """Counters of one client since it was made (or since a fork, in the child).

    ``emitted``: events the agent recorded. ``sent``: events the emitter accepted.
    ``pending``: events waiting in the buffer. ``dropped_overflow``: oldest events
    evicted from a full buffer. ``dropped_unencodable``: events that could not be built
    into a payload. ``dropped_redaction``: events dropped because the ``redact`` hook
    raised (never sent unredacted). ``dropped_closed``: events recorded after
    ``shutdown()``. ``send_failures``: events given up on after the last retry, or
    refused by the receiver (a non-retryable answer, or invalid events it rejected
    while keeping the rest). ``retries``: repeated send attempts. ``internal_errors``:
    SDK bugs caught on the agent's path. ``policies_triggered``: times a policy fired.
    ``policy_errors``: policy evaluations that raised (ignored, never raised into the
    agent).
    """

    emitted: int = 0
    sent: int = 0
    pending: int = 0
    dropped_overflow: int = 0
    dropped_unencodable: int = 0
    dropped_redaction: int = 0
    dropped_closed: int = 0
    send_failures: int = 0
    retries: int = 0
    internal_errors: int = 0
    policies_triggered: int = 0
    policy_errors: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


class Sender:
    """Owns the buffer, the thread and the counters of one client."""

    def __init__(
        self,
        emitter: Emitter,
        build: Callable[[Record], Event],
        measure: Callable[[Record], tuple[Record, int]],
        *,
        buffer_size: int,
        buffer_bytes: int,
        flush_interval: float,
        batch_size: int,
        retry: RetryPolicy,
    ) -> None:
        if buffer_size < 1:
            raise ValueError(f"buffer_size must be at least 1, not {buffer_size}")
        if buffer_bytes < 1:
            raise ValueError(f"buffer_bytes must be at least 1, not {buffer_bytes}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        if flush_interval <= 0:
            raise ValueError(f"flush_interval must be positive, not {flush_interval}")
        self.emitter = emitter
        self._build = build
        self._measure = measure
        self._maxlen = buffer_size
        self._max_bytes = buffer_bytes
        self._interval = flush_interval
        self._batch_size = batch_size
        self._retry = retry
        self._closed = False
        self._init_process_state()
        _track_fork(self)

    def _init_process_state(self) -> None:
        # Everything a forked child must not share with its parent: the buffer (the
        # parent sends what it holds; sending it twice would duplicate events under new
        # ids), the thread (it does not exist in the child), locks and counters.
        # (record, its measured size); _bytes is their sum, give or take racing threads.
        self._buf: deque[tuple[Record, int]] = deque()
        self._bytes = 0
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()
        self._wake_pending = False
        self._abort = threading.Event()
        self._closing = False
        self._lock = threading.Lock()
        self._flush_waiters: list[threading.Event] = []
        self._failing = False
        self.emitted = 0
        self.dropped_overflow = 0
        self.internal_errors = 0
        self.policies_triggered = 0
        self.policy_errors = 0
        self.sent = 0
        self.dropped_unencodable = 0
        self.dropped_redaction = 0
        self.dropped_closed = 0
        self.send_failures = 0
        self.retries = 0

    # -- the agent's side -------------------------------------------------------------

    def put(self, record: Record) -> None:
        """Buffer one record. Cheap and never blocking; counted when it evicts another."""
        buf = self._buf
        record, size = self._measure(record)
        buf.append((record, size))
        self._bytes += size
        self.emitted += 1
        if len(buf) > self._maxlen or self._bytes > self._max_bytes:
            self._evict()
        if self._thread is None:
            self._start()
        elif len(buf) >= self._batch_size and not self._wake_pending:
            self._wake_pending = True
            self._wake.set()

    def _evict(self) -> None:
        # The oldest go first; the newest record stays even when it alone is over the limit.
        buf = self._buf
        while len(buf) > 1 and (len(buf) > self._maxlen or self._bytes > self._max_bytes):
            try:
                _, size = buf.popleft()
            except IndexError:  # the sender thread emptied it meanwhile
                return
            self._bytes -= size
            self.dropped_overflow += 1

    def stats(self) -> ClientStats:
        # Counters are plain ints: the agent's path takes no lock, so under many
        # producer threads they are a close estimate rather than exact.
        return ClientStats(
            emitted=self.emitted, sent=self.sent, pending=len(self._buf),
            dropped_overflow=self.dropped_overflow,
            dropped_unencodable=self.dropped_unencodable,
            dropped_redaction=self.dropped_redaction, dropped_closed=self.dropped_closed,
            send_failures=self.send_failures, retries=self.retries,
            internal_errors=self.internal_errors,
            policies_triggered=self.policies_triggered, policy_errors=self.policy_errors,
        )

    def _start(self) -> None:
        with self._lock:
            if self._closed:
                first = self.dropped_closed == 0
                # One by one, not clear(): shutdown() may still be draining this buffer,
                # and each record must be counted exactly once, as sent or as dropped.
                while True:
                    try:
                        _, size = self._buf.popleft()
                    except IndexError:
                        break
                    self._bytes -= size
                    self.dropped_closed += 1
                if first:
                    logger.warning("semloop: events recorded after client.shutdown() are dropped")
                return
            if self._thread is not None:
                return
            thread = threading.Thread(target=self._loop, name="semloop-sdk-sender", daemon=True)
            try:
                thread.start()
            except RuntimeError:
                # No new threads (interpreter shutting down, thread limit): flush() and
                # shutdown() drain inline instead.
                logger.debug("semloop: could not start the sender thread", exc_info=True)
                return
            self._thread = thread

    # -- flushing and shutdown ---------------------------------------------------------

    def flush(self, timeout: float | None = None) -> bool:
        """Send everything recorded so far; True when it was all handed to the emitter
        (sent or counted as failed) within ``timeout`` seconds."""
        with self._lock:
            closed, thread = self._closed, self._thread
        if closed:
            # shutdown() is flushing (or has flushed) everything; wait for it.
            if thread is not None:
                thread.join(timeout)
                return not thread.is_alive()
            return True
        if thread is None:
            if not self._buf:
                return True
            self._start()
            if self._thread is None:
                self._drain()
                return True
        waiter = threading.Event()
        with self._lock:
            self._flush_waiters.append(waiter)
        self._wake.set()
        return waiter.wait(timeout)

    def shutdown(self, timeout: float | None = None) -> bool:
        """Flush, stop the thread and close the emitter; later events are dropped."""
        with self._lock:
            if self._closed:
                return True
            self._closed = True
            self._closing = True
            thread = self._thread
        if thread is None:
            self._drain()
            done = True
        else:
            self._wake.set()
            thread.join(timeout)
            done = not thread.is_alive()
            if not done:
                # Stop waiting in backoff; what is still unsent is counted as failed.
                self._abort.set()
                thread.join(0.5)
                # The batch in flight has left the buffer: say both, not just the buffer.
                logger.warning(
                    "semloop: shutdown timed out after %ss; %d events undelivered "
                    "(%d failed to send, %d still buffered)", timeout,
                    self.send_failures + len(self._buf), self.send_failures, len(self._buf))
        self._thread = None
        if done:
            # Records appended by other threads while the sender was finishing.
            self._drain()
            try:
                self.emitter.close()
            except Exception:
                logger.warning("semloop: closing the emitter failed", exc_info=True)
        return done

    # -- the sender thread -------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            self._wake.wait(self._interval)
            self._wake.clear()
            self._wake_pending = False
            # Waiters are taken before draining, so every record appended before a
            # flush() call is drained before its waiter is released.
            with self._lock:
                waiters, self._flush_waiters = self._flush_waiters, []
                closing = self._closing
            try:
                self._drain()
            except Exception:  # a bug here must not kill the thread and strand events
                logger.exception("semloop: sender loop error")
            for waiter in waiters:
                waiter.set()
            if closing:
                return

    def _drain(self) -> None:
        # Only what is buffered now: under a steady stream of new records a flush or a
        # shutdown must still finish.
        buf = self._buf
        remaining = len(buf)
        while remaining > 0:
            count = min(self._batch_size, remaining)
            remaining -= count
            batch: list[Event] = []
            for _ in range(count):
                try:
                    record, size = buf.popleft()
                except IndexError:  # overflow evicted some meanwhile
                    remaining = 0
                    break
                self._bytes -= size
                event = self._make(record)
                if event is not None:
                    batch.append(event)
            if batch:
                self._send(batch)

    def _make(self, record: Record) -> Event | None:
        try:
            return self._build(record)
        except RedactError as exc:
            self.dropped_redaction += 1
            logger.warning("semloop: redact hook failed, %s event dropped: %s", record[0], exc)
        except Exception as exc:
            self.dropped_unencodable += 1
            logger.warning("semloop: could not encode a %s event, dropped: %r", record[0], exc)
        return None

    def _send(self, batch: list[Event]) -> None:
        attempt = 0
        while True:
            try:
                self.emitter.send(batch)
            except SendError as exc:
                error: Exception = exc
                retryable, status, retry_after = exc.retryable, exc.status, exc.retry_after
                if exc.failed is not None and not retryable:
                    # The receiver kept the rest of the batch and refused these.
                    failed = min(exc.failed, len(batch))
                    self.sent += len(batch) - failed
                    self.send_failures += failed
                    logger.warning("semloop: %s", exc)
                    return
            except Exception as exc:  # an emitter's own failure (a locked database…)
                error, retryable, status, retry_after = exc, True, None, None
            else:
                self.sent += len(batch)
                if self._failing:
                    self._failing = False
                    logger.info("semloop: sending works again")
                return
            if status == 413 and len(batch) > 1:
                # Too large for the server: halve it rather than lose all of it.
                half = len(batch) // 2
                self._send(batch[:half])
                self._send(batch[half:])
                return
            attempt += 1
            delay = self._retry.wait(attempt, retry_after) if retryable else None
            if delay is None or self._abort.is_set():
                self.send_failures += len(batch)
                # One warning per outage; the rest at debug, so a dead endpoint does not
                # flood the agent's log five times a second.
                level = logging.DEBUG if self._failing else logging.WARNING
                self._failing = True
                logger.log(level, "semloop: %d events not sent after %d attempts: %s",
                           len(batch), attempt, error)
                return
            self.retries += 1
            logger.debug("semloop: send failed (%s), retry %d in %.2fs", error, attempt, delay)
            self._abort.wait(delay)

    def after_fork_in_child(self) -> None:
        self._init_process_state()
        hook = getattr(self.emitter, "after_fork", None)
        if callable(hook):
            try:
                hook()
            except Exception:
                logger.warning("semloop: the emitter's after_fork failed", exc_info=True)


# Fork safety: every live sender is re-initialised in a forked child. Weak references,
# so the hook never keeps a client alive.
_senders: weakref.WeakSet[Sender] = weakref.WeakSet()


def _after_fork() -> None:
    for sender in list(_senders):
        sender.after_fork_in_child()


def _track_fork(sender: Sender) -> None:
    _senders.add(sender)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)

