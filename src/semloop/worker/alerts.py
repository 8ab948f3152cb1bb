"""The alerts worker: stored signals in, webhook and Slack messages out.

Each poll (10 s by default) has two phases. **Decide**: every signal not yet decided gets
a verdict from the pure policy and de-duplication rules of :mod:`semloop.alert`; an alert
and its deliveries (one per destination whose route it matches) are written in the same transaction as the
verdict. **Send**: pending deliveries are leased one at a time and POSTed, one thread per
destination, each with bounded retries; the outcome and every attempt are recorded. A
destination that is down costs each poll one delivery's retries: it never stops the
worker or the other destinations, and its queue waits for it.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ..alert import (
    AlertDecision,
    AlertsConfig,
    Delivery,
    Destination,
    LastAlert,
    PendingDelivery,
    RunOutcome,
    Send,
    SendResult,
    UndecidedSignal,
    decide,
    send_with_retry,
    slack_payload,
    urllib_send,
    webhook_payload,
)
from ..store import Store
from ._polling import PollingWorker

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
        lease_margin_s: float = 60.0,
        send: Send = urllib_send,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(poll_interval=poll_interval)
        self.store = store
        self.config = config or AlertsConfig()
        self.batch_size = batch_size
        self.lease_margin_s = lease_margin_s
        self._lock = threading.Lock()
        self._send = send
        self._sleep = sleep
        self._clock = clock
        self.decisions: dict[str, int] = {}
        self.deliveries: dict[str, int] = {}
        #: Alerts opened that matched no destination's route (stored, sent nowhere).
        self.unrouted = 0

    # -- decide -----------------------------------------------------------------------

    def _decide(self, signal: UndecidedSignal, history: list[RunOutcome], complete: bool,
                last_alert: LastAlert | None) -> AlertDecision:
        decision = decide(signal, self.config.policy(signal.failure_type), history, last_alert,
                          now=self._clock(), cooldown_s=self.config.cooldown_s,
                          complete=complete)
        if decision.decision != "alerted":
            return decision
        base = self.config.link_base_url
        builders = {"webhook": webhook_payload, "slack": slack_payload}
        routed = self.config.destinations_for(signal)
        if self.config.destinations and not routed:
            # Still stored (list_alerts shows it, with no delivery): a route that matches
            # nothing must not lose the alert, only leave it unsent.
            self.unrouted += 1
            log.info("alerts: %s on %s (run %s) matches no destination's route",
                     signal.failure_type, signal.agent_id, signal.run_id)
        return dataclasses.replace(decision, deliveries=tuple(
            Delivery(d.name, builders[d.type](signal, decision, base)) for d in routed
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

    def _lease_s(self, destination: Destination | None) -> float:
        # One delivery's whole retry budget plus a margin: a lease never lapses while its
        # sender is still trying, so a live worker's delivery is never sent twice.
        if destination is None:
            return self.lease_margin_s
        retry = self.config.retry
        return (retry.attempts * destination.timeout_s + sum(retry.delays())
                + self.lease_margin_s)

    def _drain_destination(self, name: str) -> int:
        """Send one destination's waiting deliveries, one lease at a time; returns how many.

        A delivery that fails after its last retry (the receiver is down) ends this
        destination's turn: the rest stay pending, untried, for the next poll, so an
        outage costs each poll one delivery's retries instead of all of them.
        """
        destination = self.config.destination(name)
        sent = 0
        while sent < self.batch_size:
            jobs = self.store.claim_deliveries(limit=1, lease_s=self._lease_s(destination),
                                               destination=name, now=self._clock())
            if not jobs:
                break
            sent += 1
            try:
                result = self._deliver(jobs[0], destination)
            except Exception:
                # Not recorded: its lease lapses and it is tried again later.
                log.exception("alerts: delivery %s to %s failed to record", jobs[0].id, name)
                break
            if result is not None and not result.delivered and result.gave_up:
                break
        return sent

    def _deliver(self, job: PendingDelivery, destination: Destination | None) -> SendResult | None:
        if destination is None:
            self.store.finish_delivery(
                job.id, status="failed", now=self._clock(),
                attempts=[], last_error=f"no destination named {job.destination!r} configured")
            self._count("failed")
            return None
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
        return result

    def _count(self, status: str) -> None:
        with self._lock:
            self.deliveries[status] = self.deliveries.get(status, 0) + 1

    def send_batch(self) -> int:
        """Send what is pending, each destination on its own thread; returns how many
        deliveries were attempted."""
        names = self.store.due_destinations(now=self._clock())
        if len(names) <= 1:
            return sum(self._drain_destination(n) for n in names)
        with ThreadPoolExecutor(max_workers=len(names),
                                thread_name_prefix="semloop-alerts-send") as pool:
            return sum(pool.map(self._drain_destination, names))

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
