"""``GET /v1/agents``: per agent, its runs, the runs with signals and the signals by type;
``GET /v1/agents/{agent_id}/health``: its failure rate, top failure types and baselines;
``GET``/``PUT``/``PATCH /v1/agents/{agent_id}/semantic-config``: its sampling and budget
overrides for the semantic worker."""

from __future__ import annotations

import dataclasses
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..detect.baseline import WINDOW, Baseline
from ..evaluate import EVALUATORS
from ..evaluate.sampling import AgentSemantics
from ..store import Store
from ._auth import require_org, store_of
from ._paging import decode_name_cursor, encode_name_cursor, parse_time
from ._schemas import AgentHealth, AgentList, ErrorBody
from .runs import LIST_ERRORS, Cursor, Limit, Since

__all__ = ["HEALTH_DAYS", "agent_health", "router", "semantic_config"]

#: The window health reads when no ``since`` is given.
HEALTH_DAYS = 7
#: Baselines are drawn for this many of an agent's newest versions (each reads its runs).
HEALTH_VERSIONS = 5

router = APIRouter(tags=["agents"])


@router.get(
    "/v1/agents",
    response_model=AgentList,
    responses=LIST_ERRORS,
    summary="The organization's agents by id with their run and signal counts, paged",
)
async def list_agents(request: Request, org_id: Annotated[str, Depends(require_org)],
                      limit: Limit = 100, cursor: Cursor = None) -> Any:
    after = None if cursor is None else decode_name_cursor("agents", cursor)
    found = await run_in_threadpool(lambda: store_of(request).agent_summaries(
        org_id, after=after, limit=limit + 1))
    agents = found[:limit]
    return {"agents": [
        {"agent_id": a.agent_id, "runs": a.runs, "runs_with_signals": a.runs_with_signals,
         "signals_by_type": dict(a.signals_by_type), "last_run_at": a.last_run_at}
        for a in agents
    ], "next_cursor": encode_name_cursor("agents", agents[-1].agent_id)
        if len(found) > limit else None}


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


class SemanticConfigIn(BaseModel):
    """An agent's overrides of the semantic worker's defaults (docs/semantic-worker.md)."""

    model_config = ConfigDict(extra="forbid")

    sample_rate: float | None = Field(
        default=None, ge=0.0, le=1.0, allow_inf_nan=False,
        description="Share of its runs sampled when no higher rule applies; null: the "
                    "sampling file's rates.")
    budget_monthly: int | None = Field(
        default=None, ge=0, description="Evaluations a month for this agent; null: no "
                                        "budget of its own (the org's quota still holds).")
    evaluators: list[str] = Field(
        default_factory=list, max_length=len(EVALUATORS),
        description="Evaluators to run on it; empty: every enabled evaluator.")
    semantic_critical: bool = Field(
        default=False, description="Evaluate every one of its runs (rule 2).")

    @field_validator("evaluators")
    @classmethod
    def _known(cls, names: list[str]) -> list[str]:
        wanted = [n.strip().upper() for n in names]
        unknown = [n for n in wanted if n not in EVALUATORS]
        if unknown:
            raise ValueError(f"unknown evaluator {unknown[0]!r}; known: "
                             f"{', '.join(EVALUATORS)}")
        return list(dict.fromkeys(wanted))


class SemanticConfigOut(SemanticConfigIn):
    agent_id: str
    configured: bool = Field(description="False: no overrides stored, these are defaults.")
    updated_at: float | None


def semantic_config(store: Store, org_id: str, agent_id: str) -> dict[str, Any] | None:
    """An agent's semantic config (its defaults when it has none stored); None when the
    org has neither run nor configured the agent."""
    stored = store.agent_semantic_config(org_id, agent_id)
    if stored is None and not store.agent_versions(org_id, agent_id):
        return None
    config = AgentSemantics() if stored is None else stored.config
    return {"agent_id": agent_id, "sample_rate": config.sample_rate,
            "budget_monthly": config.budget_monthly, "evaluators": list(config.evaluators),
            "semantic_critical": config.semantic_critical, "configured": stored is not None,
            "updated_at": None if stored is None else stored.updated_at}


_CONFIG_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody},
    404: {"model": ErrorBody, "description": "the org has no run of this agent"},
    503: {"model": ErrorBody, "description": "the database failed; retry"},
}
_CONFIG_CHANGE_ERRORS = {**_CONFIG_ERRORS, 400: {"model": ErrorBody,
                                                 "description": "detail names the field"}}


def _change(store: Store, org_id: str, agent_id: str,
            changes: dict[str, Any]) -> dict[str, Any]:
    current = semantic_config(store, org_id, agent_id)
    if current is None:
        raise HTTPException(404, f"no agent {agent_id!r} in this organization")
    merged = {k: current[k] for k in SemanticConfigIn.model_fields} | changes
    store.set_agent_semantics(org_id, agent_id, AgentSemantics(
        sample_rate=merged["sample_rate"], budget_monthly=merged["budget_monthly"],
        evaluators=tuple(merged["evaluators"]), semantic_critical=merged["semantic_critical"]))
    changed = semantic_config(store, org_id, agent_id)
    assert changed is not None
    return changed


@router.get("/v1/agents/{agent_id}/semantic-config", response_model=SemanticConfigOut,
            responses=_CONFIG_ERRORS, summary="One agent's semantic sampling and budget config")
async def get_semantic_config(agent_id: str, request: Request,
                              org_id: Annotated[str, Depends(require_org)]) -> Any:
    body = await run_in_threadpool(semantic_config, store_of(request), org_id, agent_id)
    if body is None:
        raise HTTPException(404, f"no agent {agent_id!r} in this organization")
    return body


@router.put("/v1/agents/{agent_id}/semantic-config", response_model=SemanticConfigOut,
            responses=_CONFIG_CHANGE_ERRORS,
            summary="Replace one agent's semantic config (fields left out: their defaults)")
async def put_semantic_config(agent_id: str, body: SemanticConfigIn, request: Request,
                              org_id: Annotated[str, Depends(require_org)]) -> Any:
    return await run_in_threadpool(_change, store_of(request), org_id, agent_id,
                                   body.model_dump())


@router.patch("/v1/agents/{agent_id}/semantic-config", response_model=SemanticConfigOut,
              responses=_CONFIG_CHANGE_ERRORS,
              summary="Change some fields of one agent's semantic config")
async def patch_semantic_config(agent_id: str, body: SemanticConfigIn, request: Request,
                                org_id: Annotated[str, Depends(require_org)]) -> Any:
    return await run_in_threadpool(_change, store_of(request), org_id, agent_id,
                                   body.model_dump(include=body.model_fields_set))
