"""deepeval traces, in the three shapes deepeval produces:

- the upload body (``TraceApi``: spans bucketed in ``baseSpans``, ``agentSpans``,
  ``llmSpans``, ``retrieverSpans``, ``toolSpans``; tree from ``parentUuid``; ISO times);
- the nested span dict metrics see as ``test_case._trace_dict`` (``children``, no times),
  bare or wrapped as ``{"input": goal, "_trace_dict": {...}}``;
- the in-process dict (``trace_manager.get_all_traces_dict()``: ``{"uuid",
  "root_spans": [...]}``, spans without ``type``), whose times are ``perf_counter``
  readings: their differences are kept, anchored at the import's clock.

A span's ``tools_called`` lists the calls it made; those with no tool span of their own
(the agent traced the decision but not the tool) become tool steps too, once however many
spans list them.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..._exceptions import TraceFormatError
from ...events import Run
from ._common import (
    SHAPE_ERRORS,
    Draft,
    Result,
    Step,
    build_run,
    epoch,
    first,
    first_of_role,
    integer,
    number,
    planned_calls,
    records,
    reject,
    string,
    text,
    unwrap_single,
)

__all__ = ["KEYS", "convert", "read"]

NAME = "deepeval"
_BUCKETS = ("baseSpans", "agentSpans", "llmSpans", "retrieverSpans", "toolSpans")
_KINDS = {"llm": "llm", "tool": "tool", "retriever": "retrieval"}
#: Keys that only a deepeval trace has at its top (a bare span has ``type``/``children``).
KEYS = frozenset({*_BUCKETS, "root_spans", "_trace_dict", "trace_dict"})


def read(data: bytes | str) -> list[Run]:
    """Runs from a deepeval export; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<deepeval>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    for line, path, raw in records(data, source, result, unwrap=("traces", "data")):
        try:
            result.runs.append(build_run(draft(raw, clock=clock), clock=clock))
        except SHAPE_ERRORS as exc:
            reject(result, exc, source, line, path)
    return result


def draft(raw: Any, *, clock: float = 0.0) -> Draft:
    """One run from any of deepeval's trace shapes; ``clock`` (epoch seconds) anchors the
    in-process dict's ``perf_counter`` times, whose differences are still true."""
    if not isinstance(raw, Mapping):
        raise TraceFormatError(f"a deepeval trace must be a JSON object, not {type(raw).__name__}")
    if any(k in raw for k in _BUCKETS):
        return _from_api(raw)
    if "root_spans" in raw:
        base = number(raw.get("start_time"))
        anchor = None if base is None else clock - base
        return _from_nested(raw.get("root_spans"), raw, "root_spans", anchor=anchor)
    if "_trace_dict" in raw or "trace_dict" in raw:
        key = "_trace_dict" if "_trace_dict" in raw else "trace_dict"
        return _from_nested([raw[key]], raw, key)
    if "children" in raw or "type" in raw:
        return _from_nested([raw], {})
    raise TraceFormatError(
        "not a deepeval trace: expected span buckets (llmSpans, toolSpans, …), root_spans, "
        "_trace_dict, or a span with children", field=next(iter(raw), None))


def _kind(span: Mapping[str, Any]) -> str | None:
    """Step kind of a span. The in-process dict has no ``type`` (it is the span's class),
    so the class is told by its fields: LlmSpan has ``model``, RetrieverSpan ``embedder``,
    ToolSpan ``description``, AgentSpan ``available_tools``."""
    if "type" in span:
        return _KINDS.get(str(span.get("type") or "").lower())
    if "model" in span or "input_token_count" in span:
        return "llm"
    if "embedder" in span or "top_k" in span:
        return "retrieval"
    if "description" in span and "available_tools" not in span:
        return "tool"
    return None


def _content_id(raw: Any) -> str:
    # _trace_dict has no id; hashing the content makes re-imports land on the same run.
    blob = json.dumps(raw, sort_keys=True, default=str).encode("utf-8")
    return "deepeval-" + hashlib.sha256(blob).hexdigest()[:24]


def _step(span: Mapping[str, Any], kind: str, order: int, path: str, *, timed: bool) -> Step:
    def get(camel: str, snake: str) -> Any:
        return span.get(camel, span.get(snake))

    status = str(span.get("status") or "").upper()
    error = string(span.get("error")) or ("errored" if status == "ERRORED" else None)
    step = Step(kind=kind, name=str(span.get("name") or ""),
                step_id=str(span.get("uuid") or ""), order=order, error=error,
                input=span.get("input"), output=span.get("output"))
    if timed:
        step.start = epoch(get("startTime", "start_time"), field_name=f"{path}.startTime")
        step.end = epoch(get("endTime", "end_time"), field_name=f"{path}.endTime")
    if kind == "llm":
        step.model = string(span.get("model"))
        step.prompt_tokens = integer(get("inputTokenCount", "input_token_count"))
        step.completion_tokens = integer(get("outputTokenCount", "output_token_count"))
        cost_in = number(get("costPerInputToken", "cost_per_input_token"))
        cost_out = number(get("costPerOutputToken", "cost_per_output_token"))
        if cost_in is not None or cost_out is not None:
            step.cost_usd = (step.prompt_tokens or 0) * (cost_in or 0.0) + (
                step.completion_tokens or 0) * (cost_out or 0.0)
        if not isinstance(step.output, str) and step.output is not None:
            step.output = text(step.output)  # LlmOutput objects from integrations
    elif kind == "retrieval":
        step.name = str(first(span.get("embedder"), span.get("name")) or "retrieval")
        if isinstance(step.output, list):
            step.result_count = len(step.output)
            step.output = "\n".join(text(x) for x in step.output)
    return step


def _from_api(raw: Mapping[str, Any]) -> Draft:
    spans: list[tuple[str, Mapping[str, Any]]] = []
    for bucket in _BUCKETS:
        items = raw.get(bucket) or []
        if not isinstance(items, list):
            raise TraceFormatError("must be a list of spans", field=bucket)
        for i, span in enumerate(items):
            if not isinstance(span, Mapping):
                raise TraceFormatError("a span must be an object", field=f"{bucket}[{i}]")
            spans.append((f"{bucket}[{i}]", span))
    run_id = str(raw.get("uuid") or _content_id(raw))
    d = Draft(run_id=run_id, source=NAME, trace_id=run_id)
    d.conversation_id = string(first(raw.get("threadId"), raw.get("thread_id")))
    d.start = epoch(raw.get("startTime"), field_name="startTime")
    d.end = epoch(raw.get("endTime"), field_name="endTime")
    roots = [s for _, s in spans if not s.get("parentUuid")]
    root = min(roots, key=lambda s: str(s.get("startTime") or "")) if roots else None
    listed: list[_Listed] = []
    for order, (path, span) in enumerate(spans):
        kind = _kind(span)
        step = _step(span, kind, order, path, timed=True) if kind else None
        if step is not None:  # a root that is itself a model or tool call is a step too
            d.steps.append(step)
        if span.get("toolsCalled", span.get("tools_called")):
            when = epoch(first(span.get("endTime"), span.get("startTime")), field_name=path)
            listed.append((span, f"{path}.toolsCalled", order, when, step))
    _add_untraced_calls(d, listed)
    _finish(d, raw, root)
    return d


def _from_nested(roots: Any, raw: Mapping[str, Any], path: str = "", *,
                 anchor: float | None = None) -> Draft:
    if not isinstance(roots, list) or not roots or not isinstance(roots[0], Mapping):
        raise TraceFormatError("must be a span object (or a list of them)", field=path or None)
    run_id = str(raw.get("uuid") or _content_id(roots))
    d = Draft(run_id=run_id, source=NAME, trace_id=run_id)
    d.conversation_id = string(first(raw.get("thread_id"), raw.get("threadId")))
    if anchor is not None:
        start, end = number(raw.get("start_time")), number(raw.get("end_time"))
        d.start = None if start is None else anchor + start
        d.end = None if end is None else anchor + end
    order = 0
    listed: list[_Listed] = []

    def visit(span: Any, where: str) -> None:
        nonlocal order
        if not isinstance(span, Mapping):
            raise TraceFormatError("a span must be an object", field=where)
        kind = _kind(span)
        step = _step(span, kind, order, where, timed=False) if kind else None
        if step is not None:
            if anchor is not None:
                start, end = number(span.get("start_time")), number(span.get("end_time"))
                step.start = None if start is None else anchor + start
                step.end = None if end is None else anchor + end
            d.steps.append(step)
        order += 1
        children = span.get("children") or []
        if not isinstance(children, list):
            raise TraceFormatError("children must be a list", field=f"{where}.children")
        for i, child in enumerate(children):
            visit(child, f"{where}.children[{i}]")
        calls = span.get("tools_called", span.get("toolsCalled"))
        if calls:  # made during the span: after its children, before its next sibling
            end = number(span.get("end_time"))
            when = None if anchor is None or end is None else anchor + end
            listed.append((span, f"{where}.tools_called", order, when, step))
            order += len(calls) if isinstance(calls, list) else 1

    for i, root in enumerate(roots):
        visit(root, f"{path}[{i}]" if path else "root")
    _add_untraced_calls(d, listed)
    _finish(d, raw, roots[0] if len(roots) == 1 else None)
    return d


# A span with a ``tools_called`` list, the list's field path, the order its calls take,
# their time (the span's end) when the source has times, and the span's own step.
_Listed = tuple[Mapping[str, Any], str, int, float | None, Step | None]


def _add_untraced_calls(d: Draft, listed: list[_Listed]) -> None:
    """Tool steps for listed calls that no tool span ran. A model span lists the calls it
    planned (they become its ``tool_calls``), and its agent may list them again: each
    listing is matched on its own against the tool spans and the calls already made into
    steps, so a call listed twice, or listed and traced, counts once."""
    traced = Counter(s.name for s in d.steps if s.kind == "tool")
    made: Counter[str] = Counter()
    # Model spans first: theirs are the calls themselves, an agent's list sums them up.
    for span, where, order, when, step in sorted(
            listed, key=lambda item: item[4] is None or item[4].kind != "llm"):
        calls = span.get("tools_called", span.get("toolsCalled"))
        if not isinstance(calls, list):
            raise TraceFormatError("must be a list of tool calls", field=where)
        here: Counter[str] = Counter()
        for i, call in enumerate(calls):
            if not isinstance(call, Mapping):
                raise TraceFormatError("a tool call must be an object", field=f"{where}[{i}]")
            name = str(call.get("name") or "")
            args = call.get("input_parameters", call.get("inputParameters"))
            if step is not None and step.kind == "llm":
                step.tool_calls.append({"name": name, "arguments": args})
            here[name] += 1
            if here[name] <= traced[name] + made[name]:
                continue
            made[name] += 1
            d.steps.append(Step(kind="tool", name=name, order=order + i, start=when, end=when,
                                input=args, output=call.get("output")))
        if step is not None and step.kind == "llm" and not step.output:
            step.output = planned_calls(step.tool_calls)  # a turn that only calls tools


def _finish(d: Draft, raw: Mapping[str, Any], root: Mapping[str, Any] | None) -> None:
    goal = first(raw.get("input"), root.get("input") if root else None)
    # A chat's input (a message list, LangChain's {"messages": ...}) has the user's words
    # as its goal, not the system prompt before them nor a JSON dump of the list.
    user = first_of_role(goal, "user") if isinstance(goal, (list, Mapping)) else None
    d.goal = user or text(unwrap_single(goal))
    d.output = first(raw.get("output"), root.get("output") if root else None)
    if root is not None:
        d.agent_id = str(root.get("name") or "")
        tools = root.get("availableTools", root.get("available_tools"))
        if isinstance(tools, list):
            d.tools = sorted(str(t) for t in tools)
    d.agent_id = d.agent_id or str(raw.get("name") or "")
    status = str(first(raw.get("status"), root.get("status") if root else None) or "").upper()
    error = string(root.get("error")) if root else None
    if status == "ERRORED" or error:
        d.errored, d.error = True, error or "errored"
