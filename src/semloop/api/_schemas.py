"""Response bodies, as pydantic models so the served OpenAPI schema describes them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path
from pydantic import BaseModel, Field

#: A row id in a path (a signal, policy, approval): the databases' 64-bit range, so an id
#: past it is a 400 naming the parameter, not an overflow in the driver (a 500).
RowId = Annotated[int, Path(ge=1, le=2**63 - 1)]

__all__ = [
    "AgentHealth",
    "AgentList",
    "AgentOut",
    "ErrorBody",
    "EventOut",
    "Health",
    "IngestResult",
    "Rejection",
    "RowId",
    "RunOut",
    "RunPage",
    "RunSummaryOut",
    "SignalOut",
    "SignalPage",
    "StoredSignalOut",
]


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
    """The wire form of a :class:`semloop.events.Signal`."""

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


class SamplingOut(BaseModel):
    """The semantic worker's sampling decision on a run: why it was (not) evaluated."""

    sampled: bool
    reason: str = Field(description="structural_signal, semantic_critical, agent_override, "
                                    "retrieval, baseline, org_quota_exceeded or budget_exceeded")
    rate: float
    bucket: float = Field(description="sha256(run id) as a fraction; sampled iff below rate")


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
    sampling: SamplingOut | None = Field(
        default=None, description="null until the semantic worker has seen the run")


_NEXT_CURSOR = Field(description="Pass as ``cursor`` for the next page; null on the last page.")


class RunSummaryOut(BaseModel):
    run_id: str
    agent_id: str
    agent_version: str
    conversation_id: str | None
    status: str = Field(description="completed, errored or running")
    started_at: float = Field(description="Epoch seconds of the run.started event.")
    ended_at: float | None = Field(description="Epoch seconds of the terminal event, if any.")
    event_count: int
    failure_types: list[str] = Field(description="Failure types of the run's signals, sorted.")


class RunPage(BaseModel):
    runs: list[RunSummaryOut] = Field(description="Newest start first.")
    next_cursor: str | None = _NEXT_CURSOR


class StoredSignalOut(SignalOut):
    """The wire form of a :class:`semloop.store.StoredSignal`: a signal with its row id."""

    signal_id: int
    detected_at: float = Field(description="Epoch seconds when the signal was stored.")


class SignalPage(BaseModel):
    signals: list[StoredSignalOut] = Field(description="Newest detection first.")
    next_cursor: str | None = _NEXT_CURSOR


class AgentOut(BaseModel):
    agent_id: str
    runs: int = Field(description="Runs with a run.started event.")
    runs_with_signals: int = Field(description="Runs with at least one signal (any source).")
    signals_by_type: dict[str, int] = Field(description="Signal count per failure type.")
    last_run_at: float | None = Field(description="Start of the agent's newest run.")


class AgentList(BaseModel):
    agents: list[AgentOut] = Field(description="By agent_id.")
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null: "
                                                "this is the last.")


class FailureTypeCount(BaseModel):
    failure_type: str
    signals: int
    runs: int = Field(description="Runs with a signal of this type.")


class BaselineOut(BaseModel):
    """What the detectors compare a run with: P75s over recent completed runs."""

    run_count: int = Field(description="Completed runs the figures are drawn from.")
    ready: bool = Field(description="run_count >= min_runs; before that, static fallbacks.")
    min_runs: int
    window: int = Field(description="At most this many newest completed runs are read.")
    tool_latency_ms: float | None
    llm_latency_ms: float | None
    retrieval_latency_ms: float | None
    context_growth: float | None
    step_count: float | None
    llm_tool_ratio: float | None
    total_tokens: float | None
    duration_s: float | None


class AgentVersionHealth(BaseModel):
    agent_version: str
    runs: int
    last_run_at: float
    baseline: BaselineOut


class AgentHealth(BaseModel):
    agent_id: str
    since: float = Field(description="Start of the window the counts cover (epoch seconds).")
    runs: int = Field(description="Runs started since then.")
    flagged_runs: int = Field(description="Of those, runs with a signal that is not shadow.")
    failure_rate: float | None = Field(description="flagged_runs / runs; null with no runs.")
    top_failure_types: list[FailureTypeCount]
    versions: list[AgentVersionHealth] = Field(description="Newest run first, at most five.")
