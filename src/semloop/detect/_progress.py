"""Detectors of not doing the work: answering without the tools, giving up on them,
answering from an empty retrieval, and trying tool after tool without building on any."""

from __future__ import annotations

import re
from typing import Any

from ..events import Run, Severity, Signal
from ._registry import Detector, Param, ratio_confidence, signal
from ._view import Call, view_of
from .baseline import Baseline

__all__ = ["GOAL_ABANDONMENT", "RAG_EMPTY_RETRIEVAL", "SCATTERSHOT_TOOL_USE", "TOOL_AVOIDANCE"]


def _tool_avoidance(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    if not view.exited or view.tools or view.retrievals or not view.tools_available:
        return None
    if len(view.llms) < p["min_llm_calls"]:
        return None
    return signal(run, "TOOL_AVOIDANCE", Severity.MEDIUM, 0.6, [c.step for c in view.llms],
                  tools_available=view.tools_available, llm_calls=len(view.llms))


TOOL_AVOIDANCE = Detector(
    name="TOOL_AVOIDANCE",
    check=_tool_avoidance,
    params=(Param("min_llm_calls", 2, "LLM calls needed before avoidance counts", 1, 1000),),
    severity="MEDIUM",
    rule="the run ended with an answer, tools were available, and none was called",
    guards=(("a one-shot answer (fewer than min_llm_calls LLM calls) is not avoidance: many "
            "questions need no tool"),
            "a run that retrieved documents grounded its answer and does not count"),
)


def _goal_abandonment(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    if not view.tools or view.exited:
        return None
    last_tool = view.position(view.tools[-1])
    trailing = [c for c in view.calls[last_tool + 1:] if c.kind == "llm"]
    if len(trailing) < p["stall_steps"] or any(c.kind != "llm" for c in view.calls[last_tool + 1:]):
        return None
    return signal(run, "GOAL_ABANDONMENT", Severity.MEDIUM,
                  ratio_confidence(len(trailing), p["stall_steps"]), [c.step for c in trailing],
                  llm_calls_after_last_tool=len(trailing), last_tool=view.tools[-1].name,
                  last_tool_step=view.tools[-1].step, exit_reason=view.exit_reason or None)


GOAL_ABANDONMENT = Detector(
    name="GOAL_ABANDONMENT",
    check=_goal_abandonment,
    params=(Param("stall_steps", 4, "LLM calls after the last tool call", 1, 1000),),
    severity="MEDIUM",
    rule="tool use stops, then ≥ stall_steps consecutive LLM calls follow and the run never "
         "ends normally (stalled, errored, or exit other than final_answer/completed)",
    guards=("a run that ends with a final answer after thinking is not abandoned",
            "a run that never used a tool has nothing to abandon (see TOOL_AVOIDANCE)"),
)


def _weakness(call: Call, p: dict[str, Any]) -> str | None:
    r = call.response
    if r is None or call.failed:
        return None
    count = r.get("result_count")
    score = r.get("top_score")
    if isinstance(count, (int, float)) and not isinstance(count, bool) and count < p["min_results"]:
        return "no_results"
    if isinstance(score, (int, float)) and not isinstance(score, bool) and score < p["min_score"]:
        return "low_score"
    if count is None and call.output is not None and not call.output.strip():
        return "no_results"
    return None


def _rag_empty_retrieval(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    if not view.retrievals:
        return None
    weak: list[tuple[Call, str]] = []
    for call in view.retrievals:
        why = _weakness(call, p)
        if why is None:
            if call.response is not None:
                weak = []  # a reformulated query found something: the agent recovered
        else:
            weak.append((call, why))
    if not weak:
        return None
    after = view.calls[view.position(weak[-1][0]) + 1:]
    answered = view.exited or any(c.kind == "llm" and c.output and c.output.strip()
                                  for c in after)
    if not answered:
        return None
    empty = any(why == "no_results" for _, why in weak)
    top = weak[-1][0].response or {}
    return signal(run, "RAG_EMPTY_RETRIEVAL", Severity.MEDIUM, 0.7 if empty else 0.6,
                  [c.step for c, _ in weak], reasons=[why for _, why in weak],
                  index=weak[-1][0].name, result_count=top.get("result_count"),
                  top_score=top.get("top_score"), min_score=p["min_score"],
                  min_results=p["min_results"])


RAG_EMPTY_RETRIEVAL = Detector(
    name="RAG_EMPTY_RETRIEVAL",
    check=_rag_empty_retrieval,
    params=(
        Param("min_score", 0.3, "a top score below this is a miss", 0.0, 1.0),
        Param("min_results", 1, "fewer results than this is a miss", 1, 10_000),
    ),
    severity="MEDIUM",
    rule="a retrieval returns fewer than min_results results or a top score below min_score, "
         "and the agent answered anyway",
    guards=(("a later retrieval that found something clears earlier misses (query "
            "reformulation is the right behaviour)"),
            "a run that did not answer after the miss is not flagged here"),
)


_WORD = re.compile(r"[\w.@/-]{4,}")
_SCAN_LIMIT = 250


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()[:8192]))


def _scattershot_tool_use(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    if view.final_answer:
        return None  # a run that declared itself done converged
    calls = view.tools[-_SCAN_LIMIT:]
    distinct = {c.name for c in calls}
    if len(distinct) < p["min_distinct_tools"] or len(calls) < p["min_total_calls"]:
        return None
    # Convergence is data flow: a call whose arguments carry something an earlier tool
    # returned (and the user did not say) builds on what was found. A pipeline does that
    # at every step; an agent trying tool after tool with the same question never does.
    user = _words(view.input_text)
    seen: set[str] = set()
    building = 0
    for call in calls:
        if (_words(call.key) - user) & seen:
            building += 1
        if call.output:
            seen |= _words(call.output)
    share = building / (len(calls) - 1)
    if share > p["max_building_share"]:
        return None
    return signal(run, "SCATTERSHOT_TOOL_USE", Severity.MEDIUM,
                  0.5 + 0.4 * (1 - share / max(p["max_building_share"], 1e-9)) / 2,
                  [calls[0].step, calls[-1].step], distinct_tools=len(distinct),
                  tools=sorted(distinct), total_calls=len(calls), building_share=round(share, 3),
                  repeat_ratio=round(len(calls) / len(distinct), 3),
                  scan_truncated=len(view.tools) > _SCAN_LIMIT)


SCATTERSHOT_TOOL_USE = Detector(
    name="SCATTERSHOT_TOOL_USE",
    check=_scattershot_tool_use,
    params=(
        Param("min_distinct_tools", 6, "distinct tools called", 2, 10_000),
        Param("min_total_calls", 8, "tool calls in all", 2, 1_000_000),
        Param("max_building_share", 0.2, "at most this share of calls may use what an "
              "earlier call returned", 0.0, 1.0),
    ),
    severity="MEDIUM",
    rule="≥ min_distinct_tools distinct tools over ≥ min_total_calls calls, the run never "
         "declares a final answer, and at most max_building_share of the calls pass on "
         "anything an earlier tool returned (non-convergence: nothing found is built on)",
    guards=("a run that ends with exit_reason final_answer converged, as for RUNAWAY_ITERATION",
            ("a pipeline of many tools passes each result on and is not scattershot, however "
             "many tools it uses"),
            "only the last 250 calls are read, so the cost per step is bounded"),
    shadow=True,
)
