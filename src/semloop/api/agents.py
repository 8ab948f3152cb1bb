"""``GET /v1/agents``: per agent, its runs, the runs with signals and the signals by type."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool

from ._auth import require_org, store_of
from ._schemas import AgentList, ErrorBody

__all__ = ["router"]

router = APIRouter(tags=["agents"])


@router.get(
    "/v1/agents",
    response_model=AgentList,
    responses={401: {"model": ErrorBody},
               503: {"model": ErrorBody, "description": "the database failed; retry"}},
    summary="Every agent of the organization with its run and signal counts",
)
async def list_agents(request: Request, org_id: Annotated[str, Depends(require_org)]) -> Any:
    agents = await run_in_threadpool(store_of(request).agent_summaries, org_id)
    return {"agents": [
        {"agent_id": a.agent_id, "runs": a.runs, "runs_with_signals": a.runs_with_signals,
         "signals_by_type": dict(a.signals_by_type), "last_run_at": a.last_run_at}
        for a in agents
    ]}
