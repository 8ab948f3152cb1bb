"""OpenTelemetry spans (GenAI conventions, old and new names, OpenInference, Traceloop,
Langfuse attributes) to run drafts. Shared by the OTLP and OpenInference readers, which
differ only in how spans are encoded."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._exceptions import TraceFormatError
from ._common import (
    Draft,
    Step,
    first,
    first_of_role,
    held_calls,
    integer,
    loads_if_json,
    message_calls,
    message_text,
    model_reply,
    number,
    planned_calls,
    request_messages,
    string,
    text,
    unwrap_calls,
    unwrap_single,
)

ERROR = 2  # status code


@dataclass
class OtelSpan:
    """A span decoded from any encoding: ids in hex, times in epoch seconds."""

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    start: float | None
    end: float | None
    attributes: dict[str, Any] = field(default_factory=dict)
    events: list[tuple[str, float | None, dict[str, Any]]] = field(default_factory=list)
    status_code: int = 0
    status_message: str = ""
    resource: dict[str, Any] = field(default_factory=dict)


def flatten(attrs: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted keys from nested mappings (Phoenix nests ``llm.model_name`` as
    ``{"llm": {"model_name": …}}``); lists stay values."""
    out: dict[str, Any] = {}
    for key, value in attrs.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value and not name.endswith(("messages", "metadata")):
            out.update(flatten(value, f"{name}."))
        else:
            out[name] = value
    return out


def indexed(attrs: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """``prefix.{i}.rest = v`` attributes as a list of ``{rest: v}`` ordered by i."""
    found: dict[int, dict[str, Any]] = {}
    head = prefix + "."
    for key, value in attrs.items():
        if key.startswith(head):
            index, _, rest = key[len(head):].partition(".")
            if index.isdigit() and rest:
                found.setdefault(int(index), {})[rest] = value
    listed = attrs.get(prefix)
    if not found and isinstance(listed, list):
        return [flatten(x) if isinstance(x, Mapping) else {"content": x} for x in listed]
    return [found[i] for i in sorted(found)]


_OPERATION_KIND = {
    "chat": "llm", "text_completion": "llm", "generate_content": "llm", "completion": "llm",
    "execute_tool": "tool", "retrieval": "retrieval", "invoke_agent": "agent",
    "create_agent": "agent", "invoke_workflow": "chain", "embeddings": "other",
}
_OPENINFERENCE_KIND = {
    "LLM": "llm", "TOOL": "tool", "RETRIEVER": "retrieval", "AGENT": "agent",
    "CHAIN": "chain", "GUARDRAIL": "guardrail", "EMBEDDING": "other", "RERANKER": "other",
    "EVALUATOR": "other", "PROMPT": "other",
}
_LANGFUSE_KIND = {
    "generation": "llm", "tool": "tool", "retriever": "retrieval", "agent": "agent",
    "chain": "chain", "guardrail": "guardrail", "embedding": "other", "event": "other",
    "span": "other", "evaluator": "other",
}
_TRACELOOP_KIND = {"tool": "tool", "agent": "agent", "workflow": "chain", "task": "chain"}
_LANGSMITH_KIND = {"llm": "llm", "tool": "tool", "retriever": "retrieval", "chain": "chain",
                   "prompt": "other", "parser": "other", "embedding": "other"}
_MODEL_KEYS = ("langfuse.observation.model.name", "gen_ai.response.model", "gen_ai.request.model",
               "llm.response.model", "llm.model_name", "model")


def classify(attrs: Mapping[str, Any]) -> str:
    """The step kind of a span, in Langfuse's ObservationTypeMapper order (first wins)."""
    lf = str(attrs.get("langfuse.observation.type") or "").lower()
    if lf in _LANGFUSE_KIND:
        return _LANGFUSE_KIND[lf]
    oi = str(attrs.get("openinference.span.kind") or "").upper()
    if oi in _OPENINFERENCE_KIND:
        return _OPENINFERENCE_KIND[oi]
    op = str(attrs.get("gen_ai.operation.name") or "").lower()
    if op in _OPERATION_KIND:
        return _OPERATION_KIND[op]
    tl = str(attrs.get("traceloop.span.kind") or "").lower()
    if tl in _TRACELOOP_KIND:
        return _TRACELOOP_KIND[tl]
    ls = str(attrs.get("langsmith.span.kind") or "").lower()
    if ls in _LANGSMITH_KIND:
        return _LANGSMITH_KIND[ls]
    genkit = str(attrs.get("genkit:metadata:subtype") or "").lower()
    if genkit in ("model", "tool"):
        return "llm" if genkit == "model" else "tool"
    if any(attrs.get(k) for k in ("gen_ai.tool.name", "gen_ai.tool.call.id", "ai.toolCall.name")):
        return "tool"
    if any(attrs.get(k) for k in _MODEL_KEYS):
        return "llm"
    return "other"


def _messages(attrs: Mapping[str, Any], events: Sequence[tuple[str, float | None,
              dict[str, Any]]], side: str) -> list[dict[str, Any]]:
    """Chat messages of one side (``input``/``output``) as ``{role, content, …}`` dicts,
    from whichever convention the span used."""
    structured = loads_if_json(attrs.get(f"gen_ai.{side}.messages"))
    if structured is None:
        for name, _, ev in events:
            if name == "gen_ai.client.inference.operation.details":
                structured = loads_if_json(ev.get(f"gen_ai.{side}.messages"))
    if isinstance(structured, list):
        return [m if isinstance(m, dict) else {"content": m} for m in structured]
    if side == "input":  # the Vercel AI SDK's prompt; Google ADK's and Genkit's request;
        # pydantic-ai's agent run (its whole conversation)
        asked = request_messages(first(attrs.get("ai.prompt.messages"), attrs.get("ai.prompt"),
                                       attrs.get("gcp.vertex.agent.llm_request"),
                                       attrs.get("genkit:input"),
                                       attrs.get("pydantic_ai.all_messages")))
        if asked:
            return [m if isinstance(m, dict) else {"content": m} for m in asked]
    else:
        said, calls = attrs.get("ai.response.text"), loads_if_json(attrs.get(
            "ai.response.toolCalls"))
        if said is not None or isinstance(calls, list):
            return [{"role": "assistant", "content": said or "", "tool_calls": [
                c for m in (calls if isinstance(calls, list) else []) if isinstance(m, Mapping)
                for c in message_calls(m)]}]
    oi = "llm.input_messages" if side == "input" else "llm.output_messages"
    rows = indexed(attrs, oi)
    if rows:
        out = []
        for row in rows:
            content = row.get("message.content")
            if content is None:
                parts = indexed(row, "message.contents")
                content = "\n".join(str(p.get("message_content.text", "")) for p in parts
                                    if p.get("message_content.text"))
            calls = [{"name": c.get("tool_call.function.name"),
                      "arguments": loads_if_json(c.get("tool_call.function.arguments")),
                      "id": c.get("tool_call.id")}
                     for c in indexed(row, "message.tool_calls")]
            out.append({"role": row.get("message.role", ""), "content": content or "",
                        "tool_calls": calls})
        return out
    legacy = "gen_ai.prompt" if side == "input" else "gen_ai.completion"
    rows = indexed(attrs, legacy)
    if rows:
        return [{"role": r.get("role", ""), "content": r.get("content", ""),
                 "finish_reason": r.get("finish_reason")} for r in rows]
    flat = attrs.get(legacy)  # LangSmith's exporter: one JSON blob
    if flat is not None:
        parsed = loads_if_json(flat)
        if isinstance(parsed, list):
            return [m if isinstance(m, dict) else {"content": m} for m in parsed]
        if isinstance(parsed, Mapping):
            inner = parsed.get("messages") or parsed.get("choices")
            if isinstance(inner, list):
                return [m if isinstance(m, dict) else {"content": m} for m in inner]
        return [{"role": "", "content": text(parsed)}]
    names = (("gen_ai.system.message", "system"), ("gen_ai.user.message", "user"),
             ("gen_ai.assistant.message", "assistant"), ("gen_ai.tool.message", "tool"))
    out = []
    for name, _, ev in events:
        if name == ("gen_ai.content.prompt" if side == "input" else "gen_ai.content.completion"):
            # OpenLit: the whole side as one text ("user: …" lines) in one event
            out.append({"role": "user" if side == "input" else "assistant",
                        "content": message_text(loads_if_json(ev.get(legacy)))})
        elif side == "input":
            role = dict(names).get(name)
            if role:
                content = message_text(loads_if_json(ev.get("content")))
                out.append({"role": role, "content": content})
        elif name == "gen_ai.choice":
            msg = loads_if_json(ev.get("message"))
            out.append({"role": "assistant", "content": message_text(msg),
                        "finish_reason": ev.get("finish_reason")})
    return out


def _logged_events(attrs: Mapping[str, Any]) -> list[tuple[str, float | None, dict[str, Any]]]:
    """Logfire and pydantic-ai before 0.3 log a model call's GenAI events as one
    attribute, ``events``: a JSON list of event bodies named by ``event.name``."""
    logged = loads_if_json(attrs.get("events"))
    if not isinstance(logged, list):
        return []
    return [(str(e["event.name"]), None, dict(e)) for e in logged
            if isinstance(e, Mapping) and e.get("event.name")]


def _error(span: OtelSpan) -> tuple[str | None, str | None]:
    """(message, type) when the span failed: status ERROR, else a Langfuse ERROR level."""
    attrs = span.attributes
    failed = span.status_code == ERROR or str(attrs.get("langfuse.observation.level", "")
                                                   ).upper() == "ERROR"
    if not failed:
        return None, None
    message, kind = span.status_message or None, attrs.get("error.type")
    for name, _, ev in span.events:
        if name == "exception":
            message = message or string(ev.get("exception.message"))
            kind = kind or ev.get("exception.type")
    message = message or string(attrs.get("langfuse.observation.status_message")) or "error"
    return message, string(kind)


def _step(span: OtelSpan, kind: str, order: int) -> Step:
    a = span.attributes
    step = Step(kind=kind, name=span.name, step_id=span.span_id, start=span.start,
                end=span.end, order=order)
    step.error, step.error_type = _error(span)
    if kind == "llm":
        events = span.events + _logged_events(a)
        ins, outs = _messages(a, events, "input"), _messages(a, events, "output")
        step.model = string(first(*(a.get(k) for k in _MODEL_KEYS)))
        step.prompt_tokens = integer(first(a.get("gen_ai.usage.input_tokens"),
                                           a.get("gen_ai.usage.prompt_tokens"),
                                           a.get("llm.token_count.prompt"),
                                           a.get("ai.usage.inputTokens"),
                                           a.get("ai.usage.promptTokens")))
        step.completion_tokens = integer(first(a.get("gen_ai.usage.output_tokens"),
                                               a.get("gen_ai.usage.completion_tokens"),
                                               a.get("llm.token_count.completion"),
                                               a.get("ai.usage.outputTokens"),
                                               a.get("ai.usage.completionTokens")))
        step.reasoning_tokens = integer(first(
            a.get("gen_ai.usage.reasoning.output_tokens"),
            a.get("llm.token_count.completion_details.reasoning")))
        step.cost_usd = number(first(a.get("llm.cost.total"), a.get("gen_ai.usage.cost")))
        reasons = loads_if_json(a.get("gen_ai.response.finish_reasons"))
        step.finish_reason = string(first(
            reasons[0] if isinstance(reasons, list) and reasons else reasons,
            *(m.get("finish_reason") for m in outs)))
        asked = first(a.get("input.value"), a.get("traceloop.entity.input"),
                      a.get("langfuse.observation.input"))
        step.input = "\n".join(t for t in (message_text(m) for m in ins) if t) or message_text(
            request_messages(asked)) or string(asked)
        said = "\n".join(t for t in (message_text(m) for m in outs) if t)
        step.tool_calls = [c for m in outs for c in message_calls(m)]
        raw = first(a.get("output.value"), a.get("traceloop.entity.output"),
                    a.get("langfuse.observation.output"), a.get("gcp.vertex.agent.llm_response"),
                    a.get("genkit:output"))
        completion = None if said or step.tool_calls else model_reply(raw)
        if completion is not None:
            said, step.tool_calls, reason = completion
            step.finish_reason = step.finish_reason or reason
        # A turn that only calls tools reads name(args), never the raw response JSON.
        step.output = said or planned_calls(step.tool_calls) or string(raw)
        step.meta["user"] = first_of_role(ins, "user")
        step.meta["system"] = string(_system_text(a)) or first_of_role(ins, "system")
    elif kind == "tool":
        step.name = string(first(a.get("gen_ai.tool.name"), a.get("tool.name"),
                                 a.get("ai.toolCall.name"), a.get("traceloop.entity.name"),
                                 a.get("genkit:name"))
                           ) or re.sub(r"^execute_tool\s+", "", span.name) or span.name
        step.input = loads_if_json(first(*(a.get(k) for k in _TOOL_ARGS)))
        step.output = first(*(a.get(k) for k in _TOOL_RESULT))
    elif kind == "retrieval":
        step.name = string(first(a.get("gen_ai.data_source.id"), span.name)) or "retrieval"
        step.input = first(a.get("gen_ai.retrieval.query.text"), a.get("input.value"),
                           a.get("langfuse.observation.input"))
        docs = indexed(a, "retrieval.documents")
        if docs:
            step.output = "\n".join(str(d.get("document.content", "")) for d in docs)
            step.result_count = len(docs)
            scores = [number(d.get("document.score")) for d in docs]
            step.top_score = max((s for s in scores if s is not None), default=None)
        else:
            step.output = first(a.get("output.value"), a.get("langfuse.observation.output"))
    elif kind in ("handoff", "guardrail"):
        step.meta = {"name": span.name}
    return step


# Where each instrumentation puts a tool call's arguments and result: GenAI, OpenInference,
# Traceloop, Langfuse, the Vercel AI SDK (v4 and v5 names), pydantic-ai, Google ADK, Genkit.
_TOOL_ARGS = ("gen_ai.tool.call.arguments", "input.value", "traceloop.entity.input",
              "langfuse.observation.input", "ai.toolCall.args", "ai.toolCall.input",
              "tool_arguments", "gcp.vertex.agent.tool_call_args", "genkit:input")
_TOOL_RESULT = ("gen_ai.tool.call.result", "output.value", "traceloop.entity.output",
                "langfuse.observation.output", "ai.toolCall.result", "ai.toolCall.output",
                "tool_response", "gcp.vertex.agent.tool_response", "genkit:output")


def _system_text(attrs: Mapping[str, Any]) -> str | None:
    value = loads_if_json(attrs.get("gen_ai.system_instructions"))
    if value is None:
        return None
    return message_text(value) if not isinstance(value, str) else value


_SESSION_KEYS = ("langfuse.session.id", "session.id", "gen_ai.conversation.id",
                 "langfuse.trace.metadata.langfuse_session_id", "ai.telemetry.metadata.sessionId")


def draft_from_spans(spans: Sequence[OtelSpan], source: str, *, complete: bool) -> Draft:
    """One run from the spans of one trace. With ``complete=False`` (one OTLP request of
    a trace that may go on in later requests) the run is opened and closed only by the
    real root span; with ``complete=True`` (a whole file) a missing root is made up from
    the earliest and latest spans."""
    ordered = sorted(spans, key=lambda s: (s.start is None, s.start or 0.0))
    ids = {s.span_id for s in ordered}
    roots = [s for s in ordered if not s.parent_id]
    top = roots[0] if roots else next((s for s in ordered if s.parent_id not in ids), None)
    trace_id = ordered[0].trace_id
    draft = Draft(run_id=trace_id, source=source, trace_id=trace_id)
    draft.started = draft.complete = bool(roots) or complete
    # Without the root this is an early part of a trace whose later parts are still to
    # come: its steps cannot know their global number, so they all take step 0, which
    # sorts them (by time) after run.started and before the steps of the request that
    # brings the root. Run.from_events assembles the whole run from its parts.
    draft.numbered = draft.started
    kinds = {s.span_id: classify(s.attributes) for s in ordered}
    # Two instrumentations on one call (a framework's and the provider SDK's) nest two
    # model spans for it: one step.
    wrapped = held_calls({s.span_id: s.parent_id or "" for s in ordered},
                         {s.span_id for s in ordered if kinds[s.span_id] == "llm"})
    for i, s in enumerate(ordered):
        kind = kinds[s.span_id]
        if kind in ("llm", "tool", "retrieval", "handoff", "guardrail") and s is not top:
            draft.steps.append(_step(s, kind, i))
        if kind == "agent" and not draft.tools:
            defs = loads_if_json(s.attributes.get("gen_ai.tool.definitions"))
            if isinstance(defs, list):
                draft.tools = sorted({str(d.get("name") or (d.get("function") or {}).get("name"))
                                      for d in defs if isinstance(d, Mapping)} - {"None"})
    everything = ([top] if top else []) + [s for s in ordered if s is not top]
    for s in everything:
        a = s.attributes
        draft.conversation_id = draft.conversation_id or string(
            first(*(a.get(k) for k in _SESSION_KEYS)))
    if top is not None:
        a = top.attributes
        draft.agent_id = string(first(
            a.get("gen_ai.agent.name"), a.get("agent.name"), a.get("gen_ai.workflow.name"),
            a.get("traceloop.workflow.name"), a.get("traceloop.entity.name"),
            top.resource.get("service.name"), top.name)) or ""
        draft.start, draft.end = top.start, top.end
        draft.system_prompt = _system_text(a)
        draft.model = string(first(a.get("gen_ai.request.model"), a.get("llm.model_name")))
        goal = first(a.get("input.value"), a.get("traceloop.entity.input"),
                     a.get("langfuse.trace.input"), a.get("langfuse.observation.input"))
        if goal is None:
            goal = first_of_role(_messages(a, top.events, "input"), "user")
        asked = loads_if_json(goal)  # often the JSON of a request or a function's arguments
        if isinstance(asked, (list, Mapping)):
            goal = first(first_of_role(request_messages(asked), "user"), unwrap_single(asked))
        draft.goal = goal if isinstance(goal, str) else message_text(goal) or text(goal)
        out = first(a.get("output.value"), a.get("traceloop.entity.output"),
                    a.get("langfuse.trace.output"), a.get("langfuse.observation.output"),
                    a.get("final_result"))
        if out is None:
            out = "\n".join(message_text(m) for m in _messages(a, top.events, "output")) or None
        draft.output = out
        failure, failure_type = _error(top)
        if failure is not None:
            draft.errored, draft.error, draft.error_type = True, failure, failure_type
        top_kind = kinds[top.span_id]
        if top_kind in ("llm", "tool", "retrieval"):
            # A trace that is a single model or tool call: the call is also the step.
            draft.steps.insert(0, _step(top, top_kind, -1))
    else:
        draft.agent_id = str(ordered[0].resource.get("service.name") or "")
    draft.steps = unwrap_calls(draft.steps, wrapped)
    llm_steps = [step for step in draft.steps if step.kind == "llm"]
    if not draft.goal:
        draft.goal = next((str(step.meta["user"]) for step in llm_steps
                           if step.meta.get("user")), "")
    if not draft.system_prompt:
        draft.system_prompt = next((str(step.meta["system"]) for step in llm_steps
                                    if step.meta.get("system")), None)
    if draft.numbered:  # a part keeps them for the run's assembly (build_run)
        for step in llm_steps:
            step.meta.clear()
    return draft


def decode_id(value: str, size: int) -> str | None:
    """``value`` as ``size`` hex digits when it is that (any case, ``0x`` allowed), or
    base64 of that many bytes (some exporters send OTLP JSON ids so); else None."""
    bare = value[2:] if value[:2].lower() == "0x" else value
    if len(bare) == size and all(c in "0123456789abcdef" for c in bare.lower()):
        return bare.lower()
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw.hex() if len(raw) * 2 == size else None


def mapped_id(value: str, size: int) -> str:
    """``size`` hex digits for any id: itself when it is hex or base64 (:func:`decode_id`),
    a dashed UUID without its dashes, else the first digits of its SHA-256. The same id
    always maps the same way, so parents still find their children."""
    found = decode_id(value, size) or decode_id(value.replace("-", ""), size)
    return found or hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:size]


def check_hex(value: str, size: int, field_name: str) -> str:
    if len(value) != size or any(c not in "0123456789abcdef" for c in value.lower()):
        raise TraceFormatError(f"not a {size}-hex-digit id: {value!r}", field=field_name)
    return value.lower()
