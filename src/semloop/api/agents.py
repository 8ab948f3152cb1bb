"""``GET /v1/agents``: per agent, its runs, the runs with signals and the signals by type;
``GET /v1/agents/{agent_id}/health``: its failure rate, top failure types and baselines."""

from __future__ import annotations

import dataclasses
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool

from ..detect.baseline import WINDOW, Baseline
from ..store import Store
from ._auth import require_org, store_of
from ._paging import parse_time
from ._schemas import AgentHealth, AgentList, ErrorBody
from .runs import Since

__all__ = ["HEALTH_DAYS", "agent_health", "router"]

#: The window health reads when no ``since`` is given.
HEALTH_DAYS = 7
#: Baselines are drawn for this many of an agent's newest versions (each reads its runs).
HEALTH_VERSIONS = 5

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


def agent_health(store: Store, org_id: str, agent_id: str, since: float) -> dict[str, Any] | None:
    """The health of one agent since ``since``; ``None`` when ``org_id`` has no such agent.

    Baselines are the detectors' own: P75s over the newest ``WINDOW`` completed runs of a
    version, ``ready`` once ``min_runs`` exist (below that detectors use static fallbacks).
    """
    versions = store.agent_versions(org_id, agent_id)
    if not versions:
        return None
    activity = store.run_activity(org_id, since, 86_400, agent_id=agent_id)
    runs, flagged = sum(a.runs for a in activity), sum(a.flagged for a in activity)
    return {
        "agent_id": agent_id, "since": since, "runs": runs, "flagged_runs": flagged,
        "failure_rate": flagged / runs if runs else None,
        "top_failure_types": [dataclasses.asdict(t) for t in
                              store.top_failure_types(org_id, since, agent_id=agent_id)],
        "versions": [
            {"agent_version": v.agent_version, "runs": v.runs, "last_run_at": v.last_run_at,
             "baseline": _baseline_body(Baseline.from_runs(
                 store.recent_runs(org_id, agent_id, v.agent_version, WINDOW)))}
            for v in versions[:HEALTH_VERSIONS]
        ],
    }


def _baseline_body(baseline: Baseline) -> dict[str, Any]:
    return {**dataclasses.asdict(baseline), "ready": baseline.ready, "window": WINDOW}


@router.get(
    "/v1/agents/{agent_id}/health",
    response_model=AgentHealth,
    responses={401: {"model": ErrorBody}, 404: {"model": ErrorBody},
               422: {"model": ErrorBody, "description": "since is invalid; detail names it"},
               503: {"model": ErrorBody, "description": "the database failed; retry"}},
    summary="One agent's failure rate, top failure types and the detectors' baselines",
)
async def get_agent_health(agent_id: str, request: Request,
                           org_id: Annotated[str, Depends(require_org)],
                           since: Since = None) -> Any:
    start = parse_time("since", since)
    if start is None:
        start = time.time() - HEALTH_DAYS * 86_400
    body = await run_in_threadpool(agent_health, store_of(request), org_id, agent_id, start)
    if body is None:
        raise HTTPException(404, f"no agent {agent_id!r} in this organization")
    return body
