"""The hot path's records and how the sender thread turns them into :class:`Event` objects.

A record is the tuple ``(event_type, run_info, step_index, timestamp, raw)`` that a
:class:`~semloop.sdk.RunContext` method appends to the buffer; ``raw`` holds the call's
arguments untouched. Everything costly (payload dicts, coercion to JSON-safe values,
key-name redaction, the caller's ``redact`` hook, event ids) happens here, on the sender
thread, so the agent pays for a tuple and a ``deque.append`` only.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._payloads import CUT_FIELDS, FIELDS
from ..events import Event

__all__ = [
    "CAPPED_FIELDS",
    "DEFAULT_MAX_FIELD_CHARS",
    "DEFAULT_SECRET_KEYS",
    "RECORD_OVERHEAD",
    "REDACTED",
    "Record",
    "RedactError",
    "RunInfo",
    "build_event",
    "json_safe",
    "measure",
    "secret_matcher",
]

#: Replaces the value of a secret-looking key in tool args and signal meta.
REDACTED = "[REDACTED]"

#: Key names whose values never leave the process. A key matches when, lower-cased and
#: stripped of everything but letters and digits, it equals or ends with one of these
#: (``OPENAI_API_KEY`` → ``openaiapikey`` ends with ``apikey``).
DEFAULT_SECRET_KEYS: tuple[str, ...] = (
    "password",
    "passwd",
    "passphrase",
    "secret",
    "apikey",
    "token",
    "authorization",
    "auth",
    "cookie",
    "privatekey",
    "credential",
    "credentials",
    "sessionid",
)

#: Text fields cut to ``max_field_chars`` (Dunetrace's default is 8192 too), with
#: ``<field>_truncated`` and ``<field>_original_length`` set beside a cut one: the payload
#: table's ``cut`` fields.
CAPPED_FIELDS = CUT_FIELDS
DEFAULT_MAX_FIELD_CHARS = 8192

#: What :func:`measure` counts per record beside its texts: the tuple, numbers, the run info.
RECORD_OVERHEAD = 200

# What each position of a record's raw tuple holds, by the payload table's names: the
# RunContext methods build the tuples in this order. (Policy and approval events carry
# their payload ready-made.) A trailing name may be missing from a tuple.
_RAW: dict[str, tuple[str, ...]] = {
    "run.started": ("input_text", "system_prompt", "model", "tools"),
    "run.completed": ("total_steps", "exit_reason", "tool_call_count"),
    "run.errored": ("error_type", "error", "step_index", "exit_reason", "policy_name"),
    "llm.called": ("model", "prompt_tokens", "prompt"),
    "llm.responded": ("completion_tokens", "reasoning_tokens", "latency_ms", "finish_reason",
                      "output", "output_length", "prompt_tokens", "error", "cost_usd"),
    "tool.called": ("tool_name", "args"),
    "tool.responded": ("tool_name", "success", "output_length", "latency_ms", "error",
                       "output"),
    "retrieval.called": ("index_name", "query"),
    "retrieval.responded": ("index_name", "result_count", "top_score", "latency_ms",
                            "content"),
    "external.signal": ("signal_name", "source", "meta"),
    "memory.written": ("key", "value", "source"),
    "memory.read": ("key",),
    "memory.cleared": ("key",),
}

# Where each event type's raw tuple holds a text the table cuts (measure cuts it early).
_CAPPED_AT: dict[str, tuple[int, ...]] = {
    event_type: at for event_type, names in _RAW.items()
    if (at := tuple(i for i, name in enumerate(names) if FIELDS[event_type][name].cut))
}


class Cut(str):
    """A text cut to ``max_field_chars`` on the agent's thread, so the buffer never holds
    more; ``original_length`` gives the wire its ``<field>_original_length``."""

    original_length: int


def measure(record: Record, max_chars: int | None) -> tuple[Record, int]:
    """``record`` as the buffer keeps it, and about how many bytes it holds there.

    On the agent's thread, so only what is cheap: the capped text fields are counted by
    ``len`` and a plain ``str`` longer than ``max_chars`` is cut (a copy of at most
    ``max_chars`` characters); structured values (dict args, signal meta) count as the
    overhead only, their walk is left to the sender thread.
    """
    raw = record[4]
    at = _CAPPED_AT.get(record[0])
    if at is None or type(raw) is not tuple:
        return record, RECORD_OVERHEAD
    size = RECORD_OVERHEAD
    cut: list[Any] | None = None
    for i in at:
        value = raw[i] if i < len(raw) else None
        if type(value) is not str:
            continue
        if max_chars and len(value) > max_chars:
            short = Cut(value[:max_chars])
            short.original_length = len(value)
            cut = cut or list(raw)
            cut[i] = short
            value = short
        size += len(value)
    if cut is None:
        return record, size
    return (record[0], record[1], record[2], record[3], tuple(cut)), size


def _length(text: str) -> int:
    return text.original_length if type(text) is Cut else len(text)


# Events whose raw record is their payload dict (policies and approvals).
_ANNOTATIONS = frozenset({"policy.triggered", "approval.requested", "approval.granted",
                          "approval.denied", "approval.timeout"})

# Nested user values deeper than this are cut: it bounds the walk and breaks cycles.
_MAX_DEPTH = 32


class RunInfo(NamedTuple):
    """What every event of one run shares; built once per run, referenced by each record."""

    run_id: str
    agent_id: str
    agent_version: str
    conversation_id: str | None
    parent_run_id: str | None
    trace_id: str | None


#: ``(event_type, run_info, step_index, timestamp, raw)``
Record = tuple[str, RunInfo, int, float, Any]

SecretMatcher = Callable[[Any], bool]
Redact = Callable[[dict[str, Any]], dict[str, Any]]


class RedactError(Exception):
    """The caller's ``redact`` hook failed (the original is ``__cause__``)."""


def _normalise(key: str) -> str:
    return re.sub(r"[^a-z0-9]", "", key.lower())


def secret_matcher(keys: Iterable[str]) -> SecretMatcher:
    """A predicate telling whether a mapping key names a secret (see DEFAULT_SECRET_KEYS)."""
    suffixes = tuple(n for n in {_normalise(k) for k in keys} if n)
    if not suffixes:
        return lambda key: False

    @lru_cache(maxsize=4096)
    def is_secret(key: str) -> bool:
        return _normalise(key).endswith(suffixes)

    def match(key: Any) -> bool:
        return isinstance(key, str) and is_secret(key)

    return match


def _unencodable(value: Any) -> str:
    return f"<unencodable {type(value).__name__}>"


def _stringify(value: Any) -> str:
    try:
        return str(value)
    except Exception:
        # A __str__ that raises must not cost the event, only this one value.
        return _unencodable(value)


def json_safe(value: Any, is_secret: SecretMatcher, depth: int = 0) -> Any:
    """A copy of ``value`` that ``json.dumps(allow_nan=False)`` accepts.

    Objects JSON cannot encode become their ``str()``; NaN and infinities become
    strings (strict parsers reject them); the values of secret-looking keys become
    ``[REDACTED]``; nesting deeper than 32 levels (or a cycle) is cut.
    """
    kind = type(value)
    if value is None or kind is str or kind is int or kind is bool:
        return value
    if kind is float:
        return value if math.isfinite(value) else str(value)
    if depth >= _MAX_DEPTH:
        return "<too deep>"
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = key if isinstance(key, str) else _stringify(key)
            out[name] = REDACTED if is_secret(name) else json_safe(item, is_secret, depth + 1)
        return out
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_safe(item, is_secret, depth + 1) for item in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):  # int subclasses such as IntEnum encode as plain ints
        return int(value)
    if isinstance(value, float):
        return json_safe(float(value), is_secret, depth)
    if isinstance(value, str):
        return str(value)
    return _stringify(value)


def _text(value: Any) -> str | None:
    if value is None or type(value) is str or type(value) is Cut:
        return value
    return _stringify(value)


def _int(value: Any) -> int:
    if type(value) is int:
        return value
    try:
        return int(value or 0)
    except (TypeError, ValueError, OverflowError):
        return 0


def _number(value: Any) -> float | int | None:
    if value is None or type(value) is int:
        return value
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _args_text(args: Any, is_secret: SecretMatcher) -> str:
    # Dunetrace ships tool args as text: JSON for a mapping or a sequence, the value
    # itself for a string, "{}" for none.
    if args is None:
        return "{}"
    if type(args) is Cut:
        return args
    if isinstance(args, (Mapping, list, tuple)):
        return json.dumps(json_safe(args, is_secret), ensure_ascii=False, allow_nan=False)
    return _stringify(args)


def _tool_names(tools: Any) -> list[str]:
    if not tools:
        return []
    if isinstance(tools, (str, Mapping)):
        tools = [tools]
    return [tool_name(t) for t in tools]


def tool_name(tool: Any) -> str:
    """The name of a tool given as a string, a ``{"name": ...}`` mapping or an object."""
    if isinstance(tool, str):
        return tool
    if isinstance(tool, Mapping):
        name = tool.get("name") or (tool.get("function") or {}).get("name")
        if name:
            return str(name)
    name = getattr(tool, "name", None) or getattr(tool, "__name__", None)
    return str(name) if name else _stringify(tool)


def _default(event_type: str, name: str) -> Any:
    return FIELDS[event_type][name].default


def _tool_called(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    return {"tool_name": _text(v["tool_name"]), "args": _args_text(v["args"], is_secret)}


def _tool_responded(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    success = bool(v["success"])
    output = _text(v["output"]) or _TOOL_OUTPUT
    length = v["output_length"]
    payload: dict[str, Any] = {
        "tool_name": _text(v["tool_name"]),
        "success": success,
        "output_length": _length(output) if length is None else _int(length),
        "latency_ms": _number(v["latency_ms"]) or 0,
        "output": output,
    }
    if v["error"] and not success:
        payload["error"] = _text(v["error"])
    return payload


def _llm_called(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    payload = {"model": _text(v["model"]), "prompt_tokens": _int(v["prompt_tokens"])}
    if v["prompt"] is not None:
        payload["prompt"] = _text(v["prompt"])
    return payload


def _llm_responded(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    text = _text(v["output"])
    payload: dict[str, Any] = {
        "completion_tokens": _int(v["completion_tokens"]),
        "latency_ms": _number(v["latency_ms"]) or 0,
    }
    # Text not given (omitted, unreadable) has no length: a 0 here would read as an
    # empty answer, which is EMPTY_LLM_RESPONSE's trigger.
    if v["output_length"] is not None:
        payload["output_length"] = _int(v["output_length"])
    elif text is not None:
        payload["output_length"] = _length(text)
    if v["finish_reason"] is not None:
        payload["finish_reason"] = _text(v["finish_reason"])
    if text is not None:
        payload["output"] = text
    for name in ("prompt_tokens", "reasoning_tokens"):
        if v[name]:
            payload[name] = _int(v[name])
    if v["error"]:
        payload["error"] = _text(v["error"])
    if v.get("cost_usd") is not None:
        payload["cost_usd"] = _number(v["cost_usd"])
    return payload


def _retrieval_called(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    return {"index_name": _text(v["index_name"]), "query": _text(v["query"]) or _QUERY}


def _retrieval_responded(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    return {
        "index_name": _text(v["index_name"]),
        "result_count": _int(v["result_count"]),
        "top_score": _number(v["top_score"]),
        "latency_ms": _number(v["latency_ms"]) or 0,
        "content": _text(v["content"]) or _CONTENT,
    }


def _external_signal(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    payload = {"signal_name": _text(v["signal_name"])}
    if v["source"]:
        payload["source"] = _text(v["source"])
    if v["meta"]:
        payload["meta"] = json_safe(v["meta"], is_secret)
    return payload


def _memory(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    payload = {"key": _text(v["key"])}
    if "value" in v:  # a write: its value and where it came from
        payload["value"] = _text(v["value"]) or _MEMORY_VALUE
        if v["source"]:
            payload["source"] = _text(v["source"])
    return payload


def _run_started(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    return {
        "input_text": _text(v["input_text"]),
        "system_prompt": _text(v["system_prompt"]),
        "model": _text(v["model"]),
        "tools": _tool_names(v["tools"]),
    }


def _run_completed(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    return dict(v)


def _run_errored(v: dict[str, Any], is_secret: SecretMatcher) -> dict[str, Any]:
    payload = {"error_type": v["error_type"], "error": _text(v["error"]),
               "step_index": v["step_index"], "exit_reason": v.get("exit_reason", _ERRORED)}
    if v.get("policy_name"):
        payload["policy_name"] = _text(v["policy_name"])
    return payload


# The table's defaults where the SDK writes one (texts it always sends, the exit reason).
_TOOL_OUTPUT = _default("tool.responded", "output")
_QUERY = _default("retrieval.called", "query")
_CONTENT = _default("retrieval.responded", "content")
_MEMORY_VALUE = _default("memory.written", "value")
_ERRORED = _default("run.errored", "exit_reason")

_RULES: dict[str, Callable[[dict[str, Any], SecretMatcher], dict[str, Any]]] = {
    "tool.called": _tool_called, "tool.responded": _tool_responded,
    "llm.called": _llm_called, "llm.responded": _llm_responded,
    "retrieval.called": _retrieval_called, "retrieval.responded": _retrieval_responded,
    "external.signal": _external_signal, "memory.written": _memory, "memory.read": _memory,
    "memory.cleared": _memory, "run.started": _run_started, "run.completed": _run_completed,
    "run.errored": _run_errored,
}


def _payload(event_type: str, raw: Any, is_secret: SecretMatcher) -> dict[str, Any]:
    if event_type in _ANNOTATIONS:
        # Policy and approval events carry their payload ready-made, maybe holding the
        # agent's values (observed, tool args): make it safe like any other.
        return json_safe(raw, is_secret)  # type: ignore[no-any-return]
    rule = _RULES.get(event_type)
    if rule is None:
        raise ValueError(f"no payload rule for event type {event_type!r}")
    return rule(dict(zip(_RAW[event_type], raw)), is_secret)


def _cap(payload: dict[str, Any], max_chars: int | None) -> None:
    for key in CAPPED_FIELDS:
        value = payload.get(key)
        if type(value) is Cut:  # cut already on the agent's thread (measure)
            payload[key] = str(value)
            payload[f"{key}_truncated"] = True
            payload[f"{key}_original_length"] = value.original_length
        elif max_chars and type(value) is str and len(value) > max_chars:
            payload[key] = value[:max_chars]
            payload[f"{key}_truncated"] = True
            payload[f"{key}_original_length"] = len(value)


def build_event(
    record: Record, is_secret: SecretMatcher, redact: Redact | None,
    max_field_chars: int | None = DEFAULT_MAX_FIELD_CHARS,
) -> Event:
    """The event for one record, its payload JSON-safe and redacted.

    Raises :class:`RedactError` when the caller's ``redact`` hook fails (the event must
    not leave unredacted) and ``ValueError``/``TypeError`` for a record that cannot become
    an event; the sender drops and counts both.
    """
    event_type, info, step_index, timestamp, raw = record
    payload = _payload(event_type, raw, is_secret)
    # Before the hook: a regex over megabytes of output would stall the sender.
    _cap(payload, max_field_chars)
    if redact is not None:
        try:
            redacted = redact(payload)
        except Exception as exc:
            raise RedactError(str(exc)) from exc
        if not isinstance(redacted, Mapping):
            raise RedactError(f"redact returned {type(redacted).__name__}, not a dict")
        # The hook may put anything back in: make it safe again.
        payload = json_safe(redacted, is_secret)
    return Event(
        event_type=event_type,
        run_id=info.run_id,
        agent_id=info.agent_id,
        step_index=step_index,
        timestamp=timestamp,
        payload=payload,
        agent_version=info.agent_version,
        parent_run_id=info.parent_run_id,
        trace_id=info.trace_id,
        conversation_id=info.conversation_id,
        event_id=uuid.uuid4().hex,
    )
