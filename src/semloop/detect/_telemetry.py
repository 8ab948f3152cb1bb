"""Detectors of what one call's shape gives away: telemetry that could not read the model,
a truncated answer used as final, a quiet fall to a weaker model, oversized arguments,
retrieval by volume, and a hand-off to another agent that came back empty."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ..events import Run, Severity, Signal
from ._registry import Detector, Param, signal, tiers
from ._repetition import _TRUNCATED as TRUNCATED
from ._view import Call, view_of
from .baseline import Baseline

__all__ = [
    "AGENT_HANDOFF_FAILURE",
    "EXCESSIVE_RETRIEVAL",
    "INSTRUMENTATION_DEGRADED",
    "MODEL_FALLBACK_DRIFT",
    "OVERSIZED_TOOL_ARGUMENTS",
    "SILENT_TRUNCATION",
    "TEXT_DEPENDENT",
    "is_handoff",
]

#: Checks that read LLM text: their silence on a degraded run says nothing.
TEXT_DEPENDENT = ("EMPTY_LLM_RESPONSE", "PREMATURE_TERMINATION", "UNREAD_TOOL_ERROR",
                  "LLM_TRUNCATION_LOOP", "SILENT_TRUNCATION", "RUNAWAY_ITERATION",
                  "FIRST_STEP_FAILURE")


def _blank(call: Call) -> bool:
    """Recorded as empty in every way a real answer is not: an extractor that read nothing."""
    r = call.response or {}
    return ("output" in r and not (call.output or "").strip() and not r.get("output_length")
            and call.completion_tokens == 0 and not r.get("tool_calls")
            and (call.latency_ms or 0) > 0 and call.finish_reason.lower() in ("", "stop"))


def _instrumentation_degraded(run: Run, p: dict[str, Any],
                              baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    answered = [c for c in view.llms if c.response is not None and not c.failed]
    marked = [c for c in answered if c.degraded]
    if marked:
        affected, reason, confidence = marked, "unreadable_response_shape", 0.95
    elif len(answered) >= p["min_calls"] and all(_blank(c) for c in answered):
        affected, reason, confidence = answered, "every_response_blank", 0.8
    else:
        return None
    shapes = sorted({str(c.response.get("instrumentation_degraded"))  # type: ignore[union-attr]
                     for c in marked})
    return signal(run, "INSTRUMENTATION_DEGRADED", Severity.MEDIUM, confidence,
                  [c.step for c in affected], reason=reason, unreadable_shapes=shapes,
                  affected_calls=len(affected), total_calls=len(view.llms),
                  models=sorted({c.name for c in affected}),
                  suppressed_detectors=list(TEXT_DEPENDENT))


INSTRUMENTATION_DEGRADED = Detector(
    name="INSTRUMENTATION_DEGRADED",
    check=_instrumentation_degraded,
    params=(Param("min_calls", 2, "LLM calls that must all be blank", 1, 1000),),
    severity="MEDIUM",
    rule="an LLM response carries the instrumentation_degraded marker (the extractor could "
         "not read its shape), or ≥ min_calls responses are all blank: empty recorded text, "
         "0 completion tokens, latency > 0, finish_reason missing or stop",
    guards=(("text left out on purpose (no output field: omitted or redacted) is unknown, "
             "not blank"),
            "failed calls and calls with no response are not counted",
            ("the evidence lists the text-dependent detectors whose silence on this run "
             "must not be read as clean")),
    shadow=True,
)


def _silent_truncation(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    measured = [c for c in view.llms if c.response is not None and not c.degraded]
    cut = [c for c in measured if c.finish_reason.lower() in TRUNCATED]
    if len(cut) != 1:
        return None  # none, or a loop: LLM_TRUNCATION_LOOP's
    call = cut[0]
    if measured[-1] is not call:
        return None  # a later call continued or retried
    r = call.response or {}
    length = r.get("output_length")
    text_length = len(call.output) if call.output is not None else (
        length if isinstance(length, int) and not isinstance(length, bool) else 0)
    if text_length < p["min_output_length"]:
        return None  # nothing came back: EMPTY_LLM_RESPONSE's
    after = view.calls[view.position(call) + 1:]
    final = not any(c.kind == "tool" for c in after)
    return signal(run, "SILENT_TRUNCATION", Severity.HIGH if final else Severity.MEDIUM,
                  0.85 if final else 0.7, [call.step], finish_reason=call.finish_reason,
                  output_length=text_length, final_output=final, model=call.name)


SILENT_TRUNCATION = Detector(
    name="SILENT_TRUNCATION",
    check=_silent_truncation,
    params=(Param("min_output_length", 1, "shorter truncated outputs are left to "
                  "EMPTY_LLM_RESPONSE", 0, 1_000_000),),
    severity="MEDIUM; HIGH when no tool call follows (the truncated text was the answer)",
    rule="exactly one LLM response ends with finish_reason length (max_tokens, "
         "max_output_tokens) and no LLM call follows it: the cut-off text was used as it was",
    guards=("two or more truncations are LLM_TRUNCATION_LOOP's: the two never both fire",
            "an empty truncated output is EMPTY_LLM_RESPONSE's",
            "responses marked instrumentation_degraded are unmeasured and not counted"),
)


#: Capability tiers by model-name fragment; the longest fragment in a name decides.
MODEL_TIERS = tiers(**{
    "gpt-3.5": 1, "4o-mini": 2, "o1-mini": 2, "o3-mini": 2, "gpt-4.1-nano": 1,
    "gpt-4.1-mini": 2, "gpt-4o": 3, "gpt-4": 3, "4-turbo": 3, "o1": 3, "o3": 3,
    "gpt-5-mini": 3, "gpt-5": 4, "haiku": 2, "sonnet": 3, "opus": 4,
    "gemini-1.5-flash": 2, "gemini-2.0-flash": 2, "gemini-1.5-pro": 3,
})


_ORDER = sorted(MODEL_TIERS, key=len, reverse=True)


def _tier(model: str, table: dict[str, int], order: list[str]) -> int | None:
    low = model.lower()
    for fragment in order:
        if fragment in low:
            return table[fragment]
    return None


def _model_fallback_drift(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    models = [(c, str(c.request.get("model") or "")) for c in view.llms]
    models = [(c, m) for c, m in models if m]
    if len(models) < 2:
        return None
    if p["model_tiers"]:
        table = {**MODEL_TIERS, **{k.lower(): v for k, v in p["model_tiers"].items()}}
        order = sorted(table, key=len, reverse=True)
    else:
        table, order = dict(MODEL_TIERS), _ORDER
    used: set[str] = set()
    known: dict[str, int | None] = {}  # most runs call one or two models throughout
    for (prev, a), (call, b) in pairwise(models):
        used.add(a.lower())
        if a == b:
            continue  # the same model: the same tier
        for m in (a, b):
            if m not in known:
                known[m] = _tier(m, table, order)
        ta, tb = known[a], known[b]
        if ta is None or tb is None or tb >= ta:
            continue
        if b.lower() in used:
            continue  # the run used the smaller model before: routing by design
        rate = any("rate" in e.name.lower() and e.step <= call.step for e in view.externals) \
            or any(c.failed and ("429" in (c.error or "") or "rate" in (c.error or "").lower())
                   for c in view.llms[: view.llms.index(call)])
        return signal(run, "MODEL_FALLBACK_DRIFT", Severity.MEDIUM, 0.8, [prev.step, call.step],
                      from_model=a, to_model=b, from_tier=ta, to_tier=tb, tier_delta=ta - tb,
                      preceded_by_rate_limit=rate)
    return None


MODEL_FALLBACK_DRIFT = Detector(
    name="MODEL_FALLBACK_DRIFT",
    check=_model_fallback_drift,
    params=(Param("model_tiers", tiers(), "tiers by model-name fragment, added to and "
                  "overriding the built-in map (longest fragment wins)", 0, 100),),
    severity="MEDIUM",
    rule="an LLM call uses a model of a strictly lower capability tier than the call before "
         "it (built-in tiers: gpt-3.5 1; 4o-mini, o1-mini, o3-mini, haiku 2; gpt-4, gpt-4o, "
         "o1, o3, gpt-5-mini, sonnet 3; gpt-5, opus 4)",
    guards=(("an unknown model on either side is skipped; upgrades and same-tier switches "
             "do not fire"),
            ("a return to a smaller model the run already used before the larger one is "
             "routing by design (plan with a large model, act with a small one), not a "
             "fallback"),
            ("the evidence says whether a rate-limit signal or a 429 came first "
             "(preceded_by_rate_limit)")),
)


def _args_length(call: Call) -> int:
    # The length before any truncation: a transport that cut the args says how long they
    # were (Dunetrace's args_length, semloop's args_original_length).
    for key in ("args_length", "args_original_length"):
        value = call.request.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    args = call.args
    return len(args) if isinstance(args, str) else len(str(args or ""))


def _oversized_tool_arguments(run: Run, p: dict[str, Any],
                              baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    for call in view.tools:
        length = _args_length(call)
        if length > p["max_arg_length"]:
            return signal(run, "OVERSIZED_TOOL_ARGUMENTS", Severity.MEDIUM, 0.9, [call.step],
                          tool=call.name, arg_length=length, threshold=p["max_arg_length"])
    return None


OVERSIZED_TOOL_ARGUMENTS = Detector(
    name="OVERSIZED_TOOL_ARGUMENTS",
    check=_oversized_tool_arguments,
    params=(Param("max_arg_length", 10_000, "characters of one call's arguments", 1,
                  1_000_000_000),),
    severity="MEDIUM",
    rule="a tool call's arguments are longer than max_arg_length characters (the first such "
         "call is reported)",
    guards=(("the length is the one before any truncation (args_length or "
             "args_original_length when the transport cut the text), so a capped transport "
             "cannot hide it"),),
    shadow=True,
)


def _excessive_retrieval(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    count = len(view.retrievals)
    if count < p["max_retrievals"]:
        return None
    first, last = view.retrievals[0], view.retrievals[-1]
    return signal(run, "EXCESSIVE_RETRIEVAL", Severity.MEDIUM,
                  min(0.95, 0.8 + 0.01 * (count - p["max_retrievals"])),
                  [first.step, last.step], retrieval_count=count, threshold=p["max_retrievals"],
                  indexes=sorted({c.name for c in view.retrievals}))


EXCESSIVE_RETRIEVAL = Detector(
    name="EXCESSIVE_RETRIEVAL",
    check=_excessive_retrieval,
    params=(Param("max_retrievals", 8, "retrievals in one run", 1, 1_000_000),),
    severity="MEDIUM",
    rule="the run makes ≥ max_retrievals retrievals (a volume signal: the queries need not "
         "repeat)",
    guards=("tool calls are not retrievals: only retrieval.called events count",),
)


_HANDOFF_PREFIXES = ("delegate_", "handoff_", "transfer_to_")
_NOT_HANDOFF = frozenset({"user_agent"})
_EMPTY_ANSWERS = frozenset({"", "done", "ok", "complete", "finished", "n/a", "null", "none",
                            "success"})


def is_handoff(tool: str) -> bool:
    """A tool that hands work to another agent: ``*_agent``, ``delegate_*``, ``handoff_*``,
    ``transfer_to_*`` (never a bare ``transfer_``: ``transfer_funds`` moves money)."""
    low = tool.lower()
    return low not in _NOT_HANDOFF and (low.endswith("_agent") or low.startswith(_HANDOFF_PREFIXES))


def _agent_handoff_failure(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    for call in view.tools:
        if call.failed is None or not is_handoff(call.name):
            continue
        if call.failed:
            reason, confidence = "tool_failed", 0.9
        elif call.output is None:
            continue  # not recorded: unknown, not empty
        elif call.output.strip().strip(".!").lower() in _EMPTY_ANSWERS:
            reason, confidence = "empty_output", 0.85
        elif len(call.output.strip()) < p["min_output_length"]:
            reason, confidence = "short_output", 0.85
        else:
            continue
        return signal(run, "AGENT_HANDOFF_FAILURE", Severity.HIGH, confidence, [call.step],
                      tool=call.name, reason=reason, output=(call.output or "")[:200],
                      error=(call.error or "")[:200] or None)
    return None


AGENT_HANDOFF_FAILURE = Detector(
    name="AGENT_HANDOFF_FAILURE",
    check=_agent_handoff_failure,
    params=(Param("min_output_length", 10, "a shorter sub-agent answer is no answer", 0,
                  1_000_000),),
    severity="HIGH",
    rule="a hand-off tool (*_agent, delegate_*, handoff_*, transfer_to_*) fails, or returns "
         "an empty or placeholder answer (done, ok, success, n/a…) or one shorter than "
         "min_output_length",
    guards=("a bare transfer_ prefix is not a hand-off (transfer_funds), nor is user_agent",
            "a call with no response, or whose output was not recorded, is not judged"),
)
