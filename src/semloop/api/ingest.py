"""``POST /v1/ingest`` (the Dunetrace SDK's wire format) and ``POST /v1/traces`` (OTLP/HTTP).

Both store what is valid and report what is not: one bad event never costs its batch.
The HTTP is here; validating the batch is :mod:`semloop.ingest.batch`, I/O-free.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials

from .._exceptions import TraceFormatError
from ..events import EVENT_TYPES, MAX_TIMESTAMP
from ..ingest.batch import RejectedSpans, otlp_events, validate_batch
from ..settings import Settings
from ..store import LIMITS
from ._auth import bearer, org_for_key, require_org, store_of, unauthorized
from ._body import parse_json, read_body
from ._schemas import ErrorBody, IngestResult

__all__ = ["router"]

router = APIRouter(tags=["ingest"])

def _text_schema(name: str, *, required: bool) -> dict[str, Any]:
    # The store's column widths, so a schema-valid event is one the store can hold.
    schema: dict[str, Any] = {"type": "string", "maxLength": LIMITS[name]}
    if required:
        schema["minLength"] = 1  # an empty string counts as missing
        return schema
    return {"type": ["string", "null"], "maxLength": LIMITS[name]}


# What Event.from_dict and check_event accept, stated exactly: clients (and the fuzz tests)
# can trust that an event valid by this schema is stored, and one invalid by it is rejected.
_EVENT_SCHEMA = {
    "type": "object",
    "required": ["event_type", "run_id", "agent_id", "timestamp"],
    "properties": {
        "event_type": {**_text_schema("event_type", required=True),
                       "enum": sorted(EVENT_TYPES), "examples": ["tool.called"]},
        "run_id": _text_schema("run_id", required=True),
        "agent_id": _text_schema("agent_id", required=True),
        "agent_version": _text_schema("agent_version", required=False),
        "step_index": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
        "timestamp": {"type": "number", "minimum": 0, "maximum": MAX_TIMESTAMP,
                      "description": "epoch seconds; at most max_future_skew_s ahead of "
                                     "the server's clock"},
        "payload": {"type": ["object", "null"]},
        "parent_run_id": _text_schema("parent_run_id", required=False),
        "trace_id": _text_schema("trace_id", required=False),
        "conversation_id": _text_schema("conversation_id", required=False),
        "event_id": {**_text_schema("event_id", required=False),
                     "description": "de-duplicates replays; absent or empty: a fresh id"},
    },
}
_ENVELOPE_SCHEMA = {
    "type": "object",
    "required": ["events"],
    "properties": {
        "api_key": {"type": "string", "description": "used when no Authorization header"},
        # No type: the server never reads it, so a batch is never refused over it.
        "agent_id": {"description": "ignored; each event names its agent"},
        "events": {"type": "array", "items": _EVENT_SCHEMA},
    },
}
_OTLP_JSON_SCHEMA = {
    "type": "object",
    "required": ["resourceSpans"],
    "properties": {"resourceSpans": {"type": "array", "items": {"type": "object"}}},
}
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 413, 415, 503)
}


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _latest(request: Request) -> float:
    return time.time() + _settings(request).max_future_skew_s


@router.post(
    "/v1/ingest",
    status_code=202,
    response_model=IngestResult,
    responses={**_ERRORS, 422: {"model": IngestResult,
                                "description": "every event in the batch was invalid"}},
    summary="Store a batch of events (the Dunetrace SDK's envelope)",
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": _ENVELOPE_SCHEMA}}}},
)
async def ingest(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),  # noqa: B008
) -> Any:
    store = store_of(request)
    body = await read_body(request, _settings(request).max_body_bytes)
    # A header key is checked before parsing, so strangers learn nothing about the body.
    org_id = await org_for_key(request, credentials.credentials) if credentials else None
    envelope, suspect = parse_json(body)
    if not isinstance(envelope, dict):
        raise HTTPException(400, "the body must be a JSON object: {\"api_key\", \"events\": [...]}")
    if org_id is None:
        key = envelope.get("api_key")
        if not isinstance(key, str) or not key:
            raise unauthorized("missing API key: send Authorization: Bearer <key> or api_key")
        org_id = await org_for_key(request, key)
    raw_events = envelope.get("events")
    if not isinstance(raw_events, list):
        raise HTTPException(400, "the body's \"events\" must be a list of event objects")
    valid, rejected = validate_batch(raw_events, suspect=suspect, latest=_latest(request))
    stored = await run_in_threadpool(store.add_events, org_id, valid) if valid else 0
    result = {"accepted": len(valid), "stored": stored, "duplicates": len(valid) - stored,
              "rejected": [r.to_dict() for r in rejected]}
    # All-invalid is a client error a retry cannot fix (the SDK drops 4xx batches at once).
    status = 422 if rejected and not valid else 202
    return JSONResponse(result, status_code=status)


@router.post(
    "/v1/traces",
    responses={**_ERRORS, 200: {"description": "ExportTraceServiceResponse (protobuf or JSON)"}},
    summary="OTLP/HTTP trace export (protobuf or JSON); spans become events",
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/x-protobuf": {"schema": {"type": "string", "format": "binary"}},
        "application/json": {"schema": _OTLP_JSON_SCHEMA}}}},
)
async def traces(request: Request, org_id: str = Depends(require_org)) -> Response:
    content_type = request.headers.get("content-type", "")
    kind = content_type.split(";", 1)[0].strip().lower()
    if kind not in ("application/x-protobuf", "application/json"):
        raise HTTPException(
            415, f"unsupported Content-Type {content_type!r}; OTLP/HTTP sends "
                 "application/x-protobuf or application/json")
    body = await read_body(request, _settings(request).max_body_bytes)
    try:
        valid, rejected = otlp_events(body, kind, latest=_latest(request))
    except TraceFormatError as exc:
        raise HTTPException(400, str(exc)) from None
    except RecursionError:
        raise HTTPException(400, "request body is nested too deeply to parse") from None
    except ValueError as exc:  # e.g. an integer past the interpreter's 4300-digit limit
        raise HTTPException(400, f"request body is not OTLP: {exc}") from None
    if valid:
        await run_in_threadpool(store_of(request).add_events, org_id, valid)
    return _otlp_response(kind, rejected)


def _otlp_response(kind: str, rejected: RejectedSpans) -> Response:
    if kind == "application/json":
        partial = ({"rejectedSpans": rejected.count, "errorMessage": rejected.message}
                   if rejected.count else {})
        return JSONResponse({"partialSuccess": partial} if partial else {})
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceResponse,
    )

    reply = ExportTraceServiceResponse()
    if rejected.count:
        reply.partial_success.rejected_spans = rejected.count
        reply.partial_success.error_message = rejected.message
    return Response(reply.SerializeToString(), media_type="application/x-protobuf")
