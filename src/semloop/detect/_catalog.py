"""The registry: every detector by name, in the reference's order, AGENT_LOOP last."""

from __future__ import annotations

from ._budget import (
    CONTEXT_BLOAT,
    COST_SPIKE,
    REASONING_STALL,
    SESSION_LATENCY,
    SLOW_STEP,
    STEP_COUNT_INFLATION,
)
from ._failures import (
    CASCADING_TOOL_FAILURE,
    EMPTY_LLM_RESPONSE,
    FIRST_STEP_FAILURE,
    PREMATURE_TERMINATION,
    RETRY_STORM,
    UNREAD_TOOL_ERROR,
)
from ._handoff import DELEGATION_LOOP, HANDOFF_CONTEXT_LOSS
from ._progress import GOAL_ABANDONMENT, RAG_EMPTY_RETRIEVAL, SCATTERSHOT_TOOL_USE, TOOL_AVOIDANCE
from ._provenance import MEMORY_POISONING, UNGROUNDED_DESTINATION, UNRESOLVED_AMBIGUITY
from ._registry import Detector
from ._repetition import (
    AGENT_LOOP,
    LLM_TRUNCATION_LOOP,
    RUNAWAY_ITERATION,
    TOOL_LOOP,
    TOOL_THRASHING,
)
from ._security import (
    PROMPT_INJECTION_SIGNAL,
    RETRIEVED_CONTENT_INJECTION,
    TOOL_ARGUMENT_FABRICATION,
)
from ._telemetry import (
    AGENT_HANDOFF_FAILURE,
    EXCESSIVE_RETRIEVAL,
    INSTRUMENTATION_DEGRADED,
    MODEL_FALLBACK_DRIFT,
    OVERSIZED_TOOL_ARGUMENTS,
    SILENT_TRUNCATION,
)

__all__ = ["DETECTORS", "SINGLE_RUN"]

#: Every detector, by failure type: the 23 of the reference, Dunetrace's 11 newer ones in
#: the order it added them, and AGENT_LOOP.
DETECTORS: dict[str, Detector] = {
    d.name: d
    for d in (
        SLOW_STEP,
        TOOL_AVOIDANCE,
        GOAL_ABANDONMENT,
        RAG_EMPTY_RETRIEVAL,
        CONTEXT_BLOAT,
        STEP_COUNT_INFLATION,
        FIRST_STEP_FAILURE,
        REASONING_STALL,
        COST_SPIKE,
        SESSION_LATENCY,
        TOOL_LOOP,
        TOOL_THRASHING,
        LLM_TRUNCATION_LOOP,
        RETRY_STORM,
        EMPTY_LLM_RESPONSE,
        CASCADING_TOOL_FAILURE,
        PROMPT_INJECTION_SIGNAL,
        PREMATURE_TERMINATION,
        UNREAD_TOOL_ERROR,
        TOOL_ARGUMENT_FABRICATION,
        RETRIEVED_CONTENT_INJECTION,
        HANDOFF_CONTEXT_LOSS,
        RUNAWAY_ITERATION,
        SILENT_TRUNCATION,
        MODEL_FALLBACK_DRIFT,
        MEMORY_POISONING,
        DELEGATION_LOOP,
        EXCESSIVE_RETRIEVAL,
        AGENT_HANDOFF_FAILURE,
        OVERSIZED_TOOL_ARGUMENTS,
        SCATTERSHOT_TOOL_USE,
        UNGROUNDED_DESTINATION,
        UNRESOLVED_AMBIGUITY,
        INSTRUMENTATION_DEGRADED,
        AGENT_LOOP,
    )
}

#: The detectors that read one run (all but the cross-run ones); policies may use these.
SINGLE_RUN: tuple[str, ...] = tuple(n for n, d in DETECTORS.items()
                                    if not d.cross_run and not d.lineage)
