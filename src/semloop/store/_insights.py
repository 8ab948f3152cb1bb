"""Aggregates the dashboard and agent health read: activity over time, top failure types,
an agent's versions, evaluator findings over time. Each is one grouped query."""

from __future__ import annotations

from dataclasses import dataclass

from . import queries as q
from ._connector import Area
from ._errors import translate_errors

__all__ = ["Activity", "AgentVersion", "EvaluatorPoint", "Insights", "TypeCount"]


@dataclass(frozen=True)
class Activity:
    """Runs started in one time bucket, and how many got a signal that is not shadow."""

    bucket: float
    runs: int
    flagged: int


@dataclass(frozen=True)
class TypeCount:
    failure_type: str
    signals: int
    runs: int


@dataclass(frozen=True)
class AgentVersion:
    agent_version: str
    runs: int
    last_run_at: float


@dataclass(frozen=True)
class EvaluatorPoint:
    """One evaluator's (failure type and source) findings detected in one time bucket."""

    failure_type: str
    source: str
    bucket: float
    signals: int
    mean_confidence: float
    shadow: int


class Insights(Area):
    """Grouped reads over an org's runs and signals since a time."""

    def run_activity(self, org_id: str, since: float, bucket_s: int,
                     agent_id: str | None = None) -> list[Activity]:
        """Runs started since ``since`` per ``bucket_s`` seconds, oldest bucket first;
        buckets without runs are left out."""
        stmt = q.run_activity(self._db.dialect, org_id, since, bucket_s, agent_id)
        with translate_errors("count runs over time"), self._db.read() as conn:
            return [Activity(float(b), int(n), int(f)) for b, n, f in conn.execute(stmt)]

    def top_failure_types(self, org_id: str, since: float, limit: int = 10,
                          agent_id: str | None = None) -> list[TypeCount]:
        """The most frequent failure types detected since ``since``, shadow left out."""
        stmt = q.top_failure_types(org_id, since, limit, agent_id)
        with translate_errors("count failure types"), self._db.read() as conn:
            return [TypeCount(t, int(n), int(r)) for t, n, r in conn.execute(stmt)]

    def agent_versions(self, org_id: str, agent_id: str) -> list[AgentVersion]:
        """The versions one agent ran as, newest run first (none: no such agent)."""
        with translate_errors("list agent versions"), self._db.read() as conn:
            return [AgentVersion(v, int(n), float(last))
                    for v, n, last in conn.execute(q.agent_versions(org_id, agent_id))]

    def evaluator_activity(self, org_id: str, since: float,
                           bucket_s: int) -> list[EvaluatorPoint]:
        """Findings of every non-structural source since ``since``, per bucket."""
        stmt = q.evaluator_activity(self._db.dialect, org_id, since, bucket_s)
        with translate_errors("count evaluator findings"), self._db.read() as conn:
            return [EvaluatorPoint(t, s, float(b), int(n), float(c), int(sh))
                    for t, s, b, n, c, sh in conn.execute(stmt)]
