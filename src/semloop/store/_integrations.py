"""The integrations worker's bookkeeping: each integration's pull cursor and its outage.

An outage starts at an integration's first failed pull and ends at its next good one. One
that lasts ``down_after_s`` writes **one** shadow EXTERNAL_INTEGRATION_DOWN signal: the
flag that says it was written flips in the same conditional update that decides it, so
polls (or workers) that keep failing never write a second one for the same outage.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Table, func, select, update
from sqlalchemy.engine import Connection

from ..events import Severity, Signal
from ._connector import Area
from ._dialect import insert_ignore
from ._errors import translate_errors
from ._models import IntegrationState
from ._signals import insert_signals

__all__ = ["INTEGRATION_DOWN", "IntegrationStatus", "Integrations"]

state: Table = IntegrationState.__table__  # type: ignore[assignment]

#: The shadow signal of an integration failing for longer than the worker allows.
INTEGRATION_DOWN = "EXTERNAL_INTEGRATION_DOWN"


@dataclass(frozen=True)
class IntegrationStatus:
    provider: str
    cursor: str | None
    last_success_at: float | None
    failing_since: float | None
    failures: int
    last_error: str | None
    down_signalled: bool


class Integrations(Area):
    """Cursors and outages of the pulled external-evaluation providers."""

    def integration_status(self, org_id: str, name: str) -> IntegrationStatus | None:
        with translate_errors("read an integration"), self._db.read() as conn:
            row = conn.execute(select(state).where(state.c.org_id == org_id,
                                                   state.c.name == name)).first()
        return None if row is None else IntegrationStatus(
            row.provider, row.cursor, row.last_success_at, row.failing_since, row.failures,
            row.last_error, row.down_signalled)

    def integration_pulled(self, org_id: str, name: str, provider: str, cursor: str | None,
                           *, now: float | None = None) -> None:
        """A good pull: keep its cursor; an outage in progress is over."""
        now = time.time() if now is None else now
        with translate_errors("record an integration pull"), self._db.write() as conn:
            self._ensure(conn, org_id, name, provider, now)
            conn.execute(update(state).where(state.c.org_id == org_id, state.c.name == name)
                         .values(cursor=cursor, last_success_at=now, failing_since=None,
                                 failures=0, last_error=None, down_signalled=False,
                                 updated_at=now))

    def integration_failed(self, org_id: str, name: str, provider: str, error: str, *,
                           down_after_s: float, now: float | None = None) -> bool:
        """A failed pull. True when it made the outage ``down_after_s`` old and wrote its
        one EXTERNAL_INTEGRATION_DOWN signal."""
        now = time.time() if now is None else now
        key = (state.c.org_id == org_id, state.c.name == name)
        with translate_errors("record an integration failure"), self._db.write() as conn:
            self._ensure(conn, org_id, name, provider, now)
            conn.execute(update(state).where(*key).values(
                failing_since=func.coalesce(state.c.failing_since, now),
                failures=state.c.failures + 1, last_error=error[:500], updated_at=now))
            flipped = conn.execute(update(state).where(
                *key, state.c.down_signalled.is_(False),
                state.c.failing_since <= now - down_after_s).values(down_signalled=True)
                .returning(state.c.failing_since, state.c.failures, state.c.last_success_at)
            ).first()
            if flipped is None:
                return False
            since = float(flipped.failing_since)
            # A signal belongs to a run; an outage has none, so it gets a run id of its own,
            # one per outage (the signal key is org, run, type and source).
            insert_signals(conn, self._db.dialect, org_id, [Signal(
                failure_type=INTEGRATION_DOWN, run_id=f"integration:{name}:{int(since)}",
                severity=Severity.LOW, confidence=1.0, source=provider, shadow=True,
                co_signal_count=0,
                evidence={"integration": name, "provider": provider, "failing_since": since,
                          "failures": flipped.failures, "last_error": error[:500],
                          "last_success_at": flipped.last_success_at})])
            return True

    def _ensure(self, conn: Connection, org_id: str, name: str, provider: str, now: float) -> None:
        conn.execute(insert_ignore(self._db.dialect, state, ["org_id", "name"]), {
            "org_id": org_id, "name": name, "provider": provider, "cursor": None,
            "last_success_at": None, "failing_since": None, "failures": 0,
            "last_error": None, "down_signalled": False, "updated_at": now})
