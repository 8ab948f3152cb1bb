"""What the Dunetrace SDK reads besides policies and approvals: the detector settings of
an agent, detector packs, and deploy markers."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from ..detect import FOREIGN_PACKS, PACKS, Baseline, DetectorConfig
from ..detect.baseline import WINDOW
from ..store import PackRecord
from ._auth import require_org, store_of
from ._detector_config import detector_config
from ._schemas import ErrorBody

__all__ = ["router"]

router = APIRouter(tags=["sdk"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody}, 401: {"model": ErrorBody},
    503: {"model": ErrorBody, "description": "the database failed; retry"},
}
_QUERY_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS, 422: {"model": ErrorBody, "description": "a query parameter is invalid"}}

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
    implemented: bool = Field(description="false for a Dunetrace pack semloop does not have")
    description: str
    detectors: list[str] = Field(description="the detectors whose settings the pack sets")
    settings: dict[str, dict[str, Any]] = Field(
        description="the pack as a detectors.yml section, layered over the default one")


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
    store = store_of(request)
    runs = await run_in_threadpool(store.recent_runs, org_id, agent_id,
                                   agent_version or "", WINDOW)
    packs = [p.pack_name for p in await run_in_threadpool(store.packs, org_id)
             if p.pack_name in PACKS]
    return detector_config(config.with_packs(packs).for_agent(agent_id),
                           Baseline.from_runs(runs), agent_id=agent_id,
                           agent_version=agent_version, now=time.time(), packs=packs)


@router.get("/v1/packs", response_model=PackCatalogue, responses=_ERRORS,
            summary="Detector packs: semloop's, and Dunetrace's it does not have")
async def pack_catalogue(_org: Annotated[str, Depends(require_org)]) -> Any:
    ours = [{"name": p.name, "implemented": True, "description": p.description,
             "detectors": p.detectors, "settings": {k: dict(v) for k, v in p.settings.items()}}
            for p in PACKS.values()]
    theirs = [{"name": n, "implemented": False, "description": d, "detectors": [],
               "settings": {}} for n, d in FOREIGN_PACKS.items()]
    return {"packs": ours + theirs}


def _org_pack(pack: PackRecord) -> dict[str, Any]:
    return {"pack_name": pack.pack_name, "enabled_at": pack.enabled_at}


@router.get("/v1/orgs/packs", response_model=list[OrgPack], responses=_ERRORS,
            summary="The organization's enabled packs (the SDK's enabled_packs())")
async def org_packs(request: Request, org_id: Annotated[str, Depends(require_org)]) -> Any:
    return [_org_pack(p) for p in await run_in_threadpool(store_of(request).packs, org_id)]


def _known(name: str) -> None:
    if name in PACKS:
        return
    if name in FOREIGN_PACKS:
        raise HTTPException(422, f"semloop does not implement the Dunetrace pack {name!r}: "
                                 f"{FOREIGN_PACKS[name]}")
    raise HTTPException(404, f"no pack {name!r}; see GET /v1/packs")


_PACK_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS, 404: {"model": ErrorBody, "description": "no such pack"},
    422: {"model": ErrorBody, "description": "a Dunetrace pack semloop does not implement"}}


@router.post("/v1/orgs/packs/{pack_name}", response_model=OrgPack, status_code=201,
             responses=_PACK_ERRORS, summary="Enable a pack (the SDK's enable_pack())")
async def enable_pack(request: Request, pack_name: str,
                      org_id: Annotated[str, Depends(require_org)]) -> Any:
    _known(pack_name)
    return _org_pack(await run_in_threadpool(store_of(request).enable_pack, org_id, pack_name))


@router.delete("/v1/orgs/packs/{pack_name}", status_code=204, responses=_PACK_ERRORS,
               summary="Disable a pack (the SDK's disable_pack()); disabling one that is "
                       "off is not an error")
async def disable_pack(request: Request, pack_name: str,
                       org_id: Annotated[str, Depends(require_org)]) -> None:
    _known(pack_name)
    await run_in_threadpool(store_of(request).disable_pack, org_id, pack_name)


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
