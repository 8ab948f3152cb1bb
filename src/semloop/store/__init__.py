"""The event store: events, runs, signals, organizations and API keys in SQLite or PostgreSQL.

Needs the ``server`` extra (SQLAlchemy, Alembic, psycopg). See ``docs/store.md``.
"""

from __future__ import annotations

from .._exceptions import MissingExtraError

try:
    import alembic  # noqa: F401
    import sqlalchemy  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("the event store", "server", exc.name or "sqlalchemy") from exc

from ._compat import (
    ApprovalRecord,
    DeployRecord,
    PackRecord,
    PolicyEvaluation,
    PolicyRecord,
)
from ._events import LIMITS, check_event
from ._insights import Activity, AgentVersion, EvaluatorPoint, TypeCount
from ._integrations import INTEGRATION_DOWN, IntegrationStatus
from ._migrate import head_revision, migrate_database
from ._orgs import hash_key, key_id_of
from ._records import (
    KEY_PREFIX,
    AgentSummary,
    KeyInfo,
    Page,
    Position,
    PruneResult,
    RunSummary,
    StoredSignal,
)
from ._review import AgreementPoint, Issue, MarkPoint, SignalReview, StoredAgentConfig
from ._semantic import (
    CONVERSATION_EVALUATORS,
    OrgSemantics,
    SemanticState,
    StoredSample,
    TaskOutcome,
    Usage,
    month_of,
)
from ._store import Store

__all__ = [
    "CONVERSATION_EVALUATORS",
    "INTEGRATION_DOWN",
    "KEY_PREFIX",
    "LIMITS",
    "Activity",
    "AgentSummary",
    "AgentVersion",
    "AgreementPoint",
    "ApprovalRecord",
    "DeployRecord",
    "EvaluatorPoint",
    "IntegrationStatus",
    "Issue",
    "KeyInfo",
    "MarkPoint",
    "OrgSemantics",
    "PackRecord",
    "Page",
    "PolicyEvaluation",
    "PolicyRecord",
    "Position",
    "PruneResult",
    "RunSummary",
    "SemanticState",
    "SignalReview",
    "Store",
    "StoredAgentConfig",
    "StoredSample",
    "StoredSignal",
    "TaskOutcome",
    "TypeCount",
    "Usage",
    "check_event",
    "hash_key",
    "head_revision",
    "key_id_of",
    "migrate_database",
    "month_of",
]
