"""The loop worker: the judged loop detector over every finished run.

It asks the library's question, "did the agent get anywhere?", of each completed or errored
run through one judge call (the embedded judge by default: no API key, no network). A
judge failure leaves the run without a loop verdict; it is counted and logged, never fatal.
"""

from __future__ import annotations

import logging

from .._exceptions import InputError, JudgeError
from ..evaluate import SemanticLoopDetection, loop_confidence
from ..events import Run, Signal, severity_for
from ..judge import Backend
from ..store import Store
from ._polling import PollingWorker

__all__ = ["LoopWorker", "loop_signal"]

log = logging.getLogger("semloop.worker.loop")

FAILURE_TYPE = "SEMANTIC_LOOP"


def loop_signal(run: Run, detector: SemanticLoopDetection, judge: str) -> Signal | None:
    """A SEMANTIC_LOOP signal for ``run``, or None when it got somewhere.

    It fires when the combined verdict flags a loop, and also on a confirmed stuck stretch:
    reasoning stagnation at 0.0 over a stretch of at least 3 steps (first to last, named in
    the evidence), or the exact or judged tool check at 0.0 (one call made 2 x threshold
    times with nothing changed between). A lone repeated step does not page anyone: on
    long real runs that is alert fatigue. With deepeval's weights no lone sub-signal can
    flip the verdict, so these are checked on their own.
    """
    result = detector.measure(run.to_trace())
    breakdown = result.score_breakdown or {}
    confidence, confirmed, stretch = loop_confidence(result, detector.mild_stagnation)
    if not result.flags_loop(detector.threshold) and not confirmed:
        return None
    return Signal(
        failure_type=FAILURE_TYPE,
        run_id=run.run_id,
        severity=severity_for(confidence),
        confidence=confidence,
        evidence={
            "reason": result.reason,
            "score": result.score,
            "score_breakdown": breakdown,
            "confirmed": confirmed,
            "stuck_stretch": {"first_step": stretch[0], "last_step": stretch[1]}
            if stretch is not None else None,
            "undecided": result.undecided,
            "judge": judge,
            "latency_ms": result.latency_ms,
            "cost_usd": result.cost_usd,
        },
        source="semantic",
        agent_id=run.agent_id,
        agent_version=run.agent_version,
    )


class LoopWorker(PollingWorker):
    name = "loop"

    def __init__(
        self,
        store: Store,
        backend: Backend,
        *,
        poll_interval: float = 5.0,
        batch_size: int = 50,
        threshold: float = 0.5,
    ) -> None:
        super().__init__(poll_interval=poll_interval)
        self.store = store
        self.backend = backend
        self.detector = SemanticLoopDetection(backend, threshold=threshold)
        self.batch_size = batch_size

    def __str__(self) -> str:
        return f"{self.name} (judge {self.backend.name}, every {self.poll_interval:g} s)"
    def process_batch(self) -> int:
        # Stalled runs have no end yet; the judge reads finished runs only.
        batch = self.take(lambda lease_s: self.store.runs_to_process(
            self.name, limit=self.batch_size, stall_timeout_s=float("inf"), lease_s=lease_s))
        handled = 0
        for claim in batch:
            org_id, run, trigger = claim
            try:
                signal = loop_signal(run, self.detector, self.backend.name)
            except (JudgeError, InputError) as exc:
                # A bad answer or an unreadable run: recorded as handled, with no verdict.
                self.stats.unjudged += 1
                log.warning("loop: run %s has no verdict: %s", run.run_id, exc)
                signal = None
            try:
                self.stats.signals += self.store.mark_processed(
                    self.name, org_id, run.run_id, trigger, [signal] if signal else [])
            except Exception:
                log.exception("loop: run %s not recorded; will retry", run.run_id)
                self.retry_later(claim)
                continue
            self.stats.runs += 1
            handled += 1
        return handled
