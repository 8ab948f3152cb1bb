"""Every SQL statement the store runs, each built once here with a one-line purpose.

Only :class:`semloop.store.Store` executes these; the API, CLI and workers call its methods.
Statements are SQLAlchemy Core, so one text serves both dialects; the few that cannot be
neutral (conflict handling) take their shape from ``_dialect``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, Table, TextClause, delete, exists, func, insert, select, text
from sqlalchemy.sql.dml import Delete, Insert
from sqlalchemy.sql.elements import ColumnElement

from ._dialect import Dialect, insert_ignore, insert_or_take_over
from ._models import ApiKey, EventRow, Organization, ProcessedRun, RunClaim, SignalRow

__all__ = [
    "EVENT_COLUMNS",
    "MIGRATION_LOCK",
    "MIGRATION_UNLOCK",
    "TERMINAL_TRIGGERS",
    "add_events",
    "add_signals",
    "claim_runs",
    "completed_runs_of_agent",
    "count_events",
    "create_database",
    "drop_database",
    "events_of_runs",
    "insert_api_key",
    "insert_org",
    "key_by_key_id",
    "mark_processed",
    "org_by_name",
    "release_claim",
    "signals_of_run",
    "stalled_runs",
    "terminal_runs",
]

events: Table = EventRow.__table__  # type: ignore[assignment]
orgs: Table = Organization.__table__  # type: ignore[assignment]
keys: Table = ApiKey.__table__  # type: ignore[assignment]
processed: Table = ProcessedRun.__table__  # type: ignore[assignment]
claims: Table = RunClaim.__table__  # type: ignore[assignment]
signals: Table = SignalRow.__table__  # type: ignore[assignment]

#: The event that ends a run, and the worker trigger it maps to.
TERMINAL_TRIGGERS = {"run.completed": "completed", "run.errored": "errored"}


def insert_org() -> Insert:
    """Create one organization."""
    return insert(orgs)


def org_by_name(name: str) -> Select[str]:
    """The id of the organization called ``name``."""
    return select(orgs.c.id).where(orgs.c.name == name)


def insert_api_key() -> Insert:
    """Store one API key (its sha256 only)."""
    return insert(keys)


def key_by_key_id(key_id: str) -> Select[str, str]:
    """The org and hash of the live key whose public id is ``key_id``."""
    return select(keys.c.org_id, keys.c.key_hash).where(
        keys.c.key_id == key_id, keys.c.revoked_at.is_(None)
    )


#: The columns ``add_events`` fills, in order (``id`` is the database's).
EVENT_COLUMNS = ("org_id", "event_id", "event_type", "run_id", "agent_id", "agent_version",
                 "step_index", "timestamp", "payload", "parent_run_id", "trace_id",
                 "conversation_id", "received_at")


def add_events(dialect: Dialect) -> Insert:
    """Store events; one already stored under the same (org, event_id) is skipped.

    Run as an executemany; the driver's rowcount is then the number of rows stored.
    """
    # inline(): no implicit RETURNING of the new ids, which nobody reads.
    stmt = insert_ignore(dialect, events, ["org_id", "event_id"]).inline()
    return stmt.execution_options(preserve_rowcount=True)


def events_of_runs(org_id: str, run_ids: Sequence[str]) -> Select[Any]:
    """Every event of the given runs of one org, in run order."""
    return (
        select(events)
        .where(events.c.org_id == org_id, events.c.run_id.in_(list(run_ids)))
        .order_by(events.c.run_id, events.c.step_index, events.c.timestamp, events.c.id)
    )


def _not_processed(worker: str, now: float) -> list[ColumnElement[bool]]:
    # Neither finished by this worker nor leased by another instance of it right now.
    done = exists().where(
        processed.c.worker == worker,
        processed.c.org_id == events.c.org_id,
        processed.c.run_id == events.c.run_id,
    )
    leased = exists().where(
        claims.c.worker == worker,
        claims.c.org_id == events.c.org_id,
        claims.c.run_id == events.c.run_id,
        claims.c.claimed_until >= now,
    )
    return [~done, ~leased]


def terminal_runs(worker: str, now: float, limit: int) -> Select[str, str, str]:
    """Runs that ended (completed or errored), not yet processed by ``worker``, oldest first."""
    return (
        select(events.c.org_id, events.c.run_id, events.c.event_type)
        .where(events.c.event_type.in_(list(TERMINAL_TRIGGERS)), *_not_processed(worker, now))
        .order_by(events.c.received_at, events.c.id)
        .limit(limit)
    )


def stalled_runs(worker: str, now: float, cutoff: float, limit: int) -> Select[str, str]:
    """Started runs with no terminal event and nothing received since ``cutoff``."""
    other = events.alias("later")
    ended_or_active = exists().where(
        other.c.org_id == events.c.org_id,
        other.c.run_id == events.c.run_id,
        (other.c.event_type.in_(list(TERMINAL_TRIGGERS))) | (other.c.received_at >= cutoff),
    )
    return (
        select(events.c.org_id, events.c.run_id)
        .where(
            events.c.event_type == "run.started",
            events.c.received_at < cutoff,
            ~ended_or_active,
            *_not_processed(worker, now),
        )
        .order_by(events.c.received_at, events.c.id)
        .limit(limit)
    )


def claim_runs(dialect: Dialect, now: float) -> Insert:
    """Lease runs to one worker instance; ``RETURNING`` lists the ones it got."""
    stmt = insert_or_take_over(
        dialect, claims, ["worker", "org_id", "run_id"], "claimed_until", now
    )
    return stmt.returning(claims.c.org_id, claims.c.run_id)


def mark_processed(dialect: Dialect) -> Insert:
    """Record that a worker finished a run (a second record for the same run is ignored)."""
    return insert_ignore(dialect, processed, ["worker", "org_id", "run_id"])


def release_claim(worker: str, org_id: str, run_id: str) -> Delete:
    """Drop a worker's lease on a run it has finished."""
    return delete(claims).where(
        claims.c.worker == worker, claims.c.org_id == org_id, claims.c.run_id == run_id
    )


def add_signals(dialect: Dialect) -> Insert:
    """Store signals; one per (org, run, failure_type, source), the first write wins.

    Run as an executemany; the driver's rowcount is then the number of rows stored.
    """
    stmt = insert_ignore(dialect, signals, ["org_id", "run_id", "failure_type", "source"])
    return stmt.execution_options(preserve_rowcount=True)


def signals_of_run(org_id: str, run_id: str) -> Select[Any]:
    """The signals of one run, in the order they were detected."""
    return (
        select(signals)
        .where(signals.c.org_id == org_id, signals.c.run_id == run_id)
        .order_by(signals.c.id)
    )


def completed_runs_of_agent(
    org_id: str, agent_id: str, agent_version: str, limit: int
) -> Select[str]:
    """The ids of one agent version's most recently completed runs, newest first."""
    return (
        select(events.c.run_id)
        .where(
            events.c.org_id == org_id,
            events.c.agent_id == agent_id,
            events.c.agent_version == agent_version,
            events.c.event_type == "run.completed",
        )
        .order_by(events.c.timestamp.desc(), events.c.id.desc())
        .limit(limit)
    )


def count_events(org_id: str) -> Select[int]:
    """How many events one org has stored."""
    return select(func.count()).select_from(events).where(events.c.org_id == org_id)



#: PostgreSQL: one migrating process at a time (session lock; any constant key will do).
MIGRATION_LOCK = text("SELECT pg_advisory_lock(99881227)")
MIGRATION_UNLOCK = text("SELECT pg_advisory_unlock(99881227)")


def create_database(name: str, template: str | None = None) -> TextClause:
    """PostgreSQL: a new database (test helpers only; ``name`` is ours, never user input)."""
    clause = f' TEMPLATE "{template}"' if template else ""
    return text(f'CREATE DATABASE "{name}"{clause}')


def drop_database(name: str) -> TextClause:
    """PostgreSQL: drop a database even while clients are connected (test helpers only)."""
    return text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
