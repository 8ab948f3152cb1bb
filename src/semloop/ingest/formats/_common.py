"""What every importer shares: a neutral run draft, its conversion to events, and the
small readers (JSON documents, times, texts) the formats need. Standard library only."""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from ..._exceptions import TraceFormatError
from ..._payloads import make
from ...events import MAX_TIMESTAMP, PART_KEY, Event, Run, agent_version

# Event ids are derived from the source's run and span ids, so importing the same file
# twice, or the same trace in two encodings (OTLP protobuf and JSON, OpenInference span
# JSON), stores nothing new: the store ignores duplicate event ids.
_NAMESPACE = uuid.UUID("5b1c1f0e-7d1e-4c55-9a39-3f0c5d1e6a21")



def event_id(run_id: str, key: str, event_type: str) -> str:
    """The id of the ``event_type`` event that the record ``key`` (a span id, or ``run``
    for the run's own events) of run ``run_id`` becomes."""
    return str(uuid.uuid5(_NAMESPACE, f"{run_id}:{key}:{event_type}"))


#: Step kinds that become events; everything else (agent, chain, span…) is structure.
STEP_KINDS = ("llm", "tool", "retrieval", "handoff", "guardrail")


@dataclass
class Step:
    """One call an agent made, in the terms every source format can fill."""

    kind: str
    name: str = ""
    step_id: str = ""
    start: float | None = None
    end: float | None = None
    input: Any = None
    output: Any = None
    model: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    cost_usd: float | None = None
    finish_reason: str | None = None
    error: str | None = None
    error_type: str | None = None
    result_count: int | None = None
    top_score: float | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    order: int = 0


@dataclass
class Draft:
    """One run as read from a source, before it becomes events."""

    run_id: str
    source: str
    agent_id: str = ""
    goal: str = ""
    system_prompt: str | None = None
    model: str | None = None
    tools: list[str] = field(default_factory=list)
    conversation_id: str | None = None
    parent_run_id: str | None = None
    trace_id: str | None = None
    start: float | None = None
    end: float | None = None
    output: Any = None
    errored: bool = False
    error: str | None = None
    error_type: str | None = None
    complete: bool = True
    started: bool = True
    numbered: bool = True
    steps: list[Step] = field(default_factory=list)


@dataclass
class Result:
    """What an import produced: the runs it could read and why it rejected the rest."""

    format: str
    runs: list[Run] = field(default_factory=list)
    rejected: list[TraceFormatError] = field(default_factory=list)

    def runs_or_raise(self) -> list[Run]:
        """The runs; raises the first rejection when there is one (the strict ``read``)."""
        if self.rejected:
            raise self.rejected[0]
        return self.runs


def build_run(draft: Draft, *, clock: float = 0.0) -> Run:
    """The run's events: ``run.started``, a call and a response per step in start order,
    then ``run.completed`` or ``run.errored``. ``clock`` dates a run whose source has no
    times (deepeval's ``_trace_dict``); its steps are then 1 ms apart in source order.
    Every payload is made by the one table (:func:`semloop._payloads.make`)."""
    steps = _ordered(draft, clock)
    start, end = _bounds(draft, steps, clock)
    model, tools, version = _agent(draft, steps)
    out = _Events(draft, version, start)
    if draft.started:
        out.add("run.started", 0, start, "run", input_text=draft.goal,
                system_prompt=draft.system_prompt, model=model, tools=tools,
                source_format=draft.source)
    step_no = 0
    for i, s in enumerate(steps):
        key = s.step_id or f"step{i}"
        if s.kind in _SIGNALS:
            out.add("external.signal", step_no, s.start, key, signal_name=s.kind,
                    source=draft.source, meta=dict(s.meta) or None)
            continue
        step_no += 1 if draft.numbered else 0
        _STEP_EVENTS[s.kind](out, s, step_no, key)
    if draft.complete:
        _ending(out, draft, step_no, end, sum(1 for s in steps if s.kind == "tool"))
    return Run(run_id=draft.run_id, agent_id=out.agent, events=out.events,
               agent_version=version, conversation_id=draft.conversation_id,
               parent_run_id=draft.parent_run_id, trace_id=draft.trace_id)


_SIGNALS = ("handoff", "guardrail")


def _ordered(draft: Draft, clock: float) -> list[Step]:
    """The steps that become events, in start order; in source order when some have no
    start, then dated from ``clock`` when none has one and neither has the run."""
    steps = [s for s in draft.steps if s.kind in STEP_KINDS]
    if steps and all(s.start is not None for s in steps):
        steps.sort(key=lambda s: (s.start, s.order))
        return steps
    steps.sort(key=lambda s: s.order)
    if not any(s.start is not None for s in steps) and draft.start is None:
        for i, s in enumerate(steps, start=1):
            s.start = clock + i * 0.001  # no end: latency stays unknown
        draft.start = clock
        draft.end = clock + (len(steps) + 1) * 0.001
    return steps


def _bounds(draft: Draft, steps: list[Step], clock: float) -> tuple[float, float]:
    """When the run started and ended: its own times, else its steps' extremes."""
    times = [t for s in steps for t in (s.start, s.end) if t is not None]
    start = draft.start if draft.start is not None else (min(times) if times else clock)
    end = draft.end if draft.end is not None else (max(times) if times else start)
    return start, end


def _agent(draft: Draft, steps: list[Step]) -> tuple[str | None, list[str], str]:
    """The run's model, tool set and agent version, from the run or else its steps."""
    model = draft.model or next((s.model for s in steps if s.model), None)
    tools = draft.tools or sorted({s.name for s in steps if s.kind == "tool" and s.name})
    # A part of a trace without its root does not know the agent's prompt or tool set;
    # it leaves the version to the part that opens the run (Run.from_events takes it).
    version = agent_version(draft.system_prompt, model, tools) if draft.started else ""
    return model, tools, version


class _Events:
    """The events of one run as they are made: the envelope every event shares."""

    def __init__(self, draft: Draft, version: str, start: float) -> None:
        self.draft = draft
        self.agent = draft.agent_id or "imported"
        self.version = version
        self.start = start
        self.events: list[Event] = []

    def add(self, event_type: str, step: int, ts: float | None, key: str, /,
            **values: Any) -> None:
        draft = self.draft
        self.events.append(Event(
            event_type=event_type, run_id=draft.run_id, agent_id=self.agent,
            step_index=step, timestamp=float(ts if ts is not None else self.start),
            payload=make(event_type, **values), agent_version=self.version,
            parent_run_id=draft.parent_run_id, trace_id=draft.trace_id,
            conversation_id=draft.conversation_id,
            event_id=event_id(draft.run_id, key, event_type),
        ))


def _latency(s: Step) -> float | None:
    return (s.end - s.start) * 1000.0 if s.start is not None and s.end is not None else None


def _ended(s: Step) -> float | None:
    return s.end if s.end is not None else s.start


def _llm(out: _Events, s: Step, step: int, key: str) -> None:
    # A part without the root hands on what the run needs (Run.from_events).
    known = {"input_text": s.meta.get("user"), "system_prompt": s.meta.get("system")}
    part = None if out.draft.numbered or not any(known.values()) else {
        k: v for k, v in known.items() if v}
    out.add("llm.called", step, s.start, key, model=s.model, prompt_tokens=s.prompt_tokens,
            prompt=text(unwrap_single(s.input)), name=s.name or None, **{PART_KEY: part})
    output = text(s.output)
    finish = s.finish_reason or ("error" if s.error else "tool_calls" if s.tool_calls else "stop")
    out.add("llm.responded", step, _ended(s), key, model=s.model,
            completion_tokens=s.completion_tokens, prompt_tokens=s.prompt_tokens,
            reasoning_tokens=s.reasoning_tokens, latency_ms=_latency(s), finish_reason=finish,
            output=output, output_length=len(output), error=s.error, cost_usd=s.cost_usd,
            tool_calls=s.tool_calls or None)


def _tool(out: _Events, s: Step, step: int, key: str) -> None:
    name = s.name or None
    out.add("tool.called", step, s.start, key, tool_name=name, args=args_text(s.input))
    output = text(s.output)
    out.add("tool.responded", step, _ended(s), key, tool_name=name, success=s.error is None,
            output=output, output_length=len(output), latency_ms=_latency(s), error=s.error,
            error_type=s.error_type)


def _retrieval(out: _Events, s: Step, step: int, key: str) -> None:
    name = s.name or None
    out.add("retrieval.called", step, s.start, key, index_name=name, query=text(s.input))
    out.add("retrieval.responded", step, _ended(s), key, index_name=name,
            result_count=s.result_count, top_score=s.top_score, latency_ms=_latency(s),
            content=text(s.output), error=s.error)


_STEP_EVENTS = {"llm": _llm, "tool": _tool, "retrieval": _retrieval}


def _ending(out: _Events, draft: Draft, step: int, end: float, tool_calls: int) -> None:
    if draft.errored:
        out.add("run.errored", step, end, "run", error_type=draft.error_type or None,
                error=draft.error or None, step_index=step)
        return
    final = text(draft.output)
    out.add("run.completed", step, end, "run", total_steps=step, tool_call_count=tool_calls,
            exit_reason="final_answer" if final else "completed", output=final or None)


# -- readers -------------------------------------------------------------------------------


def decode(data: bytes | str, source: str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TraceFormatError(
            f"not UTF-8 text (byte {exc.start}); is this a protobuf file? use --format otlp",
            source=source) from None


def documents(data: bytes | str, source: str) -> Iterator[tuple[int | None, Any]]:
    """The JSON documents of a file: the whole file if it is one JSON value, else one per
    line (JSONL/NDJSON). A line that is not JSON is yielded as a :class:`TraceFormatError`
    so the caller can go on with the rest."""
    raw = decode(data, source)
    stripped = raw.strip()
    if not stripped:
        raise TraceFormatError("the file is empty", source=source)
    try:
        yield None, json.loads(stripped)
        return
    except json.JSONDecodeError as whole:
        error = whole
    parsed: list[tuple[int, Any]] = []
    for lineno, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            parsed.append((lineno, json.loads(line)))
        except json.JSONDecodeError as exc:
            parsed.append((lineno, TraceFormatError(
                f"not valid JSON ({exc.msg} at column {exc.colno})", source=source,
                line=lineno)))
    good = sum(1 for _, doc in parsed if not isinstance(doc, TraceFormatError))
    if len(parsed) < 2 or good * 2 < len(parsed):
        # Mostly unreadable lines: one pretty-printed document with a mistake, not JSON
        # lines; one error at the mistake beats an error per line.
        raise TraceFormatError(
            f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})",
            source=source, line=error.lineno)
    yield from parsed


def values(data: bytes | str, source: str,
           result: Result) -> Iterator[tuple[int | None, int, Any]]:
    """(line, position, value) for the JSON values of a file: the whole file when it is one
    JSON value (line None), else each value in turn, one a line (JSON lines) or several on
    one line (files joined by ``cat``, a writer that lost a newline). A broken value goes to
    ``result.rejected`` and reading goes on at the next line that opens an object."""
    raw = decode(data, source)
    if not raw.strip():
        raise TraceFormatError("the file is empty", source=source)
    try:
        yield None, 0, json.loads(raw)
        return
    except json.JSONDecodeError:
        pass
    decoder = json.JSONDecoder()
    at, index, line, counted = 0, 0, 1, 0
    while True:
        while at < len(raw) and raw[at] in " \t\r\n":
            at += 1
        if at >= len(raw):
            return
        line += raw.count("\n", counted, at)
        counted = at
        try:
            value, at = decoder.raw_decode(raw, at)
        except json.JSONDecodeError as exc:
            result.rejected.append(TraceFormatError(
                f"not valid JSON ({exc.msg})", source=source, line=line, field=f"[{index}]"))
            at = raw.find("\n{", at + 1) + 1  # a value cannot be resumed inside: skip it
            if at == 0:
                return
        else:
            yield line, index, value
        index += 1


def records(
    data: bytes | str, source: str, result: Result, unwrap: Sequence[str] = ()
) -> Iterator[tuple[int | None, str, Any]]:
    """Every record of a file, with its line and a field path: top-level lists are
    flattened, and so is an object's list under one of the ``unwrap`` keys
    (``{"data": [...]}``). Unreadable lines go to ``result.rejected``."""
    for line, doc in documents(data, source):
        if isinstance(doc, TraceFormatError):
            result.rejected.append(doc)
            continue
        if isinstance(doc, Mapping):
            key = next((k for k in unwrap if isinstance(doc.get(k), list)), None)
            if key is not None:
                for i, item in enumerate(doc[key]):
                    yield line, f"{key}[{i}]", item
                continue
        if isinstance(doc, list):
            for i, item in enumerate(doc):
                yield line, f"[{i}]", item
        else:
            yield line, "", doc


#: What converting a record of an unexpected shape may raise; each becomes a rejection
#: of that record, never a crash of the whole import.
SHAPE_ERRORS = (TraceFormatError, TypeError, AttributeError, ValueError, KeyError, IndexError,
                RecursionError)


def convert_records(
    data: bytes | str, source: str, name: str,
    drafts: Callable[[Any, int], Iterable[Draft]], *, clock: float = 0.0,
    unwrap: Sequence[str] = (),
) -> Result:
    """The import of a format whose records are runs: ``drafts(record, runs so far)``
    gives each record's runs (more than one for a run with sub-runs); a record of an
    unexpected shape becomes a rejection naming its line and path, and the import goes on."""
    result = Result(format=name)
    for line, path, raw in records(data, source, result, unwrap):
        try:
            for draft in drafts(raw, len(result.runs)):
                result.runs.append(build_run(draft, clock=clock))
        except SHAPE_ERRORS as exc:
            reject(result, exc, source, line, path)
    return result


def as_format_error(exc: BaseException) -> TraceFormatError:
    if isinstance(exc, TraceFormatError):
        return exc
    return TraceFormatError(f"unexpected shape ({type(exc).__name__}: {exc})")


def reject(result: Result, error: BaseException, source: str, line: int | None,
           path: str) -> None:
    exc = as_format_error(error)
    field_ = exc.field
    if path:
        field_ = f"{path}.{field_}" if field_ and not field_.startswith("[") else (
            f"{path}{field_}" if field_ else path)
    result.rejected.append(TraceFormatError(exc.message, source=source, line=line, field=field_))


def text(value: Any) -> str:
    """Text of an input or output, as detectors and judges read it."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return str(value)


def loads_if_json(value: Any) -> Any:
    """A string holding a JSON array or object, parsed; anything else (or a string that
    is not JSON after all) as it is. Exports keep structured values as JSON strings."""
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def planned_calls(calls: Sequence[Mapping[str, Any]]) -> str:
    """``name(arguments)`` per line: the text of a model turn that only plans tool calls,
    which a judge should still read."""
    return "\n".join(f"{c['name']}({text(c['arguments'])})" for c in calls)


def model_reply(value: Any) -> tuple[str, list[dict[str, Any]], str | None] | None:
    """(text, tool calls, finish reason) of a model's answer as providers and SDKs return
    it, a dict or its JSON text: an OpenAI ChatCompletion or Responses object, a Gemini
    response or candidate, an Anthropic message, an OTel ``gen_ai.choice`` body, a
    LangChain AI message, GenAI ``parts`` messages, or the Vercel AI SDK's tool call list.
    None for anything else. A turn that only calls tools reads ``name(args)``."""
    value = loads_if_json(value)
    if isinstance(value, Mapping):
        choices, candidates = value.get("choices"), value.get("candidates")
        if isinstance(choices, list) and choices and isinstance(choices[0], Mapping):
            value = choices[0]  # ChatCompletion
        elif isinstance(candidates, list) and candidates and isinstance(candidates[0], Mapping):
            value = candidates[0]  # Gemini
        if isinstance(value.get("output"), list) and value.get("object") == "response":
            return _reply_of([m for m in value["output"] if isinstance(m, Mapping)], None)
        reason = string(first(value.get("finish_reason"), value.get("stop_reason"),
                              value.get("finishReason")))
        inner = value.get("message") or value.get("content")
        if isinstance(inner, Mapping) and ("role" in inner or "parts" in inner):
            return _reply_of([inner], reason)  # {message: …}, a Gemini candidate
        if value.get("role") in ("assistant", "model", "ai") or value.get("type") == "ai":
            return _reply_of([value], reason)
        return None
    if isinstance(value, list) and value and all(isinstance(m, Mapping) for m in value):
        if all("toolName" in m for m in value):  # Vercel AI SDK's ai.response.toolCalls
            return "", [c for m in value for c in message_calls(m)], None
        said = [m for m in value if role_of(m) in ("assistant", "model")]
        if said:
            return _reply_of(said, string(said[-1].get("finish_reason")))
    return None


def _reply_of(messages: Sequence[Mapping[str, Any]],
              reason: str | None) -> tuple[str, list[dict[str, Any]], str | None]:
    said = "\n".join(t for t in (message_text(m) for m in messages) if t)
    return said, [c for m in messages for c in message_calls(m)], reason


def message_calls(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The tool calls a message plans, ``[{name, arguments}]``, in any provider's shape:
    OpenAI ``tool_calls`` (also under LangChain's ``additional_kwargs``), LangChain's
    ``{name, args}``, GenAI ``tool_call`` parts, Gemini ``function_call`` parts, Anthropic
    ``tool_use`` blocks, Responses ``function_call`` items, Vercel's ``toolName``."""
    found: list[Any] = list(message.get("tool_calls") or message.get("toolCalls") or mapping(
        message.get("additional_kwargs")).get("tool_calls") or [])
    for key in ("parts", "content"):
        if isinstance(message.get(key), list):
            found += message[key]
    found.append(message)
    calls = []
    for c in found:
        if not isinstance(c, Mapping):
            continue
        fn = mapping(first(c.get("function"), c.get("function_call"), c.get("functionCall")))
        kind = c.get("type")
        name = first(fn.get("name"), c.get("toolName"),
                     c.get("name") if kind in ("tool_call", "tool_use", "function_call",
                                               "tool-call", None) else None)
        if not name or c is message and not (fn or c.get("toolName") or kind in (
                "function_call", "tool_use", "tool_call")):
            continue
        args = first(fn.get("arguments"), fn.get("args"), c.get("arguments"), c.get("args"),
                     c.get("input"))
        calls.append({"name": str(name), "arguments": loads_if_json(args)})
    return calls


def held_calls(parent: Mapping[str, str], calls: set[str]) -> dict[str, list[str]]:
    """Model calls that hold other model calls, each with the calls it holds: a framework's
    call wrapped around the provider SDK's (Agno's ``invoke`` around OpenAI's ``chat``, the
    Vercel AI SDK's ``generateText`` around its ``doGenerate``). ``parent``: id → parent id."""
    held: dict[str, list[str]] = {}
    for call in calls:
        seen, up = set(), parent.get(call, "")
        while up and up not in seen:  # a cycle in a broken export must not hang
            seen.add(up)
            if up in calls:
                held.setdefault(up, []).append(call)
            up = parent.get(up, "")
    return held


_LENT = ("input", "output", "tool_calls", "finish_reason", "prompt_tokens",
         "completion_tokens", "cost_usd", "model")


def unwrap_calls(steps: list[Step], held: Mapping[str, list[str]]) -> list[Step]:
    """The steps without the model calls that wrap others (:func:`held_calls`): a wrapper
    around one call lends that call what it lacks (its planned tool calls, its tokens)."""
    by_id = {step.step_id: step for step in steps}
    for wrapper, inner in held.items():
        outer = by_id.get(wrapper)
        if outer is None or len(inner) != 1 or inner[0] not in by_id:
            continue
        call = by_id[inner[0]]
        for name in _LENT:
            if getattr(call, name) in (None, "", []):
                setattr(call, name, getattr(outer, name))
    return [step for step in steps if step.step_id not in held]


def args_text(value: Any) -> str:
    # Dunetrace sends tool args as a string; JSON keeps them comparable across sources.
    if isinstance(value, str):
        return value
    return text(value if value is not None else {})


def unwrap_single(value: Any) -> Any:
    """``{"question": "…"}`` → ``"…"``: the goal of a function whose one argument is it."""
    if isinstance(value, Mapping) and len(value) == 1:
        (only,) = value.values()
        if isinstance(only, str):
            return only
    return value


_EXIT = re.compile(r"^(?:Exit code:|Process exited with code) (-?\d+)",
                   re.MULTILINE | re.IGNORECASE)


def exit_code(said: str) -> int | None:
    """The exit code a shell tool's output states, or None: in its header, before the
    command's ``Output:`` (Codex: ``Exit code: 1``, ``Process exited with code 1``), else on
    its last such line (Gemini CLI's trailer, ``Exit Code: 1``), so that the command's own
    output saying so does not count."""
    head = said.partition("\nOutput:")[0]
    found = _EXIT.findall(head)[:1] or _EXIT.findall(said)[-1:]
    return int(found[0]) if found else None


_FRACTION = re.compile(r"(\.\d{6})\d+")


def epoch(value: Any, *, field_name: str = "time") -> float | None:
    """Epoch seconds from an ISO 8601 string, or from a number in s, ms, µs or ns."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise TraceFormatError("must be a time, not a boolean", field=field_name)
    if isinstance(value, (int, float)):
        if not 0 <= value <= MAX_TIMESTAMP * 1e9:  # before float(): a huge int overflows it
            raise TraceFormatError(f"not a time: {_shown(value)}", field=field_name)
        number = float(value)
    elif isinstance(value, str):
        s = value.strip()
        if re.fullmatch(r"\d+(\.\d+)?", s):
            number = float(s)
        else:
            s = _FRACTION.sub(r"\1", s.replace("Z", "+00:00").replace("z", "+00:00"))
            try:
                dt = datetime.fromisoformat(s)
            except ValueError:
                raise TraceFormatError(f"not a time: {value!r}", field=field_name) from None
            if dt.tzinfo is None:
                dt = dt.replace(tzinfo=timezone.utc)
            return dt.timestamp()
    else:
        raise TraceFormatError(f"not a time: {_shown(value)}", field=field_name)
    if not math.isfinite(number) or number < 0:
        raise TraceFormatError(f"not a time: {_shown(value)}", field=field_name)
    # Magnitude tells the unit: epoch seconds now are ~1.8e9.
    for scale in (1.0, 1e3, 1e6, 1e9):
        if number / scale < 1e11:
            return number / scale
    return number / 1e9


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is an object, else an empty one: exports leave fields out or null."""
    return value if isinstance(value, Mapping) else {}


def integer(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value  # as it is, however large: ingest refuses it by field, not float()
    try:
        return int(float(value))
    except (TypeError, ValueError, OverflowError):
        return None


def number(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        out = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return out if math.isfinite(out) else None


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 24 else f"{shown[:12]}…({len(shown)} characters)"


def string(value: Any) -> str | None:
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else text(value)


def first(*values: Any) -> Any:
    return next((v for v in values if v is not None and v != ""), None)


def message_text(message: Any) -> str:
    """The text of a chat message in any of the common shapes (OpenAI, LangChain,
    OTel GenAI parts, Anthropic content blocks)."""
    if message is None:
        return ""
    if isinstance(message, str):
        return message
    if isinstance(message, Sequence):
        return "\n".join(t for t in (message_text(m) for m in message) if t)
    if not isinstance(message, Mapping):
        return text(message)
    if "parts" in message and isinstance(message["parts"], Sequence):
        # GenAI parts {type, content}; Gemini's parts {text}
        return "\n".join(
            str(first(p.get("content"), p.get("text"))) for p in message["parts"]
            if isinstance(p, Mapping) and p.get("type") in ("text", "reasoning", None)
            and first(p.get("content"), p.get("text")))
    for key in ("content", "text"):
        if key in message:
            inner = message[key]
            if key == "text" and isinstance(inner, Mapping):
                return text(inner)  # a structured answer (Genkit's JSON output)
            return message_text(inner)
    kwargs = message.get("kwargs") or message.get("data")
    if isinstance(kwargs, Mapping):
        return message_text(kwargs)
    if message.get("type") in ("output_text", "input_text"):
        return str(message.get("text", ""))
    return ""


def role_of(message: Any) -> str:
    if not isinstance(message, Mapping):
        return ""
    role = message.get("role") or message.get("type")
    if role == "constructor":  # LangChain's serialised form: the class names the role
        role = None
    if role is None:
        ids = message.get("id")
        if isinstance(ids, list) and ids:
            role = str(ids[-1])  # LangChain's serialised ["langchain", …, "HumanMessage"]
        kwargs = message.get("kwargs")
        if role is None and isinstance(kwargs, Mapping):
            role = kwargs.get("type")
    role = str(role or "").lower()
    if role in ("human", "humanmessage", "user"):
        return "user"
    if role in ("ai", "aimessage", "assistant"):
        return "assistant"
    if role in ("system", "systemmessage", "developer"):
        return "system"
    return role


def request_messages(value: Any) -> list[Any]:
    """The chat messages of a model request as SDKs log it: a message list, or an object
    holding one (``messages``; Gemini's ``contents``, a string or a list; ``prompt`` and
    ``input``, a string or a list; ADK's ``new_message``; ``message``; a traced function's one string
    argument). A bare string is a user message."""
    value = loads_if_json(value)
    if isinstance(value, str):
        return [{"role": "user", "content": value}] if value else []
    if isinstance(value, list):
        return value
    if not isinstance(value, Mapping):
        return []
    if "role" in value and ("content" in value or "parts" in value):
        return [value]
    args = value.get("args")  # a traced function's call, {"args": [...], "kwargs": {...}}
    if isinstance(args, list) and len(args) == 1 and isinstance(args[0], str) and not (
            value.get("kwargs")):
        return [{"role": "user", "content": args[0]}]
    for key in ("messages", "contents", "prompt", "input", "new_message", "message"):
        inner = value.get(key)
        if isinstance(inner, (str, list)) or isinstance(inner, Mapping) and "role" in inner:
            return request_messages(inner)
    return []


def first_of_role(messages: Any, role: str) -> str | None:
    if isinstance(messages, Mapping):
        messages = request_messages(messages)
    if not isinstance(messages, Sequence) or isinstance(messages, str):
        return None
    for m in messages:
        if isinstance(m, Sequence) and not isinstance(m, (str, Mapping)):
            found = first_of_role(m, role)  # LangChain's batches: [[msg, msg]]
            if found:
                return found
        elif role_of(m) == role:
            t = message_text(m)
            if t:
                return t
    return None
