"""Alerts: the decide phase over undecided signals, and the delivery queue."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from ..alert.records import (
    AlertDecision,
    LastAlert,
    PastSignal,
    PendingDelivery,
    RunOutcome,
    StoredAlert,
    StoredDelivery,
    UndecidedSignal,
)
from . import queries as q
from ._connector import Area
from ._dialect import Dialect
from ._errors import translate_errors
from ._rows import as_mapping, no_nul

__all__ = ["Alerts", "Decide"]

log = logging.getLogger("semloop.store")

#: ``decide(signal, history, complete, last_alert)``: the alerts worker's pure verdict.
Decide = Callable[[UndecidedSignal, list[RunOutcome], bool, LastAlert | None], AlertDecision]


class Alerts(Area):
    """Deciding on signals and queueing, leasing and recording alert deliveries."""

    def decide_alerts(self, decide: Decide, *, limit: int = 100, history: int = 21,
                      now: float | None = None) -> list[AlertDecision]:
        """Decide on up to ``limit`` undecided signals, oldest first; returns the decisions.

        For each signal ``decide`` gets the agent's runs that ended up to the signal's run
        (newest first, at most ``history`` before it, each with its signals of the same
        failure type), whether that list holds every such run, and the newest alert of
        (org, agent, failure type). The verdict is stored on the signal, and an ``alerted``
        one becomes an alert row plus one pending delivery per destination, all in one
        transaction. Deciders are serialised (PostgreSQL advisory lock; SQLite's single
        writer), so a signal is decided once and two workers never both open an alert.
        A ``decide`` that raises marks that signal ``error`` (logged) and the rest go on.
        """
        now = time.time() if now is None else now
        decided: list[AlertDecision] = []
        with translate_errors("decide alerts"), self._db.write() as conn:
            if self._db.dialect is Dialect.POSTGRESQL:
                conn.execute(q.ALERTS_LOCK)
            for row in conn.execute(q.undecided_signals(limit)).all():
                record = _undecided_signal(row)
                ended = conn.execute(q.run_ended_at(record.org_id, record.run_id)).scalar()
                ended = record.detected_at if ended is None else float(ended)
                try:
                    runs, complete, last = self._alert_history(conn, record, ended, history)
                    decision = decide(record, runs, complete, last)
                except Exception:
                    log.exception("alerts: deciding on signal %s failed", record.id)
                    decision = AlertDecision(record.id, "error", "the decision raised")
                if conn.execute(q.set_alert_decision(record.id, decision.decision)).rowcount != 1:
                    continue
                if decision.decision == "alerted":
                    alert_id = conn.execute(q.insert_alert(self._db.dialect), {
                        "org_id": record.org_id, "signal_id": record.id,
                        "agent_id": record.agent_id, "failure_type": record.failure_type,
                        "run_id": record.run_id, "run_ended_at": ended,
                        "policy": decision.policy[:32], "severity": record.severity,
                        "confidence": record.confidence, "counts": dict(decision.counts),
                        "created_at": now,
                    }).scalar()
                    if alert_id is not None and decision.deliveries:
                        conn.execute(q.insert_deliveries(self._db.dialect), [
                            {"alert_id": alert_id, "destination": d.destination,
                             "status": "pending", "attempts": 0, "attempt_log": [],
                             "last_error": None, "payload": dict(d.payload),
                             "claimed_until": 0.0, "created_at": now, "finished_at": None}
                            for d in decision.deliveries
                        ])
                decided.append(decision)
        return decided

    @staticmethod
    def _alert_history(conn: Connection, record: UndecidedSignal, ended: float,
                       limit: int) -> tuple[list[RunOutcome], bool, LastAlert | None]:
        if record.shadow:
            return [], True, None  # never alerted: the history would not be read
        prior: dict[str, float] = {}
        rows = conn.execute(q.agent_runs_before(record.org_id, record.agent_id, ended, limit))
        for run_id, timestamp in rows:
            if run_id != record.run_id:
                prior.setdefault(run_id, float(timestamp))
        complete = len(prior) < limit
        order = [(record.run_id, ended), *prior.items()]
        found: dict[str, list[PastSignal]] = {}
        for srow in conn.execute(q.signals_of_type_on_runs(
                record.org_id, record.failure_type, [r for r, _ in order])):
            found.setdefault(srow.run_id, []).append(
                PastSignal(srow.source, float(srow.confidence), bool(srow.shadow)))
        runs = [RunOutcome(run_id, at, tuple(found.get(run_id, ()))) for run_id, at in order]
        last_row = conn.execute(
            q.last_alert(record.org_id, record.agent_id, record.failure_type)).first()
        last = None if last_row is None else LastAlert(
            int(last_row.id), last_row.run_id, float(last_row.created_at),
            float(last_row.run_ended_at), str(last_row.severity))
        return runs, complete, last

    def due_destinations(self, *, now: float | None = None) -> list[str]:
        """The destinations with deliveries waiting to be claimed."""
        now = time.time() if now is None else now
        with translate_errors("read alert deliveries"), self._db.read() as conn:
            return sorted(conn.execute(q.due_destinations(now)).scalars())

    def claim_deliveries(self, *, limit: int = 100, lease_s: float = 300.0,
                         destination: str | None = None,
                         now: float | None = None) -> list[PendingDelivery]:
        """Lease up to ``limit`` pending deliveries (of one ``destination`` if given) for
        ``lease_s`` seconds, oldest first.

        Two senders never hold the same delivery; one whose lease lapses (a crashed
        sender) is handed out again, so a delivery is sent at least once.
        """
        now = time.time() if now is None else now
        with translate_errors("claim alert deliveries"), self._db.write() as conn:
            if self._db.dialect is Dialect.POSTGRESQL:
                conn.execute(q.ALERTS_LOCK)
            rows = conn.execute(q.due_deliveries(now, limit, destination)).all()
            if rows:
                got = set(conn.execute(
                    q.claim_deliveries([r.id for r in rows], now, now + lease_s)).scalars())
                rows = [r for r in rows if r.id in got]
        return [PendingDelivery(int(r.id), int(r.alert_id), r.destination, as_mapping(r.payload))
                for r in rows]

    def finish_delivery(self, delivery_id: int, *, status: str,
                        attempts: Sequence[Mapping[str, Any]], last_error: str | None = None,
                        now: float | None = None) -> None:
        """Record a delivery's final ``status`` (delivered or failed) and its attempts."""
        if status not in ("delivered", "failed"):
            raise ValueError(f"a finished delivery is delivered or failed, not {status!r}")
        now = time.time() if now is None else now
        with translate_errors("record an alert delivery"), self._db.write() as conn:
            row = conn.execute(q.deliveries_by_id([delivery_id])).first()
            if row is None:
                return
            earlier = list(row.attempt_log) if isinstance(row.attempt_log, list) else []
            log_ = [*earlier, *(dict(a) for a in attempts)]
            conn.execute(q.finish_delivery(delivery_id), {
                "status": status, "attempts": len(log_), "attempt_log": log_,
                "last_error": None if last_error is None else no_nul(last_error[:500]),
                "finished_at": now, "claimed_until": 0.0,
            })

    def list_alerts(self, org_id: str, *, limit: int = 100) -> list[StoredAlert]:
        """One org's alerts, newest first, each with its deliveries."""
        with translate_errors("read alerts"), self._db.read() as conn:
            rows = conn.execute(q.alerts_of_org(org_id, limit)).all()
            by_alert: dict[int, list[StoredDelivery]] = {}
            if rows:
                for d in conn.execute(q.deliveries_of_alerts([r.id for r in rows])):
                    by_alert.setdefault(int(d.alert_id), []).append(StoredDelivery(
                        int(d.id), d.destination, d.status, int(d.attempts),
                        list(d.attempt_log) if isinstance(d.attempt_log, list) else [],
                        d.last_error, as_mapping(d.payload)))
        return [
            StoredAlert(int(r.id), r.org_id, r.agent_id, r.failure_type, r.run_id,
                        int(r.signal_id), r.policy, r.severity, float(r.confidence),
                        as_mapping(r.counts),
                        float(r.created_at), tuple(by_alert.get(int(r.id), ())))
            for r in rows
        ]

    def alert_decisions(self, org_id: str, run_id: str) -> dict[tuple[str, str], str | None]:
        """``{(failure_type, source): decision}`` for one run's signals (None: undecided)."""
        with translate_errors("read alert decisions"), self._db.read() as conn:
            return {(r.failure_type, r.source): r.alert_decision
                    for r in conn.execute(q.signal_decisions_of_run(org_id, run_id))}


def _undecided_signal(row: Any) -> UndecidedSignal:
    return UndecidedSignal(
        id=int(row.id), org_id=row.org_id, org_name=row.org_name, run_id=row.run_id,
        agent_id=row.agent_id, agent_version=row.agent_version,
        failure_type=row.failure_type, source=row.source, severity=row.severity,
        confidence=float(row.confidence),
        evidence=as_mapping(row.evidence),
        step_index=int(row.step_index), shadow=bool(row.shadow),
        detected_at=float(row.detected_at),
    )
