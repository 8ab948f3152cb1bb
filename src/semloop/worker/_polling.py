"""The shape every background job shares: poll, process a batch, sleep, until stopped.

A worker's ``process_batch`` does the I/O around pure detectors and evaluators. One bad run
is the worker's business to record; an exception escaping a batch is logged and counted
here, and the loop goes on: nothing a run contains may stop a worker.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from ..events import Run

__all__ = ["Claim", "PollingWorker", "WorkerStats"]

#: A run handed to one worker: (org_id, run, trigger).
Claim = tuple[str, Run, str]

log = logging.getLogger("semloop.worker")


@dataclass
class WorkerStats:
    batches: int = 0
    runs: int = 0
    signals: int = 0
    #: Runs whose processing failed and were kept for a retry.
    failed_runs: int = 0
    #: Runs the judge could not answer for (loop worker): handled, with no verdict.
    unjudged: int = 0
    failed_batches: int = 0
    #: Wall seconds spent waiting for judge verdicts (semantic worker): its own time is
    #: the rest, however many calls ran side by side.
    judging_s: float = 0.0


class PollingWorker(ABC):
    """Polls the shared events table every ``poll_interval`` seconds; no message broker."""

    name: str = "worker"

    def __init__(self, *, poll_interval: float = 5.0, lease_s: float = 300.0) -> None:
        if poll_interval <= 0:
            raise ValueError(f"poll_interval must be positive, not {poll_interval}")
        self.poll_interval = poll_interval
        self.lease_s = lease_s
        self.stats = WorkerStats()
        # Runs this worker still leases whose processing failed (the database went away
        # mid-batch, say): retried on the next polls until the lease runs out, instead of
        # waiting for it to expire. Deadline first.
        self._retry: list[tuple[float, Claim]] = []
        self._deadlines: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __str__(self) -> str:
        return f"{self.name} (every {self.poll_interval:g} s)"

    @abstractmethod
    def process_batch(self) -> int:
        """Process what is ready now; return how many runs were handled."""

    def take(self, fetch: Callable[[float], list[Claim]]) -> list[Claim]:
        """This poll's runs: the ones to retry, then new ones leased by ``fetch(lease_s)``."""
        now = time.monotonic()
        held = [(deadline, claim) for deadline, claim in self._retry if deadline > now]
        self._retry = []
        try:
            fresh = fetch(self.lease_s)
        except Exception:
            self._retry = held  # kept, with their own deadlines, for the next poll
            raise
        # Each claim keeps the deadline of the lease it was taken under, less a margin, so
        # this worker never works on a run another worker may have taken over.
        self._deadlines = {id(claim): deadline for deadline, claim in held}
        self._deadlines.update((id(claim), now + self.lease_s * 0.9) for claim in fresh)
        return [claim for _, claim in held] + fresh

    def retry_later(self, claim: Claim) -> None:
        """Try ``claim`` (from this poll's :meth:`take`) again on a later poll, while this
        worker's lease on it lasts."""
        self.stats.failed_runs += 1
        self._retry.append((self._deadlines[id(claim)], claim))

    def run_once(self) -> int:
        """One poll. Returns the runs handled; a failing batch counts and returns 0."""
        try:
            handled = self.process_batch()
        except Exception:
            self.stats.failed_batches += 1
            log.exception("%s: batch failed; will poll again", self.name)
            return 0
        self.stats.batches += 1
        return handled

    def drain(self) -> int:
        """Poll until nothing is ready, or until a stop is requested after a batch; returns
        the runs handled."""
        total = 0
        while not self._stop.is_set():
            handled = self.run_once()
            total += handled
            if handled == 0:
                break
        return total

    def run_forever(self) -> None:
        while not self._stop.is_set():
            if self.run_once() == 0:
                self._stop.wait(self.poll_interval)

    def request_stop(self) -> None:
        """Stop after the batch in progress (safe to call from a signal handler)."""
        self._stop.set()

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self.run_forever, name=f"semloop-{self.name}",
                                        daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 60.0) -> None:
        """Stop polling and wait up to ``timeout`` seconds for the batch in progress, so
        its runs are finished rather than left leased until the lease runs out."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("%s: batch still running after %g s; its leases will lapse",
                            self.name, timeout)
            self._thread = None

    def __enter__(self) -> PollingWorker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
