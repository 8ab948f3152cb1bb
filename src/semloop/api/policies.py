"""Remote policies: the Dunetrace SDK's ``GET /v1/policies?agent_id=``, their CRUD, and
the evaluations SDKs report for them.

Served signed with ``policy_signing_secret``, so SDKs holding the same secret obey the
enforcing ones (an SDK without a secret downgrades those to ``log``; see docs/policies.md).
Evaluations are the ``policy.evaluated`` events a Dunetrace SDK sends with
``policy_evaluation_reporting=True``, stored with the run like any event.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from ..store import PolicyEvaluation, PolicyRecord
from ._auth import require_org, store_of
from ._policy_rules import PolicyError, check_policy, sig_version, sign_policy
from ._schemas import ErrorBody, RowId

__all__ = ["PolicyIn", "router"]

router = APIRouter(tags=["policies"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "the policy is invalid; the detail names the field"},
    401: {"model": ErrorBody},
    503: {"model": ErrorBody, "description": "the database failed; retry"},
}
_ONE_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS, 404: {"model": ErrorBody, "description": "the organization has no such policy"}}


class PolicyIn(BaseModel):
    name: str = Field(description="Shown in the SDK's policy.triggered events.")
    agent_id: str = Field(default="*", description="An agent id, or * for every agent.")
    condition: dict[str, Any] = Field(
        description="{trigger, operator, value} and an optional match expression, as the "
                    "SDK's add_policy takes them (docs/policies.md).",
        examples=[{"trigger": "tool_call_count", "operator": "gt", "value": 5},
                  {"trigger": "before_tool_call", "operator": "eq", "value": "refund",
                   "match": {"args.amount": {"gt": 1000}}}])
    action: dict[str, Any] = Field(description="{type, params}.", examples=[{"type": "stop"}])
    enabled: bool = True
    priority: int = Field(default=100, description="Lower fires first.")


class PolicyOut(BaseModel):
    id: int
    agent_id: str
    name: str
    condition: dict[str, Any]
    action: dict[str, Any]
    enabled: bool
    priority: int
    sig_version: int = Field(description="The SDK's canonical form the signature is over: "
                                         "2 for a condition with match, else 1.")
    signature: str = Field(description="HMAC-SHA256 hex; empty when the server has no secret.")
    created_at: float
    updated_at: float


class PolicyList(BaseModel):
    policies: list[PolicyOut]


class EvaluationOut(BaseModel):
    run_id: str
    agent_id: str
    timestamp: float = Field(description="When the SDK evaluated it (unix seconds).")
    received_at: float
    fired: bool | None = Field(description="Trigger and match both held.")
    trigger_matched: bool | None = Field(description="The trigger's condition held.")
    reason: str = Field(description="Why it fired or not, e.g. the first failed test.")
    conditions: list[Any] = Field(
        description="Each match test: field_path, operator, expected, actual, result, "
                    "present.")
    record: dict[str, Any] = Field(description="The SDK's whole evaluation record.")


class EvaluationList(BaseModel):
    policy_id: int
    evaluations: list[EvaluationOut]


def _evaluation(e: PolicyEvaluation) -> dict[str, Any]:
    record = dict(e.payload)
    fired, matched = record.get("fired"), record.get("trigger_matched")
    reason, conditions = record.get("reason"), record.get("conditions")
    return {"run_id": e.run_id, "agent_id": e.agent_id, "timestamp": e.timestamp,
            "received_at": e.received_at,
            "fired": fired if isinstance(fired, bool) else None,
            "trigger_matched": matched if isinstance(matched, bool) else None,
            "reason": reason if isinstance(reason, str) else "",
            "conditions": conditions if isinstance(conditions, list) else [],
            "record": record}


def _out(request: Request, p: PolicyRecord) -> dict[str, Any]:
    secret: str = request.app.state.settings.policy_signing_secret
    condition, action = dict(p.condition), dict(p.action)
    signature = sign_policy(secret, p.id, p.agent_id, p.name, condition, action, p.enabled,
                            p.priority) if secret else ""
    return {"id": p.id, "agent_id": p.agent_id, "name": p.name, "condition": condition,
            "action": action, "enabled": p.enabled, "priority": p.priority,
            "sig_version": sig_version(condition), "signature": signature,
            "created_at": p.created_at, "updated_at": p.updated_at}


def _checked(body: PolicyIn) -> dict[str, Any]:
    try:
        return check_policy(body.model_dump())
    except PolicyError as exc:
        raise HTTPException(400, str(exc)) from None


def _missing(policy_id: int) -> HTTPException:
    return HTTPException(404, f"no policy {policy_id}")


@router.get("/v1/policies", response_model=PolicyList, responses=_ERRORS,
            summary="The organization's remote policies; with agent_id, those the SDK "
                    "applies to that agent (its own and the * ones)")
async def list_policies(request: Request, org_id: Annotated[str, Depends(require_org)],
                        agent_id: str | None = None) -> Any:
    found = await run_in_threadpool(store_of(request).policies, org_id, agent_id)
    return {"policies": [_out(request, p) for p in found]}


@router.post("/v1/policies", response_model=PolicyOut, status_code=201, responses=_ERRORS,
             summary="Create a remote policy")
async def create_policy(request: Request, body: PolicyIn,
                        org_id: Annotated[str, Depends(require_org)]) -> Any:
    values = _checked(body)
    created = await run_in_threadpool(lambda: store_of(request).add_policy(org_id, **values))
    return _out(request, created)


@router.get("/v1/policies/{policy_id}", response_model=PolicyOut, responses=_ONE_ERRORS,
            summary="One remote policy")
async def get_policy(request: Request, policy_id: RowId,
                     org_id: Annotated[str, Depends(require_org)]) -> Any:
    found = await run_in_threadpool(store_of(request).policy, org_id, policy_id)
    if found is None:
        raise _missing(policy_id)
    return _out(request, found)


@router.get("/v1/policies/{policy_id}/evaluations", response_model=EvaluationList,
            responses={**_ONE_ERRORS, 422: {
                "model": ErrorBody, "description": "limit or fired is invalid; detail names it"}},
            summary="The evaluations SDKs reported for a policy (policy.evaluated events), "
                    "newest first; fired=true|false keeps those that did or did not fire")
async def list_evaluations(request: Request, policy_id: RowId,
                           org_id: Annotated[str, Depends(require_org)],
                           limit: Annotated[int, Query(ge=1, le=500)] = 100,
                           fired: bool | None = None) -> Any:
    store = store_of(request)
    if await run_in_threadpool(store.policy, org_id, policy_id) is None:
        raise _missing(policy_id)
    found = await run_in_threadpool(store.policy_evaluations, org_id, policy_id, limit, fired)
    return {"policy_id": policy_id, "evaluations": [_evaluation(e) for e in found]}


@router.put("/v1/policies/{policy_id}", response_model=PolicyOut, responses=_ONE_ERRORS,
            summary="Replace a remote policy")
async def replace_policy(request: Request, policy_id: RowId, body: PolicyIn,
                         org_id: Annotated[str, Depends(require_org)]) -> Any:
    values = _checked(body)
    found = await run_in_threadpool(store_of(request).update_policy, org_id, policy_id, values)
    if found is None:
        raise _missing(policy_id)
    return _out(request, found)


@router.patch("/v1/policies/{policy_id}/toggle", response_model=PolicyOut,
              responses=_ONE_ERRORS, summary="Enable a disabled policy, or disable an enabled one")
async def toggle_policy(request: Request, policy_id: RowId,
                        org_id: Annotated[str, Depends(require_org)]) -> Any:
    store = store_of(request)
    found = await run_in_threadpool(store.policy, org_id, policy_id)
    if found is not None:
        found = await run_in_threadpool(store.update_policy, org_id, policy_id,
                                        {"enabled": not found.enabled})
    if found is None:
        raise _missing(policy_id)
    return _out(request, found)


@router.delete("/v1/policies/{policy_id}", status_code=204, responses=_ONE_ERRORS,
               summary="Delete a remote policy")
async def delete_policy(request: Request, policy_id: RowId,
                        org_id: Annotated[str, Depends(require_org)]) -> None:
    if not await run_in_threadpool(store_of(request).delete_policy, org_id, policy_id):
        raise _missing(policy_id)
