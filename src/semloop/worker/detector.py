"""The detector worker: structural detectors over every run that completed, errored or stalled.

It wires :func:`semloop.detect.run_detectors` to the store: runs in, signals out, one
``processed_runs`` row per run. Writes are idempotent (one signal per detector per run), so
two workers on one database, or a restart mid-batch, never duplicate a signal.
"""

from __future__ import annotations

import logging
from collections import defaultdict

from ..detect import (
    MAX_CHAIN,
    PACKS,
    BaselineHistory,
    DetectorConfig,
    detect_handoff,
    detect_lineage,
    run_detectors,
)
from ..detect.baseline import WINDOW
from ..events import Run, Signal
from ..store import Store
from ._polling import PollingWorker

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

    def config_for(self, org_id: str) -> DetectorConfig:
        """The detector settings for the org's runs: the file's, with its enabled packs."""
        # A pack stored by an older release and since dropped no longer applies.
        return self.config.with_packs(p.pack_name for p in self.store.packs(org_id)
                                      if p.pack_name in PACKS)

    def signals_for(self, org_id: str, run: Run, history: BaselineHistory | None = None,
                    config: DetectorConfig | None = None) -> list[Signal]:
        """The run's signals; ``history`` holds the runs its baseline is drawn from (by
        default read for this run alone), ``config`` the org's settings (read if not
        given)."""
        if history is None:
            history = BaselineHistory(self.store.history_for(org_id, [run], WINDOW))
        if config is None:
            config = self.config_for(org_id)
        signals = run_detectors(run, config, history.before(run))
        if run.parent_run_id:
            parent = self.store.get_run(org_id, run.parent_run_id)
            if parent is not None:
                handoff = detect_handoff(parent, run, config)
                if handoff is not None:
                    signals.append(handoff)
                looped = detect_lineage(self.lineage(org_id, run, parent), config)
                if looped is not None:
                    signals.append(looped)
        return signals

    def lineage(self, org_id: str, run: Run, parent: Run) -> list[Run]:
        """The runs from the root of ``run``'s parent chain down to ``run``: one read per
        hop, at most MAX_CHAIN, stopping at a run id already seen (a corrupt cycle)."""
        chain = [run, parent]
        seen = {run.run_id, parent.run_id}
        current: Run | None = parent
        while current is not None and current.parent_run_id and len(chain) < MAX_CHAIN:
            if current.parent_run_id in seen:
                break
            seen.add(current.parent_run_id)
            current = self.store.get_run(org_id, current.parent_run_id)
            if current is not None:
                chain.append(current)
        return chain[::-1]

    def process_batch(self) -> int:
        batch = self.take(lambda lease_s: self.store.runs_to_process(
            self.name, limit=self.batch_size, stall_timeout_s=self.stall_timeout_s,
            lease_s=lease_s))
        # One read of history per agent version in the batch, not one per run: a backlog of
        # one busy agent's runs would otherwise reload the same 50 runs for every one.
        groups: dict[tuple[str, str, str], list[Run]] = defaultdict(list)
        for org_id, run, _ in batch:
            groups[org_id, run.agent_id, run.agent_version].append(run)
        histories: dict[tuple[str, str, str], BaselineHistory] = {}
        # Packs are read once per org per batch: a pack enabled now applies from the next.
        configs: dict[str, DetectorConfig] = {}
        handled = 0
        for claim in batch:
            org_id, run, trigger = claim
            key = (org_id, run.agent_id, run.agent_version)
            try:
                if key not in histories:
                    histories[key] = BaselineHistory(
                        self.store.history_for(org_id, groups[key], WINDOW))
                if org_id not in configs:
                    configs[org_id] = self.config_for(org_id)
                signals = self.signals_for(org_id, run, histories[key], configs[org_id])
                if any(not s.shadow for s in signals):
                    histories[key].flag(run.run_id)  # for the later runs of this batch
                self.stats.signals += self.store.mark_processed(
                    self.name, org_id, run.run_id, trigger, signals)
            except Exception:
                log.exception("detector: run %s failed; will retry", run.run_id)
                self.retry_later(claim)
                continue
            self.stats.runs += 1
            handled += 1
        return handled
