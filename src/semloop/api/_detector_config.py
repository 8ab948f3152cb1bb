"""``GET /v1/detector-config``: semloop's detector settings in the Dunetrace SDK's terms.

The SDK rebuilds its in-path detectors from this (yml section key → ``{UPPERCASE kwarg:
value}``) and warns once per parameter it does not know, so only parameters whose meaning
is the same on both sides are sent; the table is in docs/detectors.md. Pure: the caller
passes the resolved settings and the agent's baseline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..detect import Baseline, DetectorSettings

__all__ = ["SCHEMA_VERSION", "SDK_KEYS", "TTL_S", "detector_config"]

SCHEMA_VERSION = 1
TTL_S = 60

_INFLATION = {"inflation": "INFLATION_FACTOR"}

#: semloop detector → (SDK yml section key, {semloop parameter: SDK kwarg}). Detectors
#: absent here have no SDK counterpart (AGENT_LOOP is semloop's own); parameters absent
#: from a map mean something else in the SDK's detector, or do not exist there.
SDK_KEYS: Mapping[str, tuple[str, Mapping[str, str]]] = {
    "SLOW_STEP": ("slow_step", {**_INFLATION, "min_ms": "MIN_THRESHOLD_MS"}),
    "TOOL_AVOIDANCE": ("tool_avoidance", {"min_llm_calls": "MIN_LLM_CALLS"}),
    "GOAL_ABANDONMENT": ("goal_abandonment", {"stall_steps": "STALL_STEPS"}),
    "RAG_EMPTY_RETRIEVAL": ("rag_empty_retrieval",
                            {"min_score": "MIN_SCORE", "min_results": "MIN_RESULTS"}),
    "CONTEXT_BLOAT": ("context_bloat", {**_INFLATION, "growth_factor": "GROWTH_FACTOR",
                                        "min_calls": "MIN_CALLS",
                                        "min_last_tokens": "MIN_LAST_TOKENS"}),
    "STEP_COUNT_INFLATION": ("step_count_inflation", dict(_INFLATION)),
    "FIRST_STEP_FAILURE": ("first_step_failure", {"max_step": "MAX_STEP"}),
    "REASONING_STALL": ("reasoning_stall", {**_INFLATION, "ratio": "RATIO_THRESHOLD",
                                            "min_llm_calls": "MIN_LLM_CALLS"}),
    "COST_SPIKE": ("cost_spike", {**_INFLATION, "static_tokens": "STATIC_THRESHOLD_TOKENS",
                                  "min_llm_calls": "MIN_LLM_CALLS"}),
    "SESSION_LATENCY": ("session_latency", {**_INFLATION, "static_s": "STATIC_THRESHOLD_SECS",
                                            "min_events": "MIN_EVENTS"}),
    "TOOL_LOOP": ("tool_loop", {"threshold": "THRESHOLD", "window": "WINDOW"}),
    "TOOL_THRASHING": ("tool_thrashing", {"window": "WINDOW"}),
    "LLM_TRUNCATION_LOOP": ("llm_truncation_loop", {"threshold": "THRESHOLD"}),
    "RETRY_STORM": ("retry_storm", {"threshold": "THRESHOLD"}),
    "EMPTY_LLM_RESPONSE": ("empty_llm_response", {}),
    "CASCADING_TOOL_FAILURE": ("cascading_tool_failure", {"threshold": "THRESHOLD"}),
    "PROMPT_INJECTION_SIGNAL": ("prompt_injection_signal", {}),
    "PREMATURE_TERMINATION": ("premature_termination",
                              {"min_message_length": "MIN_MESSAGE_LENGTH"}),
    "UNREAD_TOOL_ERROR": ("unread_tool_error", {}),
    "TOOL_ARGUMENT_FABRICATION": ("tool_argument_fabrication",
                                  {"small_int_max": "SMALL_INT_MAX"}),
    "RETRIEVED_CONTENT_INJECTION": ("retrieved_content_injection",
                                    {"detect_behavior_deviation": "DETECT_BEHAVIOR_DEVIATION"}),
    "HANDOFF_CONTEXT_LOSS": ("handoff_context_loss",
                             {"min_reduction": "SIZE_DROP_THRESHOLD",
                              "min_lost_entities": "ENTITY_LOSS_THRESHOLD"}),
    "RUNAWAY_ITERATION": ("runaway_iteration",
                          {"max_steps": "STEP_THRESHOLD", "max_cost_usd": "COST_THRESHOLD_USD",
                           "lookback": "LOOKBACK_MESSAGES"}),
}


def _baselines(baseline: Baseline) -> dict[str, float | None] | None:
    # Below the worker's minimum history it uses static fallbacks, not these figures:
    # null says "insufficient history" to the SDK, which then does the same.
    if not baseline.ready:
        return None
    return {
        "p75_steps": baseline.step_count,
        "p75_latency_tool_ms": baseline.tool_latency_ms,
        "p75_latency_llm_ms": baseline.llm_latency_ms,
        "p75_token_growth": baseline.context_growth,
        "p75_llm_tool_ratio": baseline.llm_tool_ratio,
        "p75_total_tokens": baseline.total_tokens,
        "p75_duration_s": baseline.duration_s,
    }


def detector_config(settings: Mapping[str, DetectorSettings], baseline: Baseline, *,
                    agent_id: str, agent_version: str | None, now: float,
                    packs: Sequence[str] = ()) -> dict[str, Any]:
    """The response for one agent: its enabled detectors' mapped parameters (with the
    org's ``packs`` already layered into ``settings``), the packs, its P75 baselines."""
    detectors: dict[str, dict[str, Any]] = {}
    for name, (key, kwargs) in SDK_KEYS.items():
        chosen = settings.get(name)
        if chosen is None or not chosen.enabled:
            continue
        detectors[key] = {kwargs[p]: v for p, v in chosen.params.items() if p in kwargs}
    return {"schema_version": SCHEMA_VERSION, "agent_id": agent_id,
            "agent_version": agent_version, "generated_at": now, "ttl_s": TTL_S,
            "detectors": detectors, "packs": list(packs), "baselines": _baselines(baseline)}
