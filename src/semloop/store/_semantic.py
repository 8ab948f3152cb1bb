"""The semantic worker's bookkeeping: sampling decisions, evaluator tasks, the evaluation
log, quotas, org and agent settings, recurring issues, feedback and conversations.

Quotas are spent by one conditional increment (``UPDATE … SET used = used + 1 WHERE
used < limit RETURNING``) on a counter row created first if missing: PostgreSQL's row lock
serialises concurrent workers and SQLite has one writer, so with quota Q exactly Q
evaluations run however many workers share the database. The run's ``charged`` flag is
set in the same transaction, so a retry or a second worker never spends a unit twice.
"""

from __future__ import annotations

import datetime as dt
import functools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import Table, and_, delete, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection

from ..evaluate.findings import GroupView
from ..evaluate.sampling import AgentSemantics, Sample
from ..events import Run, Severity, Signal
from . import queries as q
from ._connector import Area
from ._dialect import Dialect, insert_ignore, upsert
from ._errors import translate_errors
from ._events import load_runs
from ._models import (
    STARTED_WHERE,
    TERMINAL_WHERE,
    AgentSemanticConfig,
    ExternalEvaluation,
    SemanticConversation,
    SemanticEvaluation,
    SemanticFeedback,
    SemanticGroup,
    SemanticGroupMember,
    SemanticSample,
    SemanticSettings,
    SemanticTask,
    SemanticUsage,
)
from ._records import Page, Position
from ._rows import no_nul, signal_of
from ._signals import insert_signals

__all__ = [
    "CONVERSATION_EVALUATORS",
    "QUOTA_EXCEEDED",
    "ConversationSummary",
    "OrgSemantics",
    "Semantic",
    "SemanticState",
    "StoredSample",
    "TaskOutcome",
    "Usage",
    "month_of",
]

samples: Table = SemanticSample.__table__  # type: ignore[assignment]
tasks: Table = SemanticTask.__table__  # type: ignore[assignment]
log_table: Table = SemanticEvaluation.__table__  # type: ignore[assignment]
usage: Table = SemanticUsage.__table__  # type: ignore[assignment]
agents: Table = AgentSemanticConfig.__table__  # type: ignore[assignment]
settings_table: Table = SemanticSettings.__table__  # type: ignore[assignment]
groups: Table = SemanticGroup.__table__  # type: ignore[assignment]
members: Table = SemanticGroupMember.__table__  # type: ignore[assignment]
feedback: Table = SemanticFeedback.__table__  # type: ignore[assignment]
conversations: Table = SemanticConversation.__table__  # type: ignore[assignment]
externals: Table = ExternalEvaluation.__table__  # type: ignore[assignment]

#: The evaluators whose findings are a conversation's (on its newest run).
CONVERSATION_EVALUATORS = ("USER_FRUSTRATION", "CONFUSION_LOOP", "SYCOPHANCY_SIGNAL")

#: The shadow signal written once per scope a month when a quota runs out.
QUOTA_EXCEEDED = "SEMANTIC_QUOTA_EXCEEDED"


def month_of(at: float) -> str:
    """``YYYY-MM`` of an epoch time, in UTC."""
    return dt.datetime.fromtimestamp(at, dt.timezone.utc).strftime("%Y-%m")


@dataclass(frozen=True)
class OrgSemantics:
    """An org's semantic quotas and feedback switches (the defaults without a row)."""

    evaluation_quota: int = 1000
    allow_overage: bool = False
    conversation_quota: int = 200
    allow_conversation_overage: bool = False
    count_local_evaluations: bool = False
    feedback_enabled: bool = False
    auto_suppress: bool = False


_ORG_FIELDS = tuple(f.name for f in fields(OrgSemantics))


@dataclass(frozen=True)
class StoredSample:
    sampled: bool
    reason: str
    rate: float
    bucket: float
    charged: bool


@dataclass(frozen=True)
class SemanticState:
    """What the worker needs to know about a run before it judges it, in one read."""

    structural: bool
    agent: AgentSemantics
    org: OrgSemantics
    sample: StoredSample | None
    #: Evaluator -> (state, attempts) of the tasks begun on this run.
    tasks: Mapping[str, tuple[str, int]]


@dataclass(frozen=True)
class TaskOutcome:
    """One evaluator's outcome on a run, written with the run's others in one transaction.

    ``state``: ``done``, ``pending`` (a failed attempt to retry), ``failed`` (the last
    attempt failed) or ``skipped`` (not run on purpose). ``note``: the error, or why it was
    skipped or suppressed. ``group``: the finding's recurring issue, an existing group's id
    or the representation and vector of a new one. ``calls``: the judge calls made for it
    (evaluation-log rows, every one, fired or not).
    """

    evaluator: str
    state: str
    attempts: int
    note: str | None = None
    signal: Signal | None = None
    group: int | tuple[str, Sequence[float]] | None = None
    calls: Sequence[Mapping[str, Any]] = ()


@dataclass(frozen=True)
class ConversationSummary:
    """One conversation in a listing: its runs' span and how many, and its findings."""

    conversation_id: str
    agent_id: str
    started_at: float
    last_started_at: float
    runs: int
    findings: tuple[str, ...]
    position: Position


@dataclass(frozen=True)
class Usage:
    quota: int
    used: int
    allow_overage: bool
    cost_usd: float
    conversation_quota: int
    conversation_used: int


def _agent_of(row: Any) -> AgentSemantics:
    if row is None:
        return AgentSemantics()
    return AgentSemantics(sample_rate=row.sample_rate, budget_monthly=row.budget_monthly,
                          evaluators=tuple(row.evaluators or ()),
                          semantic_critical=bool(row.semantic_critical))


def _org_of(row: Any) -> OrgSemantics:
    if row is None:
        return OrgSemantics()
    return OrgSemantics(**{name: getattr(row, name) for name in _ORG_FIELDS})


def _spend(conn: Connection, dialect: Dialect, org_id: str, scope: str, key: str, month: str,
           limit: int | None) -> bool:
    """Spend one unit of a counter; ``limit`` None spends unconditionally. False: spent out."""
    conn.execute(insert_ignore(dialect, usage, ["org_id", "scope", "key", "month"]),
                 {"org_id": org_id, "scope": scope, "key": key, "month": month, "used": 0,
                  "exceeded": False})
    where = [usage.c.org_id == org_id, usage.c.scope == scope, usage.c.key == key,
             usage.c.month == month]
    if limit is not None:
        where.append(usage.c.used < limit)
    spent = conn.execute(update(usage).where(*where).values(used=usage.c.used + 1)
                         .returning(usage.c.used)).first()
    return spent is not None


def _refund(conn: Connection, org_id: str, scope: str, key: str, month: str) -> None:
    conn.execute(update(usage).where(
        usage.c.org_id == org_id, usage.c.scope == scope, usage.c.key == key,
        usage.c.month == month).values(used=usage.c.used - 1))


def _first_exceeded(conn: Connection, org_id: str, scope: str, key: str, month: str) -> bool:
    """Flip the counter's ``exceeded`` flag; True only for the one caller that flipped it."""
    flipped = conn.execute(update(usage).where(
        usage.c.org_id == org_id, usage.c.scope == scope, usage.c.key == key,
        usage.c.month == month, usage.c.exceeded.is_(False)).values(exceeded=True)
        .returning(usage.c.used)).first()
    return flipped is not None


def _log(conn: Connection, org_id: str, calls: Sequence[Mapping[str, Any]]) -> None:
    if calls:
        now = time.time()
        conn.execute(insert(log_table), [{"org_id": org_id, "evaluated_at": now, **c}
                                         for c in calls])


_TASK_COLUMNS = ("state", "attempts", "last_error", "signal_id", "updated_at")


@functools.cache
def _task_upsert(dialect: Dialect) -> Any:
    """The task upsert, built once: SQLAlchemy takes longer to build it than to run it."""
    return upsert(dialect, tasks, ["org_id", "run_id", "evaluator"], _TASK_COLUMNS)


def _quota_signal(run: Run, scope: str, limit: int, month: str) -> Signal:
    return Signal(failure_type=QUOTA_EXCEEDED, run_id=run.run_id, severity=Severity.LOW,
                  confidence=1.0, source="semantic", shadow=True, agent_id=run.agent_id,
                  agent_version=run.agent_version,
                  evidence={"month": month, "scope": scope, "limit": limit,
                            "agent_id": run.agent_id})


class Semantic(Area):
    """The semantic worker's tables."""

    # -- settings ---------------------------------------------------------------------

    def org_semantics(self, org_id: str) -> OrgSemantics:
        with translate_errors("read semantic settings"), self._db.read() as conn:
            return _org_of(conn.execute(
                select(settings_table).where(settings_table.c.org_id == org_id)).first())

    def update_org_semantics(self, org_id: str, **changes: Any) -> OrgSemantics:
        """Change some of an org's semantic settings (names of :class:`OrgSemantics`)."""
        unknown = set(changes) - set(_ORG_FIELDS)
        if unknown:
            raise ValueError(f"unknown semantic settings: {', '.join(sorted(unknown))}")
        with translate_errors("change semantic settings"), self._db.write() as conn:
            row = conn.execute(
                select(settings_table).where(settings_table.c.org_id == org_id)).first()
            values = {**_org_of(row).__dict__, **changes}
            conn.execute(delete(settings_table).where(settings_table.c.org_id == org_id))
            conn.execute(insert(settings_table), {"org_id": org_id, "updated_at": time.time(),
                                                  **values})
            return OrgSemantics(**values)

    def set_agent_semantics(self, org_id: str, agent_id: str, config: AgentSemantics) -> None:
        """Replace one agent's sampling and budget overrides."""
        with translate_errors("change agent semantic config"), self._db.write() as conn:
            conn.execute(delete(agents).where(agents.c.org_id == org_id,
                                              agents.c.agent_id == agent_id))
            conn.execute(insert(agents), {
                "org_id": org_id, "agent_id": agent_id, "sample_rate": config.sample_rate,
                "budget_monthly": config.budget_monthly, "evaluators": list(config.evaluators),
                "semantic_critical": config.semantic_critical, "updated_at": time.time()})

    # -- runs ---------------------------------------------------------------------------

    def semantic_states(self, runs: Sequence[tuple[str, Run]]) -> list[SemanticState]:
        """What the worker needs to know about each ``(org_id, run)`` before judging it, in
        one read for the whole batch."""
        by_org: dict[str, list[Run]] = {}
        for org_id, run in runs:
            by_org.setdefault(org_id, []).append(run)
        found: dict[tuple[str, str], SemanticState] = {}
        with translate_errors("read runs' semantic state"), self._db.read() as conn:
            for org_id, of_org in by_org.items():
                ids = [run.run_id for run in of_org]
                structural = set(conn.execute(select(q.signals.c.run_id).distinct().where(
                    q.signals.c.org_id == org_id, q.signals.c.run_id.in_(ids),
                    q.signals.c.source == "structural")).scalars())
                agent_rows = {row.agent_id: row for row in conn.execute(select(agents).where(
                    agents.c.org_id == org_id,
                    agents.c.agent_id.in_({run.agent_id for run in of_org})))}
                org = _org_of(conn.execute(
                    select(settings_table).where(settings_table.c.org_id == org_id)).first())
                sampled = {row.run_id: StoredSample(row.sampled, row.reason, row.rate,
                                                    row.bucket, row.charged)
                           for row in conn.execute(select(samples).where(
                               samples.c.org_id == org_id, samples.c.run_id.in_(ids)))}
                begun: dict[str, dict[str, tuple[str, int]]] = {}
                for row in conn.execute(select(tasks.c.run_id, tasks.c.evaluator, tasks.c.state,
                                               tasks.c.attempts).where(
                        tasks.c.org_id == org_id, tasks.c.run_id.in_(ids))):
                    begun.setdefault(row.run_id, {})[row.evaluator] = (row.state, row.attempts)
                for run in of_org:
                    found[org_id, run.run_id] = SemanticState(
                        structural=run.run_id in structural,
                        agent=_agent_of(agent_rows.get(run.agent_id)), org=org,
                        sample=sampled.get(run.run_id), tasks=begun.get(run.run_id, {}))
        return [found[org_id, run.run_id] for org_id, run in runs]

    def record_samples(self, decisions: Sequence[tuple[str, Run, Sample | None, bool]],
                       ) -> list[bool]:
        """Keep new sampling decisions and charge the sampled runs, in one transaction for
        the batch: ``(org_id, run, sample or None for one already recorded, counted)``.
        True for each run that may be evaluated (sampled, and charged now or before);
        a refused charge is recorded as the run's sampling reason (see :meth:`_charge`)."""
        cleared: list[bool] = []
        with translate_errors("record sampling decisions"), self._db.write() as conn:
            for org_id, run, sample, counted in decisions:
                if sample is not None:
                    self._record(conn, org_id, run, sample)
                    if not sample.sampled:
                        cleared.append(False)
                        continue
                cleared.append(self._charge(conn, org_id, run, counted=counted,
                                            now=None) is None)
        return cleared

    def record_sample(self, org_id: str, run: Run, sample: Sample) -> None:
        """Keep a run's sampling decision (the first one recorded stays)."""
        with translate_errors("record a sampling decision"), self._db.write() as conn:
            self._record(conn, org_id, run, sample)

    def _record(self, conn: Connection, org_id: str, run: Run, sample: Sample) -> None:
        conn.execute(insert_ignore(self._db.dialect, samples, ["org_id", "run_id"]), {
            "org_id": org_id, "run_id": run.run_id, "agent_id": run.agent_id,
            "sampled": sample.sampled, "reason": sample.reason, "rate": sample.rate,
            "bucket": sample.bucket, "charged": False, "decided_at": time.time()})

    def sample_of(self, org_id: str, run_id: str) -> StoredSample | None:
        with translate_errors("read a sampling decision"), self._db.read() as conn:
            row = conn.execute(select(samples).where(
                samples.c.org_id == org_id, samples.c.run_id == run_id)).first()
        return None if row is None else StoredSample(row.sampled, row.reason, row.rate,
                                                     row.bucket, row.charged)

    def _charge(self, conn: Connection, org_id: str, run: Run, *, counted: bool,
                now: float | None) -> str | None:
        """Spend the run's quota units (org, then the agent's budget) unless already spent.

        Returns ``None`` when the run may be evaluated, else the reason it may not
        (``org_quota_exceeded`` or ``budget_exceeded``, also recorded as its sampling
        reason). ``counted`` False (every evaluator on the embedded judge and the org not
        counting local evaluations) spends nothing. The first run to find a limit spent
        this month writes the one shadow SEMANTIC_QUOTA_EXCEEDED signal of that scope.
        """
        month = month_of(time.time() if now is None else now)
        row = conn.execute(select(samples.c.charged).where(
            samples.c.org_id == org_id, samples.c.run_id == run.run_id)).first()
        if row is not None and row.charged:
            return None
        org = _org_of(conn.execute(
            select(settings_table).where(settings_table.c.org_id == org_id)).first())
        agent = _agent_of(conn.execute(select(agents).where(
            agents.c.org_id == org_id, agents.c.agent_id == run.agent_id)).first())
        denied: tuple[str, str, str, int] | None = None
        if counted:
            limit = None if org.allow_overage else org.evaluation_quota
            if not _spend(conn, self._db.dialect, org_id, "org", "", month, limit):
                denied = ("org_quota_exceeded", "org", "", org.evaluation_quota)
            elif agent.budget_monthly is not None and not _spend(
                    conn, self._db.dialect, org_id, "agent", run.agent_id, month,
                    agent.budget_monthly):
                _refund(conn, org_id, "org", "", month)
                denied = ("budget_exceeded", "agent", run.agent_id, agent.budget_monthly)
        if denied is None:
            conn.execute(update(samples).where(
                samples.c.org_id == org_id, samples.c.run_id == run.run_id)
                .values(charged=True))
            return None
        reason, scope, key, limit_value = denied
        conn.execute(update(samples).where(
            samples.c.org_id == org_id, samples.c.run_id == run.run_id)
            .values(sampled=False, reason=reason))
        if _first_exceeded(conn, org_id, scope, key, month):
            insert_signals(conn, self._db.dialect, org_id,
                           [_quota_signal(run, scope, limit_value, month)])
        return reason

    def charge_conversation(self, org_id: str, run: Run, *, counted: bool,
                            now: float | None = None) -> bool:
        """Spend one conversation-quota unit for an evaluation triggered by ``run``."""
        if not counted:
            return True
        month = month_of(time.time() if now is None else now)
        with translate_errors("spend conversation quota"), self._db.write() as conn:
            org = _org_of(conn.execute(
                select(settings_table).where(settings_table.c.org_id == org_id)).first())
            limit = None if org.allow_conversation_overage else org.conversation_quota
            if _spend(conn, self._db.dialect, org_id, "conversation", "", month, limit):
                return True
            if _first_exceeded(conn, org_id, "conversation", "", month):
                insert_signals(conn, self._db.dialect, org_id,
                               [_quota_signal(run, "conversation", org.conversation_quota,
                                              month)])
            return False

    # -- the evaluation log and tasks ---------------------------------------------------

    def evaluator_spend(self, org_id: str, evaluator: str, month: str) -> float:
        """Dollars ``evaluator`` spent in ``month`` (the cost ceiling's meter)."""
        start = dt.datetime.strptime(month, "%Y-%m").replace(tzinfo=dt.timezone.utc)
        with translate_errors("read evaluator spend"), self._db.read() as conn:
            return float(conn.execute(select(func.coalesce(func.sum(log_table.c.cost_usd), 0.0))
                                      .where(log_table.c.org_id == org_id,
                                             log_table.c.evaluator == evaluator,
                                             log_table.c.evaluated_at >= start.timestamp()))
                         .scalar_one())

    def groups_for(self, org_id: str, agent_id: str, evaluator: str) -> list[GroupView]:
        """The recurring issues of one agent and evaluator, as matching reads them."""
        with translate_errors("read recurring issues"), self._db.read() as conn:
            return [GroupView(row.id, row.representation, row.vector, row.false_positives)
                    for row in conn.execute(select(groups).where(
                        groups.c.org_id == org_id, groups.c.agent_id == agent_id,
                        groups.c.evaluator == evaluator).order_by(groups.c.id))]

    def finish_run(self, worker: str, org_id: str, run_id: str, trigger: str,
                   outcomes: Sequence[TaskOutcome], *, retry_at: float | None = None,
                   ) -> int:
        """Record a run's evaluator outcomes in one transaction: each one's judge calls,
        signal, recurring issue and task state; then the run processed, or with
        ``retry_at`` (a task to retry) its lease held until then, so it comes back to
        some worker at that time and not before. Returns how many signals were new.

        A second finish of the same task (a worker whose lease lapsed) adds nothing: the
        signal is unique per run, evaluator and source, and joins its group once.
        """
        now = time.time()
        added = 0
        with translate_errors("record a run's findings"), self._db.write() as conn:
            _log(conn, org_id, [c for o in outcomes for c in o.calls])
            for outcome in outcomes:
                signal_id = None
                if outcome.signal is not None:
                    signal = outcome.signal
                    added += insert_signals(conn, self._db.dialect, org_id, [signal])
                    signal_id = conn.execute(select(q.signals.c.id).where(
                        q.signals.c.org_id == org_id, q.signals.c.run_id == signal.run_id,
                        q.signals.c.failure_type == signal.failure_type,
                        q.signals.c.source == signal.source)).scalar_one()
                    if outcome.group is not None:
                        self._join(conn, org_id, signal, signal_id, outcome.group, now)
                conn.execute(_task_upsert(self._db.dialect), {
                    "org_id": org_id, "run_id": run_id, "evaluator": outcome.evaluator,
                    "state": outcome.state, "attempts": outcome.attempts,
                    "last_error": (outcome.note or "")[:500] or None, "signal_id": signal_id,
                    "updated_at": now})
            if retry_at is None:
                conn.execute(q.mark_processed(self._db.dialect), {
                    "worker": worker, "org_id": org_id, "run_id": run_id, "trigger": trigger,
                    "processed_at": now})
                conn.execute(q.release_claim(worker, org_id, run_id))
            else:
                conn.execute(update(q.claims).where(
                    q.claims.c.worker == worker, q.claims.c.org_id == org_id,
                    q.claims.c.run_id == run_id).values(claimed_until=retry_at))
        return added

    def _join(self, conn: Connection, org_id: str, signal: Signal, signal_id: int,
              group: int | tuple[str, Sequence[float]], now: float) -> None:
        joined = conn.execute(select(members.c.group_id).where(
            members.c.signal_id == signal_id)).first()
        if joined is not None:
            return
        if isinstance(group, int):
            group_id = group
        else:
            text, vector = group
            group_id = conn.execute(insert(groups).values(
                org_id=org_id, agent_id=signal.agent_id, evaluator=signal.failure_type,
                representation=text, vector=list(vector) or None, first_seen=now,
                last_seen=now, run_count=0, false_positives=0).returning(groups.c.id)
            ).scalar_one()
        conn.execute(insert(members), {"group_id": group_id, "signal_id": signal_id,
                                       "run_id": signal.run_id, "added_at": now})
        conn.execute(update(groups).where(groups.c.id == group_id).values(
            last_seen=now, run_count=groups.c.run_count + 1))

    # -- feedback and recurring issues ----------------------------------------------------

    def add_feedback(self, org_id: str, signal_id: int, verdict: str, note: str = "",
                     ) -> bool | None:
        """Record a verdict on a semantic signal; a false positive counts against the
        signal's recurring issue. None: no such signal in this org; False: not semantic."""
        with translate_errors("record feedback"), self._db.write() as conn:
            row = conn.execute(select(q.signals.c.source).where(
                q.signals.c.org_id == org_id, q.signals.c.id == signal_id)).first()
            if row is None:
                return None
            if row.source != "semantic":
                return False
            conn.execute(insert(feedback), {"org_id": org_id, "signal_id": signal_id,
                                            "verdict": verdict, "note": note[:2000],
                                            "created_at": time.time()})
            if verdict == "false_positive":
                conn.execute(update(groups).where(groups.c.id.in_(
                    select(members.c.group_id).where(members.c.signal_id == signal_id)))
                    .values(false_positives=groups.c.false_positives + 1))
            return True

    def recurring_issues(self, org_id: str, agent_id: str | None = None) -> list[dict[str, Any]]:
        """An org's recurring issues, most runs first."""
        where = [groups.c.org_id == org_id]
        if agent_id is not None:
            where.append(groups.c.agent_id == agent_id)
        with translate_errors("read recurring issues"), self._db.read() as conn:
            return [{"issue_id": r.id, "agent_id": r.agent_id, "evaluator": r.evaluator,
                     "sample": r.representation[:200], "first_seen": r.first_seen,
                     "last_seen": r.last_seen, "run_count": r.run_count,
                     "false_positives": r.false_positives}
                    for r in conn.execute(select(groups).where(*where)
                                          .order_by(groups.c.run_count.desc(), groups.c.id))]

    def usage(self, org_id: str, month: str) -> Usage:
        start = dt.datetime.strptime(month, "%Y-%m").replace(tzinfo=dt.timezone.utc)
        with translate_errors("read semantic usage"), self._db.read() as conn:
            org = _org_of(conn.execute(
                select(settings_table).where(settings_table.c.org_id == org_id)).first())
            counts = dict(conn.execute(select(usage.c.scope, usage.c.used).where(
                usage.c.org_id == org_id, usage.c.month == month, usage.c.key == "")).all())
            cost = conn.execute(select(func.coalesce(func.sum(log_table.c.cost_usd), 0.0)).where(
                log_table.c.org_id == org_id,
                log_table.c.evaluated_at >= start.timestamp())).scalar_one()
        return Usage(quota=org.evaluation_quota, used=int(counts.get("org", 0)),
                     allow_overage=org.allow_overage, cost_usd=float(cost),
                     conversation_quota=org.conversation_quota,
                     conversation_used=int(counts.get("conversation", 0)))

    def evaluations(self, org_id: str, run_id: str | None = None) -> list[dict[str, Any]]:
        """The evaluation log of an org (or one run), oldest first."""
        where = [log_table.c.org_id == org_id]
        if run_id is not None:
            where.append(log_table.c.run_id == run_id)
        with translate_errors("read the evaluation log"), self._db.read() as conn:
            return [dict(r._mapping) for r in conn.execute(
                select(log_table).where(*where).order_by(log_table.c.id))]

    # -- conversations ------------------------------------------------------------------

    def conversation_runs(self, org_id: str, agent_id: str, conversation_id: str) -> list[Run]:
        """The finished runs of one agent's conversation, oldest start first."""
        with translate_errors("read a conversation"), self._db.read() as conn:
            ids = list(conn.execute(select(q.events.c.run_id).distinct().where(
                q.events.c.org_id == org_id, q.events.c.agent_id == agent_id,
                q.events.c.conversation_id == conversation_id,
                # Literal: the agent's finished runs come from the partial terminal index.
                text(TERMINAL_WHERE))).scalars())
            runs = load_runs(conn, org_id, ids)
        return sorted(runs.values(), key=lambda r: (r.events[0].timestamp, r.run_id))

    def conversation_state(self, org_id: str, conversation_id: str) -> tuple[bool, str, int] | None:
        """(sampled, reason, runs evaluated) of a conversation the worker has seen."""
        with translate_errors("read a conversation"), self._db.read() as conn:
            row = conn.execute(select(conversations).where(
                conversations.c.org_id == org_id,
                conversations.c.conversation_id == conversation_id)).first()
        return None if row is None else (row.sampled, row.reason, row.runs_evaluated)

    def record_conversation(self, org_id: str, conversation_id: str, agent_id: str,
                            sample: Sample, runs_evaluated: int | None) -> bool:
        """Keep a conversation's decision; with ``runs_evaluated``, claim its evaluation at
        that many runs. False: another worker already evaluated it at that many runs."""
        with translate_errors("record a conversation"), self._db.write() as conn:
            conn.execute(insert_ignore(self._db.dialect, conversations,
                                       ["org_id", "conversation_id"]), {
                "org_id": org_id, "conversation_id": conversation_id, "agent_id": agent_id,
                "sampled": sample.sampled, "reason": sample.reason, "runs_evaluated": 0,
                "last_evaluated_at": None})
            key = and_(conversations.c.org_id == org_id,
                       conversations.c.conversation_id == conversation_id)
            conn.execute(update(conversations).where(key).values(
                sampled=sample.sampled, reason=sample.reason))
            if runs_evaluated is None:
                return False
            moved = conn.execute(update(conversations).where(
                key, conversations.c.runs_evaluated < runs_evaluated).values(
                runs_evaluated=runs_evaluated, last_evaluated_at=time.time())).rowcount
            return bool(moved)

    def list_conversations(
        self, org_id: str, *, limit: int = 50, after: Position | None = None,
        agent_id: str | None = None, user_id: str | None = None,
        has_finding: bool | None = None, evaluator: str | None = None,
        since: float | None = None, until: float | None = None,
    ) -> Page[ConversationSummary]:
        """One page of an org's conversations, newest first start first (keyset on the
        first run's start and its event id). ``user_id`` matches the ``user_id`` of a
        run's ``run.started`` payload; ``has_finding``/``evaluator`` look at the
        conversation-level findings on its runs; ``since``/``until`` bound its first start.
        """
        ev = q.events
        # Text no database holds (a NUL) matches nothing, as in the other listings.
        agent_id, user_id, evaluator = no_nul(agent_id), no_nul(user_id), no_nul(evaluator)
        first, first_id = func.min(ev.c.timestamp), func.min(ev.c.id)
        stmt = (select(ev.c.conversation_id, func.min(ev.c.agent_id).label("agent_id"),
                       first.label("started_at"), func.max(ev.c.timestamp).label("last_at"),
                       func.count().label("runs"), first_id.label("id"))
                .where(ev.c.org_id == org_id, text(STARTED_WHERE),
                       ev.c.conversation_id.is_not(None))
                .group_by(ev.c.conversation_id))
        if agent_id is not None:
            stmt = stmt.where(ev.c.agent_id == agent_id)
        if user_id is not None:
            users = select(ev.c.conversation_id).where(
                ev.c.org_id == org_id, text(STARTED_WHERE),
                ev.c.payload["user_id"].as_string() == user_id)
            stmt = stmt.where(ev.c.conversation_id.in_(users))
        if has_finding is not None or evaluator is not None:
            kinds = [evaluator.upper()] if evaluator else list(CONVERSATION_EVALUATORS)
            found = select(ev.c.conversation_id).join(q.signals, and_(
                q.signals.c.org_id == ev.c.org_id, q.signals.c.run_id == ev.c.run_id)).where(
                ev.c.org_id == org_id, text(STARTED_WHERE), q.signals.c.source == "semantic",
                q.signals.c.failure_type.in_(kinds))
            wanted = True if evaluator is not None else has_finding
            stmt = stmt.where(ev.c.conversation_id.in_(found) if wanted
                              else ev.c.conversation_id.not_in(found))
        if since is not None:
            stmt = stmt.having(first >= since)
        if until is not None:
            stmt = stmt.having(first < until)
        if after is not None:
            stmt = stmt.having(or_(first < after.time,
                                   and_(first == after.time, first_id < after.id)))
        stmt = stmt.order_by(first.desc(), first_id.desc()).limit(limit + 1)
        with translate_errors("list conversations"), self._db.read() as conn:
            rows = conn.execute(stmt).all()
            findings = self._conversation_findings(conn, org_id, [r.conversation_id
                                                                  for r in rows[:limit]])
        items = [ConversationSummary(
            r.conversation_id, r.agent_id, float(r.started_at), float(r.last_at), int(r.runs),
            tuple(sorted(findings.get(r.conversation_id, ()))),
            Position(float(r.started_at), int(r.id))) for r in rows[:limit]]
        more = len(rows) > limit
        return Page(items, items[-1].position if more and items else None)

    def _conversation_findings(self, conn: Connection, org_id: str,
                               ids: Sequence[str]) -> dict[str, set[str]]:
        if not ids:
            return {}
        ev = q.events
        rows = conn.execute(select(ev.c.conversation_id, q.signals.c.failure_type).join(
            q.signals, and_(q.signals.c.org_id == ev.c.org_id,
                            q.signals.c.run_id == ev.c.run_id)).where(
            ev.c.org_id == org_id, text(STARTED_WHERE), ev.c.conversation_id.in_(list(ids)),
            q.signals.c.source == "semantic",
            q.signals.c.failure_type.in_(list(CONVERSATION_EVALUATORS)))).all()
        found: dict[str, set[str]] = {}
        for conversation_id, failure_type in rows:
            found.setdefault(conversation_id, set()).add(failure_type)
        return found

    def conversation(self, org_id: str, conversation_id: str,
                     ) -> tuple[list[Run], list[Signal]] | None:
        """A conversation's runs in order (any agent) and its conversation-level findings;
        None when the org has no run in it."""
        with translate_errors("read a conversation"), self._db.read() as conn:
            ids = list(conn.execute(select(q.events.c.run_id).distinct().where(
                q.events.c.org_id == org_id,
                q.events.c.conversation_id == conversation_id)).scalars())
            if not ids:
                return None
            runs = sorted(load_runs(conn, org_id, ids).values(),
                          key=lambda r: (r.events[0].timestamp, r.run_id))
            found = [signal_of(row) for row in conn.execute(select(q.signals).where(
                q.signals.c.org_id == org_id, q.signals.c.run_id.in_(ids),
                q.signals.c.source == "semantic",
                q.signals.c.failure_type.in_(list(CONVERSATION_EVALUATORS)))
                .order_by(q.signals.c.detected_at, q.signals.c.id))]
        return runs, found

    def run_of_trace(self, org_id: str, trace_id: str) -> Run | None:
        """The org's first run carrying ``trace_id`` (an imported or OTel-traced run)."""
        with translate_errors("find a run by trace"), self._db.read() as conn:
            run_id = conn.execute(select(q.events.c.run_id).where(
                q.events.c.org_id == org_id, q.events.c.trace_id == trace_id)
                .order_by(q.events.c.id).limit(1)).scalar()
            if run_id is None:
                return None
            return load_runs(conn, org_id, [run_id]).get(run_id)

    def add_external(self, org_id: str, provider: str, external_id: str,
                     signal: Signal) -> tuple[int | None, bool]:
        """Store a provider's pushed result once per ``(provider, external_id)``: returns
        its signal's id and whether it was new (a repeat changes nothing)."""
        with translate_errors("store an external evaluation"), self._db.write() as conn:
            known = conn.execute(select(externals.c.signal_id).where(
                externals.c.org_id == org_id, externals.c.provider == provider,
                externals.c.external_id == external_id)).first()
            if known is not None:
                return known.signal_id, False
            insert_signals(conn, self._db.dialect, org_id, [signal])
            signal_id = conn.execute(select(q.signals.c.id).where(
                q.signals.c.org_id == org_id, q.signals.c.run_id == signal.run_id,
                q.signals.c.failure_type == signal.failure_type,
                q.signals.c.source == signal.source)).scalar_one()
            conn.execute(insert_ignore(self._db.dialect, externals,
                                       ["org_id", "provider", "external_id"]), {
                "org_id": org_id, "provider": provider, "external_id": external_id,
                "run_id": signal.run_id, "signal_id": signal_id, "received_at": time.time()})
            return signal_id, True
