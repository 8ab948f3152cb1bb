"""Response bodies, as pydantic models so the served OpenAPI schema describes them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

__all__ = ["ErrorBody", "EventOut", "Health", "IngestResult", "Rejection", "RunOut", "SignalOut"]


class ErrorBody(BaseModel):
    detail: str = Field(description="What was wrong, in one sentence.")


class Health(BaseModel):
    status: str = Field(examples=["ok"])
    database: str = Field(description="sqlite or postgresql")


class Rejection(BaseModel):
    index: int = Field(description="Position of the event in the batch's events list.")
    field: str | None = Field(description="The offending field, when one is to blame.")
    reason: str


class IngestResult(BaseModel):
    accepted: int = Field(description="Valid events in the batch.")
    stored: int = Field(description="Valid events stored now.")
    duplicates: int = Field(description="Valid events already stored (same event_id).")
    rejected: list[Rejection] = Field(description="Invalid events, each by index and reason.")


class EventOut(BaseModel):
    event_id: str
    event_type: str
    run_id: str
    agent_id: str
    agent_version: str
    step_index: int
    timestamp: float
    payload: dict[str, Any]
    parent_run_id: str | None
    trace_id: str | None
    conversation_id: str | None


class SignalOut(BaseModel):
    failure_type: str
    run_id: str
    source: str
    severity: str
    confidence: float
    step_index: int
    evidence: dict[str, Any]
    shadow: bool
    agent_id: str
    agent_version: str
    co_signal_count: int


class RunOut(BaseModel):
    run_id: str
    agent_id: str
    agent_version: str
    conversation_id: str | None
    parent_run_id: str | None
    trace_id: str | None
    status: str = Field(description="completed, errored or running")
    events: list[EventOut] = Field(description="In run order: step, then timestamp.")
    signals: list[SignalOut]
