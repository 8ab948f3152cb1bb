"""The semantic worker's API: false-positive feedback, the org's feedback switches, usage
and its month-end projection, recurring issues, conversations, and results pushed by
external evaluation providers. Every route reads the caller's org
from its key; another org's ids are 404."""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from ..evaluate.findings import apply_feedback
from ..integrations import ExternalScore, external_signal
from ..store import Issue, OrgSemantics, Store
from ._auth import require_org, store_of
from ._paging import decode_cursor, encode_cursor, parse_time
from ._schemas import ErrorBody, RowId, SignalOut, StoredSignalOut
from .runs import LIST_ERRORS, Cursor, Limit, Since, Until
from .signals import signal_body

__all__ = ["issue_body", "issue_state", "issues_of", "project", "record_feedback", "router",
           "usage_body", "withdraw_feedback"]

router = APIRouter(tags=["semantic"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody},
    503: {"model": ErrorBody, "description": "the database failed; retry"},
}


class FeedbackIn(BaseModel):
    verdict: Literal["false_positive", "confirmed"]
    note: str = Field(default="", max_length=2000)


class FeedbackSettings(BaseModel):
    enabled: bool = Field(description="Whether feedback is recorded (off by default).")
    auto_suppress: bool = Field(
        description="From 3 false-positive marks on an issue, suppress its new findings "
                    "(on) or lower their confidence by 0.3 (off, the default).")


class FeedbackPatch(BaseModel):
    enabled: bool | None = None
    auto_suppress: bool | None = None


class UsageOut(BaseModel):
    month: str
    quota: int
    used: int
    remaining: int
    allow_overage: bool
    overage: int = Field(description="Evaluations past the quota (with overage allowed).")
    cost_usd: float = Field(description="Every judge call this month, from the log.")
    projected_month_end_usage: int
    projected_month_end_cost_usd: float
    conversation_quota: int
    conversation_used: int


class IssueOut(BaseModel):
    issue_id: int
    agent_id: str
    evaluator: str
    sample: str = Field(description="The first finding's normalised reasoning.")
    first_seen: float
    last_seen: float
    run_count: int
    false_positives: int
    state: Literal["active", "lowered", "suppressed"] = Field(
        description="What its false-positive marks do to its new findings (from 3 marks, "
                    "with feedback on: lowered, or suppressed with auto_suppress).")


def project(used: float, now: dt.datetime) -> float:
    """A linear month-end projection: the rate so far times the month's length (days)."""
    days = calendar.monthrange(now.year, now.month)[1]
    elapsed = (now.day - 1) + (now.hour * 3600 + now.minute * 60 + now.second) / 86400
    return used / max(elapsed, 1.0) * days


def record_feedback(store: Store, org_id: str, signal_id: int, verdict: str,
                    note: str = "") -> None:
    """Record a verdict on a signal as the API does; HTTPException when it may not be
    (the org's feedback off: 403; no such signal: 404; not semantic: 400). The dashboard's
    "not a real issue" button takes this path too."""
    if not store.org_semantics(org_id).feedback_enabled:
        raise HTTPException(403, "semantic feedback is off for this organization: "
                                 "PATCH /v1/orgs/semantic-feedback {\"enabled\": true}")
    added = store.add_feedback(org_id, signal_id, verdict, note)
    if added is None:
        raise HTTPException(404, f"no signal {signal_id} in this organization")
    if not added:
        raise HTTPException(400, "feedback is for semantic signals; this one is structural")


def withdraw_feedback(store: Store, org_id: str, signal_id: int) -> int:
    """Withdraw every verdict the org gave a signal (an undo); 404 for no such signal.
    Allowed with feedback off, so marks made while it was on can still be taken back."""
    withdrawn = store.withdraw_feedback(org_id, signal_id)
    if withdrawn is None:
        raise HTTPException(404, f"no signal {signal_id} in this organization")
    return withdrawn


def issue_state(org: OrgSemantics, false_positives: int) -> str:
    """What the marks do to an issue's new findings: ``active`` (nothing), ``lowered``
    (confidence lowered) or ``suppressed`` -- the worker's own rule."""
    effect = apply_feedback(1.0, false_positives, enabled=org.feedback_enabled,
                            auto_suppress=org.auto_suppress)
    if effect.confidence is None:
        return "suppressed"
    return "lowered" if effect.reason else "active"


@router.post("/v1/signals/{signal_id}/feedback", status_code=201,
             responses={**_ERRORS, 400: {"model": ErrorBody}, 403: {"model": ErrorBody},
                        404: {"model": ErrorBody}},
             summary="Mark a semantic signal false positive or confirmed")
async def add_feedback(signal_id: RowId, body: FeedbackIn, request: Request,
                       org_id: Annotated[str, Depends(require_org)]) -> Any:
    await run_in_threadpool(record_feedback, store_of(request), org_id, signal_id,
                            body.verdict, body.note)
    return {"signal_id": signal_id, "verdict": body.verdict}


class WithdrawnOut(BaseModel):
    signal_id: int
    withdrawn: int = Field(description="Verdicts withdrawn (0: there were none).")


@router.delete("/v1/signals/{signal_id}/feedback", response_model=WithdrawnOut,
               responses={**_ERRORS, 400: {"model": ErrorBody}, 404: {"model": ErrorBody}},
               summary="Withdraw the verdicts given a signal (undo a mark)")
async def delete_feedback(signal_id: RowId, request: Request,
                          org_id: Annotated[str, Depends(require_org)]) -> Any:
    withdrawn = await run_in_threadpool(withdraw_feedback, store_of(request), org_id,
                                        signal_id)
    return {"signal_id": signal_id, "withdrawn": withdrawn}


@router.get("/v1/orgs/semantic-feedback", response_model=FeedbackSettings, responses=_ERRORS,
            summary="The org's feedback switches")
async def get_feedback_settings(request: Request,
                                org_id: Annotated[str, Depends(require_org)]) -> Any:
    org = await run_in_threadpool(store_of(request).org_semantics, org_id)
    return {"enabled": org.feedback_enabled, "auto_suppress": org.auto_suppress}


@router.patch("/v1/orgs/semantic-feedback", response_model=FeedbackSettings,
              responses={**_ERRORS, 400: {"model": ErrorBody}}, summary="Change the org's feedback switches")
async def patch_feedback_settings(body: FeedbackPatch, request: Request,
                                  org_id: Annotated[str, Depends(require_org)]) -> Any:
    changes = {name: value for name, value in (("feedback_enabled", body.enabled),
                                               ("auto_suppress", body.auto_suppress))
               if value is not None}
    org = await run_in_threadpool(lambda: store_of(request).update_org_semantics(
        org_id, **changes))
    return {"enabled": org.feedback_enabled, "auto_suppress": org.auto_suppress}


def usage_body(store: Store, org_id: str, now: dt.datetime) -> dict[str, Any]:
    """This month's usage of ``org_id`` against its quota, with the linear projection."""
    month = now.strftime("%Y-%m")
    usage = store.usage(org_id, month)
    return {
        "month": month, "quota": usage.quota, "used": usage.used,
        "remaining": max(0, usage.quota - usage.used), "allow_overage": usage.allow_overage,
        "overage": max(0, usage.used - usage.quota), "cost_usd": round(usage.cost_usd, 6),
        "projected_month_end_usage": round(project(usage.used, now)),
        "projected_month_end_cost_usd": round(project(usage.cost_usd, now), 6),
        "conversation_quota": usage.conversation_quota,
        "conversation_used": usage.conversation_used,
    }


@router.get("/v1/orgs/semantic-usage", response_model=UsageOut, responses=_ERRORS,
            summary="This month's semantic evaluations, cost and month-end projection")
async def semantic_usage(request: Request, org_id: Annotated[str, Depends(require_org)]) -> Any:
    return await run_in_threadpool(usage_body, store_of(request), org_id,
                                   dt.datetime.now(dt.timezone.utc))


def issue_body(issue: Issue, org: OrgSemantics) -> dict[str, Any]:
    return {**dataclasses.asdict(issue), "state": issue_state(org, issue.false_positives)}


def issues_of(store: Store, org_id: str, agent_id: str | None = None) -> list[dict[str, Any]]:
    """An org's recurring issues, most runs first, each with its state."""
    org = store.org_semantics(org_id)
    return [{**i, "state": issue_state(org, i["false_positives"])}
            for i in store.recurring_issues(org_id, agent_id)]


@router.get("/v1/issues", response_model=list[IssueOut], responses=_ERRORS,
            summary="Recurring issues: semantic findings grouped by agent, evaluator and fault")
async def recurring_issues(request: Request, org_id: Annotated[str, Depends(require_org)],
                           agent_id: str | None = None) -> Any:
    return await run_in_threadpool(issues_of, store_of(request), org_id, agent_id)


class IssueDetail(IssueOut):
    members: list[StoredSignalOut] = Field(
        description="Its findings, newest first (at most 200).")


@router.get("/v1/issues/{issue_id}", response_model=IssueDetail,
            responses={**_ERRORS, 400: {"model": ErrorBody}, 404: {"model": ErrorBody}},
            summary="One recurring issue with its member findings")
async def get_issue(issue_id: RowId, request: Request,
                    org_id: Annotated[str, Depends(require_org)]) -> Any:
    store = store_of(request)
    found = await run_in_threadpool(store.issue, org_id, issue_id)
    if found is None:
        raise HTTPException(404, f"no recurring issue {issue_id} in this organization")
    issue, found_members = found
    org = await run_in_threadpool(store.org_semantics, org_id)
    return {**issue_body(issue, org),
            "members": [signal_body(m) for m in found_members]}


class ConversationOut(BaseModel):
    conversation_id: str
    agent_id: str
    started_at: float = Field(description="Its first run's start.")
    last_started_at: float
    runs: int
    findings: list[str] = Field(description="Conversation-level evaluators that fired.")


class ConversationPage(BaseModel):
    conversations: list[ConversationOut] = Field(description="Newest first start first.")
    next_cursor: str | None


class ConversationRunOut(BaseModel):
    run_id: str
    agent_id: str
    status: str
    started_at: float
    user_input: str


class ConversationDetail(BaseModel):
    conversation_id: str
    runs: list[ConversationRunOut] = Field(description="In start order.")
    findings: list[SignalOut] = Field(description="Its conversation-level findings.")


@router.get("/v1/conversations", response_model=ConversationPage, responses=LIST_ERRORS,
            summary="Conversations (runs sharing a conversation_id), newest first, paged")
async def list_conversations(
    request: Request,
    org_id: Annotated[str, Depends(require_org)],
    agent_id: str | None = None,
    user_id: Annotated[str | None, Query(
        description="The user_id of a run's run.started payload.")] = None,
    has_finding: Annotated[bool | None, Query(
        description="Only conversations with (true) or without (false) a finding.")] = None,
    evaluator: Annotated[str | None, Query(
        description="Only conversations with a finding of this evaluator.")] = None,
    since: Since = None,
    until: Until = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> Any:
    after = None if cursor is None else decode_cursor("conversations", cursor)
    start, end = parse_time("since", since), parse_time("until", until)
    page = await run_in_threadpool(
        store_of(request).list_conversations, org_id, limit=limit, after=after,
        agent_id=agent_id, user_id=user_id, has_finding=has_finding,
        evaluator=evaluator, since=start, until=end)
    return {
        "conversations": [{"conversation_id": c.conversation_id, "agent_id": c.agent_id,
                           "started_at": c.started_at, "last_started_at": c.last_started_at,
                           "runs": c.runs, "findings": list(c.findings)} for c in page.items],
        "next_cursor": None if page.next is None else encode_cursor("conversations", page.next),
    }


@router.get("/v1/conversations/{conversation_id}", response_model=ConversationDetail,
            responses={**_ERRORS, 404: {"model": ErrorBody}},
            summary="One conversation: its runs in order and its conversation-level findings")
async def get_conversation(conversation_id: str, request: Request,
                           org_id: Annotated[str, Depends(require_org)]) -> Any:
    found = await run_in_threadpool(store_of(request).conversation, org_id, conversation_id)
    if found is None:
        raise HTTPException(404, f"no conversation {conversation_id!r} in this organization")
    runs, findings = found
    return {
        "conversation_id": conversation_id,
        "runs": [{"run_id": r.run_id, "agent_id": r.agent_id, "status": r.status,
                  "started_at": r.events[0].timestamp if r.events else 0.0,
                  "user_input": r.user_input} for r in runs],
        "findings": [s.to_dict() for s in findings],
    }


class ExternalIn(BaseModel):
    trace_id: str = Field(min_length=1, max_length=128)
    provider: str = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$",
                          description="langfuse, langsmith, braintrust or another name")
    name: str = Field(min_length=1, max_length=40, description="The provider's metric name.")
    external_id: str = Field(min_length=1, max_length=200)
    value: float | None = Field(default=None, allow_inf_nan=False)
    string_value: str | None = Field(default=None, max_length=2000)
    comment: str | None = Field(default=None, max_length=2000)


class ExternalOut(BaseModel):
    signal_id: int | None
    run_id: str
    failure_type: str
    duplicate: bool = Field(description="Already received: nothing changed.")


@router.post("/v1/semantic-signals/external", status_code=201, response_model=ExternalOut,
             responses={**_ERRORS, 200: {"model": ExternalOut,
                                         "description": "a repeat: nothing changed"},
                        400: {"model": ErrorBody}, 404: {"model": ErrorBody}},
             summary="Push an external evaluation result, idempotent on (provider, external_id)")
async def add_external(body: ExternalIn, request: Request, response: Response,
                       org_id: Annotated[str, Depends(require_org)]) -> Any:
    store = store_of(request)
    run = await run_in_threadpool(store.run_of_trace, org_id, body.trace_id)
    if run is None:
        raise HTTPException(404, f"no run with trace_id {body.trace_id!r} in this organization")
    signal = external_signal(ExternalScore(**body.model_dump()), run.run_id, run.agent_id,
                             run.agent_version)
    signal_id, new = await run_in_threadpool(store.add_external, org_id,
                                             body.provider.lower(), body.external_id, signal)
    if not new:
        response.status_code = 200
    return {"signal_id": signal_id, "run_id": run.run_id,
            "failure_type": signal.failure_type, "duplicate": not new}
