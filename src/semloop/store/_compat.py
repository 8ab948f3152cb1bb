"""What the Dunetrace SDK keeps on the server besides events: remote policies, approval
requests and deploy markers. Every method is scoped to one org: another org's ids are
not found."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import queries as q
from ._connector import Area
from ._errors import translate_errors
from ._rows import as_mapping, no_nul

__all__ = [
    "ApprovalRecord",
    "DeployRecord",
    "PackRecord",
    "PolicyEvaluation",
    "PolicyRecord",
    "SdkState",
]


@dataclass(frozen=True)
class PolicyRecord:
    id: int
    agent_id: str
    name: str
    condition: Mapping[str, Any]
    action: Mapping[str, Any]
    enabled: bool
    priority: int
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class PolicyEvaluation:
    """One ``policy.evaluated`` event an SDK reported; ``payload`` is its record."""

    run_id: str
    agent_id: str
    timestamp: float
    received_at: float
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class ApprovalRecord:
    id: int
    run_id: str
    agent_id: str
    tool_name: str
    tool_args: str | None
    timeout_seconds: int
    status: str  # pending, granted, denied or timeout
    created_at: float
    expires_at: float
    decided_at: float | None
    decided_by: str | None
    decision_channel: str | None
    note: str | None


@dataclass(frozen=True)
class DeployRecord:
    id: int
    agent_id: str
    version: str
    meta: Mapping[str, Any]
    deployed_at: float


@dataclass(frozen=True)
class PackRecord:
    pack_name: str
    enabled_at: float


class SdkState(Area):
    """Remote policies, approvals, deploys and detector packs of an org."""

    # -- remote policies --------------------------------------------------------------------

    def add_policy(self, org_id: str, *, agent_id: str, name: str, condition: Mapping[str, Any],
                   action: Mapping[str, Any], enabled: bool, priority: int) -> PolicyRecord:
        now = time.time()
        with translate_errors("store a policy"), self._db.write() as conn:
            policy_id = conn.execute(q.insert_policy(), {
                "org_id": org_id, "agent_id": no_nul(agent_id), "name": no_nul(name),
                "condition": dict(condition), "action": dict(action), "enabled": enabled,
                "priority": priority, "created_at": now, "updated_at": now}).scalar_one()
            return _policy(conn.execute(q.policy_by_id(org_id, int(policy_id))).one())

    def policies(self, org_id: str, agent_id: str | None = None) -> list[PolicyRecord]:
        """An org's policies by id; with ``agent_id``, those that apply to it (its own and
        the ``*`` ones)."""
        with translate_errors("read policies"), self._db.read() as conn:
            return [_policy(row) for row in conn.execute(q.policies_of_org(org_id, agent_id))]

    def policy(self, org_id: str, policy_id: int) -> PolicyRecord | None:
        with translate_errors("read a policy"), self._db.read() as conn:
            row = conn.execute(q.policy_by_id(org_id, policy_id)).first()
        return None if row is None else _policy(row)

    def update_policy(self, org_id: str, policy_id: int,
                      values: Mapping[str, Any]) -> PolicyRecord | None:
        """Set ``values`` (columns: agent_id, name, condition, action, enabled, priority);
        ``None`` when the org has no such policy."""
        with translate_errors("update a policy"), self._db.write() as conn:
            changed = conn.execute(q.update_policy(
                org_id, policy_id, {**values, "updated_at": time.time()})).rowcount
            if changed != 1:
                return None
            return _policy(conn.execute(q.policy_by_id(org_id, policy_id)).one())

    def delete_policy(self, org_id: str, policy_id: int) -> bool:
        with translate_errors("delete a policy"), self._db.write() as conn:
            return bool(conn.execute(q.delete_policy(org_id, policy_id)).rowcount == 1)

    def policy_evaluations(self, org_id: str, policy_id: int, limit: int = 100,
                           fired: bool | None = None) -> list[PolicyEvaluation]:
        """The evaluations SDKs reported for a remote policy, newest first."""
        with translate_errors("read policy evaluations"), self._db.read() as conn:
            return [PolicyEvaluation(r.run_id, r.agent_id, float(r.timestamp),
                                     float(r.received_at), as_mapping(r.payload))
                    for r in conn.execute(q.policy_evaluations(org_id, policy_id, limit,
                                                               fired))]

    # -- approvals ----------------------------------------------------------------------------

    def add_approval(self, org_id: str, *, run_id: str, agent_id: str, tool_name: str,
                     tool_args: str | None, timeout_seconds: int,
                     now: float | None = None) -> ApprovalRecord:
        now = time.time() if now is None else now
        with translate_errors("store an approval request"), self._db.write() as conn:
            approval_id = conn.execute(q.insert_approval(), {
                "org_id": org_id, "run_id": no_nul(run_id), "agent_id": no_nul(agent_id),
                "tool_name": no_nul(tool_name), "tool_args": no_nul(tool_args),
                "timeout_seconds": timeout_seconds, "status": "pending", "created_at": now,
                "expires_at": now + timeout_seconds, "decided_at": None, "decided_by": None,
                "decision_channel": None, "note": None}).scalar_one()
            return _approval(conn.execute(q.approval_by_id(org_id, int(approval_id))).one())

    def approval(self, org_id: str, approval_id: int,
                 now: float | None = None) -> ApprovalRecord | None:
        """One request; a pending one past its deadline is timed out first."""
        now = time.time() if now is None else now
        with translate_errors("read an approval request"), self._db.write() as conn:
            conn.execute(q.expire_approvals(org_id, now))
            row = conn.execute(q.approval_by_id(org_id, approval_id)).first()
        return None if row is None else _approval(row)

    def approvals(self, org_id: str, status: str | None = None, limit: int = 100,
                  now: float | None = None) -> list[ApprovalRecord]:
        """An org's requests newest first (of ``status``), deadlines applied first."""
        now = time.time() if now is None else now
        with translate_errors("list approval requests"), self._db.write() as conn:
            conn.execute(q.expire_approvals(org_id, now))
            return [_approval(r) for r in conn.execute(q.approvals_of_org(org_id, status, limit))]

    def decide_approval(self, org_id: str, approval_id: int, status: str, *,
                        decided_by: str | None, channel: str | None, note: str | None,
                        now: float | None = None) -> tuple[ApprovalRecord | None, bool]:
        """Decide a pending request: ``(record, True)`` when this decision was taken,
        ``(record, False)`` when it was already decided (or timed out), ``(None, False)``
        when the org has no such request."""
        now = time.time() if now is None else now
        with translate_errors("decide an approval request"), self._db.write() as conn:
            conn.execute(q.expire_approvals(org_id, now))
            taken = conn.execute(q.decide_approval(org_id, approval_id, {
                "status": status, "decided_at": now, "decided_by": no_nul(decided_by),
                "decision_channel": no_nul(channel), "note": no_nul(note)})).rowcount == 1
            row = conn.execute(q.approval_by_id(org_id, approval_id)).first()
        return (None if row is None else _approval(row)), taken

    # -- deploys ------------------------------------------------------------------------------

    def add_deploy(self, org_id: str, agent_id: str, version: str, meta: Mapping[str, Any],
                   now: float | None = None) -> DeployRecord:
        now = time.time() if now is None else now
        with translate_errors("store a deploy"), self._db.write() as conn:
            deploy_id = conn.execute(q.insert_deploy(), {
                "org_id": org_id, "agent_id": no_nul(agent_id), "version": no_nul(version),
                "meta": dict(meta), "deployed_at": now}).scalar_one()
        return DeployRecord(int(deploy_id), agent_id, version, dict(meta), now)

    def deploys(self, org_id: str, agent_id: str, limit: int = 100) -> list[DeployRecord]:
        """An agent's deploys, newest first."""
        with translate_errors("list deploys"), self._db.read() as conn:
            return [DeployRecord(int(r.id), r.agent_id, r.version, as_mapping(r.meta),
                                 float(r.deployed_at))
                    for r in conn.execute(q.deploys_of_agent(org_id, agent_id, limit))]


    # -- detector packs ---------------------------------------------------------------------

    def enable_pack(self, org_id: str, pack_name: str, now: float | None = None) -> PackRecord:
        """Enable ``pack_name`` for the org (the caller checks the name); enabling an
        enabled pack keeps its first time."""
        now = time.time() if now is None else now
        with translate_errors("enable a pack"), self._db.write() as conn:
            conn.execute(q.enable_pack(self._db.dialect),
                         {"org_id": org_id, "pack_name": no_nul(pack_name), "enabled_at": now})
            return next(p for p in _packs(conn, org_id) if p.pack_name == pack_name)

    def disable_pack(self, org_id: str, pack_name: str) -> bool:
        """Disable ``pack_name``; False when the org had not enabled it."""
        with translate_errors("disable a pack"), self._db.write() as conn:
            return bool(conn.execute(q.disable_pack(org_id, pack_name)).rowcount)

    def packs(self, org_id: str) -> list[PackRecord]:
        """The org's enabled packs, in the order they were enabled."""
        with translate_errors("list packs"), self._db.read() as conn:
            return _packs(conn, org_id)


def _packs(conn: Any, org_id: str) -> list[PackRecord]:
    return [PackRecord(r.pack_name, float(r.enabled_at))
            for r in conn.execute(q.packs_of_org(org_id))]


def _policy(row: Any) -> PolicyRecord:
    return PolicyRecord(int(row.id), row.agent_id, row.name, as_mapping(row.condition),
                        as_mapping(row.action), bool(row.enabled), int(row.priority),
                        float(row.created_at), float(row.updated_at))


def _approval(row: Any) -> ApprovalRecord:
    return ApprovalRecord(
        int(row.id), row.run_id, row.agent_id, row.tool_name, row.tool_args,
        int(row.timeout_seconds), row.status, float(row.created_at), float(row.expires_at),
        None if row.decided_at is None else float(row.decided_at), row.decided_by,
        row.decision_channel, row.note)
