"""``GET /v1/runs/{run_id}``: one run with its events and signals."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool

from ..events import Run, Signal
from ._auth import require_org, store_of
from ._schemas import ErrorBody, RunOut

__all__ = ["router", "run_body"]

router = APIRouter(tags=["runs"])


def run_body(run: Run, signals: list[Signal]) -> dict[str, Any]:
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

    def load() -> tuple[Run | None, list[Signal]]:
        run = store.get_run(org_id, run_id)
        return run, (store.signals_for_run(org_id, run_id) if run else [])

    run, signals = await run_in_threadpool(load)
    if run is None:
        raise HTTPException(404, f"no run {run_id!r} in this organization")
    return run_body(run, signals)
