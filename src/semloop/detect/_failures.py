"""Detectors of failures and how the agent handled them: retry storms, cascades, a bad
first step, empty answers, tool errors nobody read, and claiming success after one."""

from __future__ import annotations

from typing import Any

from ..events import Run, Severity, Signal
from ._patterns import acknowledges, claims_completion
from ._registry import Detector, Param, ratio_confidence, signal
from ._view import Call, RunView, view_of
from .baseline import Baseline

__all__ = [
    "CASCADING_TOOL_FAILURE",
    "EMPTY_LLM_RESPONSE",
    "FIRST_STEP_FAILURE",
    "PREMATURE_TERMINATION",
    "RETRY_STORM",
    "UNREAD_TOOL_ERROR",
    "is_empty_llm_response",
    "requests_tools",
    "unseen_tokens",
]

_STOP = frozenset({"stop", "end_turn", "stop_sequence", "eos", "complete", "completed", ""})
# An empty answer costs a token or two (end of turn); more went into something else.
_SPENT = 4
_TOOL_CALL = frozenset({"tool_calls", "tool_call", "function_call", "tool_use"})


def requests_tools(call: Call) -> bool:
    """An LLM response that asked for tool calls (its text, if any, is a plan)."""
    r = call.response or {}
    return bool(r.get("tool_calls")) or call.finish_reason.lower() in _TOOL_CALL


def is_empty_llm_response(view: RunView, call: Call) -> bool:
    """A response that ended normally with no text and no tool call requested.

    An unrecorded output (redaction) is not empty: only ``output=""`` or
    ``output_length=0`` say so. Completion tokens spent beyond the reported reasoning do
    not make it full: a thinking model that spends its budget on hidden reasoning and
    stops with no text fails exactly so. They mean an action only when the trace shows
    one: the next step is a tool call the response did not label.
    """
    output = call.output
    if output and not output.isspace():
        return False  # most responses hold text: the rest cannot make them empty
    r = call.response
    if r is None or call.kind != "llm" or call.failed or call.degraded:
        return False
    if requests_tools(call) or call.finish_reason.lower() not in _STOP:
        return False
    if unseen_tokens(call) and _acted_next(view, call):
        return False
    length = r.get("output_length")
    if call.output is not None:
        return not call.output.strip() and not length
    return length == 0 and not isinstance(length, bool)


def unseen_tokens(call: Call) -> int:
    """Completion tokens beyond reasoning that no recorded text accounts for."""
    spent = call.completion_tokens - call.reasoning_tokens
    return spent if spent > _SPENT else 0


def _acted_next(view: RunView, call: Call) -> bool:
    position = view.position(call) + 1
    return position < len(view.calls) and view.calls[position].kind != "llm"


def _retry_storm(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    streaks: dict[str, list[Call]] = {}
    for call in view.tools:
        if call.failed is None:
            continue
        if call.failed:
            streaks.setdefault(call.name, []).append(call)
        else:
            # The retries worked: that is error handling, not a storm.
            streaks[call.name] = []
    worst = max(streaks.values(), key=len, default=[])
    if len(worst) < p["threshold"]:
        return None
    return signal(run, "RETRY_STORM", Severity.HIGH, ratio_confidence(len(worst), p["threshold"]),
                  [c.step for c in worst], tool=worst[0].name, failures=len(worst),
                  threshold=p["threshold"], last_error=(worst[-1].error or "")[:200])


RETRY_STORM = Detector(
    name="RETRY_STORM",
    check=_retry_storm,
    params=(Param("threshold", 3, "consecutive failures of one tool", 2, 1000),),
    severity="HIGH",
    rule="the same tool fails ≥ threshold times in a row and never succeeds afterwards",
    guards=(("a retry after an error that then succeeds is not a storm: a success resets the "
            "tool's streak"),
            "calls of other tools in between do not break the streak (agents interleave)"),
)


def _cascading_tool_failure(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    best: list[Call] = []
    current: list[Call] = []
    for call in [*view.tools, None]:
        if call is not None and call.failed is None:
            continue
        if call is not None and call.failed:
            current.append(call)
            continue
        # The chain ended: keep it if it is the longest spanning two tools.
        if len(current) > len(best) and len({c.name for c in current}) >= 2:
            best = current
        current = []
    if len(best) < p["threshold"]:
        return None
    last = best[-1]
    recovered = any(c.failed is False for c in view.tools[view.tool_position(last) + 1:])
    return signal(run, "CASCADING_TOOL_FAILURE", Severity.HIGH,
                  ratio_confidence(len(best), p["threshold"]), [c.step for c in best],
                  failures=len(best), tools=sorted({c.name for c in best}),
                  threshold=p["threshold"], recovered=recovered)


CASCADING_TOOL_FAILURE = Detector(
    name="CASCADING_TOOL_FAILURE",
    check=_cascading_tool_failure,
    params=(Param("threshold", 3, "consecutive failed tool calls", 2, 1000),),
    severity="HIGH",
    rule="≥ threshold consecutive failed tool calls spanning ≥ 2 distinct tools",
    guards=("one tool failing repeatedly is a RETRY_STORM, not a cascade",
            "calls with no recorded response neither extend nor break the chain"),
)


def _step_failure(view: RunView, call: Call) -> str | None:
    if call.failed:
        return f"{call.kind} error: {(call.error or 'failed')[:120]}"
    if is_empty_llm_response(view, call):
        return "empty LLM response"
    return None


def _retried_ok(view: RunView, call: Call) -> bool:
    """A failed tool call that a later call of the same tool made good."""
    if call.kind != "tool" or not call.failed:
        return False
    later = view.tools[view.tool_position(call) + 1:]
    return any(c.name == call.name and c.failed is False for c in later)


def _first_step_failure(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    early = view.calls[: p["max_step"]]
    failures = [(c, why) for c in early
                if (why := _step_failure(view, c)) and not _retried_ok(view, c)]
    if not failures and view.errored is not None and len(view.calls) <= p["max_step"]:
        step = view.calls[-1].step if view.calls else 0
        return signal(run, "FIRST_STEP_FAILURE", Severity.MEDIUM, 0.75, [step],
                      reason=f"run errored: {str(view.errored.get('error') or '')[:120]}",
                      ended_well=False)
    if not failures:
        return None
    ended_well = view.exited
    return signal(run, "FIRST_STEP_FAILURE", Severity.MEDIUM, 0.6 if ended_well else 0.75,
                  [c.step for c, _ in failures], reason=failures[0][1], ended_well=ended_well,
                  max_step=p["max_step"])


FIRST_STEP_FAILURE = Detector(
    name="FIRST_STEP_FAILURE",
    check=_first_step_failure,
    params=(Param("max_step", 2, "how many first steps count as the start", 1, 100),),
    severity="MEDIUM",
    rule="an error or an empty LLM response among the first max_step steps (or the run "
         "errored before getting further)",
    guards=("steps are counted by position, so runs whose step_index starts at 0 or 1 agree",
            ("a failed tool call that a later call of the same tool made good (a retry that "
             "succeeded) is not a failure of the run"),
            "an LLM response that requested a tool call has no text and is not empty",
            "confidence is 0.6 when the run still ended normally, 0.75 otherwise"),
)


def _empty_llm_response(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    empty = [c for c in view.llms if is_empty_llm_response(view, c)]
    if not empty:
        return None
    unseen = sum(unseen_tokens(c) for c in empty)
    extra: dict[str, Any] = {}
    if unseen:
        # Tokens were billed and no text came back: the model spent them out of sight
        # (hidden reasoning, or output the provider withheld).
        extra = {"unseen_completion_tokens": unseen,
                 "reason": f"{unseen} completion tokens spent with no text returned"}
    return signal(run, "EMPTY_LLM_RESPONSE", Severity.HIGH, 0.75 if len(empty) == 1 else 0.9,
                  [c.step for c in empty], count=len(empty), **extra)


EMPTY_LLM_RESPONSE = Detector(
    name="EMPTY_LLM_RESPONSE",
    check=_empty_llm_response,
    params=(),
    severity="HIGH",
    rule="an LLM response of zero length with finish_reason=stop",
    guards=(("responses that request tool calls (finish_reason tool_calls, or a tool_calls "
             "field) are not empty"),
            ("a response that spent more than 4 completion tokens beyond its reasoning "
             "tokens and is followed at once by a tool call produced that call unlabelled: "
             "not empty; with no such step the tokens went unseen (hidden reasoning) and "
             "the evidence says how many"),
            "a response whose text was not recorded (redacted) is unknown, not empty",
            ("a response marked instrumentation_degraded (the extractor could not read it) "
             "is unknown, not empty"),
            "confidence 0.75 for one, 0.9 for two or more"),
)


def _premature_termination(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    found: list[tuple[Call, Call]] = []
    pending: list[Call] = []  # failures the agent has not spoken about yet
    last_reply: Call | None = None
    # One pass: a success of the same tool clears a failure (a retry worked); the next
    # LLM response with text (not a tool-call plan) is the agent speaking about the rest.
    for call in view.calls:
        if call.kind == "tool":
            if call.failed:
                pending.append(call)
            elif call.failed is False and pending:
                pending = [f for f in pending if f.name != call.name]
        elif call.kind == "llm" and call.output and call.output.strip() \
                and not call.degraded and not requests_tools(call):
            last_reply = call
            if pending:
                text = call.output
                if (len(text.strip()) >= p["min_message_length"] and claims_completion(text)
                        and not acknowledges(text)):
                    found.extend((f, call) for f in pending)
                pending = []
    if not found:
        return None
    final = any(reply is last_reply for _, reply in found)
    failed, reply = found[-1]
    return signal(run, "PREMATURE_TERMINATION", Severity.CRITICAL if final else Severity.HIGH,
                  0.9 if final else 0.75, [s for f, r in found for s in (f.step, r.step)],
                  tool=failed.name, error=(failed.error or "")[:200],
                  response=(reply.output or "")[:200], final_response=final)


PREMATURE_TERMINATION = Detector(
    name="PREMATURE_TERMINATION",
    check=_premature_termination,
    params=(Param("min_message_length", 20, "shorter responses are not judged", 0, 100_000),),
    severity="HIGH; CRITICAL when the claim is the run's last LLM response",
    rule="after a failed tool call, the next LLM response claims completion ('done', "
         "'successfully', 'here is the…') without acknowledging any failure",
    guards=("a successful retry of the same tool before that response clears the failure",
            "responses that request tool calls are plans, not claims, and are skipped",
            "responses that mention an error, failure, inability or apology are acknowledgments",
            "responses marked instrumentation_degraded are unreadable and not judged"),
)


def _unread_tool_error(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    if not view.llms:
        return None  # a pipeline with no model has nobody to read anything
    unread: list[tuple[Call, Call]] = []
    for failed in view.tools:
        if not failed.failed:
            continue
        idx = view.position(failed)
        for nxt in view.calls[idx + 1:]:
            if (nxt.called_at is not None and failed.responded_at is not None
                    and nxt.called_at < failed.responded_at):
                continue  # started in parallel, before the error was known
            if nxt.kind == "tool":
                if nxt.name != failed.name:
                    unread.append((failed, nxt))  # moved on with no model in between
                break  # a retry of the same tool is handling the error
            if nxt.kind == "llm":
                if (requests_tools(nxt) or nxt.degraded or nxt.output is None
                        or not nxt.output.strip()):
                    break  # it acts on the result (retry, alternative), or no text to judge
                if not acknowledges(nxt.output):
                    unread.append((failed, nxt))
                break
    if not unread:
        return None
    many = len(unread) >= 2
    return signal(run, "UNREAD_TOOL_ERROR", Severity.HIGH if many else Severity.MEDIUM,
                  0.75 if many else 0.6, [s for f, n in unread for s in (f.step, n.step)],
                  count=len(unread), tools=sorted({f.name for f, _ in unread}),
                  first_error=(unread[0][0].error or "")[:200])


UNREAD_TOOL_ERROR = Detector(
    name="UNREAD_TOOL_ERROR",
    check=_unread_tool_error,
    params=(),
    severity="MEDIUM; HIGH for two or more",
    rule="a failed tool call followed by a call of another tool with no LLM step in between, "
         "or by an LLM response that does not acknowledge the failure",
    guards=("a retry of the same tool is reading the error",
            "calls started before the error came back (parallel calls) are skipped",
            ("an LLM response that requests tool calls is acting on the result (a retry or "
             "an alternative), not ignoring it"),
            "responses without text (redacted) or marked instrumentation_degraded are not judged",
            "runs without any LLM call (pipelines) are skipped"),
)
