"""Signals: what detectors and evaluators found, one row per (run, failure type, source)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from sqlalchemy.engine import Connection

from ..events import Signal
from . import queries as q
from ._connector import Area
from ._dialect import Dialect
from ._errors import translate_errors
from ._rows import signal_of

__all__ = ["Signals", "insert_signals"]


def insert_signals(conn: Connection, dialect: Dialect, org_id: str,
                   signals: Sequence[Signal]) -> int:
    """Insert ``signals`` in ``conn``'s transaction; returns how many were new."""
    if not signals:
        return 0
    detected = time.time()
    rows = [
        {
            "org_id": org_id,
            "run_id": s.run_id,
            "failure_type": s.failure_type,
            "source": s.source,
            "severity": s.severity,
            "confidence": float(s.confidence),
            "evidence": dict(s.evidence),
            "step_index": s.step_index,
            "agent_id": s.agent_id,
            "agent_version": s.agent_version,
            "shadow": s.shadow,
            "alerted": False,
            "co_signal_count": s.co_signal_count,
            "detected_at": detected,
        }
        for s in signals
    ]
    return max(conn.execute(q.add_signals(dialect), rows).rowcount, 0)


class Signals(Area):
    """Storing and reading signals."""

    def add_signals(self, org_id: str, signals: Sequence[Signal]) -> int:
        """Store signals; returns how many were new. One row per (run, failure_type, source)."""
        if not signals:
            return 0
        with translate_errors("store signals"), self._db.write() as conn:
            return insert_signals(conn, self._db.dialect, org_id, signals)

    def signals_for_run(self, org_id: str, run_id: str) -> list[Signal]:
        """The signals stored for one run, in detection order."""
        with translate_errors("read signals"), self._db.read() as conn:
            return [signal_of(row) for row in conn.execute(q.signals_of_run(org_id, run_id))]
