"""Worker bookkeeping: leasing unprocessed runs to a worker and recording it is done."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from ..events import Run, Signal
from . import queries as q
from ._connector import Area
from ._errors import translate_errors
from ._events import load_runs
from ._signals import insert_signals

__all__ = ["Claims"]


class Claims(Area):
    """Which runs each worker still has to process, leased so instances share work."""

    def runs_to_process(
        self,
        worker: str,
        *,
        limit: int = 100,
        stall_timeout_s: float = 90.0,
        now: float | None = None,
        lease_s: float = 300.0,
        after: str | None = None,
    ) -> list[tuple[str, Run, str]]:
        """Up to ``limit`` runs ``worker`` has not processed: ``(org_id, run, trigger)``.

        ``trigger`` is ``completed`` or ``errored`` (the run's terminal event) or ``stalled``
        (a started run with no terminal event and nothing received for ``stall_timeout_s``).
        Each returned run is leased to this caller for ``lease_s`` seconds, so several
        instances of one worker sharing the database take different runs; a run whose
        lease expires without :meth:`mark_processed` (a crashed worker) is handed out again.
        With ``after`` (a worker's name), a run is ready only once that worker processed it:
        the semantic worker waits for the detector's structural verdict.
        """
        now = time.time() if now is None else now
        wanted: dict[tuple[str, str], str] = {}
        with translate_errors("poll for runs"):
            with self._db.write() as conn:
                terminal = q.terminal_runs(worker, now, limit, after)
                for org_id, run_id, event_type in conn.execute(terminal):
                    wanted.setdefault((org_id, run_id), q.TERMINAL_TRIGGERS[event_type])
                # An infinite timeout (workers that judge finished runs only) skips the query.
                if len(wanted) < limit and math.isfinite(stall_timeout_s):
                    cutoff = now - stall_timeout_s
                    stalled = conn.execute(
                        q.stalled_runs(worker, now, cutoff, limit - len(wanted))
                    )
                    for org_id, run_id in stalled:
                        wanted.setdefault((org_id, run_id), "stalled")
                if not wanted:
                    return []
                # Sorted: concurrent pollers then lock claim rows in one order (no deadlock).
                claim = [
                    {"worker": worker, "org_id": org_id, "run_id": run_id,
                     "claimed_until": now + lease_s}
                    for org_id, run_id in sorted(wanted)
                ]
                claimed = {
                    (row.org_id, row.run_id)
                    for row in conn.execute(q.claim_runs(self._db.dialect, now).values(claim))
                }
                by_org: dict[str, list[str]] = {}
                for org_id, run_id in claimed:
                    by_org.setdefault(org_id, []).append(run_id)
                # A poller that finished a run after this poll's first query and released
                # its claim leaves the run claimable, though processed: this statement sees
                # its commit (PostgreSQL reads what committed before each statement).
                for org_id, ids in by_org.items():
                    done = set(conn.execute(q.processed_of(worker, org_id, ids)).scalars())
                    for run_id in done:
                        conn.execute(q.release_claim(worker, org_id, run_id))
                    by_org[org_id] = [i for i in ids if i not in done]
            with self._db.read() as conn:
                runs = {
                    (org_id, run_id): run
                    for org_id, ids in by_org.items()
                    for run_id, run in load_runs(conn, org_id, ids).items()
                }
        return [
            (org_id, runs[(org_id, run_id)], trigger)
            for (org_id, run_id), trigger in wanted.items()
            if (org_id, run_id) in runs
        ]

    def mark_processed(self, worker: str, org_id: str, run_id: str, trigger: str,
                       signals: Sequence[Signal] = ()) -> int:
        """Record that ``worker`` is done with a run, with the ``signals`` it found, in one
        transaction; the run will not be handed out again. Returns how many signals were
        new (see :meth:`add_signals`)."""
        with translate_errors("mark a run processed"), self._db.write() as conn:
            added = insert_signals(conn, self._db.dialect, org_id, signals)
            conn.execute(
                q.mark_processed(self._db.dialect),
                {"worker": worker, "org_id": org_id, "run_id": run_id, "trigger": trigger,
                 "processed_at": time.time()},
            )
            conn.execute(q.release_claim(worker, org_id, run_id))
        return added
