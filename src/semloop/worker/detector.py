"""The detector worker: structural detectors over every run that completed, errored or stalled.

It wires :func:`semloop.detect.run_detectors` to the store: runs in, signals out, one
``processed_runs`` row per run. Writes are idempotent (one signal per detector per run), so
two workers on one database, or a restart mid-batch, never duplicate a signal.
"""

from __future__ import annotations

import logging

from ..detect import Baseline, DetectorConfig, detect_handoff, run_detectors
from ..events import Run, Signal
from ..store import Store
from ._loop import PollingWorker

__all__ = ["DetectorWorker"]

log = logging.getLogger("semloop.worker.detector")


class DetectorWorker(PollingWorker):
    name = "detector"

    def __init__(
        self,
        store: Store,
        config: DetectorConfig | None = None,
        *,
        poll_interval: float = 5.0,
        stall_timeout_s: float = 90.0,
        batch_size: int = 100,
    ) -> None:
        super().__init__(poll_interval=poll_interval)
        self.store = store
        self.config = config or DetectorConfig()
        self.stall_timeout_s = stall_timeout_s
        self.batch_size = batch_size

    def signals_for(self, org_id: str, run: Run) -> list[Signal]:
        history = self.store.recent_runs(org_id, run.agent_id, run.agent_version)
        baseline = Baseline.from_runs(
            (r for r in history if r.run_id != run.run_id),
            agent_id=run.agent_id, agent_version=run.agent_version,
        )
        signals = run_detectors(run, self.config, baseline)
        if run.parent_run_id:
            parent = self.store.get_run(org_id, run.parent_run_id)
            if parent is not None:
                handoff = detect_handoff(parent, run, self.config)
                if handoff is not None:
                    signals.append(handoff)
        return signals

    def process_batch(self) -> int:
        batch = self.take(lambda lease_s: self.store.runs_to_process(
            self.name, limit=self.batch_size, stall_timeout_s=self.stall_timeout_s,
            lease_s=lease_s))
        handled = 0
        for claim in batch:
            org_id, run, trigger = claim
            try:
                signals = self.signals_for(org_id, run)
                self.stats.signals += self.store.add_signals(org_id, signals)
                self.store.mark_processed(self.name, org_id, run.run_id, trigger)
            except Exception:
                log.exception("detector: run %s failed; will retry", run.run_id)
                self.retry_later(claim)
                continue
            self.stats.runs += 1
            handled += 1
        return handled
