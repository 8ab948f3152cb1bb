"""Events and the runs they make: storing a batch, reading runs back."""

from __future__ import annotations

import functools
import operator
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from .._exceptions import EventFormatError
from ..events import Event, Run, check_payload_numbers
from . import queries as q
from ._connector import Area
from ._errors import translate_errors
from ._rows import CHUNK, dumps, event_of, no_nul

__all__ = ["LIMITS", "Events", "check_event", "load_runs"]

#: Longest text the schema holds per event field (ids are indexed, so they stay short).
LIMITS = {
    "event_id": 64,
    "event_type": 64,
    "run_id": 128,
    "agent_id": 200,
    "agent_version": 64,
    "parent_run_id": 128,
    "trace_id": 128,
    "conversation_id": 200,
}
_INT_MAX = 2**31 - 1


def check_event(event: Event) -> None:
    """Raise :class:`EventFormatError` naming the field if ``event`` does not fit the schema."""
    for name, limit in LIMITS.items():
        value = getattr(event, name)
        if value is not None and len(value) > limit:
            raise EventFormatError(f"longer than {limit} characters", field=name)
    if event.step_index > _INT_MAX:
        raise EventFormatError("too large", field="step_index")
    check_payload_numbers(event.payload)


def load_runs(conn: Connection, org_id: str, run_ids: Sequence[str]) -> dict[str, Run]:
    """The runs of ``run_ids`` that ``org_id`` has, each with its events in order."""
    by_run: dict[str, list[Event]] = {}
    for start in range(0, len(run_ids), CHUNK):
        for row in conn.execute(q.events_of_runs(org_id, run_ids[start:start + CHUNK])):
            by_run.setdefault(row.run_id, []).append(event_of(row))
    return {run_id: Run.from_events(evs) for run_id, evs in by_run.items()}


class Events(Area):
    """Storing events and reading runs back."""

    @functools.cached_property
    def _add_events_sql(self) -> tuple[str, Callable[[dict[str, Any]], Any] | None]:
        # The ingest hot path: the statement compiled once, its rows handed to the
        # driver as they are. SQLAlchemy's per-row bind processing cost ingest ~12 µs
        # of CPU per event, as much as the driver itself.
        compiled = q.add_events(self._db.dialect).compile(
            dialect=self._db.engine.dialect, column_keys=list(q.EVENT_COLUMNS))
        order = operator.itemgetter(*compiled.positiontup) if compiled.positiontup else None
        return str(compiled), order

    def add_events(self, org_id: str, events: Sequence[Event]) -> int:
        """Store ``events`` for ``org_id``; returns how many were new (replays are skipped).

        Raises :class:`EventFormatError` (with ``index``) before writing anything if one
        event does not fit the schema; callers that want to keep the rest check first
        with :func:`check_event`.
        """
        if not events:
            return 0
        for index, event in enumerate(events):
            try:
                check_event(event)
            except EventFormatError as exc:
                raise EventFormatError(exc.message, index=index, field=exc.field) from None
        received = time.time()
        rows = [
            {
                "org_id": org_id,
                "event_id": no_nul(e.event_id),
                "event_type": no_nul(e.event_type),
                "run_id": no_nul(e.run_id),
                "agent_id": no_nul(e.agent_id),
                "agent_version": no_nul(e.agent_version) or "",
                "step_index": e.step_index,
                "timestamp": e.timestamp,
                "payload": dumps(e.payload),
                "parent_run_id": no_nul(e.parent_run_id),
                "trace_id": no_nul(e.trace_id),
                "conversation_id": no_nul(e.conversation_id),
                "received_at": received,
            }
            for e in events
        ]
        sql, order = self._add_events_sql
        params: list[Any] = rows if order is None else [order(r) for r in rows]
        stored = 0
        with translate_errors("store events"), self._db.write() as conn:
            for start in range(0, len(params), CHUNK):
                result = conn.exec_driver_sql(sql, params[start:start + CHUNK])
                stored += max(result.rowcount, 0)
        return stored

    def get_run(self, org_id: str, run_id: str) -> Run | None:
        """One run with its events in order, or ``None`` if ``org_id`` has no such run."""
        with translate_errors("read a run"), self._db.read() as conn:
            return load_runs(conn, org_id, [run_id]).get(run_id)

    def recent_runs(
        self, org_id: str, agent_id: str, agent_version: str, limit: int = 50,
        *, before: float | None = None,
    ) -> list[Run]:
        """The last ``limit`` completed runs of one agent version that had no live
        structural signal, newest first (baselines); with ``before``, the last that
        completed before that time."""
        with translate_errors("read recent runs"), self._db.read() as conn:
            ids = list(dict.fromkeys(conn.execute(
                q.completed_runs_of_agent(org_id, agent_id, agent_version, limit, before)
            ).scalars()))
            runs = load_runs(conn, org_id, ids)
        return [runs[i] for i in ids if i in runs]

    def history_for(self, org_id: str, runs: Sequence[Run], window: int = 50) -> list[Run]:
        """Enough completed runs without a live structural signal of the agent version of
        ``runs`` (one agent version) for each of their baselines: the ``window`` that
        completed before each one ended.
        Runs of ``runs`` itself are taken as given, not read again."""
        ends = [r.ended_at for r in runs if r.events]
        if not ends:
            return []
        agent_id, version = runs[0].agent_id, runs[0].agent_version
        have = {r.run_id: r for r in runs}
        with translate_errors("read recent runs"), self._db.read() as conn:
            between = conn.execute(q.count_completed_runs(
                org_id, agent_id, version, min(ends), max(ends))).scalar_one()
            ids = list(dict.fromkeys(conn.execute(q.completed_runs_of_agent(
                org_id, agent_id, version, window + int(between), max(ends))).scalars()))
            loaded = load_runs(conn, org_id, [i for i in ids if i not in have])
        return [found for i in ids if (found := have.get(i) or loaded.get(i)) is not None]

    def count_events(self, org_id: str) -> int:
        """How many events ``org_id`` has stored."""
        with translate_errors("count events"), self._db.read() as conn:
            return int(conn.execute(q.count_events(org_id)).scalar_one())
