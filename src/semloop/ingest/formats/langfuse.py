"""Langfuse traces: ``GET /api/public/traces/{id}`` bodies (``TraceWithFullDetails`` with
``observations``), a list of them or ``{"data": [...]}``, the UI's download of a trace
(``{"trace", "observations"}``), or bare observations (the v2 observations API, or one per
line) grouped by ``traceId``.

Steps are GENERATION (model call), TOOL and RETRIEVER observations, and the SPAN
observations that are tool calls Langfuse did not type, in ``startTime`` order; an
observation with ``level`` ERROR failed with ``statusMessage``.
"""

from __future__ import annotations

import json
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
    held_calls,
    integer,
    loads_if_json,
    mapping,
    message_text,
    model_reply,
    number,
    planned_calls,
    records,
    reject,
    request_messages,
    string,
    text,
    unwrap_calls,
    unwrap_single,
)

__all__ = ["convert", "read"]

NAME = "langfuse"
_KINDS = {"GENERATION": "llm", "TOOL": "tool", "RETRIEVER": "retrieval",
          "GUARDRAIL": "guardrail"}


def read(data: bytes | str) -> list[Run]:
    """Runs from a Langfuse export; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<langfuse>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    loose: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    where: dict[str, tuple[int | None, str]] = {}
    for line, path, raw in records(data, source, result, unwrap=("data", "traces")):
        if isinstance(raw, Mapping) and "observations" in raw:
            # The UI's "download trace" export: {"trace": {…}, "observations": [...]}.
            trace = raw["trace"] if isinstance(raw.get("trace"), Mapping) else raw
            try:
                result.runs.append(build_run(_draft(trace, raw.get("observations")),
                                             clock=clock))
            except SHAPE_ERRORS as exc:
                reject(result, exc, source, line, path)
        elif isinstance(raw, Mapping) and raw.get("traceId") and raw.get("type"):
            key = str(raw["traceId"])
            loose.setdefault(key, []).append((path, raw))
            where.setdefault(key, (line, path))
        else:
            reject(result, TraceFormatError(
                "not a Langfuse trace (no observations) or observation (no traceId/type)"),
                source, line, path)
    for key, observations in loose.items():
        try:
            result.runs.append(build_run(_draft({"id": key}, [o for _, o in observations]),
                                         clock=clock))
        except SHAPE_ERRORS as exc:
            line, path = where[key]
            reject(result, exc, source, line, path)
    return result


def _value(value: Any) -> Any:
    """An input or output as stored: Langfuse keeps them as JSON text (a JSON string
    literal too, ``"\\"What is Langfuse?\\""``), parsed back."""
    if value == "None":  # a Python SDK's str(None)
        return None
    if isinstance(value, str) and value[:1] == '"':
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return value
    return loads_if_json(value)


def _io(value: Any) -> Any:
    # Generations hold chat messages ({role, content} or a list of them) or plain values.
    value = _value(value)
    if isinstance(value, Mapping) and ("content" in value or "role" in value):
        return message_text(value)
    if isinstance(value, list) and value and all(isinstance(m, Mapping) and "role" in m
                                                  for m in value):
        return message_text(value)
    return value


def _prompt(value: Any) -> Any:
    """The text of a generation's input: its request's messages, else the value."""
    messages = request_messages(_value(value))
    said = message_text(messages) if messages else ""
    return said or _io(value)


def _step(obs: Mapping[str, Any], kind: str, order: int, path: str) -> Step:
    failed = str(obs.get("level") or "").upper() == "ERROR"
    step = Step(kind=kind, name=str(obs.get("name") or ""), step_id=str(obs.get("id") or ""),
                order=order, error=(string(obs.get("statusMessage")) or "error")
                if failed else None)
    step.start = epoch(obs.get("startTime"), field_name=f"{path}.startTime")
    step.end = epoch(obs.get("endTime"), field_name=f"{path}.endTime")
    if kind == "llm":
        usage = obs.get("usageDetails") or obs.get("usage") or {}
        usage = mapping(usage)
        cost = mapping(obs.get("costDetails"))
        step.model = string(first(obs.get("model"), obs.get("providedModelName")))
        # usage objects of the v1/v2 APIs, else the flat totals every observation row has
        step.prompt_tokens = integer(first(usage.get("input"), usage.get("promptTokens"),
                                           usage.get("prompt_tokens"), usage.get("input_tokens"),
                                           obs.get("inputUsage") or None))
        step.completion_tokens = integer(first(usage.get("output"),
                                               usage.get("completionTokens"),
                                               usage.get("completion_tokens"),
                                               usage.get("output_tokens"),
                                               obs.get("outputUsage") or None))
        step.reasoning_tokens = integer(usage.get("output_reasoning_tokens"))
        step.cost_usd = number(first(cost.get("total"), obs.get("calculatedTotalCost"),
                                     obs.get("totalCost")))
        step.input = _prompt(obs.get("input"))
        reply = model_reply(_value(obs.get("output")))
        if reply is None:
            step.output = _io(obs.get("output"))
        else:
            said, step.tool_calls, step.finish_reason = reply
            step.output = said or planned_calls(step.tool_calls)
    elif kind == "tool":
        step.input, step.output = _value(obs.get("input")), _value(obs.get("output"))
    elif kind == "retrieval":
        step.input = unwrap_single(_value(obs.get("input")))
        out = _value(obs.get("output"))
        docs = out.get("documents") if isinstance(out, Mapping) else out
        if isinstance(docs, list):
            step.result_count = len(docs)
            step.output = "\n".join(message_text(d) or text(d) for d in docs)
        else:
            step.output = out
    else:
        step.meta = {"name": step.name}
    return step


def _tool_span(obs: Mapping[str, Any], planned: set[str]) -> str | None:
    """The tool a plain SPAN observation ran, when it is a tool call Langfuse did not type
    TOOL (LangGraph, Agno, Koog…): its OTel attributes name a tool, or its name is one a
    generation of the trace planned (``get_weather``, ``tool.get_weather``)."""
    if str(obs.get("type") or "").upper() != "SPAN" or (
            obs.get("input") is None and obs.get("output") is None):
        return None  # a span that holds neither arguments nor a result is no call
    attrs = mapping(mapping(_value(obs.get("metadata"))).get("attributes"))
    declared = string(first(attrs.get("gen_ai.tool.name"), attrs.get("tool.name")))
    if declared:
        return declared
    name = str(obs.get("name") or "")
    return next((p for p in planned if name == p or name.endswith((f".{p}", f" {p}"))), None)


def _wrapping_generations(obs: list[tuple[str, Mapping[str, Any]]]) -> dict[str, list[str]]:
    """Generations that hold other generations (the Vercel AI SDK's ``ai.generateText``
    around its ``doGenerate`` calls, Agno's ``invoke`` around the OpenAI call)."""
    return held_calls({str(o.get("id")): str(o.get("parentObservationId") or "")
                       for _, o in obs},
                      {str(o.get("id")) for _, o in obs
                       if str(o.get("type") or "").upper() == "GENERATION"})


def _draft(trace: Mapping[str, Any], observations: Any) -> Draft:
    if not isinstance(observations, list):
        raise TraceFormatError("must be a list of observations", field="observations")
    if not trace.get("id"):
        raise TraceFormatError("a trace needs an id", field="id")
    obs: list[tuple[str, Mapping[str, Any]]] = []
    for i, o in enumerate(observations):
        if not isinstance(o, Mapping):
            raise TraceFormatError("an observation must be an object",
                                   field=f"observations[{i}]")
        obs.append((f"observations[{i}]", o))
    starts = {path: epoch(o.get("startTime"), field_name=f"{path}.startTime") or 0.0
              for path, o in obs}
    obs.sort(key=lambda item: starts[item[0]])
    run_id = str(trace["id"])
    d = Draft(run_id=run_id, source=NAME, trace_id=run_id)
    ids = {str(o.get("id")) for _, o in obs}
    roots = [o for _, o in obs if not o.get("parentObservationId")
             or str(o["parentObservationId"]) not in ids]
    root = roots[0] if len(roots) == 1 and len(obs) > 1 else None
    for order, (path, o) in enumerate(obs):
        kind = _KINDS.get(str(o.get("type") or "").upper())
        if kind:  # a root that is itself a generation or tool call is a step too
            d.steps.append(_step(o, kind, order, path))
    d.steps = unwrap_calls(d.steps, _wrapping_generations(obs))
    planned = {str(c["name"]) for step in d.steps for c in step.tool_calls if c.get("name")}
    for order, (path, o) in enumerate(obs):
        name = _tool_span(o, planned)
        if name:
            step = _step(o, "tool", order, path)
            step.name = name
            d.steps.append(step)
    d.steps.sort(key=lambda step: step.order)
    d.agent_id = str(first(trace.get("name"), root.get("name") if root else None) or "")
    d.conversation_id = string(first(trace.get("sessionId"),
                                     *(o.get("sessionId") for _, o in obs)))
    d.start = epoch(first(trace.get("timestamp"), root.get("startTime") if root else None),
                    field_name="timestamp")
    d.end = epoch(root.get("endTime"), field_name="endTime") if root else None
    goal = _value(first(trace.get("input"), root.get("input") if root else None))
    if isinstance(goal, (list, Mapping)):
        goal = first(first_of_role(goal, "user"), unwrap_single(goal))
    d.goal = text(goal)
    gen_inputs = [_value(o.get("input")) for _, o in obs
                  if str(o.get("type")).upper() == "GENERATION"]
    if not d.goal and gen_inputs:
        d.goal = first_of_role(gen_inputs[0], "user") or ""
    d.system_prompt = first_of_role(gen_inputs[0], "system") if gen_inputs else None
    out = _value(first(trace.get("output"), root.get("output") if root else None))
    reply = model_reply(out)
    d.output = reply[0] if reply and reply[0] else _io(out)
    if root is not None and str(root.get("level") or "").upper() == "ERROR":
        d.errored, d.error = True, string(root.get("statusMessage")) or "error"
    return d
