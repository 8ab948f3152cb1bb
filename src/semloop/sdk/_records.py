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
#: ``<field>_truncated`` and ``<field>_original_length`` set beside a cut one.
CAPPED_FIELDS = ("input_text", "system_prompt", "prompt", "output", "content", "query",
                 "args", "error", "value")
DEFAULT_MAX_FIELD_CHARS = 8192

#: What :func:`measure` counts per record beside its texts: the tuple, numbers, the run info.
RECORD_OVERHEAD = 200

# Where each event type's raw tuple holds the texts of CAPPED_FIELDS (see _payload).
_CAPPED_AT: dict[str, tuple[int, ...]] = {
    "tool.called": (1,), "tool.responded": (4, 5), "llm.called": (2,),
    "llm.responded": (4, 7), "retrieval.called": (1,), "retrieval.responded": (4,),
    "run.started": (0, 1), "run.errored": (1,), "memory.written": (1,),
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


_MEMORY = frozenset({"memory.written", "memory.read", "memory.cleared"})


def _payload(event_type: str, raw: Any, is_secret: SecretMatcher) -> dict[str, Any]:
    if event_type == "tool.called":
        name, args = raw
        return {"tool_name": _text(name), "args": _args_text(args, is_secret)}
    if event_type == "tool.responded":
        name, success, output_length, latency_ms, error, output = raw
        out_text = _text(output) or ""
        payload: dict[str, Any] = {
            "tool_name": _text(name),
            "success": bool(success),
            "output_length": (_length(out_text) if output_length is None
                              else _int(output_length)),
            "latency_ms": _number(latency_ms) or 0,
            "output": out_text,
        }
        if error and not success:
            payload["error"] = _text(error)
        return payload
    if event_type == "llm.called":
        model, prompt_tokens, prompt = raw
        payload = {"model": _text(model), "prompt_tokens": _int(prompt_tokens)}
        if prompt is not None:
            payload["prompt"] = _text(prompt)
        return payload
    if event_type == "llm.responded":
        (completion_tokens, reasoning_tokens, latency_ms, finish_reason, output,
         output_length, prompt_tokens, error, *more) = raw
        text = _text(output)
        payload = {
            "completion_tokens": _int(completion_tokens),
            "latency_ms": _number(latency_ms) or 0,
        }
        # Text not given (omitted, unreadable) has no length: a 0 here would read as an
        # empty answer, which is EMPTY_LLM_RESPONSE's trigger.
        if output_length is not None:
            payload["output_length"] = _int(output_length)
        elif text is not None:
            payload["output_length"] = _length(text)
        if finish_reason is not None:
            payload["finish_reason"] = _text(finish_reason)
        if text is not None:
            payload["output"] = text
        if prompt_tokens:
            payload["prompt_tokens"] = _int(prompt_tokens)
        if reasoning_tokens:
            payload["reasoning_tokens"] = _int(reasoning_tokens)
        if error:
            payload["error"] = _text(error)
        if more and more[0] is not None:
            payload["cost_usd"] = _number(more[0])
        return payload
    if event_type == "retrieval.called":
        index_name, query = raw
        return {"index_name": _text(index_name), "query": _text(query) or ""}
    if event_type == "retrieval.responded":
        index_name, result_count, top_score, latency_ms, content = raw
        return {
            "index_name": _text(index_name),
            "result_count": _int(result_count),
            "top_score": _number(top_score),
            "latency_ms": _number(latency_ms) or 0,
            "content": _text(content) or "",
        }
    if event_type == "external.signal":
        name, source, meta = raw
        payload = {"signal_name": _text(name)}
        if source:
            payload["source"] = _text(source)
        if meta:
            payload["meta"] = json_safe(meta, is_secret)
        return payload
    if event_type in _MEMORY:
        # Dunetrace's wire format: the key always; a write adds its value and where the
        # value came from (user, retrieval, tool_output, external…).
        key, value, source = raw
        payload = {"key": _text(key)}
        if event_type == "memory.written":
            payload["value"] = _text(value) or ""
            if source:
                payload["source"] = _text(source)
        return payload
    if event_type == "run.started":
        user_input, system_prompt, model, tools = raw
        return {
            "input_text": _text(user_input),
            "system_prompt": _text(system_prompt),
            "model": _text(model),
            "tools": _tool_names(tools),
        }
    if event_type == "run.completed":
        total_steps, exit_reason, tool_call_count = raw
        return {"total_steps": total_steps, "exit_reason": exit_reason,
                "tool_call_count": tool_call_count}
    if event_type == "run.errored":
        error_type, error, step_index, *why = raw
        payload = {"error_type": error_type, "error": _text(error), "step_index": step_index,
                   "exit_reason": why[0] if why else "error"}
        if len(why) > 1 and why[1]:
            payload["policy_name"] = _text(why[1])
        return payload
    if event_type in _ANNOTATIONS:
        # Policy and approval events carry their payload ready-made, maybe holding the
        # agent's values (observed, tool args): make it safe like any other.
        return json_safe(raw, is_secret)  # type: ignore[no-any-return]
    raise ValueError(f"no payload rule for event type {event_type!r}")


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
