"""What the Dunetrace SDK reads besides policies and approvals: the detector settings of
an agent, detector packs, and deploy markers."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from ..detect import Baseline, DetectorConfig
from ..detect.baseline import WINDOW
from ._auth import require_org, store_of
from ._detector_config import detector_config
from ._schemas import ErrorBody

__all__ = ["DUNETRACE_PACKS", "router"]

router = APIRouter(tags=["sdk"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody}, 401: {"model": ErrorBody},
    503: {"model": ErrorBody, "description": "the database failed; retry"},
}
_QUERY_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS, 422: {"model": ErrorBody, "description": "a query parameter is invalid"}}

#: Dunetrace's detector packs and why semloop has none of them: enabling one is refused
#: (422), so no one believes a pack runs when it does not.
DUNETRACE_PACKS = {
    "voice": "Dunetrace's 9 voice-agent detectors (TTS, barge-in, turn latency); semloop "
             "has no voice events or detectors.",
}


class DetectorConfigOut(BaseModel):
    schema_version: int = Field(examples=[1])
    agent_id: str
    agent_version: str | None
    generated_at: float
    ttl_s: int
    detectors: dict[str, dict[str, Any]] = Field(
        description="SDK yml section key -> {UPPERCASE kwarg: value}; see docs/detectors.md.")
    packs: list[str]
    baselines: dict[str, float | None] | None = Field(
        description="The agent's P75s under the SDK's keys; null below 20 completed runs.")


class PackOut(BaseModel):
    name: str
    implemented: bool
    description: str


class PackCatalogue(BaseModel):
    packs: list[PackOut]


class OrgPack(BaseModel):
    pack_name: str
    enabled_at: float


class DeployIn(BaseModel):
    agent_id: str = Field(min_length=1, max_length=200)
    version: str = Field(min_length=1, max_length=64)
    meta: dict[str, Any] = Field(default_factory=dict, examples=[{"env": "production"}])


class DeployOut(BaseModel):
    id: int
    agent_id: str
    version: str
    meta: dict[str, Any]
    deployed_at: float


class DeployList(BaseModel):
    deploys: list[DeployOut]


@router.get("/v1/detector-config", response_model=DetectorConfigOut, responses=_QUERY_ERRORS,
            summary="What the detector worker applies to an agent, in the SDK's terms")
async def get_detector_config(request: Request, org_id: Annotated[str, Depends(require_org)],
                              agent_id: Annotated[str, Query(min_length=1)],
                              agent_version: str | None = None) -> Any:
    config: DetectorConfig = request.app.state.detector_config
    runs = await run_in_threadpool(store_of(request).recent_runs, org_id, agent_id,
                                   agent_version or "", WINDOW)
    return detector_config(config.for_agent(agent_id), Baseline.from_runs(runs),
                           agent_id=agent_id, agent_version=agent_version, now=time.time())


@router.get("/v1/packs", response_model=PackCatalogue, responses=_ERRORS,
            summary="Detector packs: semloop implements none of Dunetrace's, and says which")
async def pack_catalogue(_org: Annotated[str, Depends(require_org)]) -> Any:
    return {"packs": [{"name": n, "implemented": False, "description": d}
                      for n, d in DUNETRACE_PACKS.items()]}


@router.get("/v1/orgs/packs", response_model=list[OrgPack], responses=_ERRORS,
            summary="The organization's enabled packs (the SDK's enabled_packs())")
async def org_packs(_org: Annotated[str, Depends(require_org)]) -> Any:
    return []  # no pack can be enabled: see DUNETRACE_PACKS


def _no_pack(name: str) -> HTTPException:
    if name in DUNETRACE_PACKS:
        return HTTPException(422, f"semloop does not implement the Dunetrace pack {name!r}: "
                                  f"{DUNETRACE_PACKS[name]}")
    return HTTPException(404, f"no pack {name!r}; see GET /v1/packs")


_PACK_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS, 404: {"model": ErrorBody, "description": "no such pack"},
    422: {"model": ErrorBody, "description": "a Dunetrace pack semloop does not implement"}}


@router.post("/v1/orgs/packs/{pack_name}", status_code=201, responses=_PACK_ERRORS,
             summary="Enable a pack (the SDK's enable_pack())")
async def enable_pack(pack_name: str, _org: Annotated[str, Depends(require_org)]) -> None:
    raise _no_pack(pack_name)


@router.delete("/v1/orgs/packs/{pack_name}", status_code=204, responses=_PACK_ERRORS,
               summary="Disable a pack (the SDK's disable_pack())")
async def disable_pack(pack_name: str, _org: Annotated[str, Depends(require_org)]) -> None:
    raise _no_pack(pack_name)


@router.post("/v1/deploy", response_model=DeployOut, status_code=201, responses=_ERRORS,
             summary="Record a deploy of an agent version (the SDK's mark_deploy())")
async def mark_deploy(request: Request, body: DeployIn,
                      org_id: Annotated[str, Depends(require_org)]) -> Any:
    done = await run_in_threadpool(store_of(request).add_deploy, org_id, body.agent_id,
                                   body.version, body.meta)
    return {"id": done.id, "agent_id": done.agent_id, "version": done.version,
            "meta": dict(done.meta), "deployed_at": done.deployed_at}


@router.get("/v1/agents/{agent_id}/deploys", response_model=DeployList,
            responses={**_QUERY_ERRORS, 404: {"model": ErrorBody,
                                              "description": "no runs nor deploys of it"}},
            tags=["agents"], summary="An agent's deploys, newest first")
async def list_deploys(request: Request, agent_id: str,
                       org_id: Annotated[str, Depends(require_org)],
                       limit: Annotated[int, Query(ge=1, le=500)] = 100) -> Any:
    store = store_of(request)
    found = await run_in_threadpool(store.deploys, org_id, agent_id, limit)
    # As the other agent routes: an agent the org never ran nor deployed is not found.
    if not found and not (await run_in_threadpool(
            lambda: store.list_runs(org_id, limit=1, agent_id=agent_id))).items:
        raise HTTPException(404, f"no agent {agent_id!r}")
    return {"deploys": [{"id": d.id, "agent_id": d.agent_id, "version": d.version,
                         "meta": dict(d.meta), "deployed_at": d.deployed_at} for d in found]}
