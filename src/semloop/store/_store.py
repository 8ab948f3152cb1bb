"""The event store: the one class that talks to the database."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import math
import operator
import re
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection, Engine

from .._exceptions import EventFormatError, StoreError
from ..alert.records import (
    AlertDecision,
    LastAlert,
    PastSignal,
    PendingDelivery,
    RunOutcome,
    UndecidedSignal,
    StoredAlert,
    StoredDelivery,
)
from ..events import Event, Run, Signal
from . import queries as q
from ._dialect import WRITE, Dialect, create_engine, dialect_of
from ._migrate import upgrade
from ._records import (
    AgentSummary,
    KeyInfo,
    Page,
    Position,
    PruneResult,
    RunSummary,
    StoredSignal,
)

__all__ = ["KEY_PREFIX", "LIMITS", "Store", "check_event"]

#: Every key starts with this, then a public key id, then the secret: ``sl_<id>_<secret>``.
KEY_PREFIX = "sl_"
_KEY_ID_LEN = 12

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
log = logging.getLogger("semloop.store")

#: ``decide(signal, history, complete, last_alert)``: the alerts worker's pure verdict.
Decide = Callable[[UndecidedSignal, list[RunOutcome], bool, LastAlert | None], AlertDecision]
# Chunk IN lists and multi-row statements well under SQLite's bound-parameter limit.
_CHUNK = 500


def check_event(event: Event) -> None:
    """Raise :class:`EventFormatError` naming the field if ``event`` does not fit the schema."""
    for name, limit in LIMITS.items():
        value = getattr(event, name)
        if value is not None and len(value) > limit:
            raise EventFormatError(f"longer than {limit} characters", field=name)
    if event.step_index > _INT_MAX:
        raise EventFormatError("too large", field="step_index")


def _no_nul(value: str | None) -> str | None:
    # PostgreSQL text cannot hold NUL; SQLite could, but both must store the same thing.
    if value is not None and "\x00" in value:
        return value.replace("\x00", "\ufffd")
    return value


_JSON_NUL = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")


def _dumps(value: Any) -> str:
    # default=str: an embedded caller may hand over payload values JSON cannot encode;
    # storing their text beats losing the event. NUL escapes are rejected by JSONB.
    text = json.dumps(value, default=str, separators=(",", ":"))
    if "\\u0000" in text:
        text = _JSON_NUL.sub(lambda m: m.group(1) + "\\ufffd", text)
    return text


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class Store:
    """Events, runs, signals, organizations and API keys in SQLite or PostgreSQL.

    ``url`` is ``sqlite:///FILE`` (or a bare file path) or ``postgresql+psycopg://…``.
    Migrations are applied on open. Methods are thread-safe; each is one transaction.
    """

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = url
        with _errors("open the database"):
            self._engine: Engine = create_engine(url, json_serializer=_dumps)
            self.dialect: Dialect = dialect_of(self._engine)
            self._write_lock: contextlib.AbstractContextManager[object] = (
                threading.Lock() if self.dialect is Dialect.SQLITE else contextlib.nullcontext()
            )
            # The ingest hot path: the statement compiled once, its rows handed to the
            # driver as they are. SQLAlchemy's per-row bind processing cost ingest ~12 µs
            # of CPU per event, as much as the driver itself.
            compiled = q.add_events(self.dialect).compile(
                dialect=self._engine.dialect, column_keys=list(q.EVENT_COLUMNS))
            order = operator.itemgetter(*compiled.positiontup) if compiled.positiontup else None
            self._add_events_sql: tuple[str, Callable[[dict[str, Any]], Any] | None] = (
                str(compiled), order)
            if migrate:
                upgrade(self._engine)

    # -- plumbing ---------------------------------------------------------------------

    @contextlib.contextmanager
    def _write(self) -> Iterator[Connection]:
        # SQLite has one writer: threads of this process queue on a lock (woken at once)
        # rather than in SQLite's busy handler, which sleeps and polls.
        with self._write_lock, self._engine.connect() as conn:
            conn = conn.execution_options(**WRITE)
            with conn.begin():
                yield conn

    @contextlib.contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._engine.connect() as conn, conn.begin():
            yield conn

    @property
    def engine(self) -> Engine:
        return self._engine

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- organizations and keys -------------------------------------------------------

    def create_org(self, name: str) -> str:
        """The id of the organization called ``name``, created if it does not exist yet."""
        if not name or not name.strip():
            raise StoreError("an organization needs a name")
        with _errors("create an organization"), self._write() as conn:
            existing = conn.execute(q.org_by_name(name)).scalar()
            if existing is not None:
                return str(existing)
            org_id = uuid.uuid4().hex
            conn.execute(
                q.insert_org(), {"id": org_id, "name": name, "created_at": time.time()}
            )
            return org_id

    def create_api_key(self, org_id: str) -> str:
        """A new key for ``org_id``. The plaintext is returned once; only its sha256 is kept."""
        key_id = secrets.token_hex(_KEY_ID_LEN // 2)
        key = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
        with _errors("create an API key"), self._write() as conn:
            conn.execute(
                q.insert_api_key(),
                {"org_id": org_id, "key_id": key_id, "key_hash": hash_key(key),
                 "created_at": time.time(), "revoked_at": None},
            )
        return key

    def org_for_key(self, key: str) -> str | None:
        """The org a key belongs to, or ``None`` for a malformed, unknown or revoked key."""
        if not key.startswith(KEY_PREFIX) or len(key) < len(KEY_PREFIX) + _KEY_ID_LEN + 2:
            return None
        key_id = key[len(KEY_PREFIX):len(KEY_PREFIX) + _KEY_ID_LEN]
        with _errors("look up an API key"), self._read() as conn:
            row = conn.execute(q.key_by_key_id(key_id)).first()
        if row is None or not hmac.compare_digest(row.key_hash, hash_key(key)):
            return None
        return str(row.org_id)

    def find_org(self, name: str) -> str | None:
        """The id of the organization called ``name``, or ``None``."""
        with _errors("look up an organization"), self._read() as conn:
            found = conn.execute(q.org_by_name(name)).scalar()
        return None if found is None else str(found)

    def api_keys(self, org_id: str) -> list[KeyInfo]:
        """The keys of one org, oldest first, revoked ones included (never their secret)."""
        with _errors("list API keys"), self._read() as conn:
            return [_key_info(row) for row in conn.execute(q.keys_of_org(org_id=org_id))]

    def revoke_api_key(self, key_id: str) -> KeyInfo | None:
        """Revoke the key whose public id is ``key_id`` (``sl_<id>`` and the full key work
        too); ``None`` if there is no such key. Revoking twice keeps the first time.

        The API looks every key up on every request, so the next request with it gets 401.
        """
        key_id = _key_id_of(key_id)
        with _errors("revoke an API key"), self._write() as conn:
            conn.execute(q.revoke_key(key_id, time.time()))
            row = conn.execute(q.keys_of_org(key_id=key_id)).first()
        return None if row is None else _key_info(row)

    # -- events and runs --------------------------------------------------------------

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
                "event_id": _no_nul(e.event_id),
                "event_type": _no_nul(e.event_type),
                "run_id": _no_nul(e.run_id),
                "agent_id": _no_nul(e.agent_id),
                "agent_version": _no_nul(e.agent_version) or "",
                "step_index": e.step_index,
                "timestamp": e.timestamp,
                "payload": _dumps(e.payload),
                "parent_run_id": _no_nul(e.parent_run_id),
                "trace_id": _no_nul(e.trace_id),
                "conversation_id": _no_nul(e.conversation_id),
                "received_at": received,
            }
            for e in events
        ]
        sql, order = self._add_events_sql
        params: list[Any] = rows if order is None else [order(r) for r in rows]
        stored = 0
        with _errors("store events"), self._write() as conn:
            for start in range(0, len(params), _CHUNK):
                result = conn.exec_driver_sql(sql, params[start:start + _CHUNK])
                stored += max(result.rowcount, 0)
        return stored

    def get_run(self, org_id: str, run_id: str) -> Run | None:
        """One run with its events in order, or ``None`` if ``org_id`` has no such run."""
        with _errors("read a run"), self._read() as conn:
            return self._load_runs(conn, org_id, [run_id]).get(run_id)

    def recent_runs(
        self, org_id: str, agent_id: str, agent_version: str, limit: int = 50,
        *, before: float | None = None,
    ) -> list[Run]:
        """The last ``limit`` completed runs of one agent version, newest first (baselines);
        with ``before``, the last that completed before that time."""
        with _errors("read recent runs"), self._read() as conn:
            ids = list(dict.fromkeys(conn.execute(
                q.completed_runs_of_agent(org_id, agent_id, agent_version, limit, before)
            ).scalars()))
            runs = self._load_runs(conn, org_id, ids)
        return [runs[i] for i in ids if i in runs]

    def history_for(self, org_id: str, runs: Sequence[Run], window: int = 50) -> list[Run]:
        """Enough completed runs of the agent version of ``runs`` (one agent version) for
        each of their baselines: the ``window`` that completed before each one ended.
        Runs of ``runs`` itself are taken as given, not read again."""
        ends = [r.ended_at for r in runs if r.events]
        if not ends:
            return []
        agent_id, version = runs[0].agent_id, runs[0].agent_version
        have = {r.run_id: r for r in runs}
        with _errors("read recent runs"), self._read() as conn:
            between = conn.execute(q.count_completed_runs(
                org_id, agent_id, version, min(ends), max(ends))).scalar_one()
            ids = list(dict.fromkeys(conn.execute(q.completed_runs_of_agent(
                org_id, agent_id, version, window + int(between), max(ends))).scalars()))
            loaded = self._load_runs(conn, org_id, [i for i in ids if i not in have])
        return [found for i in ids if (found := have.get(i) or loaded.get(i)) is not None]

    def count_events(self, org_id: str) -> int:
        """How many events ``org_id`` has stored."""
        with _errors("count events"), self._read() as conn:
            return int(conn.execute(q.count_events(org_id)).scalar_one())

    def list_runs(
        self,
        org_id: str,
        *,
        limit: int = 50,
        after: Position | None = None,
        agent_id: str | None = None,
        status: str | None = None,
        conversation_id: str | None = None,
        failure_type: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> Page[RunSummary]:
        """One page of ``org_id``'s runs, newest start first, in one indexed query.

        A run is listed once its ``run.started`` event is stored. ``since`` is inclusive,
        ``until`` exclusive (start times, epoch seconds); ``status`` is completed, errored
        or running; ``failure_type`` keeps runs with a signal of that type. Pass the page's
        ``next`` as ``after`` for the following page.
        """
        if status is not None and status not in q.RUN_STATUSES:
            raise ValueError(f"status is one of {', '.join(q.RUN_STATUSES)}, not {status!r}")
        stmt = q.runs_page(
            org_id, _page_size(limit), agent_id=_no_nul(agent_id), status=status,
            conversation_id=_no_nul(conversation_id), failure_type=_no_nul(failure_type),
            since=since, until=until, after=None if after is None else (after.time, after.id))
        with _errors("list runs"), self._read() as conn:
            rows = conn.execute(stmt).all()
        items = [_run_summary(row) for row in rows]
        return _page(items[:limit], len(items) > limit, lambda r: r.position)

    def list_signals(
        self,
        org_id: str,
        *,
        limit: int = 50,
        after: Position | None = None,
        agent_id: str | None = None,
        failure_type: str | None = None,
        severity: str | None = None,
        run_id: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> Page[StoredSignal]:
        """One page of ``org_id``'s signals, newest detection first, in one indexed query.

        ``since`` inclusive, ``until`` exclusive (detection times, epoch seconds).
        """
        stmt = q.signals_page(
            org_id, _page_size(limit), agent_id=_no_nul(agent_id),
            failure_type=_no_nul(failure_type), severity=_no_nul(severity),
            run_id=_no_nul(run_id), since=since, until=until,
            after=None if after is None else (after.time, after.id))
        with _errors("list signals"), self._read() as conn:
            rows = conn.execute(stmt).all()
        items = [StoredSignal(int(r.id), float(r.detected_at), _signal(r)) for r in rows]
        return _page(items[:limit], len(items) > limit,
                     lambda s: Position(s.detected_at, s.id))

    def agent_summaries(self, org_id: str) -> list[AgentSummary]:
        """Per agent of ``org_id``, by agent id: runs, runs with a signal, signals by
        failure type and the last run's start, in one query."""
        runs: dict[str, tuple[int, float | None]] = {}
        flagged: dict[str, int] = {}
        by_type: dict[str, dict[str, int]] = {}
        with _errors("summarise agents"), self._read() as conn:
            for agent_id, kind, failure_type, n, last in conn.execute(q.agent_summaries(org_id)):
                if kind == "runs":
                    runs[agent_id] = (int(n), None if last is None else float(last))
                elif kind == "flagged":
                    flagged[agent_id] = int(n)
                else:
                    by_type.setdefault(agent_id, {})[failure_type] = int(n)
        return [
            AgentSummary(agent_id, runs.get(agent_id, (0, None))[0], flagged.get(agent_id, 0),
                         dict(sorted(by_type.get(agent_id, {}).items())),
                         runs.get(agent_id, (0, None))[1])
            for agent_id in sorted({*runs, *flagged, *by_type})
        ]

    @staticmethod
    def _load_runs(conn: Connection, org_id: str, run_ids: Sequence[str]) -> dict[str, Run]:
        by_run: dict[str, list[Event]] = {}
        for start in range(0, len(run_ids), _CHUNK):
            for row in conn.execute(q.events_of_runs(org_id, run_ids[start:start + _CHUNK])):
                by_run.setdefault(row.run_id, []).append(_event(row))
        return {run_id: Run.from_events(evs) for run_id, evs in by_run.items()}

    # -- worker bookkeeping -----------------------------------------------------------

    def runs_to_process(
        self,
        worker: str,
        *,
        limit: int = 100,
        stall_timeout_s: float = 90.0,
        now: float | None = None,
        lease_s: float = 300.0,
    ) -> list[tuple[str, Run, str]]:
        """Up to ``limit`` runs ``worker`` has not processed: ``(org_id, run, trigger)``.

        ``trigger`` is ``completed`` or ``errored`` (the run's terminal event) or ``stalled``
        (a started run with no terminal event and nothing received for ``stall_timeout_s``).
        Each returned run is leased to this caller for ``lease_s`` seconds, so several
        instances of one worker sharing the database take different runs; a run whose
        lease expires without :meth:`mark_processed` (a crashed worker) is handed out again.
        """
        now = time.time() if now is None else now
        wanted: dict[tuple[str, str], str] = {}
        with _errors("poll for runs"):
            with self._write() as conn:
                for org_id, run_id, event_type in conn.execute(q.terminal_runs(worker, now, limit)):
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
                    for row in conn.execute(q.claim_runs(self.dialect, now).values(claim))
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
            with self._read() as conn:
                runs = {
                    (org_id, run_id): run
                    for org_id, ids in by_org.items()
                    for run_id, run in self._load_runs(conn, org_id, ids).items()
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
        with _errors("mark a run processed"), self._write() as conn:
            added = self._insert_signals(conn, org_id, signals)
            conn.execute(
                q.mark_processed(self.dialect),
                {"worker": worker, "org_id": org_id, "run_id": run_id, "trigger": trigger,
                 "processed_at": time.time()},
            )
            conn.execute(q.release_claim(worker, org_id, run_id))
        return added

    # -- retention --------------------------------------------------------------------

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
        with _errors("prune runs"):
            with self._read() as conn:
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
        with self._read() as conn:
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
        with (self._read() if dry_run else self._write()) as conn:
            if self.dialect is Dialect.POSTGRESQL and not dry_run:
                conn.execute(q.PRUNE_LOCK)
            for start in range(0, len(run_ids), _CHUNK):
                chunk = list(conn.execute(q.prunable_runs(
                    org_id, run_ids[start:start + _CHUNK], upto, now)).scalars())
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

    # -- signals ----------------------------------------------------------------------

    def add_signals(self, org_id: str, signals: Sequence[Signal]) -> int:
        """Store signals; returns how many were new. One row per (run, failure_type, source)."""
        if not signals:
            return 0
        with _errors("store signals"), self._write() as conn:
            return self._insert_signals(conn, org_id, signals)

    def _insert_signals(self, conn: Connection, org_id: str, signals: Sequence[Signal]) -> int:
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
        return max(conn.execute(q.add_signals(self.dialect), rows).rowcount, 0)

    def signals_for_run(self, org_id: str, run_id: str) -> list[Signal]:
        """The signals stored for one run, in detection order."""
        with _errors("read signals"), self._read() as conn:
            return [_signal(row) for row in conn.execute(q.signals_of_run(org_id, run_id))]

    # -- alerts -----------------------------------------------------------------------

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
        with _errors("decide alerts"), self._write() as conn:
            if self.dialect is Dialect.POSTGRESQL:
                conn.execute(q.ALERTS_LOCK)
            for row in conn.execute(q.undecided_signals(limit)).all():
                record = _signal_record(row)
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
                    alert_id = conn.execute(q.insert_alert(self.dialect), {
                        "org_id": record.org_id, "signal_id": record.id,
                        "agent_id": record.agent_id, "failure_type": record.failure_type,
                        "run_id": record.run_id, "run_ended_at": ended,
                        "policy": decision.policy[:32], "severity": record.severity,
                        "confidence": record.confidence, "counts": dict(decision.counts),
                        "created_at": now,
                    }).scalar()
                    if alert_id is not None and decision.deliveries:
                        conn.execute(q.insert_deliveries(self.dialect), [
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
        with _errors("read alert deliveries"), self._read() as conn:
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
        with _errors("claim alert deliveries"), self._write() as conn:
            if self.dialect is Dialect.POSTGRESQL:
                conn.execute(q.ALERTS_LOCK)
            rows = conn.execute(q.due_deliveries(now, limit, destination)).all()
            if rows:
                got = set(conn.execute(
                    q.claim_deliveries([r.id for r in rows], now, now + lease_s)).scalars())
                rows = [r for r in rows if r.id in got]
        return [PendingDelivery(int(r.id), int(r.alert_id), r.destination, _object(r.payload))
                for r in rows]

    def finish_delivery(self, delivery_id: int, *, status: str,
                        attempts: Sequence[Mapping[str, Any]], last_error: str | None = None,
                        now: float | None = None) -> None:
        """Record a delivery's final ``status`` (delivered or failed) and its attempts."""
        if status not in ("delivered", "failed"):
            raise ValueError(f"a finished delivery is delivered or failed, not {status!r}")
        now = time.time() if now is None else now
        with _errors("record an alert delivery"), self._write() as conn:
            row = conn.execute(q.deliveries_by_id([delivery_id])).first()
            if row is None:
                return
            earlier = list(row.attempt_log) if isinstance(row.attempt_log, list) else []
            log_ = [*earlier, *(dict(a) for a in attempts)]
            conn.execute(q.finish_delivery(delivery_id), {
                "status": status, "attempts": len(log_), "attempt_log": log_,
                "last_error": None if last_error is None else _no_nul(last_error[:500]),
                "finished_at": now, "claimed_until": 0.0,
            })

    def list_alerts(self, org_id: str, *, limit: int = 100) -> list[StoredAlert]:
        """One org's alerts, newest first, each with its deliveries."""
        with _errors("read alerts"), self._read() as conn:
            rows = conn.execute(q.alerts_of_org(org_id, limit)).all()
            by_alert: dict[int, list[StoredDelivery]] = {}
            if rows:
                for d in conn.execute(q.deliveries_of_alerts([r.id for r in rows])):
                    by_alert.setdefault(int(d.alert_id), []).append(StoredDelivery(
                        int(d.id), d.destination, d.status, int(d.attempts),
                        list(d.attempt_log) if isinstance(d.attempt_log, list) else [],
                        d.last_error, _object(d.payload)))
        return [
            StoredAlert(int(r.id), r.org_id, r.agent_id, r.failure_type, r.run_id,
                        int(r.signal_id), r.policy, r.severity, float(r.confidence),
                        _object(r.counts),
                        float(r.created_at), tuple(by_alert.get(int(r.id), ())))
            for r in rows
        ]

    def alert_decisions(self, org_id: str, run_id: str) -> dict[tuple[str, str], str | None]:
        """``{(failure_type, source): decision}`` for one run's signals (None: undecided)."""
        with _errors("read alert decisions"), self._read() as conn:
            return {(r.failure_type, r.source): r.alert_decision
                    for r in conn.execute(q.signal_decisions_of_run(org_id, run_id))}


#: The most a listing serves in one page.
MAX_PAGE = 500


def _page_size(limit: int) -> int:
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit is 1 to {MAX_PAGE}, not {limit}")
    return limit


def _page(items: list[Any], more: bool, position: Callable[[Any], Position]) -> Page[Any]:
    return Page(items, position(items[-1]) if more and items else None)


def _run_summary(row: Any) -> RunSummary:
    terminal = row.terminal_type
    status = q.TERMINAL_TRIGGERS.get(terminal, "running")
    types = sorted(set(row.failure_types.split(","))) if row.failure_types else []
    return RunSummary(
        run_id=row.run_id, agent_id=row.agent_id, agent_version=row.agent_version,
        conversation_id=row.conversation_id, status=status,
        started_at=float(row.timestamp),
        ended_at=None if row.ended_at is None else float(row.ended_at),
        event_count=int(row.event_count), failure_types=tuple(types),
        position=Position(float(row.timestamp), int(row.id)),
    )


def _key_id_of(text: str) -> str:
    # Accept what `keys list` prints (sl_<id>_) and a whole key, as well as the bare id.
    text = text.strip()
    text = text.removeprefix(KEY_PREFIX)
    return text[:_KEY_ID_LEN] if len(text) > _KEY_ID_LEN and text[_KEY_ID_LEN] == "_" else text


def _key_info(row: Any) -> KeyInfo:
    return KeyInfo(row.key_id, row.org_id, row.org_name, float(row.created_at),
                   None if row.revoked_at is None else float(row.revoked_at))


def _object(value: Any) -> Mapping[str, Any]:
    # The JSON columns are written as objects; anything else read back is taken as empty
    # rather than failing the whole read.
    return value if isinstance(value, Mapping) else {}


def _signal_record(row: Any) -> UndecidedSignal:
    return UndecidedSignal(
        id=int(row.id), org_id=row.org_id, org_name=row.org_name, run_id=row.run_id,
        agent_id=row.agent_id, agent_version=row.agent_version,
        failure_type=row.failure_type, source=row.source, severity=row.severity,
        confidence=float(row.confidence),
        evidence=_object(row.evidence),
        step_index=int(row.step_index), shadow=bool(row.shadow),
        detected_at=float(row.detected_at),
    )


def _event(row: Any) -> Event:
    return Event(
        event_type=row.event_type,
        run_id=row.run_id,
        agent_id=row.agent_id,
        step_index=row.step_index,
        timestamp=row.timestamp,
        payload=_object(row.payload),
        agent_version=row.agent_version,
        parent_run_id=row.parent_run_id,
        trace_id=row.trace_id,
        conversation_id=row.conversation_id,
        event_id=row.event_id,
    )


def _signal(row: Any) -> Signal:
    return Signal(
        failure_type=row.failure_type,
        run_id=row.run_id,
        severity=row.severity,
        confidence=row.confidence,
        evidence=_object(row.evidence),
        step_index=row.step_index,
        source=row.source,
        shadow=row.shadow,
        agent_id=row.agent_id,
        agent_version=row.agent_version,
        co_signal_count=row.co_signal_count,
    )


@contextlib.contextmanager
def _errors(doing: str) -> Iterator[None]:
    """Driver and SQLAlchemy errors become :class:`StoreError` here, and nowhere else."""
    try:
        yield
    except StoreError:
        raise
    except sa_exc.SQLAlchemyError as exc:
        detail = getattr(exc, "orig", None) or exc
        raise StoreError(f"could not {doing}: {type(detail).__name__}: {detail}") from exc
