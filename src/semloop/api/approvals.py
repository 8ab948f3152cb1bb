"""Approvals: a ``require_approval`` policy blocks a tool call in the Dunetrace SDK until a
person grants or denies it here (or its timeout passes: fail-closed)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from ..store import ApprovalRecord
from ._auth import require_org, store_of
from ._schemas import ErrorBody, RowId

__all__ = ["router"]

router = APIRouter(tags=["approvals"])

Status = Literal["pending", "granted", "denied", "timeout"]

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody}, 401: {"model": ErrorBody},
    503: {"model": ErrorBody, "description": "the database failed; retry"},
}
_ONE_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS, 404: {"model": ErrorBody, "description": "the organization has no such request"}}

_LIST_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS, 422: {"model": ErrorBody, "description": "a query parameter is invalid"}}


class ApprovalIn(BaseModel):
    """What the SDK sends when a guarded tool is about to run."""

    run_id: str = Field(min_length=1, max_length=128)
    agent_id: str = Field(min_length=1, max_length=200)
    tool_name: str = Field(min_length=1, max_length=200)
    tool_args: str | None = Field(default=None, max_length=65536,
                                  description="The arguments as the SDK serialised (and "
                                              "redacted) them.")
    timeout_seconds: int = Field(default=300, ge=1, le=86_400)


class DecisionIn(BaseModel):
    decision: Literal["granted", "denied", "timeout"] = Field(
        description="granted or denied by a person; timeout is what the SDK records when "
                    "its wait ends.")
    decided_by: str | None = Field(default=None, max_length=200)
    decision_channel: str = Field(default="api", max_length=32)
    note: str | None = Field(default=None, max_length=2000,
                             description="Reaches the agent with the decision.")


class ApprovalOut(BaseModel):
    id: int
    run_id: str
    agent_id: str
    tool_name: str
    tool_args: str | None
    timeout_seconds: int
    status: Status
    created_at: float
    expires_at: float = Field(description="When a pending request times out.")
    decided_at: float | None
    decided_by: str | None
    decision_channel: str | None
    note: str | None


class ApprovalList(BaseModel):
    approvals: list[ApprovalOut]


def _out(a: ApprovalRecord) -> dict[str, Any]:
    return {"id": a.id, "run_id": a.run_id, "agent_id": a.agent_id, "tool_name": a.tool_name,
            "tool_args": a.tool_args, "timeout_seconds": a.timeout_seconds, "status": a.status,
            "created_at": a.created_at, "expires_at": a.expires_at, "decided_at": a.decided_at,
            "decided_by": a.decided_by, "decision_channel": a.decision_channel, "note": a.note}


@router.post("/v1/approvals", response_model=ApprovalOut, status_code=201, responses=_ERRORS,
             summary="Ask for a person's approval of a tool call (the SDK does this)")
async def request_approval(request: Request, body: ApprovalIn,
                           org_id: Annotated[str, Depends(require_org)]) -> Any:
    created = await run_in_threadpool(lambda: store_of(request).add_approval(
        org_id, **body.model_dump()))
    return _out(created)


@router.get("/v1/approvals", response_model=ApprovalList, responses=_LIST_ERRORS,
            summary="Approval requests newest first, e.g. ?status=pending for what awaits "
                    "a person")
async def list_approvals(request: Request, org_id: Annotated[str, Depends(require_org)],
                         status: Status | None = None,
                         limit: Annotated[int, Query(ge=1, le=500)] = 100) -> Any:
    found = await run_in_threadpool(store_of(request).approvals, org_id, status, limit)
    return {"approvals": [_out(a) for a in found]}


@router.get("/v1/approvals/{approval_id}", response_model=ApprovalOut, responses=_ONE_ERRORS,
            summary="One approval request (the SDK polls this)")
async def get_approval(request: Request, approval_id: RowId,
                       org_id: Annotated[str, Depends(require_org)]) -> Any:
    found = await run_in_threadpool(store_of(request).approval, org_id, approval_id)
    if found is None:
        raise HTTPException(404, f"no approval request {approval_id}")
    return _out(found)


@router.post("/v1/approvals/{approval_id}/decision", response_model=ApprovalOut,
             responses={**_ONE_ERRORS, 409: {"model": ErrorBody,
                                             "description": "already decided or timed out"}},
             summary="Grant or deny a pending request")
async def decide(request: Request, approval_id: RowId, body: DecisionIn,
                 org_id: Annotated[str, Depends(require_org)]) -> Any:
    found, taken = await run_in_threadpool(lambda: store_of(request).decide_approval(
        org_id, approval_id, body.decision, decided_by=body.decided_by,
        channel=body.decision_channel, note=body.note))
    if found is None:
        raise HTTPException(404, f"no approval request {approval_id}")
    if not taken:
        raise HTTPException(409, f"approval request {approval_id} is already {found.status}")
    return _out(found)
