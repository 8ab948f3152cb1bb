"""OpenAI Agents SDK traces, as its exporter posts them (``{"data": [...]}`` mixing
``trace`` and ``trace.span`` items), as a list, or one item per line.

``function`` spans are tool calls (``input`` is the JSON argument string);
``generation`` spans are model calls with text; ``response`` spans are model calls
whose export keeps only usage (no text: the Responses API's limitation, see
docs/import.md); ``handoff`` and ``guardrail`` spans become external signals. The
trace's ``group_id`` is the conversation.
"""

from __future__ import annotations

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
    loads_if_json,
    mapping,
    message_text,
    planned_calls,
    records,
    reject,
    string,
    text,
)

__all__ = ["convert", "read"]

NAME = "openai-agents"


def read(data: bytes | str) -> list[Run]:
    """Runs from an OpenAI Agents trace export; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<openai-agents>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    traces: dict[str, Mapping[str, Any]] = {}
    spans: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    where: dict[str, tuple[int | None, str]] = {}
    for line, path, raw in records(data, source, result, unwrap=("data",)):
        kind = raw.get("object") if isinstance(raw, Mapping) else None
        if kind == "trace" and raw.get("id"):
            traces[str(raw["id"])] = raw
            where.setdefault(str(raw["id"]), (line, path))
        elif kind == "trace.span" and raw.get("trace_id"):
            key = str(raw["trace_id"])
            spans.setdefault(key, []).append((path, raw))
            where.setdefault(key, (line, path))
        else:
            reject(result, TraceFormatError(
                'expected an item with "object": "trace" (and an id) or "trace.span" '
                "(and a trace_id)", field="object"), source, line, path)
    for key in list(dict.fromkeys([*traces, *spans])):
        try:
            result.runs.append(build_run(_draft(key, traces.get(key, {}), spans.get(key, [])),
                                         clock=clock))
        except SHAPE_ERRORS as exc:
            line, path = where[key]
            reject(result, exc, source, line, path)
    return result


def _step(span: Mapping[str, Any], order: int, path: str) -> Step | None:
    data = span.get("span_data")
    if not isinstance(data, Mapping):
        raise TraceFormatError("must be an object", field=f"{path}.span_data")
    kind = str(data.get("type") or "")
    error = span.get("error")
    message = None
    if isinstance(error, Mapping):
        message = string(error.get("message")) or "error"
        detail = error.get("data")
        if isinstance(detail, Mapping) and detail.get("error"):
            message = f"{message}: {text(detail['error'])}"
    elif error:
        message = text(error)
    step = Step(kind="", name=str(data.get("name") or ""), step_id=str(span.get("id") or ""),
                order=order, error=message)
    step.start = epoch(span.get("started_at"), field_name=f"{path}.started_at")
    step.end = epoch(span.get("ended_at"), field_name=f"{path}.ended_at")
    usage = mapping(data.get("usage"))
    if kind == "function":
        step.kind = "tool"
        step.input = loads_if_json(data.get("input"))
        step.output = data.get("output")
    elif kind in ("generation", "response"):
        step.kind = "llm"
        step.name = kind
        step.model = string(first(data.get("model"), (data.get("model_config") or {}).get(
            "model") if isinstance(data.get("model_config"), Mapping) else None))
        step.prompt_tokens = integer(first(usage.get("input_tokens"), usage.get("prompt_tokens")))
        step.completion_tokens = integer(first(usage.get("output_tokens"),
                                               usage.get("completion_tokens")))
        details = usage.get("output_tokens_details")
        if isinstance(details, Mapping):
            step.reasoning_tokens = integer(details.get("reasoning_tokens"))
        inputs, outputs = loads_if_json(data.get("input")), loads_if_json(data.get("output"))
        step.input = message_text(inputs) if inputs else None
        step.output = message_text(outputs) if outputs else None
        step.meta["user"] = first_of_role(inputs, "user")
        step.meta["system"] = first_of_role(inputs, "system")
        calls = []
        for m in outputs if isinstance(outputs, list) else []:
            for c in (m.get("tool_calls") or []) if isinstance(m, Mapping) else []:
                fn = c.get("function") if isinstance(c, Mapping) else None
                if isinstance(fn, Mapping):
                    calls.append({"name": fn.get("name"), "arguments": fn.get("arguments")})
            if isinstance(m, Mapping) and m.get("type") == "function_call":
                calls.append({"name": m.get("name"), "arguments": m.get("arguments")})
        step.tool_calls = calls
        if not step.output and calls:
            step.output = planned_calls(calls)
        if kind == "response":
            step.meta["response_id"] = data.get("response_id")
    elif kind == "handoff":
        step.kind = "handoff"
        step.meta = {"from_agent": data.get("from_agent"), "to_agent": data.get("to_agent")}
    elif kind == "guardrail":
        step.kind = "guardrail"
        step.meta = {"name": data.get("name"), "triggered": bool(data.get("triggered"))}
    else:
        return None
    return step


def _draft(key: str, trace: Mapping[str, Any], spans: list[tuple[str, Mapping[str, Any]]]
           ) -> Draft:
    d = Draft(run_id=key, source=NAME, trace_id=key)
    d.agent_id = str(trace.get("workflow_name") or "")
    d.conversation_id = string(trace.get("group_id"))
    agents = []
    times = []
    for order, (path, span) in enumerate(spans):
        step = _step(span, order, path)
        data = span.get("span_data") or {}
        if data.get("type") == "agent":
            agents.append((epoch(span.get("started_at")) or 0.0, span, data))
        if step is not None:
            d.steps.append(step)
        for t in (span.get("started_at"), span.get("ended_at")):
            if t:
                times.append(epoch(t) or 0.0)
    agents.sort(key=lambda a: a[0])
    if agents:
        _, top_span, top = agents[0]
        d.agent_id = d.agent_id or str(top.get("name") or "")
        tools = top.get("tools")
        d.tools = sorted(str(t) for t in tools) if isinstance(tools, list) else []
        top_error = top_span.get("error")
        if top_error and not top_span.get("parent_id"):
            d.errored = True
            d.error = string(top_error.get("message")) if isinstance(
                top_error, Mapping) else text(top_error)
            d.error_type = "AgentError"
    if times:
        d.start, d.end = min(times), max(times)
    llm = [s for s in d.steps if s.kind == "llm"]
    d.goal = next((str(s.meta["user"]) for s in llm if s.meta.get("user")), "")
    d.system_prompt = next((str(s.meta["system"]) for s in llm if s.meta.get("system")), None)
    final = [s for s in llm if s.output]
    d.output = final[-1].output if final else None
    for s in llm:
        s.meta = {"response_id": s.meta["response_id"]} if s.meta.get("response_id") else {}
    return d
