"""Retention: deleting whole old runs, batch by batch, beside ingest and the workers."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from . import queries as q
from ._connector import Area
from ._dialect import Dialect
from ._errors import translate_errors
from ._records import PruneResult
from ._rows import CHUNK

__all__ = ["Retention"]


class Retention(Area):
    """Deleting old runs whole."""

    def prune(
        self,
        older_than: float,
        *,
        org_id: str | None = None,
        batch: int = 500,
        dry_run: bool = False,
        progress: Callable[[PruneResult], None] | None = None,
        now: float | None = None,
    ) -> PruneResult:
        """Delete every run whose newest event was received before ``older_than`` (epoch
        seconds), with its signals, their alerts and deliveries, and the workers' records
        of it; of one org only with ``org_id``. Returns the counts; ``dry_run`` counts only.

        A run is deleted whole or not at all: one that received an event after the cutoff,
        even while the prune runs, is kept entirely, and so is one a worker holds a live
        lease on (it goes at the next prune). Runs go ``batch`` at a time, each batch its
        own short transaction, so ingest and workers carry on in between and an
        interrupted prune keeps what it did. ``progress`` gets the running total after
        each batch; ``now`` is the time leases are judged at (default: the clock).
        Organizations and API keys are never deleted.
        """
        if not math.isfinite(older_than):
            raise ValueError(f"older_than must be a finite epoch time, not {older_than!r}")
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        total = PruneResult(dry_run=dry_run)
        with translate_errors("prune runs"):
            with self._db.read() as conn:
                orgs = list(conn.execute(q.org_ids(org_id)).scalars())
            for org in orgs:
                after: tuple[float, int] | None = None
                while True:
                    run_ids, after = self._prune_candidates(org, older_than, after, batch)
                    if after is None or not run_ids:
                        break
                    total += self._prune_batch(org, run_ids, after, dry_run,
                                               time.time() if now is None else now)
                    if progress is not None:
                        progress(total)
        return total

    def _prune_candidates(
        self, org_id: str, cutoff: float, after: tuple[float, int] | None, batch: int
    ) -> tuple[list[str], tuple[float, int] | None]:
        """Up to ``batch`` runs seen walking one org's events older than ``cutoff`` from
        ``after`` on, and the position the walk reached."""
        runs: dict[str, None] = {}
        with self._db.read() as conn:
            while True:
                rows = conn.execute(q.prune_scan(org_id, cutoff, after, batch)).all()
                for received_at, row_id, run_id in rows:
                    if run_id not in runs and len(runs) >= batch:
                        return list(runs), after
                    runs[run_id] = None
                    after = (float(received_at), int(row_id))
                if len(rows) < batch:
                    return list(runs), after

    def _prune_batch(self, org_id: str, run_ids: list[str], upto: tuple[float, int],
                     dry_run: bool, now: float) -> PruneResult:
        # Re-checked inside the deleting transaction, which holds off ingest (SQLite: the
        # one writer; PostgreSQL: PRUNE_LOCK), so an event arriving between the scan and
        # this point keeps its run, and none can arrive between this check and the delete.
        result = PruneResult(dry_run=dry_run)
        with (self._db.read() if dry_run else self._db.write()) as conn:
            if self._db.dialect is Dialect.POSTGRESQL and not dry_run:
                conn.execute(q.PRUNE_LOCK)
            for start in range(0, len(run_ids), CHUNK):
                chunk = list(conn.execute(q.prunable_runs(
                    org_id, run_ids[start:start + CHUNK], upto, now)).scalars())
                if not chunk:
                    continue
                if dry_run:
                    n_events, n_signals, n_alerts = conn.execute(
                        q.prune_counts(org_id, chunk)).one()
                else:
                    done = {name: max(conn.execute(stmt).rowcount, 0)
                            for name, stmt in q.prune_deletes(org_id, chunk).items()}
                    n_events, n_signals, n_alerts = (
                        done["events"], done["signals"], done["alerts"])
                result += PruneResult(len(chunk), int(n_events), int(n_signals),
                                      int(n_alerts))
        return result
