"""Each event type's payload, declared once: field names, kinds, units, bounds, defaults.

The SDK (``sdk/_records.py``: which texts it cuts), the importers
(``ingest/formats/_common.py``: every payload through :func:`make`) and the detectors
(``detect/_view.py``: what an absent field means) write and read these fields; ingest
bounds the numbers by :data:`RANGES`; ``docs/events.md`` documents exactly this table (a
test keeps both the docs and the producers to it). Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["CUT_FIELDS", "CUT_SUFFIXES", "FIELDS", "PAYLOADS", "RANGES", "Field", "conforms",
           "default", "make"]

_MAX_TOKENS = 10**9  # no single call reads or writes a billion tokens
_MAX_COUNT = 2**31 - 1

#: Kinds of value, as docs/events.md names them, and what each admits.
_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "list of strings": (list,), "list of objects": (list,), "object": (dict,),
    "any": (object,),
}


@dataclass(frozen=True)
class Field:
    """One payload field: its kind (a key of ``_KINDS``), unit, bounds and meaning.

    ``default``: what the field means when it is absent (readers take it; an importer
    writes it for a value it does not have). ``cut``: a text the SDK cuts to
    ``max_field_chars`` (:data:`CUT_SUFFIXES` beside it).
    """

    name: str
    kind: str
    doc: str
    unit: str = ""
    range: tuple[float, float] | None = None
    required: bool = False
    default: Any = None
    cut: bool = False


def _tokens(name: str, doc: str) -> Field:
    return Field(name, "integer", doc, "tokens", (0, _MAX_TOKENS))


_LATENCY = Field("latency_ms", "number", "time from call to response", "ms",
                 (-1e12, 1e12))  # a skewed clock may give a slightly negative latency
def _output(doc: str, default: str | None = None) -> Field:
    return Field("output", "string", doc, default=default, cut=True)


_OUTPUT_LENGTH = Field("output_length", "integer", "length of the whole output, before any "
                       "cut", "characters", (0, 2**53))
_ERROR = Field("error", "string", "the error message, when the call failed", cut=True)
_TOOL = Field("tool_name", "string", "the tool's name", required=True, default="tool")
_INDEX = Field("index_name", "string", "the index or retriever searched", required=True,
               default="retrieval")
_MEMORY_KEY = Field("key", "string", "the memory entry's key", required=True)
_POLICY = Field("policy_name", "string", "the policy's name", required=True)
_REQUEST = Field("request_id", "string", "the approval request's id", required=True)
_MODEL = Field("model", "string", "the model's name")

#: Event type → its payload's fields. Types not listed (Dunetrace's memory.* and voice
#: events) are accepted with any payload.
PAYLOADS: Mapping[str, tuple[Field, ...]] = {
    "run.started": (
        Field("input_text", "string", "the user's request: the run's goal", cut=True),
        Field("system_prompt", "string", "the agent's system prompt", cut=True),
        _MODEL,
        Field("tools", "list of strings", "names of the tools the agent may call"),
        Field("source_format", "string", "the importer that made the run (imports only)"),
    ),
    "run.completed": (
        Field("total_steps", "integer", "steps in the run", "steps", (0, _MAX_COUNT)),
        Field("tool_call_count", "integer", "tool calls in the run", "calls", (0, _MAX_COUNT)),
        Field("exit_reason", "string", "why the run ended: final_answer, completed, or the "
              "agent's own word", default="completed"),
        _output("the run's final answer"),
    ),
    "run.errored": (
        Field("error_type", "string", "the exception's class name", required=True,
              default="Error"),
        Field("error", "string", "the error message", default="", cut=True),
        Field("step_index", "integer", "the step the run failed in", "steps", (0, _MAX_COUNT)),
        Field("exit_reason", "string", "error, or policy_violation when a policy stopped the run",
              default="error"),
        Field("policy_name", "string", "the policy that stopped the run"),
    ),
    "llm.called": (
        _MODEL,
        _tokens("prompt_tokens", "tokens sent to the model"),
        Field("prompt", "string", "the text sent (messages joined by newlines)", cut=True),
        Field("name", "string", "the span's name (imports only)"),
        Field("run_part", "object", "what a step that came without its run's root knows of "
              "the run ({input_text, system_prompt}); dropped when the run is assembled"),
    ),
    "llm.responded": (
        _MODEL,
        _tokens("completion_tokens", "tokens the model wrote, visible or not"),
        _tokens("prompt_tokens", "tokens sent to the model"),
        _tokens("reasoning_tokens", "of the completion tokens, those spent on hidden "
                "reasoning"),
        _LATENCY,
        Field("finish_reason", "string", "stop, length, tool_calls, error…"),
        _output("the model's text; name(args) per line for a turn that only calls tools"),
        _OUTPUT_LENGTH,
        _ERROR,
        Field("cost_usd", "number", "what the call cost", "USD", (0, 1e6)),
        Field("tool_calls", "list of objects", "calls the model planned: {name, arguments}"),
    ),
    "tool.called": (
        _TOOL,
        Field("args", "string", "the arguments, as JSON text (or the agent's own string)",
              default="{}", cut=True),
    ),
    "tool.responded": (
        _TOOL,
        Field("success", "boolean", "false when the tool failed"),
        _output("what the tool returned", default=""),
        _OUTPUT_LENGTH,
        _LATENCY,
        _ERROR,
        Field("error_type", "string", "the exception's class name, when the tool failed"),
    ),
    "retrieval.called": (
        _INDEX,
        Field("query", "string", "the search query", default="", cut=True),
    ),
    "retrieval.responded": (
        _INDEX,
        Field("result_count", "integer", "documents returned", "documents", (0, _MAX_COUNT)),
        Field("top_score", "number", "the best document's score (the retriever's scale)",
              range=(-1e12, 1e12)),
        _LATENCY,
        Field("content", "string", "the documents' text, joined", default="", cut=True),
        _ERROR,
    ),
    "external.signal": (
        Field("signal_name", "string", "what happened: handoff, guardrail, or the agent's "
              "own name", required=True),
        Field("source", "string", "who reported it"),
        Field("meta", "object", "anything else the agent attached (secrets redacted)"),
    ),
    "policy.triggered": (
        _POLICY,
        Field("trigger", "string", "the measure the policy watches (tool_calls, cost_usd…)"),
        Field("operator", "string", "how it compares: >, >=, ==, in…"),
        Field("value", "any", "the policy's threshold"),
        Field("observed", "any", "the value that fired it"),
        Field("action", "string", "log, stop, switch_model, inject_prompt, require_approval"),
        Field("priority", "integer", "the policy's priority"),
        Field("message", "string", "the policy's message"),
        _MODEL,
        Field("tool_name", "string", "the tool whose call fired it"),
    ),
    "policy.evaluated": (  # Dunetrace's evaluation record (policy_evaluation_reporting)
        _POLICY,
        Field("observed", "any", "the value compared"),
        Field("policy_id", "integer", "the remote policy's id (none for a local policy)"),
        Field("trigger", "string", "the policy's trigger"),
        Field("trigger_matched", "boolean", "whether the trigger's condition held"),
        Field("fired", "boolean", "whether the policy fired (trigger and match held)"),
        Field("conditions", "list of objects", "each match test: field_path, operator, "
              "expected, actual, result, present"),
        Field("reason", "string", "why it fired or did not"),
        Field("sampled", "boolean", "kept by sampling, past the SDK's 100 a minute"),
        Field("ts", "number", "when it was evaluated", "s"),
        Field("agent_id", "string", "the agent"),
        Field("run_id", "string", "the run"),
        Field("policy_bundle_stale", "boolean", "the SDK's remote policies were overdue"),
        Field("policy_bundle_age_s", "number", "age of the SDK's remote policies", "s"),
        Field("detector_config_stale", "boolean", "the SDK's detector config was overdue"),
        Field("detector_config_age_s", "number", "age of the SDK's detector config", "s"),
    ),
    "approval.requested": (
        _REQUEST, _POLICY,
        Field("observed", "any", "the value that asked for approval"),
        Field("timeout_s", "number", "how long the agent waits for an answer", "s"),
        Field("tool_name", "string", "the tool about to be called"),
        Field("args", "any", "its arguments"),
    ),
    "approval.granted": (_REQUEST, _POLICY),
    "approval.denied": (
        _REQUEST, _POLICY,
        Field("reason", "string", "denied, or why the approver could not answer"),
    ),
    "approval.timeout": (_REQUEST, _POLICY),
    # Dunetrace's memory channel: the key always; a write adds its value and its origin.
    "memory.written": (
        _MEMORY_KEY,
        Field("value", "string", "what was stored", default="", cut=True),
        Field("source", "string", "where the value came from: user, retrieval, tool_output, "
              "external…"),
    ),
    "memory.read": (_MEMORY_KEY,),
    "memory.cleared": (_MEMORY_KEY,),
}

#: A text field cut to the SDK's ``max_field_chars`` comes with these two beside it.
CUT_SUFFIXES = (("_truncated", "boolean"), ("_original_length", "integer"))

#: The names of the texts the SDK cuts, in the table's order: cut wherever they appear.
CUT_FIELDS: tuple[str, ...] = tuple(dict.fromkeys(
    f.name for fields in PAYLOADS.values() for f in fields if f.cut))

#: Event type → field name → :class:`Field`.
FIELDS: Mapping[str, Mapping[str, Field]] = {
    event_type: {f.name: f for f in fields} for event_type, fields in PAYLOADS.items()}


def default(event_type: str, name: str) -> Any:
    """What field ``name`` of an ``event_type`` payload means when it is absent."""
    return FIELDS[event_type][name].default


def make(event_type: str, /, **values: Any) -> dict[str, Any]:
    """The payload of one ``event_type`` event: a value given as ``None`` takes its field's
    default, and is left out when there is none. A name the table does not declare for
    ``event_type`` is a bug in the writer: ``KeyError``."""
    if not values.keys() <= FIELDS[event_type].keys():
        unknown = ", ".join(sorted(values.keys() - FIELDS[event_type].keys()))
        raise KeyError(f"{unknown} not a field of {event_type}")
    defaults = _DEFAULTS[event_type]
    return {name: defaults[name] if value is None else value
            for name, value in values.items() if value is not None or name in defaults}


# Event type → the defaults of those of its fields that have one.
_DEFAULTS: Mapping[str, Mapping[str, Any]] = {
    event_type: {f.name: f.default for f in fields if f.default is not None}
    for event_type, fields in PAYLOADS.items()}


#: Numeric field → the range a real value falls in (ingest refuses a number outside it).
RANGES: Mapping[str, tuple[float, float]] = {
    f.name: f.range for fields in PAYLOADS.values() for f in fields if f.range is not None
}


def conforms(event_type: str, payload: Mapping[str, Any]) -> list[str]:
    """What in ``payload`` the table does not allow: unknown fields, wrong kinds, missing
    required ones (empty when it conforms). For tests and tools, not the ingest path."""
    fields = PAYLOADS.get(event_type)
    if fields is None:
        return []
    kinds = {f.name: f.kind for f in fields}
    for f in fields:
        for suffix, kind in CUT_SUFFIXES:
            kinds[f.name + suffix] = kind
    problems = [f"{f.name} is missing" for f in fields if f.required and f.name not in payload]
    for name, value in payload.items():
        if name not in kinds:
            problems.append(f"{name} is not a field of {event_type}")
        elif value is not None and (not isinstance(value, _KINDS[kinds[name]]) or (
                isinstance(value, bool) and kinds[name] in ("integer", "number"))):
            problems.append(f"{name} is {type(value).__name__}, not {kinds[name]}")
    return problems
