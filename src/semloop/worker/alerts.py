"""The alerts worker: stored signals in, webhook and Slack messages out.

Each poll (10 s by default) has two phases. **Decide**: every signal not yet decided gets
a verdict from the pure policy and de-duplication rules of :mod:`semloop.alert`; an alert
and its deliveries (one per destination) are written in the same transaction as the
verdict. **Send**: pending deliveries are leased and POSTed, one thread per destination,
each with bounded retries; the outcome and every attempt are recorded. A destination that
keeps failing costs only its own retries: it never stops the worker or the others.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from ..alert import (
    AlertDecision,
    AlertsConfig,
    Delivery,
    LastAlert,
    PendingDelivery,
    RunOutcome,
    SendFn,
    SignalRecord,
    decide,
    send_with_retry,
    slack_payload,
    urllib_send,
    webhook_payload,
)
from ..store import Store
from ._loop import PollingWorker

__all__ = ["AlertsWorker"]

log = logging.getLogger("semloop.worker.alerts")


class AlertsWorker(PollingWorker):
    name = "alerts"

    def __init__(
        self,
        store: Store,
        config: AlertsConfig | None = None,
        *,
        poll_interval: float = 10.0,
        batch_size: int = 100,
        lease_s: float = 300.0,
        send: SendFn = urllib_send,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(poll_interval=poll_interval)
        self.store = store
        self.config = config or AlertsConfig()
        self.batch_size = batch_size
        self.lease_s = lease_s
        self._send = send
        self._sleep = sleep
        self._clock = clock
        self.decisions: dict[str, int] = {}
        self.deliveries: dict[str, int] = {}

    # -- decide -----------------------------------------------------------------------

    def _decide(self, signal: SignalRecord, history: list[RunOutcome], complete: bool,
                last_alert: LastAlert | None) -> AlertDecision:
        decision = decide(signal, self.config.policy(signal.failure_type), history, last_alert,
                          now=self._clock(), cooldown_s=self.config.cooldown_s,
                          complete=complete)
        if decision.decision != "alerted":
            return decision
        base = self.config.link_base_url
        builders = {"webhook": webhook_payload, "slack": slack_payload}
        return dataclasses.replace(decision, deliveries=tuple(
            Delivery(d.name, builders[d.type](signal, decision, base))
            for d in self.config.destinations
        ))

    def decide_batch(self) -> list[AlertDecision]:
        """Decide on what is waiting; returns the verdicts (stored by the store)."""
        # A run before the signal's counts only if it fits the longest window twice over:
        # once for the policy, once more to see whether an open alert's condition cleared.
        history = 2 * self.config.history_window + 1
        decisions = self.store.decide_alerts(self._decide, limit=self.batch_size,
                                             history=history, now=self._clock())
        for d in decisions:
            self.decisions[d.decision] = self.decisions.get(d.decision, 0) + 1
        return decisions

    # -- send -------------------------------------------------------------------------

    def _deliver_all(self, jobs: Sequence[PendingDelivery]) -> None:
        # Sequential within a destination, so its own retries back off; each destination
        # on its own thread, so one that keeps failing does not hold up another.
        for job in jobs:
            try:
                self._deliver(job)
            except Exception:
                # Left as is, the delivery's lease lapses and it is tried again later.
                log.exception("alerts: delivery %s to %s failed to record", job.id,
                              job.destination)

    def _deliver(self, job: PendingDelivery) -> None:
        destination = self.config.destination(job.destination)
        if destination is None:
            self.store.finish_delivery(
                job.id, status="failed", now=self._clock(),
                attempts=[], last_error=f"no destination named {job.destination!r} configured")
            self._count("failed")
            return
        result = send_with_retry(self._send, destination.url, job.payload,
                                 headers=destination.headers, retry=self.config.retry,
                                 timeout_s=destination.timeout_s, sleep=self._sleep,
                                 clock=self._clock)
        self.store.finish_delivery(job.id, status=result.status,
                                   attempts=[a.to_dict() for a in result.attempts],
                                   last_error=result.last_error, now=self._clock())
        self._count(result.status)
        if not result.delivered:
            log.warning("alerts: %s gave up after %d attempts: %s", destination.name,
                        len(result.attempts), result.last_error)

    def _count(self, status: str) -> None:
        self.deliveries[status] = self.deliveries.get(status, 0) + 1

    def send_batch(self) -> int:
        """Send what is pending; returns how many deliveries were attempted."""
        jobs = self.store.claim_deliveries(limit=self.batch_size, lease_s=self.lease_s,
                                           now=self._clock())
        if not jobs:
            return 0
        by_destination: dict[str, list[PendingDelivery]] = {}
        for job in jobs:
            by_destination.setdefault(job.destination, []).append(job)
        if len(by_destination) == 1:
            self._deliver_all(jobs)
        else:
            with ThreadPoolExecutor(max_workers=len(by_destination),
                                    thread_name_prefix="semloop-alerts-send") as pool:
                list(pool.map(self._deliver_all, by_destination.values()))
        return len(jobs)

    def process_batch(self) -> int:
        decided = 0
        try:
            decided = len(self.decide_batch())
        except Exception:
            # Deliveries already queued still go out: the two phases fail separately.
            self.stats.failed_batches += 1
            log.exception("alerts: deciding failed; will poll again")
        self.stats.signals += decided
        return decided + self.send_batch()
