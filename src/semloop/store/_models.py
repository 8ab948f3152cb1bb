"""The schema, as SQLAlchemy 2 models. One schema for SQLite and PostgreSQL.

Times are epoch seconds (``DOUBLE``/``REAL``): the SDK sends epoch floats, workers compare
against ``time.time()``, and both dialects then agree without time-zone handling.
The migrations in ``migrations/versions`` restate these tables on purpose (a revision must
not change when this module does); ``tests/store/test_migrations.py`` checks they agree.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "COMPLETED_WHERE",
    "NAMING_CONVENTION",
    "STARTED_WHERE",
    "TERMINAL_WHERE",
    "AgentSemanticConfig",
    "AlertDeliveryRow",
    "AlertRow",
    "ApiKey",
    "ApprovalRow",
    "Base",
    "DeployRow",
    "EventRow",
    "ExternalEvaluation",
    "IntegrationState",
    "Organization",
    "PolicyRow",
    "ProcessedRun",
    "RunClaim",
    "SemanticConversation",
    "SemanticEvaluation",
    "SemanticFeedback",
    "SemanticGroup",
    "SemanticGroupMember",
    "SemanticSample",
    "SemanticSettings",
    "SemanticTask",
    "SemanticUsage",
    "SignalRow",
]

#: Identical constraint names on both dialects, so migrations can name what they drop.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: The events that end a run (the partial index below covers only these).
TERMINAL_WHERE = "event_type IN ('run.completed', 'run.errored')"
#: The event that starts a run: one per run, so the run listings index only these.
STARTED_WHERE = "event_type = 'run.started'"
#: The event of a run that finished normally: baselines are read from these only.
COMPLETED_WHERE = "event_type = 'run.completed'"

# JSONB on PostgreSQL (indexable, compact); JSON text on SQLite.
JsonDoc = JSON().with_variant(JSONB(), "postgresql")
# SQLite only auto-increments an INTEGER PRIMARY KEY, not a BIGINT one.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Organization(Base):
    __tablename__ = "organizations"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[float] = mapped_column(Double)


class ApiKey(Base):
    """An org's API key. Only sha256(key) is kept; ``key_id`` (in the key's text) finds the row."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), index=True
    )
    key_id: Mapped[str] = mapped_column(String(32), unique=True)
    key_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Double)
    revoked_at: Mapped[float | None] = mapped_column(Double, nullable=True)


class EventRow(Base):
    """One event as received. ``(org_id, event_id)`` de-duplicates replayed batches."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("org_id", "event_id"),
        Index(None, "org_id", "run_id"),
        # Workers poll for terminal and started events, newest arrivals last.
        Index(None, "event_type", "received_at"),
        # Alerts: an agent's finished runs by end time. Partial (terminal events only, one
        # per run), so ingest pays for it on one event in a run, not on every event.
        Index("ix_events_terminal_org_id_agent_id_timestamp",
              "org_id", "agent_id", "timestamp",
              postgresql_where=text(TERMINAL_WHERE), sqlite_where=text(TERMINAL_WHERE)),
        # GET /v1/runs: an org's runs newest first (keyset on timestamp, id), and one
        # agent's. Partial, like the one above: one row per run.
        Index("ix_events_started_org_id_timestamp_id", "org_id", "timestamp", "id",
              postgresql_where=text(STARTED_WHERE), sqlite_where=text(STARTED_WHERE)),
        Index("ix_events_started_org_id_agent_id_timestamp_id",
              "org_id", "agent_id", "timestamp", "id",
              postgresql_where=text(STARTED_WHERE), sqlite_where=text(STARTED_WHERE)),
        # A listed run's status: its terminal event, found in one probe rather than by
        # reading every event of the run (the runs listing filtered by status).
        Index("ix_events_terminal_org_id_run_id", "org_id", "run_id",
              postgresql_where=text(TERMINAL_WHERE), sqlite_where=text(TERMINAL_WHERE)),
        # An agent's versions (count and last start read from the index alone), and the
        # baselines: the newest completed runs of one agent version, in order. Partial, one
        # row per run: the index on every event they replace made both walk the agent's
        # whole history (SQLite, 100,000 runs: 89 and 87 ms; now 7 and under 1).
        Index("ix_events_started_org_id_agent_id_agent_version_timestamp",
              "org_id", "agent_id", "agent_version", "timestamp",
              postgresql_where=text(STARTED_WHERE), sqlite_where=text(STARTED_WHERE)),
        Index("ix_events_completed_org_id_agent_id_agent_version_timestamp_id",
              "org_id", "agent_id", "agent_version", "timestamp", "id",
              postgresql_where=text(COMPLETED_WHERE), sqlite_where=text(COMPLETED_WHERE)),
        # Retention: an org's events oldest arrival first (Store.prune's keyset walk).
        Index(None, "org_id", "received_at", "id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    event_id: Mapped[str] = mapped_column(String(64))
    event_type: Mapped[str] = mapped_column(String(64))
    run_id: Mapped[str] = mapped_column(String(128))
    agent_id: Mapped[str] = mapped_column(String(200))
    agent_version: Mapped[str] = mapped_column(String(64), default="")
    step_index: Mapped[int] = mapped_column(Integer)
    timestamp: Mapped[float] = mapped_column(Double)
    payload: Mapped[Any] = mapped_column(JsonDoc)
    parent_run_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    trace_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    conversation_id: Mapped[str | None] = mapped_column(String(200), nullable=True)
    received_at: Mapped[float] = mapped_column(Double)


class ProcessedRun(Base):
    """A run a worker has finished with; it is never handed to that worker again."""

    __tablename__ = "processed_runs"
    __table_args__ = (
        # Retention deletes a run's rows of every worker; the key leads with the worker.
        Index(None, "org_id", "run_id"),
    )

    worker: Mapped[str] = mapped_column(String(64), primary_key=True)
    org_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    run_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    trigger: Mapped[str] = mapped_column(String(16))
    processed_at: Mapped[float] = mapped_column(Double)


class RunClaim(Base):
    """A lease on a run by one instance of a worker, so two instances don't both take it.

    A claim past ``claimed_until`` may be taken over: a crashed worker's runs come back.
    """

    __tablename__ = "run_claims"

    worker: Mapped[str] = mapped_column(String(64), primary_key=True)
    org_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    run_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    claimed_until: Mapped[float] = mapped_column(Double)


class SignalRow(Base):
    """One failure found in one run (Dunetrace's ``failure_signals``), plus its ``source``."""

    __tablename__ = "failure_signals"
    __table_args__ = (
        UniqueConstraint("org_id", "run_id", "failure_type", "source"),
        # The alerts worker polls for signals it has not decided on yet (NULL).
        Index(None, "alert_decision"),
        # GET /v1/signals: an org's signals newest first (keyset on detected_at, id).
        Index(None, "org_id", "detected_at", "id"),
        # The runs listing by failure type: the runs that have one, counted first.
        Index(None, "org_id", "failure_type", "agent_id", "run_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    run_id: Mapped[str] = mapped_column(String(128))
    failure_type: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(String(32), default="structural")
    severity: Mapped[str] = mapped_column(String(16))
    confidence: Mapped[float] = mapped_column(Double)
    evidence: Mapped[Any] = mapped_column(JsonDoc)
    step_index: Mapped[int] = mapped_column(Integer, default=0)
    agent_id: Mapped[str] = mapped_column(String(200), default="")
    agent_version: Mapped[str] = mapped_column(String(64), default="")
    shadow: Mapped[bool] = mapped_column(Boolean, default=False)
    alerted: Mapped[bool] = mapped_column(Boolean, default=False)
    co_signal_count: Mapped[int] = mapped_column(Integer, default=1)
    detected_at: Mapped[float] = mapped_column(Double)
    # What the alerts worker made of it (alerted, deduplicated, below_policy, below_floor,
    # shadow); NULL until it has looked. ``alerted`` stays true only for sent alerts.
    alert_decision: Mapped[str | None] = mapped_column(String(16), nullable=True)


class AlertRow(Base):
    """One alert: a signal that met its failure type's policy and was not a duplicate."""

    __tablename__ = "alerts"
    __table_args__ = (
        # The newest alert of one (org, agent, failure type): the de-duplication lookup.
        Index(None, "org_id", "agent_id", "failure_type", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    # Unique: a signal alerts at most once, whatever two workers decide.
    signal_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("failure_signals.id", ondelete="CASCADE"), unique=True
    )
    agent_id: Mapped[str] = mapped_column(String(200))
    failure_type: Mapped[str] = mapped_column(String(64))
    run_id: Mapped[str] = mapped_column(String(128))
    run_ended_at: Mapped[float] = mapped_column(Double)
    policy: Mapped[str] = mapped_column(String(32))
    severity: Mapped[str] = mapped_column(String(16))
    confidence: Mapped[float] = mapped_column(Double)
    counts: Mapped[Any] = mapped_column(JsonDoc)
    created_at: Mapped[float] = mapped_column(Double)


class AlertDeliveryRow(Base):
    """One alert to one destination: an outbox row, written with the alert, then sent.

    ``status`` is pending, delivered or failed; ``attempt_log`` lists every try. A sender
    leases a pending row (``claimed_until``) so two workers never send it at once.
    """

    __tablename__ = "alert_deliveries"
    __table_args__ = (
        UniqueConstraint("alert_id", "destination"),
        Index(None, "status", "claimed_until"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    alert_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("alerts.id", ondelete="CASCADE")
    )
    destination: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    attempt_log: Mapped[Any] = mapped_column(JsonDoc)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    payload: Mapped[Any] = mapped_column(JsonDoc)
    claimed_until: Mapped[float] = mapped_column(Double, default=0.0)
    created_at: Mapped[float] = mapped_column(Double)
    finished_at: Mapped[float | None] = mapped_column(Double, nullable=True)


class SemanticSample(Base):
    """The semantic worker's sampling decision on one finished run, evaluated or not:
    "why was this run not evaluated?" always has an answer. ``charged`` is set in the
    transaction that spends the run's quota unit, so a retry never spends it again."""

    __tablename__ = "semantic_samples"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    run_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    agent_id: Mapped[str] = mapped_column(String(200))
    sampled: Mapped[bool] = mapped_column(Boolean)
    reason: Mapped[str] = mapped_column(String(32))
    rate: Mapped[float] = mapped_column(Double)
    bucket: Mapped[float] = mapped_column(Double)
    charged: Mapped[bool] = mapped_column(Boolean, default=False)
    decided_at: Mapped[float] = mapped_column(Double)


class SemanticTask(Base):
    """One evaluator's work on one run (a conversation evaluator: on the run that
    triggered it): attempts so far, and done or failed for good with the last error."""

    __tablename__ = "semantic_tasks"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    run_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    evaluator: Mapped[str] = mapped_column(String(64), primary_key=True)
    state: Mapped[str] = mapped_column(String(16))  # pending | done | failed | skipped
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    signal_id: Mapped[int | None] = mapped_column(BigId, nullable=True)
    updated_at: Mapped[float] = mapped_column(Double)


class SemanticEvaluation(Base):
    """Every judge call, fired or not: the honest source of cost reporting."""

    __tablename__ = "semantic_evaluations"
    __table_args__ = (Index(None, "org_id", "evaluated_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    run_id: Mapped[str] = mapped_column(String(128))
    conversation_id: Mapped[str | None] = mapped_column(String(200), nullable=True)
    agent_id: Mapped[str] = mapped_column(String(200))
    evaluator: Mapped[str] = mapped_column(String(64))
    judge: Mapped[str] = mapped_column(String(64))
    model: Mapped[str] = mapped_column(String(200), default="")
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    estimated: Mapped[bool] = mapped_column(Boolean, default=False)
    cost_usd: Mapped[float] = mapped_column(Double, default=0.0)
    latency_ms: Mapped[float] = mapped_column(Double, default=0.0)
    fired: Mapped[bool] = mapped_column(Boolean)
    confidence: Mapped[float | None] = mapped_column(Double, nullable=True)
    undecided: Mapped[bool] = mapped_column(Boolean)
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    attempt: Mapped[int] = mapped_column(Integer)
    second_opinion: Mapped[bool] = mapped_column(Boolean, default=False)
    evaluated_at: Mapped[float] = mapped_column(Double)


class SemanticUsage(Base):
    """A month's evaluations in one scope: ``org``, ``agent`` (key = agent id) or
    ``conversation``. Spent by a conditional increment, exact under concurrency;
    ``exceeded`` flips once, so running out writes one shadow signal per scope a month."""

    __tablename__ = "semantic_usage"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    scope: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    month: Mapped[str] = mapped_column(String(7), primary_key=True)  # YYYY-MM, UTC
    used: Mapped[int] = mapped_column(Integer, default=0)
    exceeded: Mapped[bool] = mapped_column(Boolean, default=False)


class AgentSemanticConfig(Base):
    """One agent's sampling and budget overrides (NULL: the org's defaults)."""

    __tablename__ = "agent_semantic_config"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    agent_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    sample_rate: Mapped[float | None] = mapped_column(Double, nullable=True)
    budget_monthly: Mapped[int | None] = mapped_column(Integer, nullable=True)
    evaluators: Mapped[Any] = mapped_column(JsonDoc)  # [] = every enabled evaluator
    semantic_critical: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[float] = mapped_column(Double)


class SemanticSettings(Base):
    """An org's semantic quotas and feedback switches; no row = the defaults."""

    __tablename__ = "semantic_settings"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    evaluation_quota: Mapped[int] = mapped_column(Integer, default=1000)
    allow_overage: Mapped[bool] = mapped_column(Boolean, default=False)
    conversation_quota: Mapped[int] = mapped_column(Integer, default=200)
    allow_conversation_overage: Mapped[bool] = mapped_column(Boolean, default=False)
    count_local_evaluations: Mapped[bool] = mapped_column(Boolean, default=False)
    feedback_enabled: Mapped[bool] = mapped_column(Boolean, default=False)
    auto_suppress: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[float] = mapped_column(Double)


class SemanticGroup(Base):
    """A recurring issue: one agent's findings of one evaluator about the same fault."""

    __tablename__ = "semantic_groups"
    __table_args__ = (Index(None, "org_id", "agent_id", "evaluator"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    agent_id: Mapped[str] = mapped_column(String(200))
    evaluator: Mapped[str] = mapped_column(String(64))
    # The first member's normalised reasoning and evidence, and its embedding (NULL when
    # the grouping fell back to token sets).
    representation: Mapped[str] = mapped_column(String(2000))
    vector: Mapped[Any] = mapped_column(JsonDoc, nullable=True)
    first_seen: Mapped[float] = mapped_column(Double)
    last_seen: Mapped[float] = mapped_column(Double)
    run_count: Mapped[int] = mapped_column(Integer, default=0)
    false_positives: Mapped[int] = mapped_column(Integer, default=0)


class SemanticGroupMember(Base):
    __tablename__ = "semantic_group_members"

    group_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("semantic_groups.id", ondelete="CASCADE"), primary_key=True
    )
    signal_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("failure_signals.id", ondelete="CASCADE"), primary_key=True,
        unique=True,
    )
    run_id: Mapped[str] = mapped_column(String(128))
    added_at: Mapped[float] = mapped_column(Double)


class SemanticFeedback(Base):
    """A person's verdict on one semantic signal."""

    __tablename__ = "semantic_feedback"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    signal_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("failure_signals.id", ondelete="CASCADE"), index=True
    )
    verdict: Mapped[str] = mapped_column(String(16))  # false_positive | confirmed
    note: Mapped[str] = mapped_column(String(2000), default="")
    created_at: Mapped[float] = mapped_column(Double)


class SemanticConversation(Base):
    """A conversation's sampling decision and how many of its runs were last evaluated:
    it is evaluated again only when new runs arrive."""

    __tablename__ = "semantic_conversations"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    conversation_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    agent_id: Mapped[str] = mapped_column(String(200))
    sampled: Mapped[bool] = mapped_column(Boolean)
    reason: Mapped[str] = mapped_column(String(32))
    runs_evaluated: Mapped[int] = mapped_column(Integer, default=0)
    last_evaluated_at: Mapped[float | None] = mapped_column(Double, nullable=True)


class ExternalEvaluation(Base):
    """A result pushed by an external evaluation provider, once per its own id."""

    __tablename__ = "external_evaluations"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    provider: Mapped[str] = mapped_column(String(32), primary_key=True)
    external_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    run_id: Mapped[str] = mapped_column(String(128))
    signal_id: Mapped[int | None] = mapped_column(BigId, nullable=True)
    received_at: Mapped[float] = mapped_column(Double)


class IntegrationState(Base):
    """An integration's pull cursor and outage (the integrations worker's own record)."""

    __tablename__ = "integration_state"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    provider: Mapped[str] = mapped_column(String(32))
    cursor: Mapped[str | None] = mapped_column(String(200), nullable=True)
    last_success_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    failing_since: Mapped[float | None] = mapped_column(Double, nullable=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    down_signalled: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[float] = mapped_column(Double)


class PolicyRow(Base):
    """A remote policy the Dunetrace SDK fetches (``GET /v1/policies?agent_id=``).

    ``agent_id`` is ``*`` for every agent of the org. Not signed at rest: the signature is
    computed when served, with the server's secret of that moment.
    """

    __tablename__ = "remote_policies"
    __table_args__ = (Index(None, "org_id", "agent_id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    agent_id: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(200))
    condition: Mapped[Any] = mapped_column(JsonDoc)
    action: Mapped[Any] = mapped_column(JsonDoc)
    enabled: Mapped[bool] = mapped_column(Boolean)
    priority: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Double)
    updated_at: Mapped[float] = mapped_column(Double)


class ApprovalRow(Base):
    """A ``require_approval`` request: pending until a person (or the SDK's timeout) decides."""

    __tablename__ = "approvals"
    __table_args__ = (Index(None, "org_id", "status", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    run_id: Mapped[str] = mapped_column(String(128))
    agent_id: Mapped[str] = mapped_column(String(200))
    tool_name: Mapped[str] = mapped_column(String(200))
    tool_args: Mapped[str | None] = mapped_column(String(65536), nullable=True)
    timeout_seconds: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Double)
    expires_at: Mapped[float] = mapped_column(Double)
    decided_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(200), nullable=True)
    decision_channel: Mapped[str | None] = mapped_column(String(32), nullable=True)
    note: Mapped[str | None] = mapped_column(String(2000), nullable=True)


class DeployRow(Base):
    """A deploy marker (``dt.mark_deploy``): an agent version released at a time."""

    __tablename__ = "deploys"
    __table_args__ = (Index(None, "org_id", "agent_id", "deployed_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE")
    )
    agent_id: Mapped[str] = mapped_column(String(200))
    version: Mapped[str] = mapped_column(String(64))
    meta: Mapped[Any] = mapped_column(JsonDoc)
    deployed_at: Mapped[float] = mapped_column(Double)


class OrgPackRow(Base):
    """A detector pack an organization enabled (``dt.enable_pack``); see
    :data:`semloop.detect.PACKS`."""

    __tablename__ = "org_packs"

    org_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    pack_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    enabled_at: Mapped[float] = mapped_column(Double)
