"""Every SQL statement the store runs, each built once here with a one-line purpose.

Only :class:`semloop.store.Store` executes these; the API, CLI and workers call its methods.
Statements are SQLAlchemy Core, so one text serves both dialects; the few that cannot be
neutral (conflict handling) take their shape from ``_dialect``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    CompoundSelect,
    Double,
    Integer,
    Select,
    String,
    Table,
    TextClause,
    case,
    cast,
    delete,
    exists,
    func,
    insert,
    literal,
    null,
    select,
    text,
    tuple_,
    union_all,
    update,
)
from sqlalchemy.sql.dml import Delete, Insert, Update
from sqlalchemy.sql.elements import ColumnElement

from ._dialect import Dialect, insert_ignore, insert_or_take_over
from ._models import (
    COMPLETED_WHERE,
    STARTED_WHERE,
    TERMINAL_WHERE,
    AlertDeliveryRow,
    AlertRow,
    ApiKey,
    ApprovalRow,
    DeployRow,
    EventRow,
    ExternalEvaluation,
    Organization,
    OrgPackRow,
    PolicyRow,
    ProcessedRun,
    RunClaim,
    SemanticConversation,
    SemanticEvaluation,
    SemanticFeedback,
    SemanticGroup,
    SemanticGroupMember,
    SemanticSample,
    SemanticTask,
    SignalRow,
)

__all__ = [
    "ALERTS_LOCK",
    "EVENT_COLUMNS",
    "MIGRATION_LOCK",
    "MIGRATION_UNLOCK",
    "PRUNE_LOCK",
    "RUN_STATUSES",
    "SOURCES",
    "TERMINAL_TRIGGERS",
    "add_events",
    "add_signals",
    "agent_runs_before",
    "agent_summaries",
    "agent_versions",
    "alerts_of_org",
    "approval_by_id",
    "approvals_of_org",
    "bucket_of",
    "claim_deliveries",
    "claim_runs",
    "completed_runs_of_agent",
    "count_completed_runs",
    "count_events",
    "create_database",
    "decide_approval",
    "delete_policy",
    "deliveries_by_id",
    "deliveries_of_alerts",
    "deploys_of_agent",
    "disable_pack",
    "drop_database",
    "due_deliveries",
    "due_destinations",
    "enable_pack",
    "evaluator_activity",
    "events_of_runs",
    "expire_approvals",
    "finish_delivery",
    "insert_alert",
    "insert_api_key",
    "insert_approval",
    "insert_deliveries",
    "insert_deploy",
    "insert_org",
    "insert_policy",
    "key_by_key_id",
    "keys_of_org",
    "last_alert",
    "mark_processed",
    "org_by_name",
    "org_ids",
    "packs_of_org",
    "policies_of_org",
    "policy_by_id",
    "processed_of",
    "prunable_runs",
    "prune_counts",
    "prune_deletes",
    "prune_scan",
    "release_claim",
    "revoke_key",
    "run_activity",
    "run_ended_at",
    "runs_page",
    "runs_with_signals",
    "set_alert_decision",
    "signal_decisions_of_run",
    "signals_of_run",
    "signals_of_type_on_runs",
    "signals_page",
    "stalled_runs",
    "terminal_runs",
    "top_failure_types",
    "undecided_signals",
    "update_policy",
]

events: Table = EventRow.__table__  # type: ignore[assignment]
orgs: Table = Organization.__table__  # type: ignore[assignment]
keys: Table = ApiKey.__table__  # type: ignore[assignment]
processed: Table = ProcessedRun.__table__  # type: ignore[assignment]
claims: Table = RunClaim.__table__  # type: ignore[assignment]
signals: Table = SignalRow.__table__  # type: ignore[assignment]
alerts: Table = AlertRow.__table__  # type: ignore[assignment]
deliveries: Table = AlertDeliveryRow.__table__  # type: ignore[assignment]
policies: Table = PolicyRow.__table__  # type: ignore[assignment]
approvals: Table = ApprovalRow.__table__  # type: ignore[assignment]
deploys: Table = DeployRow.__table__  # type: ignore[assignment]
# The semantic worker's tables, as far as pruning a run reaches into them.
semantic_samples: Table = SemanticSample.__table__  # type: ignore[assignment]
semantic_tasks: Table = SemanticTask.__table__  # type: ignore[assignment]
semantic_evaluations: Table = SemanticEvaluation.__table__  # type: ignore[assignment]
semantic_groups: Table = SemanticGroup.__table__  # type: ignore[assignment]
semantic_members: Table = SemanticGroupMember.__table__  # type: ignore[assignment]
semantic_feedback: Table = SemanticFeedback.__table__  # type: ignore[assignment]
semantic_conversations: Table = SemanticConversation.__table__  # type: ignore[assignment]
external_evaluations: Table = ExternalEvaluation.__table__  # type: ignore[assignment]
packs: Table = OrgPackRow.__table__  # type: ignore[assignment]

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


def keys_of_org(org_id: str | None = None, key_id: str | None = None) -> Select[Any]:
    """Keys as listed (public id, org, dates): one org's, oldest first, or the one ``key_id``."""
    stmt = (
        select(keys.c.key_id, keys.c.org_id, orgs.c.name.label("org_name"), keys.c.created_at,
               keys.c.revoked_at)
        .join(orgs, orgs.c.id == keys.c.org_id)
        .order_by(keys.c.created_at, keys.c.id)
    )
    if org_id is not None:
        stmt = stmt.where(keys.c.org_id == org_id)
    if key_id is not None:
        stmt = stmt.where(keys.c.key_id == key_id)
    return stmt


def revoke_key(key_id: str, now: float) -> Update:
    """Revoke a live key; a key revoked already keeps its first revocation time."""
    return (
        update(keys)
        .where(keys.c.key_id == key_id, keys.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )


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


def terminal_runs(worker: str, now: float, limit: int,
                  after: str | None = None) -> Select[str, str, str]:
    """Runs that ended (completed or errored), not yet processed by ``worker``, oldest
    first; with ``after``, only those the worker ``after`` has processed already."""
    ready = [] if after is None else [exists().where(
        processed.c.worker == after,
        processed.c.org_id == events.c.org_id,
        processed.c.run_id == events.c.run_id,
    )]
    return (
        select(events.c.org_id, events.c.run_id, events.c.event_type)
        .where(events.c.event_type.in_(list(TERMINAL_TRIGGERS)), *_not_processed(worker, now),
               *ready)
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


def processed_of(worker: str, org_id: str, run_ids: Sequence[str]) -> Select[str]:
    """Which of these runs ``worker`` has processed already."""
    return select(processed.c.run_id).where(
        processed.c.worker == worker, processed.c.org_id == org_id,
        processed.c.run_id.in_(list(run_ids)))


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


def _completed_of_agent(org_id: str, agent_id: str, agent_version: str) -> list[Any]:
    # A run with a live structural signal is no sample of normal: a baseline of failures
    # would make failure look normal (shadow signals do not count; Dunetrace's rule too).
    flagged = select(signals.c.id).where(
        signals.c.org_id == org_id, signals.c.run_id == events.c.run_id,
        signals.c.shadow.is_(False), signals.c.source == "structural")
    # Literal, the partial index's own predicate (see agent_runs_before).
    return [events.c.org_id == org_id, events.c.agent_id == agent_id,
            events.c.agent_version == agent_version, text(COMPLETED_WHERE),
            ~flagged.exists()]


def completed_runs_of_agent(
    org_id: str, agent_id: str, agent_version: str, limit: int, before: float | None = None
) -> Select[str]:
    """The ids of one agent version's most recently completed runs without a live signal,
    newest first; with ``before``, of those that completed before that time."""
    where = _completed_of_agent(org_id, agent_id, agent_version)
    if before is not None:
        where.append(events.c.timestamp < before)
    return (
        select(events.c.run_id)
        .where(*where)
        .order_by(events.c.timestamp.desc(), events.c.id.desc())
        .limit(limit)
    )


def count_completed_runs(
    org_id: str, agent_id: str, agent_version: str, since: float, before: float
) -> Select[int]:
    """How many runs of one agent version completed in ``[since, before)`` without a live
    signal."""
    return select(func.count()).select_from(events).where(
        *_completed_of_agent(org_id, agent_id, agent_version),
        events.c.timestamp >= since, events.c.timestamp < before)


def count_events(org_id: str) -> Select[int]:
    """How many events one org has stored."""
    return select(func.count()).select_from(events).where(events.c.org_id == org_id)


# -- listings (the read API) -------------------------------------------------------------

#: The statuses a run can have, and how each reads its latest terminal event's type.
RUN_STATUSES = ("completed", "errored", "running")


def runs_page(
    org_id: str,
    limit: int,
    *,
    agent_id: str | None = None,
    status: str | None = None,
    conversation_id: str | None = None,
    failure_type: str | None = None,
    source: str | None = None,
    since: float | None = None,
    until: float | None = None,
    after: tuple[float, int] | None = None,
    run_ids: Sequence[str] | None = None,
) -> Select[Any]:
    """One page of an org's runs, newest start first: each run's ``run.started`` row plus
    its status, end, event count and failure types, looked up for the page's rows only.

    Walks the partial index on started events backwards from ``after`` (keyset), so a page
    costs ``limit`` index entries and four index lookups each, whatever the table's size.
    ``run_ids`` (the runs with a wanted signal, when they are few: :func:`runs_with_signals`)
    restricts the walk to those runs.
    """
    run = events.alias("run_events")
    same_run = [run.c.org_id == events.c.org_id, run.c.run_id == events.c.run_id]
    # The latest terminal event decides, as in Run.status (run order: step, then time).
    # The literal predicate (it names run_events' own column) is the partial index's.
    def last_terminal(column: ColumnElement[Any]) -> Any:
        return (
            select(column)
            .where(*same_run, text(f"run_events.{TERMINAL_WHERE}"))
            .order_by(run.c.step_index.desc(), run.c.timestamp.desc(), run.c.id.desc())
            .limit(1)
            .scalar_subquery()
        )

    terminal_type = last_terminal(run.c.event_type)
    ended_at = last_terminal(run.c.timestamp)
    event_count = select(func.count()).select_from(run).where(*same_run).scalar_subquery()
    of_run = [signals.c.org_id == events.c.org_id, signals.c.run_id == events.c.run_id]
    failure_types = (
        select(func.aggregate_strings(signals.c.failure_type, ","))
        .where(*of_run)
        .scalar_subquery()
    )
    stmt = select(
        events.c.id, events.c.run_id, events.c.agent_id, events.c.agent_version,
        events.c.conversation_id, events.c.timestamp,
        terminal_type.label("terminal_type"), ended_at.label("ended_at"),
        event_count.label("event_count"), failure_types.label("failure_types"),
    ).where(
        events.c.org_id == org_id,
        # Literal, the partial indexes' own predicate (planners match no bound parameter).
        text(STARTED_WHERE),
    )
    if agent_id is not None:
        stmt = stmt.where(events.c.agent_id == agent_id)
    if conversation_id is not None:
        stmt = stmt.where(events.c.conversation_id == conversation_id)
    if run_ids is not None:
        stmt = stmt.where(events.c.run_id.in_(list(run_ids)))
    if status == "running":
        stmt = stmt.where(terminal_type.is_(None))
    elif status is not None:
        stmt = stmt.where(terminal_type == f"run.{status}")
    # A probe per walked run (a scalar subquery, which no planner turns into a join): an
    # EXISTS let PostgreSQL, misled by a rare status, join every walked run against every
    # signal of the type (seconds for a filter that matched nothing).
    def has_signal(*where: ColumnElement[bool]) -> ColumnElement[bool]:
        return select(literal(1)).where(*of_run, *where).limit(1).scalar_subquery().is_not(None)

    if failure_type is not None:
        stmt = stmt.where(has_signal(signals.c.failure_type == failure_type))
    if source is not None:
        stmt = stmt.where(has_signal(_of_source(signals.c.source, source)))
    return _keyset(stmt, events.c.timestamp, events.c.id, since, until, after, limit)


def runs_with_signals(org_id: str, limit: int, *, failure_type: str | None,
                      source: str | None, agent_id: str | None) -> Select[str]:
    """Up to ``limit`` runs of the org with a signal of ``failure_type`` and ``source``
    (of ``agent_id``'s): when they are few, the runs listing walks those alone."""
    stmt = select(signals.c.run_id).where(signals.c.org_id == org_id).distinct()
    if failure_type is not None:
        stmt = stmt.where(signals.c.failure_type == failure_type)
    if source is not None:
        stmt = stmt.where(_of_source(signals.c.source, source))
    if agent_id is not None:
        # a signal names its run's agent, or none
        stmt = stmt.where(signals.c.agent_id.in_([agent_id, ""]))
    return stmt.limit(limit)


def signals_page(
    org_id: str,
    limit: int,
    *,
    agent_id: str | None = None,
    failure_type: str | None = None,
    severity: str | None = None,
    run_id: str | None = None,
    source: str | None = None,
    include_shadow: bool = True,
    since: float | None = None,
    until: float | None = None,
    after: tuple[float, int] | None = None,
) -> Select[Any]:
    """One page of an org's signals, newest detection first (keyset on detected_at, id)."""
    stmt = select(signals).where(signals.c.org_id == org_id)
    for column, value in ((signals.c.agent_id, agent_id), (signals.c.failure_type, failure_type),
                          (signals.c.severity, severity), (signals.c.run_id, run_id)):
        if value is not None:
            stmt = stmt.where(column == value)
    if source is not None:
        stmt = stmt.where(_of_source(signals.c.source, source))
    if not include_shadow:
        stmt = stmt.where(signals.c.shadow.is_(False))
    return _keyset(stmt, signals.c.detected_at, signals.c.id, since, until, after, limit)


#: The kinds of signal source a listing filters by; any other stored source is ``external``.
SOURCES = ("structural", "semantic", "external")


def _of_source(column: ColumnElement[str], source: str) -> ColumnElement[bool]:
    # An external evaluator's signals carry its provider's name as their source (Langfuse,
    # LangSmith, ...), so "external" is every source that is neither of semloop's own.
    if source == "external":
        return column.not_in(SOURCES[:2])
    return column == source


def _keyset(stmt: Select[Any], at: ColumnElement[float], row_id: ColumnElement[int],
            since: float | None, until: float | None, after: tuple[float, int] | None,
            limit: int) -> Select[Any]:
    # since inclusive, until exclusive; one row past the page says whether another follows.
    if since is not None:
        stmt = stmt.where(at >= since)
    if until is not None:
        stmt = stmt.where(at < until)
    if after is not None:
        # A row comparison: both planners turn it into an index range, where the
        # equivalent OR would filter every row above the cursor again on each page.
        stmt = stmt.where(tuple_(at, row_id) < tuple_(literal(after[0], Double()),
                                                       literal(after[1])))
    return stmt.order_by(at.desc(), row_id.desc()).limit(limit + 1)


def agent_summaries(org_id: str, after: str | None = None) -> CompoundSelect[Any]:
    """Per agent (with an id after ``after``), as rows ``(agent_id, kind, failure_type, n,
    last)``: ``runs`` (n runs, last start), ``flagged`` (n runs with a signal) and
    ``type`` (n signals of one type)."""
    no_type: ColumnElement[str] = cast(null(), String(64))
    no_time: ColumnElement[float] = cast(null(), Double())
    later: list[ColumnElement[bool]] = []
    signals_later: list[ColumnElement[bool]] = []
    if after is not None:
        later, signals_later = [events.c.agent_id > after], [signals.c.agent_id > after]
    runs = (
        select(events.c.agent_id, literal("runs", String(8)).label("kind"),
               no_type.label("failure_type"), func.count().label("n"),
               func.max(events.c.timestamp).label("last"))
        .where(events.c.org_id == org_id, text(STARTED_WHERE), *later)
        .group_by(events.c.agent_id)
    )
    flagged = (
        select(signals.c.agent_id, literal("flagged", String(8)), no_type,
               func.count(signals.c.run_id.distinct()), no_time)
        .where(signals.c.org_id == org_id, *signals_later)
        .group_by(signals.c.agent_id)
    )
    by_type = (
        select(signals.c.agent_id, literal("type", String(8)), signals.c.failure_type,
               func.count(), no_time)
        .where(signals.c.org_id == org_id, *signals_later)
        .group_by(signals.c.agent_id, signals.c.failure_type)
    )
    return union_all(runs, flagged, by_type)


# -- dashboard: activity over time, agent health, evaluators -----------------------------

def bucket_of(dialect: Dialect, column: ColumnElement[float], bucket_s: int) -> Any:
    # floor(t / b) * b. SQLite's CAST truncates, which is floor for the positive epoch
    # times stored; PostgreSQL's CAST rounds, so it gets floor() (SQLite may lack it).
    if dialect is Dialect.SQLITE:
        return cast(cast(column / bucket_s, Integer) * bucket_s, Double)
    return func.floor(column / bucket_s) * bucket_s


def run_activity(dialect: Dialect, org_id: str, since: float, bucket_s: int,
                 agent_id: str | None = None) -> Select[Any]:
    """Per time bucket of run start since ``since``: the runs, and those with a signal that
    is not shadow, as rows ``(bucket, runs, flagged)`` oldest first."""
    started: list[Any] = [events.c.org_id == org_id, text(STARTED_WHERE),
                          events.c.timestamp >= since]
    if agent_id is not None:
        started.append(events.c.agent_id == agent_id)
    bucket = bucket_of(dialect, events.c.timestamp, bucket_s).label("bucket")
    not_shadow = [signals.c.org_id == org_id, signals.c.shadow.is_(False)]
    if dialect is Dialect.SQLITE:
        # SQLite probes the signals' unique index once per run, cheaply; joined to a
        # DISTINCT subquery instead it scanned that subquery once per run.
        flagged = exists().where(*not_shadow, signals.c.run_id == events.c.run_id)
        stmt = select(bucket, func.count(), func.count(case((flagged, 1)))).where(*started)
    else:
        # PostgreSQL ran that EXISTS as one probe per run (100,000 on a month): the flagged
        # runs are joined in as one hashed set. A run's signals come after its start, so
        # only signals detected since ``since`` can belong to the window's runs.
        hit = (select(signals.c.run_id).where(*not_shadow, signals.c.detected_at >= since)
               .distinct().subquery("flagged"))
        stmt = (select(bucket, func.count(), func.count(hit.c.run_id))
                .select_from(events.outerjoin(hit, hit.c.run_id == events.c.run_id))
                .where(*started))
    # GROUP BY 1: repeating the expression would bind its parameters twice, and
    # PostgreSQL does not see two placeholders as the same expression.
    return stmt.group_by(text("1")).order_by(text("1"))


def top_failure_types(org_id: str, since: float, limit: int,
                      agent_id: str | None = None) -> Select[Any]:
    """The most frequent failure types detected since ``since`` (shadow signals left out),
    as rows ``(failure_type, signals, runs)``."""
    stmt = select(signals.c.failure_type, func.count().label("n"),
                  func.count(signals.c.run_id.distinct())).where(
        signals.c.org_id == org_id, signals.c.detected_at >= since,
        signals.c.shadow.is_(False))
    if agent_id is not None:
        stmt = stmt.where(signals.c.agent_id == agent_id)
    return (stmt.group_by(signals.c.failure_type)
            .order_by(text("n DESC"), signals.c.failure_type).limit(limit))


def agent_versions(org_id: str, agent_id: str) -> Select[Any]:
    """One agent's versions, newest run first, as rows ``(agent_version, runs, last)``."""
    last = func.max(events.c.timestamp).label("last")
    return (
        select(events.c.agent_version, func.count(), last)
        .where(events.c.org_id == org_id, events.c.agent_id == agent_id, text(STARTED_WHERE))
        .group_by(events.c.agent_version)
        .order_by(last.desc())
    )


def evaluator_activity(dialect: Dialect, org_id: str, since: float,
                       bucket_s: int) -> Select[Any]:
    """Per failure type and source other than structural, per time bucket of detection:
    rows ``(failure_type, source, bucket, signals, mean confidence, shadow)``."""
    bucket = bucket_of(dialect, signals.c.detected_at, bucket_s)
    return (
        select(signals.c.failure_type, signals.c.source, bucket, func.count(),
               func.avg(signals.c.confidence), func.count(case((signals.c.shadow, 1))))
        .where(signals.c.org_id == org_id, signals.c.source != "structural",
               signals.c.detected_at >= since)
        .group_by(text("1"), text("2"), text("3"))
        .order_by(text("1"), text("2"), text("3"))
    )


# -- alerts ------------------------------------------------------------------------------

#: PostgreSQL: alerts workers decide and claim one at a time (held to the transaction's end),
#: so two of them never both open an alert for the same failure. SQLite's single writer
#: (BEGIN IMMEDIATE) does the same there.
ALERTS_LOCK = text("SELECT pg_advisory_xact_lock(99881228)")


def undecided_signals(limit: int) -> Select[Any]:
    """Signals the alerts worker has not decided on yet, oldest first, with their org's name."""
    return (
        select(signals, orgs.c.name.label("org_name"))
        .join(orgs, orgs.c.id == signals.c.org_id)
        .where(signals.c.alert_decision.is_(None))
        .order_by(signals.c.id)
        .limit(limit)
    )


def run_ended_at(org_id: str, run_id: str) -> Select[float]:
    """When a run ended: the time of its last event."""
    return select(func.max(events.c.timestamp)).where(
        events.c.org_id == org_id, events.c.run_id == run_id
    )


def agent_runs_before(org_id: str, agent_id: str, before: float, limit: int) -> Select[str, float]:
    """An agent's runs (any version) that ended before ``before``, newest first."""
    return (
        select(events.c.run_id, events.c.timestamp)
        .where(
            events.c.org_id == org_id,
            events.c.agent_id == agent_id,
            # Literal, the partial index's own predicate: neither planner matches a partial
            # index against bound parameters.
            text(TERMINAL_WHERE),
            events.c.timestamp < before,
        )
        .order_by(events.c.timestamp.desc(), events.c.id.desc())
        .limit(limit)
    )


def signals_of_type_on_runs(
    org_id: str, failure_type: str, run_ids: Sequence[str]
) -> Select[Any]:
    """The signals of one failure type on the given runs (any source)."""
    return select(
        signals.c.run_id, signals.c.source, signals.c.confidence, signals.c.shadow
    ).where(
        signals.c.org_id == org_id,
        signals.c.failure_type == failure_type,
        signals.c.run_id.in_(list(run_ids)),
    )


def last_alert(org_id: str, agent_id: str, failure_type: str) -> Select[Any]:
    """The newest alert of one (org, agent, failure type)."""
    return (
        select(alerts.c.id, alerts.c.run_id, alerts.c.created_at, alerts.c.run_ended_at,
               alerts.c.severity)
        .where(alerts.c.org_id == org_id, alerts.c.agent_id == agent_id,
               alerts.c.failure_type == failure_type)
        .order_by(alerts.c.created_at.desc(), alerts.c.id.desc())
        .limit(1)
    )


def set_alert_decision(signal_id: int, decision: str) -> Update:
    """Record the alerts worker's verdict on a signal, once (an undecided row only)."""
    return (
        update(signals)
        .where(signals.c.id == signal_id, signals.c.alert_decision.is_(None))
        .values(alert_decision=decision, alerted=decision == "alerted")
    )


def insert_alert(dialect: Dialect) -> Insert:
    """Store one alert; a second alert for the same signal is ignored (unique signal_id)."""
    return insert_ignore(dialect, alerts, ["signal_id"]).returning(alerts.c.id)


def insert_deliveries(dialect: Dialect) -> Insert:
    """Queue an alert's deliveries, one per destination."""
    return insert_ignore(dialect, deliveries, ["alert_id", "destination"])


def _due(now: float) -> list[ColumnElement[bool]]:
    return [deliveries.c.status == "pending", deliveries.c.claimed_until < now]


def due_deliveries(now: float, limit: int, destination: str | None = None) -> Select[Any]:
    """Pending deliveries nobody holds a live lease on (of one destination), oldest first."""
    where = _due(now)
    if destination is not None:
        where.append(deliveries.c.destination == destination)
    return (
        select(deliveries.c.id, deliveries.c.alert_id, deliveries.c.destination,
               deliveries.c.payload)
        .where(*where)
        .order_by(deliveries.c.id)
        .limit(limit)
    )


def due_destinations(now: float) -> Select[str]:
    """The destinations that have deliveries waiting."""
    return select(deliveries.c.destination).where(*_due(now)).distinct()


def claim_deliveries(ids: Sequence[int], now: float, until: float) -> Update:
    """Lease deliveries to the caller until ``until``; ``RETURNING`` lists the ones it got.

    The lease is re-checked in the ``WHERE``, so on PostgreSQL a second claimer that waited
    on the row lock gets nothing even without the advisory lock.
    """
    return (
        update(deliveries)
        .where(deliveries.c.id.in_(list(ids)), deliveries.c.status == "pending",
               deliveries.c.claimed_until < now)
        .values(claimed_until=until)
        .returning(deliveries.c.id)
    )


def deliveries_by_id(ids: Sequence[int]) -> Select[Any]:
    """Deliveries by id."""
    return select(deliveries).where(deliveries.c.id.in_(list(ids)))


def finish_delivery(delivery_id: int) -> Update:
    """Record a delivery's final status and attempts (values bound by the caller)."""
    return update(deliveries).where(deliveries.c.id == delivery_id)


def alerts_of_org(org_id: str, limit: int) -> Select[Any]:
    """One org's alerts, newest first."""
    return (
        select(alerts)
        .where(alerts.c.org_id == org_id)
        .order_by(alerts.c.created_at.desc(), alerts.c.id.desc())
        .limit(limit)
    )


def deliveries_of_alerts(alert_ids: Sequence[int]) -> Select[Any]:
    """The deliveries of the given alerts."""
    return (
        select(deliveries)
        .where(deliveries.c.alert_id.in_(list(alert_ids)))
        .order_by(deliveries.c.id)
    )


def signal_decisions_of_run(org_id: str, run_id: str) -> Select[Any]:
    """The alert decision on each signal of one run."""
    return select(
        signals.c.failure_type, signals.c.source, signals.c.alert_decision, signals.c.alerted
    ).where(signals.c.org_id == org_id, signals.c.run_id == run_id)


# -- retention -----------------------------------------------------------------------------

#: PostgreSQL: a prune batch holds off inserts into events (and other prunes) until it
#: commits, so no event can land in a run between the batch's check that the run is old and
#: its delete. Reads go on. SQLite's single writer (BEGIN IMMEDIATE) does the same there.
PRUNE_LOCK = text("LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE")


def org_ids(org_id: str | None = None) -> Select[str]:
    """Every organization's id (or just ``org_id``, if it exists), in id order."""
    stmt = select(orgs.c.id).order_by(orgs.c.id)
    return stmt if org_id is None else stmt.where(orgs.c.id == org_id)


def prune_scan(org_id: str, cutoff: float, after: tuple[float, int] | None,
               limit: int) -> Select[Any]:
    """The next ``limit`` events of one org received before ``cutoff``, oldest arrival first,
    after the keyset position ``after``: a range of the (org_id, received_at, id) index."""
    stmt = select(events.c.received_at, events.c.id, events.c.run_id).where(
        events.c.org_id == org_id, events.c.received_at < cutoff)
    if after is not None:
        stmt = stmt.where(tuple_(events.c.received_at, events.c.id)
                          > tuple_(literal(after[0], Double()), literal(after[1])))
    return stmt.order_by(events.c.received_at, events.c.id).limit(limit)


def prunable_runs(org_id: str, run_ids: Sequence[str], upto: tuple[float, int],
                  now: float) -> Select[str]:
    """Those of ``run_ids`` with no event after the scan position ``upto`` and no worker
    holding a live lease on them.

    ``upto`` is below the cutoff, so this re-checks the cutoff too: a run that got an
    event since it was scanned is kept whole. A run with older events past ``upto`` is
    left for the batch whose scan reaches its last one, so each run is decided once.
    """
    # Grouped over the batch's runs (the (org_id, run_id) index) rather than an EXISTS per
    # row: SQLite answered that by walking the org's arrival index past ``upto``, the
    # whole rest of the table, for every event of the batch.
    beyond = tuple_(events.c.received_at, events.c.id) > tuple_(
        literal(upto[0], Double()), literal(upto[1]))
    leased = select(claims.c.run_id).where(claims.c.org_id == org_id,
                                           claims.c.claimed_until >= now)
    return (
        select(events.c.run_id)
        .where(events.c.org_id == org_id, events.c.run_id.in_(list(run_ids)),
               events.c.run_id.not_in(leased))
        .group_by(events.c.run_id)
        .having(func.count(case((beyond, 1))) == 0)
    )


def _signal_ids(org_id: str, run_ids: Sequence[str]) -> Select[int]:
    return select(signals.c.id).where(signals.c.org_id == org_id,
                                      signals.c.run_id.in_(list(run_ids)))


def _alert_ids(org_id: str, run_ids: Sequence[str]) -> Select[int]:
    return select(alerts.c.id).where(alerts.c.signal_id.in_(_signal_ids(org_id, run_ids)))


def prune_counts(org_id: str, run_ids: Sequence[str]) -> Select[int, int, int]:
    """How many events, signals and alerts of one org's runs a prune would delete."""
    def count(stmt: Select[Any]) -> Any:
        return select(func.count()).select_from(stmt.subquery()).scalar_subquery()
    return select(
        count(select(events.c.id).where(events.c.org_id == org_id,
                                        events.c.run_id.in_(list(run_ids)))),
        count(_signal_ids(org_id, run_ids)),
        count(_alert_ids(org_id, run_ids)),
    )


def prune_deletes(org_id: str, run_ids: Sequence[str]) -> dict[str, Delete]:
    """The deletes that remove runs and everything hanging off them, in a safe order.

    Alerts and their deliveries go explicitly, before the signals they reference, rather
    than by ``ON DELETE CASCADE``: SQLite enforces foreign keys only where the connection
    turned them on, and the counts are wanted anyway. So do the semantic worker's records
    of the runs: sampling decisions, evaluator tasks, evaluation-log rows, feedback on
    their findings, their findings' places in recurring issues (an issue left with no
    finding goes too), pulled external results, and a conversation none of whose runs is
    left.
    """
    ids = list(run_ids)
    found = _signal_ids(org_id, ids)
    conversations, members, groups = (semantic_conversations, semantic_members,
                                      semantic_groups)
    # A conversation is dropped with its last run: none of its events outside these runs.
    kept = select(events.c.id).where(
        events.c.org_id == org_id, events.c.conversation_id == conversations.c.conversation_id,
        events.c.run_id.not_in(ids)).exists()
    ending = select(events.c.conversation_id).where(
        events.c.org_id == org_id, events.c.run_id.in_(ids),
        events.c.conversation_id.is_not(None))

    def of_runs(table: Table) -> Delete:
        return delete(table).where(table.c.org_id == org_id, table.c.run_id.in_(ids))

    return {
        "deliveries": delete(deliveries).where(
            deliveries.c.alert_id.in_(_alert_ids(org_id, ids))),
        "alerts": delete(alerts).where(alerts.c.signal_id.in_(found)),
        "feedback": delete(semantic_feedback).where(semantic_feedback.c.org_id == org_id,
                                                    semantic_feedback.c.signal_id.in_(found)),
        "members": delete(members).where(members.c.signal_id.in_(found)),
        "groups": delete(groups).where(groups.c.org_id == org_id, ~select(members.c.signal_id)
                                       .where(members.c.group_id == groups.c.id).exists()),
        "externals": of_runs(external_evaluations),
        "signals": of_runs(signals),
        "samples": of_runs(semantic_samples),
        "tasks": of_runs(semantic_tasks),
        "evaluations": of_runs(semantic_evaluations),
        "conversations": delete(conversations).where(
            conversations.c.org_id == org_id, conversations.c.conversation_id.in_(ending),
            ~kept),
        "processed": of_runs(processed),
        "claims": of_runs(claims),
        "events": of_runs(events),
    }


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


# The Dunetrace SDK's remote policies, approvals and deploy markers (org-scoped throughout).

def insert_policy() -> Insert:
    """Store a new remote policy; returns its id."""
    return insert(policies).returning(policies.c.id)


def policies_of_org(org_id: str, agent_id: str | None = None) -> Select[Any]:
    """An org's remote policies by id; with ``agent_id``, those for it and for every agent."""
    stmt = select(policies).where(policies.c.org_id == org_id)
    if agent_id is not None:
        stmt = stmt.where(policies.c.agent_id.in_([agent_id, "*"]))
    return stmt.order_by(policies.c.id)


def policy_evaluations(org_id: str, policy_id: int, limit: int,
                       fired: bool | None = None) -> Select[Any]:
    """An org's ``policy.evaluated`` events for one remote policy, newest first.

    The payload's ``policy_id`` and ``fired`` are compared as text (``7`` and ``true``
    on PostgreSQL, ``7`` and ``1`` on SQLite), so a payload of another shape never fails
    the query, it only does not match.
    """
    def text_of(key: str) -> ColumnElement[Any]:
        return cast(events.c.payload[key].as_string(), String)

    stmt = (select(events.c.id, events.c.run_id, events.c.agent_id, events.c.timestamp,
                   events.c.received_at, events.c.payload)
            .where(events.c.org_id == org_id, events.c.event_type == "policy.evaluated",
                   text_of("policy_id") == str(policy_id)))
    if fired is not None:
        truth = text_of("fired").in_(["true", "1"])
        stmt = stmt.where(truth if fired else ~truth)
    return stmt.order_by(events.c.received_at.desc(), events.c.id.desc()).limit(limit)


def policy_by_id(org_id: str, policy_id: int) -> Select[Any]:
    """One remote policy of an org."""
    return select(policies).where(policies.c.org_id == org_id, policies.c.id == policy_id)


def update_policy(org_id: str, policy_id: int, values: dict[str, Any]) -> Update:
    """Change a remote policy of an org."""
    return (update(policies)
            .where(policies.c.org_id == org_id, policies.c.id == policy_id).values(**values))


def delete_policy(org_id: str, policy_id: int) -> Delete:
    """Delete a remote policy of an org."""
    return delete(policies).where(policies.c.org_id == org_id, policies.c.id == policy_id)


def insert_approval() -> Insert:
    """Store a new approval request; returns its id."""
    return insert(approvals).returning(approvals.c.id)


def approval_by_id(org_id: str, approval_id: int) -> Select[Any]:
    """One approval request of an org."""
    return select(approvals).where(approvals.c.org_id == org_id,
                                   approvals.c.id == approval_id)


def approvals_of_org(org_id: str, status: str | None, limit: int) -> Select[Any]:
    """An org's approval requests, newest first, of one status if given."""
    stmt = select(approvals).where(approvals.c.org_id == org_id)
    if status is not None:
        stmt = stmt.where(approvals.c.status == status)
    return stmt.order_by(approvals.c.created_at.desc(), approvals.c.id.desc()).limit(limit)


def decide_approval(org_id: str, approval_id: int, values: dict[str, Any]) -> Update:
    """Decide an approval request, only while it is pending: of two deciders, one wins."""
    return (update(approvals)
            .where(approvals.c.org_id == org_id, approvals.c.id == approval_id,
                   approvals.c.status == "pending")
            .values(**values))


def insert_deploy() -> Insert:
    """Store a deploy marker; returns its id."""
    return insert(deploys).returning(deploys.c.id)


def deploys_of_agent(org_id: str, agent_id: str, limit: int) -> Select[Any]:
    """An agent's deploy markers, newest first."""
    return (select(deploys).where(deploys.c.org_id == org_id, deploys.c.agent_id == agent_id)
            .order_by(deploys.c.deployed_at.desc(), deploys.c.id.desc()).limit(limit))


def expire_approvals(org_id: str, now: float) -> Update:
    """Time out an org's pending approval requests whose deadline has passed."""
    return (update(approvals)
            .where(approvals.c.org_id == org_id, approvals.c.status == "pending",
                   approvals.c.expires_at <= now)
            .values(status="timeout", decided_at=approvals.c.expires_at,
                    decision_channel="server"))


def enable_pack(dialect: Dialect) -> Insert:
    """Enable a pack for an org; enabling it again keeps the first time."""
    return insert_ignore(dialect, packs, ["org_id", "pack_name"])


def disable_pack(org_id: str, pack_name: str) -> Delete:
    return delete(packs).where(packs.c.org_id == org_id, packs.c.pack_name == pack_name)


def packs_of_org(org_id: str) -> Select[Any]:
    """An org's enabled packs, in the order they were enabled."""
    return (select(packs).where(packs.c.org_id == org_id)
            .order_by(packs.c.enabled_at, packs.c.pack_name))
