"""The six baselined detectors: time, tokens and step counts against what is normal
for this agent (P75 × inflation), or a static fallback until the baseline is ready."""

from __future__ import annotations

from typing import Any

from ..events import Run, Severity, Signal
from ._registry import Detector, Param, ratio_confidence, signal
from ._view import view_of
from .baseline import (
    Baseline,
    added_tokens,
    context_growth,
    prompt_series,
    reasoning_calls,
    total_tokens,
)

__all__ = [
    "CONTEXT_BLOAT",
    "COST_SPIKE",
    "REASONING_STALL",
    "SESSION_LATENCY",
    "SLOW_STEP",
    "STEP_COUNT_INFLATION",
]


def threshold_from(
    baseline: Baseline | None, value: float | None, inflation: float, static: float | None,
) -> tuple[float | None, str]:
    """``inflation × P75`` when the baseline is ready and has the figure, else ``static``."""
    if baseline is not None and baseline.ready and value is not None and value > 0:
        return inflation * value, "baseline"
    return static, "static"


def _inflation(default: float, measure: str) -> Param:
    """The baselined detectors' shared knob, with one range: how far above the agent's P75
    ``measure`` a run must go to fire."""
    return Param("inflation", default, f"fire above this multiple of the agent's P75 {measure}",
                 1.0, 100.0)


def _slow_step(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    static = {"tool": p["tool_ms"], "llm": p["llm_ms"], "retrieval": p["retrieval_ms"]}
    slow: list[tuple[float, int, str, float, float, str]] = []
    for call in view.calls:
        if call.latency_ms is None or call.latency_ms < p["min_ms"]:
            continue
        p75 = baseline.latency_ms(call.kind) if baseline is not None else None
        threshold, source = threshold_from(baseline, p75, p["inflation"], static[call.kind])
        assert threshold is not None
        if call.latency_ms > threshold:
            slow.append((call.latency_ms / threshold, call.step, call.kind, call.latency_ms,
                         threshold, source))
    if not slow:
        return None
    ratio, step, kind, latency, threshold, source = max(slow)
    severity = Severity.HIGH if ratio >= 2 else Severity.MEDIUM
    return signal(run, "SLOW_STEP", severity, ratio_confidence(latency, threshold),
                  [s[1] for s in slow], worst_step=step, kind=kind, latency_ms=latency,
                  threshold_ms=round(threshold, 1), threshold_source=source,
                  slow_step_count=len(slow))


SLOW_STEP = Detector(
    name="SLOW_STEP",
    check=_slow_step,
    params=(
        _inflation(2.0, "step latency"),
        Param("tool_ms", 15_000.0, "static tool threshold before the baseline exists",
              1.0, 3_600_000.0),
        Param("llm_ms", 30_000.0, "static LLM threshold before the baseline exists",
              1.0, 3_600_000.0),
        Param("retrieval_ms", 15_000.0, "static retrieval threshold before the baseline exists",
              1.0, 3_600_000.0),
        Param("min_ms", 1_000.0, "a step faster than this is never slow", 0.0, 3_600_000.0),
    ),
    severity="MEDIUM; HIGH when the slowest step is ≥ 2× its threshold",
    rule="a step's latency exceeds inflation × the agent's P75 latency for that kind of step "
         "(static fallback: tool > 15 s, LLM > 30 s)",
    guards=(("steps under min_ms are ignored, so a P75 of a few milliseconds does not turn "
            "every 20 ms call into a slow step"),
            "each kind (tool, LLM, retrieval) is compared with its own P75"),
    uses_baseline=True,
)


def _context_bloat(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    series = prompt_series(view)
    if len(series) < p["min_calls"] or series[-1][1] < p["min_last_tokens"]:
        return None
    growth = context_growth(view)
    assert growth is not None
    threshold, source = threshold_from(
        baseline, baseline.context_growth if baseline else None, p["inflation"],
        p["growth_factor"])
    assert threshold is not None
    if growth <= threshold:
        return None
    return signal(run, "CONTEXT_BLOAT", Severity.MEDIUM, ratio_confidence(growth, threshold),
                  [series[0][0], series[-1][0]], first_tokens=series[0][1],
                  last_tokens=series[-1][1], growth=round(growth, 3),
                  threshold=round(threshold, 3), threshold_source=source)


CONTEXT_BLOAT = Detector(
    name="CONTEXT_BLOAT",
    check=_context_bloat,
    params=(
        Param("growth_factor", 3.0, "static last/first prompt-token growth before the baseline "
              "exists", 1.0, 1000.0),
        Param("min_calls", 3, "LLM calls with prompt tokens needed", 2, 10_000),
        Param("min_last_tokens", 2000, "the last prompt must be at least this big", 0, 10_000_000),
        _inflation(2.0, "growth"),
    ),
    severity="MEDIUM",
    rule="prompt tokens grow from the first LLM call to the last by more than inflation × the "
         "agent's P75 growth (static fallback: 3×)",
    guards=("small prompts (last < min_last_tokens) never count: tripling 200 tokens is not bloat",),
    uses_baseline=True,
)


def _step_count_inflation(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    if baseline is None or not baseline.ready or not baseline.step_count:
        return None
    view = view_of(run)
    steps = view.step_count
    threshold = p["inflation"] * baseline.step_count
    if steps <= threshold or steps < p["min_steps"]:
        return None
    extra = [c.step for c in view.calls[int(threshold):]] or [view.calls[-1].step if view.calls
                                                               else 0]
    return signal(run, "STEP_COUNT_INFLATION", Severity.MEDIUM, ratio_confidence(steps, threshold),
                  extra, step_count=steps, threshold=round(threshold, 2),
                  baseline_p75=baseline.step_count, threshold_source="baseline")


STEP_COUNT_INFLATION = Detector(
    name="STEP_COUNT_INFLATION",
    check=_step_count_inflation,
    params=(
        _inflation(2.0, "step count"),
        Param("min_steps", 5, "runs shorter than this never fire", 1, 100_000),
    ),
    severity="MEDIUM",
    rule="the run has more than inflation × the agent's P75 steps (needs a ready baseline)",
    guards=("no static fallback: without a baseline there is no notion of normal length",
            "runs under min_steps never fire (a P75 of 2 does not make 5 steps alarming)"),
    uses_baseline=True,
)


def _reasoning_stall(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    if len(view.llms) < p["min_llm_calls"]:
        return None
    if not view.tools and not view.tools_available:
        return None  # an agent without tools cannot stall on them
    thinking = reasoning_calls(view)
    if len(thinking) < p["min_llm_calls"]:
        return None  # most calls answered the user: a conversation, not a stall
    ratio = len(thinking) / max(1, len(view.tools))
    threshold, source = threshold_from(
        baseline, baseline.llm_tool_ratio if baseline else None, p["inflation"], p["ratio"])
    assert threshold is not None
    fires = ratio > threshold if source == "baseline" else ratio >= threshold
    if not fires:
        return None
    last_tool = view.tools[-1].step if view.tools else -1
    stall = [c.step for c in thinking if c.step > last_tool] or [c.step for c in thinking]
    stalled = not view.exited
    return signal(run, "REASONING_STALL", Severity.HIGH if stalled else Severity.MEDIUM,
                  ratio_confidence(ratio, threshold), stall, llm_calls=len(view.llms),
                  user_turns_answered=len(view.llms) - len(thinking),
                  tool_calls=len(view.tools), ratio=round(ratio, 3),
                  threshold=round(threshold, 3), threshold_source=source, stalled=stalled)


REASONING_STALL = Detector(
    name="REASONING_STALL",
    check=_reasoning_stall,
    params=(
        Param("ratio", 4.0, "static LLM:tool call ratio before the baseline exists", 1.0, 1000.0),
        Param("min_llm_calls", 5, "LLM calls needed", 1, 100_000),
        _inflation(2.0, "ratio"),
    ),
    severity="MEDIUM; HIGH when the run did not end normally (stalled)",
    rule="reasoning LLM calls per tool call exceed inflation × the agent's P75 (static "
         "fallback: ≥ 4)",
    guards=(("agents with no tools available and no tool calls are skipped: a chat agent "
            "talks, it does not stall"),
            ("a call that answers a new user turn (a user-turn signal since the previous "
             "call, or a prompt that is the new message alone: its last line no one in the "
             "run wrote before, and no chat history in it) is a turn of the conversation, "
             "not reasoning: it is not counted, and fewer than min_llm_calls reasoning calls "
             "never fire")),
    uses_baseline=True,
)


def _cost_spike(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    if len(view.llms) < p["min_llm_calls"]:
        return None
    tokens = total_tokens(view)
    threshold, source = threshold_from(
        baseline, baseline.total_tokens if baseline else None, p["inflation"], p["static_tokens"])
    assert threshold is not None
    # Against the agent's own P75 like is compared with like; the static line has no such
    # peer, so it reads only what the run added (re-sent context left out).
    measured = tokens if source == "baseline" else added_tokens(view)
    if measured <= threshold:
        return None
    heavy = sorted(view.llms, key=lambda c: -(c.prompt_tokens + c.completion_tokens))[:3]
    return signal(run, "COST_SPIKE", Severity.MEDIUM, ratio_confidence(measured, threshold),
                  [c.step for c in heavy], total_tokens=tokens, added_tokens=added_tokens(view),
                  threshold=round(threshold, 1), threshold_source=source)


COST_SPIKE = Detector(
    name="COST_SPIKE",
    check=_cost_spike,
    params=(
        _inflation(3.0, "tokens"),
        Param("static_tokens", 50_000, "static token threshold before the baseline exists",
              1, 10**12),
        Param("min_llm_calls", 1, "LLM calls needed", 1, 100_000),
    ),
    severity="MEDIUM",
    rule="prompt + completion + reasoning tokens exceed inflation × the agent's P75 "
         "(static fallback: 50,000 tokens added by the run)",
    guards=("evidence names the three heaviest LLM calls, where the tokens went",
            ("before the baseline exists, context re-sent with every call is not counted: "
             "the static line reads the tokens the run added (each prompt's growth beyond "
             "the previous prompt and answer, plus what the model wrote), so a long-context "
             "agent is not a spike")),
    uses_baseline=True,
)


def _session_latency(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    if len(run.events) < p["min_events"]:
        return None
    view = view_of(run)
    duration = view.duration_s
    threshold, source = threshold_from(
        baseline, baseline.duration_s if baseline else None, p["inflation"], p["static_s"])
    assert threshold is not None
    if duration <= threshold:
        return None
    last = view.calls[-1].step if view.calls else run.events[-1].step_index
    return signal(run, "SESSION_LATENCY", Severity.MEDIUM, ratio_confidence(duration, threshold),
                  [last], duration_s=round(duration, 3), threshold_s=round(threshold, 3),
                  threshold_source=source)


SESSION_LATENCY = Detector(
    name="SESSION_LATENCY",
    check=_session_latency,
    params=(
        _inflation(3.0, "duration"),
        Param("static_s", 300.0, "static duration threshold (seconds) before the baseline exists",
              1.0, 86_400.0 * 7),
        Param("min_events", 2, "events needed", 2, 100_000),
    ),
    severity="MEDIUM",
    rule="the run lasts longer than inflation × the agent's P75 duration (static fallback: 5 min)",
    uses_baseline=True,
)
