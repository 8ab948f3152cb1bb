"""The retention worker: prunes runs older than a retention period, once an hour.

``semloop up --retention-days N`` runs it beside the server; ``semloop prune`` is the same
prune, once, from the command line.
"""

from __future__ import annotations

import logging
import time

from ..store import PruneResult, Store
from ._polling import PollingWorker

__all__ = ["RetentionWorker"]

log = logging.getLogger("semloop.worker")


class RetentionWorker(PollingWorker):
    """Deletes, every ``poll_interval`` seconds (an hour), the runs of ``store`` last
    touched more than ``days`` ago, starting at once. A failing prune is logged and tried
    again at the next poll, like any worker's batch."""

    name = "retention"

    def __init__(self, store: Store, days: float, *, poll_interval: float = 3600.0) -> None:
        if days <= 0:
            raise ValueError(f"retention must be a positive number of days, not {days}")
        super().__init__(poll_interval=poll_interval)
        self.store = store
        self.days = days
        self.last: PruneResult | None = None

    def __str__(self) -> str:
        return f"{self.name} (runs older than {self.days:g} days, every {self.poll_interval:g} s)"

    def process_batch(self) -> int:
        cutoff = time.time() - self.days * 86400
        self.last = self.store.prune(cutoff)
        if self.last.runs:
            log.info("retention: %s", self.last.describe(cutoff))
        # One prune takes every run that is due; the next ones are due an hour later.
        return 0
