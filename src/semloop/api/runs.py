"""``GET /v1/runs``: runs newest first, filtered and paged; ``GET /v1/runs/{run_id}``: one
run with its events and signals."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool

from ..events import Run, Signal
from ..store import RunSummary, StoredSample
from ._auth import require_org, store_of
from ._paging import decode_cursor, encode_cursor, parse_time
from ._schemas import ErrorBody, RunOut, RunPage

__all__ = ["LIST_ERRORS", "Cursor", "Limit", "Since", "SourceFilter", "Until", "router",
           "run_body", "summary_body"]

router = APIRouter(tags=["runs"])

#: What a listing may answer besides 200.
LIST_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody},
    422: {"model": ErrorBody, "description": "a query parameter is invalid; detail names it"},
    503: {"model": ErrorBody, "description": "the database failed; retry"},
}
Limit = Annotated[int, Query(ge=1, le=500, description="Items per page (1-500).")]
Since = Annotated[str | None, Query(
    description="Inclusive lower bound: epoch seconds or ISO-8601 (UTC unless it says).")]
Until = Annotated[str | None, Query(description="Exclusive upper bound, as since.")]
Cursor = Annotated[str | None, Query(description="next_cursor of the previous page.")]
SourceFilter = Annotated[Literal["structural", "semantic", "external"] | None, Query(
    description="Only signals (runs with a signal) of this source: structural (detectors), semantic (semloop's evaluators) or external "
                "(results pulled in from another evaluation platform).")]


def summary_body(run: RunSummary) -> dict[str, Any]:
    return {
        "run_id": run.run_id, "agent_id": run.agent_id, "agent_version": run.agent_version,
        "conversation_id": run.conversation_id, "status": run.status,
        "started_at": run.started_at, "ended_at": run.ended_at,
        "event_count": run.event_count, "failure_types": list(run.failure_types),
    }


@router.get(
    "/v1/runs",
    response_model=RunPage,
    responses=LIST_ERRORS,
    summary="Runs, newest start first, filtered and paged by cursor",
)
async def list_runs(
    request: Request,
    org_id: Annotated[str, Depends(require_org)],
    agent_id: str | None = None,
    status: Annotated[Literal["completed", "errored", "running"] | None, Query()] = None,
    conversation_id: str | None = None,
    failure_type: Annotated[str | None, Query(
        description="Only runs with a signal of this failure type.")] = None,
    source: SourceFilter = None,
    since: Since = None,
    until: Until = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> Any:
    after = None if cursor is None else decode_cursor("runs", cursor)
    start, end = parse_time("since", since), parse_time("until", until)
    page = await run_in_threadpool(
        store_of(request).list_runs, org_id, limit=limit, after=after, agent_id=agent_id,
        status=status, conversation_id=conversation_id, failure_type=failure_type,
        source=source, since=start, until=end)
    return {"runs": [summary_body(r) for r in page.items],
            "next_cursor": None if page.next is None else encode_cursor("runs", page.next)}


def run_body(run: Run, signals: list[Signal],
             sample: StoredSample | None = None) -> dict[str, Any]:
    """The JSON shape of a run, as the API and dashboard serve it."""
    return {
        "run_id": run.run_id,
        "agent_id": run.agent_id,
        "agent_version": run.agent_version,
        "conversation_id": run.conversation_id,
        "parent_run_id": run.parent_run_id,
        "trace_id": run.trace_id,
        "status": run.status,
        "events": [e.to_dict() for e in run.events],
        "signals": [s.to_dict() for s in signals],
        "sampling": None if sample is None else {
            "sampled": sample.sampled, "reason": sample.reason, "rate": sample.rate,
            "bucket": sample.bucket},
    }


@router.get(
    "/v1/runs/{run_id}",
    response_model=RunOut,
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody},
               503: {"model": ErrorBody, "description": "the database failed; retry"}},
    summary="One run: its events in order and the signals found in it",
)
async def get_run(run_id: str, request: Request, org_id: str = Depends(require_org)) -> Any:
    store = store_of(request)

    def load() -> tuple[Run | None, list[Signal], StoredSample | None]:
        run = store.get_run(org_id, run_id)
        if run is None:
            return None, [], None
        return run, store.signals_for_run(org_id, run_id), store.sample_of(org_id, run_id)

    run, signals, sample = await run_in_threadpool(load)
    if run is None:
        raise HTTPException(404, f"no run {run_id!r} in this organization")
    return run_body(run, signals, sample)
