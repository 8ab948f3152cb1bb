"""What people do with findings, and how the judges fare: a recurring issue with its
members and marks, withdrawing a mark, conversation findings with their row ids, an
agent's semantic config as stored, false-positive marks and second-opinion agreement
over time. Reads and undoes over the semantic worker's tables (``._semantic``), which
this area leaves to the worker."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, delete, func, select, text, update

from ..evaluate.sampling import AgentSemantics
from . import queries as q
from ._connector import Area
from ._errors import translate_errors
from ._models import STARTED_WHERE
from ._records import StoredSignal
from ._rows import no_nul, signal_of
from ._semantic import CONVERSATION_EVALUATORS, agents, feedback, groups, log_table, members

__all__ = ["AgreementPoint", "Issue", "MarkPoint", "Review", "SignalReview", "StoredAgentConfig"]


@dataclass(frozen=True)
class Issue:
    """A recurring issue: one agent's findings of one evaluator about the same fault."""

    issue_id: int
    agent_id: str
    evaluator: str
    sample: str
    first_seen: float
    last_seen: float
    run_count: int
    false_positives: int


@dataclass(frozen=True)
class SignalReview:
    """A semantic signal's recurring issue and the verdicts people gave it."""

    issue: Issue | None
    false_positive_marks: int
    confirmed_marks: int


@dataclass(frozen=True)
class StoredAgentConfig:
    config: AgentSemantics
    updated_at: float


@dataclass(frozen=True)
class AgreementPoint:
    """Second opinions on one evaluator's findings in one time bucket, and how many of
    them agreed (the second judge fired too)."""

    evaluator: str
    bucket: float
    second_opinions: int
    agreed: int


@dataclass(frozen=True)
class MarkPoint:
    """Verdicts people gave one evaluator's findings in one time bucket."""

    evaluator: str
    bucket: float
    false_positive: int
    confirmed: int


def _issue_of(r: Any) -> Issue:
    return Issue(r.id, r.agent_id, r.evaluator, r.representation[:200], r.first_seen,
                 r.last_seen, r.run_count, r.false_positives)


class Review(Area):
    """Recurring issues and their members, marks and their undoing, judge agreement."""

    def issue(self, org_id: str, issue_id: int, limit: int = 200,
              ) -> tuple[Issue, list[StoredSignal]] | None:
        """One recurring issue and its newest ``limit`` member signals; None when the org
        has no such issue."""
        with translate_errors("read a recurring issue"), self._db.read() as conn:
            row = conn.execute(select(groups).where(
                groups.c.org_id == org_id, groups.c.id == issue_id)).first()
            if row is None:
                return None
            found = conn.execute(
                select(q.signals).join(members, members.c.signal_id == q.signals.c.id)
                .where(members.c.group_id == issue_id, q.signals.c.org_id == org_id)
                .order_by(members.c.added_at.desc(), q.signals.c.id.desc()).limit(limit)).all()
        return _issue_of(row), [StoredSignal(r.id, r.detected_at, signal_of(r)) for r in found]

    def reviews(self, org_id: str, signal_ids: Sequence[int]) -> dict[int, SignalReview]:
        """Per signal of ``signal_ids`` in the org: its issue (if grouped) and its marks."""
        if not signal_ids:
            return {}
        ids = list(signal_ids)
        with translate_errors("read feedback"), self._db.read() as conn:
            grouped = {r.signal_id: _issue_of(r) for r in conn.execute(
                select(members.c.signal_id, groups).join(groups, groups.c.id == members.c.group_id)
                .where(groups.c.org_id == org_id, members.c.signal_id.in_(ids)))}
            marks = {(r.signal_id, r.verdict): int(r.n) for r in conn.execute(
                select(feedback.c.signal_id, feedback.c.verdict, func.count().label("n"))
                .where(feedback.c.org_id == org_id, feedback.c.signal_id.in_(ids))
                .group_by(feedback.c.signal_id, feedback.c.verdict))}
        return {i: SignalReview(grouped.get(i), marks.get((i, "false_positive"), 0),
                                marks.get((i, "confirmed"), 0)) for i in ids}

    def withdraw_feedback(self, org_id: str, signal_id: int) -> int | None:
        """Undo the verdicts people gave a signal: they are deleted, and its recurring
        issue loses the false-positive marks among them, so later findings of the issue
        are judged as if they had never been made. Returns how many were withdrawn (0:
        none to withdraw); None when the org has no such signal."""
        with translate_errors("withdraw feedback"), self._db.write() as conn:
            known = conn.execute(select(q.signals.c.id).where(
                q.signals.c.org_id == org_id, q.signals.c.id == signal_id)).first()
            if known is None:
                return None
            mine = and_(feedback.c.org_id == org_id, feedback.c.signal_id == signal_id)
            false_positives = conn.execute(select(func.count()).where(
                mine, feedback.c.verdict == "false_positive")).scalar_one()
            withdrawn = conn.execute(delete(feedback).where(mine)).rowcount
            if false_positives:
                conn.execute(update(groups).where(groups.c.org_id == org_id, groups.c.id.in_(
                    select(members.c.group_id).where(members.c.signal_id == signal_id)))
                    .values(false_positives=case(
                        (groups.c.false_positives > false_positives,
                         groups.c.false_positives - false_positives), else_=0)))
            return int(withdrawn)

    def conversation_findings(self, org_id: str, conversation_id: str) -> list[StoredSignal]:
        """The conversation-level findings on a conversation's runs, oldest first."""
        ev = q.events
        runs = select(ev.c.run_id).where(ev.c.org_id == org_id, text(STARTED_WHERE),
                                         ev.c.conversation_id == no_nul(conversation_id))
        with translate_errors("read a conversation"), self._db.read() as conn:
            rows = conn.execute(select(q.signals).where(
                q.signals.c.org_id == org_id, q.signals.c.run_id.in_(runs),
                q.signals.c.source == "semantic",
                q.signals.c.failure_type.in_(list(CONVERSATION_EVALUATORS)))
                .order_by(q.signals.c.detected_at, q.signals.c.id)).all()
        return [StoredSignal(r.id, r.detected_at, signal_of(r)) for r in rows]

    def agent_semantic_config(self, org_id: str, agent_id: str) -> StoredAgentConfig | None:
        """An agent's stored sampling and budget overrides; None: it has none."""
        with translate_errors("read agent semantic config"), self._db.read() as conn:
            row = conn.execute(select(agents).where(agents.c.org_id == org_id,
                                                    agents.c.agent_id == agent_id)).first()
        if row is None:
            return None
        return StoredAgentConfig(AgentSemantics(
            sample_rate=row.sample_rate, budget_monthly=row.budget_monthly,
            evaluators=tuple(row.evaluators or ()), semantic_critical=bool(row.semantic_critical),
        ), row.updated_at)

    def judge_agreement(self, org_id: str, since: float, bucket_s: int) -> list[AgreementPoint]:
        """Second opinions logged since ``since`` per evaluator and bucket. The worker asks
        for one only after the first judge fired, so a second opinion that fired agrees."""
        bucket = q.bucket_of(self._db.dialect, log_table.c.evaluated_at, bucket_s)
        stmt = (select(log_table.c.evaluator, bucket, func.count(),
                       func.count(case((log_table.c.fired, 1))))
                .where(log_table.c.org_id == org_id, log_table.c.second_opinion.is_(True),
                       log_table.c.evaluated_at >= since)
                .group_by(text("1"), text("2")).order_by(text("1"), text("2")))
        with translate_errors("read judge agreement"), self._db.read() as conn:
            return [AgreementPoint(e, float(b), int(n), int(a))
                    for e, b, n, a in conn.execute(stmt)]

    def mark_activity(self, org_id: str, since: float, bucket_s: int) -> list[MarkPoint]:
        """Verdicts given since ``since`` per evaluator (the signal's failure type) and
        bucket of when they were given."""
        bucket = q.bucket_of(self._db.dialect, feedback.c.created_at, bucket_s)
        stmt = (select(q.signals.c.failure_type, bucket,
                       func.count(case((feedback.c.verdict == "false_positive", 1))),
                       func.count(case((feedback.c.verdict == "confirmed", 1))))
                .join(q.signals, q.signals.c.id == feedback.c.signal_id)
                .where(feedback.c.org_id == org_id, feedback.c.created_at >= since)
                .group_by(text("1"), text("2")).order_by(text("1"), text("2")))
        with translate_errors("read feedback over time"), self._db.read() as conn:
            return [MarkPoint(e, float(b), int(fp), int(c)) for e, b, fp, c in conn.execute(stmt)]
