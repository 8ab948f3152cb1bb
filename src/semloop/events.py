"""The platform's domain model: a :class:`Run` is the ordered :class:`Event` list one agent
invocation produced; a :class:`Signal` is one thing a detector or evaluator found in it.

Field names and event types follow Dunetrace's SDK, so its users feel at home (see
``docs/events.md``). Standard library only: the SDK, ingest, store, detectors and workers
all share these types.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ._exceptions import EventFormatError
from ._payloads import PAYLOADS, RANGES
from .trace import Span, Trace

__all__ = [
    "EVENT_TYPES",
    "MAX_TIMESTAMP",
    "PART_KEY",
    "PAYLOADS",
    "PAYLOAD_RANGES",
    "STEP_EVENTS",
    "Event",
    "Run",
    "Severity",
    "Signal",
    "agent_version",
    "check_payload_numbers",
    "severity_for",
]

#: Every event type the SDK emits and the store accepts.
EVENT_TYPES = frozenset(
    {
        "run.started",
        "run.completed",
        "run.errored",
        "llm.called",
        "llm.responded",
        "tool.called",
        "tool.responded",
        "retrieval.called",
        "retrieval.responded",
        "external.signal",
        "policy.triggered",
        "policy.evaluated",
        "approval.requested",
        "approval.granted",
        "approval.denied",
        "approval.timeout",
        # Also emitted by the Dunetrace SDK, whose batches ingest accepts unchanged.
        "memory.read",
        "memory.written",
        "memory.cleared",
        "recording.available",
        "transcription.received",
        "tts.generated",
        "voice_activity.detected",
        "turn_taking.changed",
    }
)
#: The latest timestamp any event may carry (9999-12-31, epoch seconds). Ingest also refuses
#: one further ahead of its clock than ``max_future_skew_s``: a run dated 1e308 would top
#: every newest-first listing forever.
MAX_TIMESTAMP = 253_402_300_799.0
#: The range a real value of each numeric payload field falls in; an event whose field is a
#: number outside it is refused by field (1.7e308 tokens overflowed RUNAWAY_ITERATION's cost
#: estimate). From the one payload table, :data:`PAYLOADS` (docs/events.md).
PAYLOAD_RANGES = RANGES


def check_payload_numbers(payload: Mapping[str, Any]) -> None:
    """:class:`EventFormatError` naming the first numeric field outside
    :data:`PAYLOAD_RANGES` (a non-number is left to the reader, which ignores it)."""
    for name, (low, high) in PAYLOAD_RANGES.items():
        value = payload.get(name)
        if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        # Compared as given: float() of a 400-digit int raises OverflowError.
        if not low <= value <= high:  # NaN fails both comparisons
            raise EventFormatError(f"must be a number from {low:g} to {high:g}",
                                   field=f"payload.{name}")


#: Events that start a new step; responses and annotations keep the step of their call.
STEP_EVENTS = frozenset({"llm.called", "tool.called", "retrieval.called"})
TERMINAL_EVENTS = frozenset({"run.completed", "run.errored"})


def agent_version(system_prompt: str | None, model: str | None, tools: Iterable[str] | None) -> str:
    """First 8 hex chars of sha256("system_prompt:model:sorted(tools)"), as Dunetrace does."""
    # Tools arrive from the wire: a bare name or mixed types must still hash, not raise.
    if tools is None:
        names: list[Any] = []
    elif isinstance(tools, (list, tuple, set, frozenset)):
        names = list(tools)
    else:
        names = [tools]
    key = f"{system_prompt or ''}:{model or ''}:{sorted(names, key=str)}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]


def _text(raw: Mapping[str, Any], name: str, *, required: bool) -> str | None:
    value = raw.get(name)
    if type(value) is str and value and "\x00" not in value:
        return value  # the common case, first: ingest validates every event
    if value is None or value == "":
        if required:
            raise EventFormatError("is required", field=name)
        return None
    if not isinstance(value, str):
        raise EventFormatError(f"must be a string, not {type(value).__name__}", field=name)
    if "\x00" in value:
        # PostgreSQL cannot store NUL in text: stored altered, the id could never be
        # fetched by the id that was sent.
        raise EventFormatError("must not contain a NUL character", field=name)
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in a run."""

    event_type: str
    run_id: str
    agent_id: str
    step_index: int
    timestamp: float
    payload: Mapping[str, Any] = field(default_factory=dict)
    agent_version: str = ""
    parent_run_id: str | None = None
    trace_id: str | None = None
    conversation_id: str | None = None
    event_id: str = field(default_factory=lambda: uuid.uuid4().hex)

    def to_dict(self) -> dict[str, Any]:
        return {
            "event_type": self.event_type,
            "run_id": self.run_id,
            "agent_id": self.agent_id,
            "agent_version": self.agent_version,
            "step_index": self.step_index,
            "timestamp": self.timestamp,
            "payload": dict(self.payload),
            "parent_run_id": self.parent_run_id,
            "trace_id": self.trace_id,
            "conversation_id": self.conversation_id,
            "event_id": self.event_id,
        }

    @classmethod
    def from_dict(cls, raw: Any) -> Event:
        """Validate one event from the wire; :class:`EventFormatError` names the bad field."""
        if type(raw) is dict:
            fast = _well_formed(raw)
            if fast is not None:
                return fast
        elif not isinstance(raw, Mapping):
            raise EventFormatError(f"an event must be a JSON object, not {type(raw).__name__}")
        event_type = _text(raw, "event_type", required=True)
        assert event_type is not None
        if event_type not in EVENT_TYPES:
            raise EventFormatError(f"unknown event type {event_type!r}", field="event_type")
        step = raw.get("step_index", 0)
        if type(step) is float and step.is_integer():  # JSON Schema's integer admits 5.0
            step = int(step)
        if type(step) is not int or step < 0:  # bool is not int here, as it should not be
            raise EventFormatError("must be a non-negative integer", field="step_index")
        ts = raw.get("timestamp")
        # Compared before any float(): a 400-digit int overflows it (and math.isfinite).
        if (isinstance(ts, bool) or not isinstance(ts, (int, float))
                or not 0 <= ts <= MAX_TIMESTAMP):
            raise EventFormatError(
                f"must be epoch seconds, from 0 to {MAX_TIMESTAMP:.0f} (year 9999)",
                field="timestamp")
        payload = raw.get("payload")
        if payload is None:
            payload = {}
        elif type(payload) is not dict and not isinstance(payload, Mapping):
            raise EventFormatError("must be an object", field="payload")
        event_id = _text(raw, "event_id", required=False) or uuid.uuid4().hex
        return cls(
            event_type=event_type,
            run_id=_text(raw, "run_id", required=True) or "",
            agent_id=_text(raw, "agent_id", required=True) or "",
            step_index=step,
            timestamp=float(ts),
            payload=dict(payload),
            agent_version=_text(raw, "agent_version", required=False) or "",
            parent_run_id=_text(raw, "parent_run_id", required=False),
            trace_id=_text(raw, "trace_id", required=False),
            conversation_id=_text(raw, "conversation_id", required=False),
            event_id=event_id,
        )


def _plain(value: Any) -> bool:
    # An optional text field as ingest stores it: absent, or a non-empty string sans NUL.
    return value is None or (type(value) is str and value != "" and "\x00" not in value)


def _well_formed(raw: dict[str, Any]) -> Event | None:
    """The event of ``raw`` when every field is already in its stored shape (what ingest
    wrote, and what the worker reads back), checked in one pass; else None, and
    :meth:`Event.from_dict` validates field by field to name the bad one."""
    get = raw.get
    event_type, run_id, agent_id = get("event_type"), get("run_id"), get("agent_id")
    step, ts, payload = get("step_index", 0), get("timestamp"), get("payload")
    event_id, version = get("event_id"), get("agent_version")
    parent, trace, conversation = get("parent_run_id"), get("trace_id"), get("conversation_id")
    if not (type(event_type) is str and event_type in EVENT_TYPES and type(step) is int and step >= 0
            and type(ts) is float and 0 <= ts <= MAX_TIMESTAMP
            and (payload is None or type(payload) is dict)
            and type(run_id) is str and type(agent_id) is str and run_id and agent_id
            and "\x00" not in run_id and "\x00" not in agent_id
            and _plain(event_id) and _plain(version) and (parent is None or _plain(parent))
            and (trace is None or _plain(trace))
            and (conversation is None or _plain(conversation))):
        return None
    return _checked_event(event_type, run_id, agent_id, step, ts,
                          dict(payload) if payload else {}, version or "", parent, trace,
                          conversation, event_id or uuid.uuid4().hex)


def _event_maker() -> Callable[..., Event]:
    """``Event(...)`` for values already checked, at half the cost: the frozen dataclass's
    ``__init__`` looks each field up by name for ``object.__setattr__``; this calls the
    slot setters directly, in field order (the worker builds an Event per stored row)."""
    (s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10) = (
        getattr(Event, f.name).__set__ for f in fields(Event))
    new = object.__new__

    def make(a: Any, b: Any, c: Any, d: Any, e: Any, f: Any, g: Any, h: Any, i: Any, j: Any,
             k: Any) -> Event:
        event: Event = new(Event)
        s0(event, a)
        s1(event, b)
        s2(event, c)
        s3(event, d)
        s4(event, e)
        s5(event, f)
        s6(event, g)
        s7(event, h)
        s8(event, i)
        s9(event, j)
        s10(event, k)
        return event

    return make


_checked_event = _event_maker()


@dataclass
class Run:
    """One agent invocation: its events in order."""

    run_id: str
    agent_id: str
    events: list[Event]
    agent_version: str = ""
    conversation_id: str | None = None
    parent_run_id: str | None = None
    trace_id: str | None = None

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Run:
        """The run of ``events``, in step then time order. A run sent in parts (OTLP span
        by span) is assembled first, as if it had arrived whole: see :func:`_assembled`."""
        ordered = sorted(events, key=lambda e: (e.step_index, e.timestamp))
        if not ordered:
            raise ValueError("a run needs at least one event")
        if any(e.step_index == 0 and not e.agent_version and e.event_type in STEP_EVENTS
               for e in ordered):
            ordered = _assembled(ordered)
        first = ordered[0]

        def first_set(attr: str) -> Any:
            return next((getattr(e, attr) for e in ordered if getattr(e, attr)), None)

        return cls(
            run_id=first.run_id,
            agent_id=first.agent_id,
            events=ordered,
            agent_version=first_set("agent_version") or "",
            conversation_id=first_set("conversation_id"),
            parent_run_id=first_set("parent_run_id"),
            trace_id=first_set("trace_id"),
        )

    @property
    def status(self) -> str:
        """``completed``, ``errored`` or ``running`` (no terminal event yet)."""
        for event in reversed(self.events):
            if event.event_type == "run.completed":
                return "completed"
            if event.event_type == "run.errored":
                return "errored"
        return "running"

    def of_type(self, event_type: str) -> list[Event]:
        return [e for e in self.events if e.event_type == event_type]

    @property
    def started(self) -> Event | None:
        return next((e for e in self.events if e.event_type == "run.started"), None)

    @property
    def user_input(self) -> str:
        started = self.started
        return str(started.payload.get("input_text") or "") if started else ""

    @property
    def duration_s(self) -> float:
        return self.events[-1].timestamp - self.events[0].timestamp

    @property
    def ended_at(self) -> float:
        """When its last event happened (the terminal event, for a finished run)."""
        return max(e.timestamp for e in self.events)

    def to_trace(self) -> Trace:
        """The run as a library :class:`Trace`: one span per call, with its response."""
        children: list[Span] = []
        open_calls: dict[str, list[Span]] = {}
        for event in self.events:
            p = event.payload
            kind = event.event_type
            if kind == "llm.called":
                span = Span(type="llm", name=str(p.get("model") or "llm"), input=p.get("prompt", ""))
                span.metadata["step_index"] = event.step_index
                children.append(span)
                open_calls.setdefault("llm", []).append(span)
            elif kind == "llm.responded":
                span = _pop_or_new(open_calls, children, "llm", "llm", event)
                span.output = p.get("output", "")
                _copy(span, p, "finish_reason", "latency_ms", "completion_tokens", "prompt_tokens")
            elif kind == "tool.called":
                name = str(p.get("tool_name") or "tool")
                span = Span(type="tool", name=name, input=p.get("args", ""))
                span.metadata["step_index"] = event.step_index
                children.append(span)
                open_calls.setdefault(f"tool:{name}", []).append(span)
            elif kind == "tool.responded":
                name = str(p.get("tool_name") or "tool")
                span = _pop_or_new(open_calls, children, f"tool:{name}", "tool", event, name)
                span.output = p.get("output", "")
                _copy(span, p, "success", "error", "latency_ms")
            elif kind == "retrieval.called":
                span = Span(type="retriever", name=str(p.get("index_name") or "retrieval"),
                            input=p.get("query", ""))
                span.metadata["step_index"] = event.step_index
                children.append(span)
                open_calls.setdefault("retrieval", []).append(span)
            elif kind == "retrieval.responded":
                span = _pop_or_new(open_calls, children, "retrieval", "retriever", event)
                span.output = p.get("content", "")
                _copy(span, p, "result_count", "top_score", "latency_ms")
        root = Span(type="agent", name=self.agent_id, input=self.user_input, children=children)
        final = self.of_type("run.completed")
        if final:
            root.metadata["exit_reason"] = final[-1].payload.get("exit_reason")
        return Trace(goal=self.user_input, root=root, trace_id=self.run_id)

    @classmethod
    def from_trace(
        cls, trace: Trace, *, agent_id: str = "imported", run_id: str | None = None,
        start: float = 0.0,
    ) -> Run:
        """Events for a library :class:`Trace`, one call and response per span, in walk order."""
        rid = run_id or trace.trace_id or uuid.uuid4().hex
        clock = [start]

        def make(event_type: str, step: int, payload: dict[str, Any]) -> Event:
            clock[0] += 0.001
            return Event(event_type=event_type, run_id=rid, agent_id=agent_id,
                         step_index=step, timestamp=clock[0], payload=payload)

        events = [make("run.started", 0, {"input_text": trace.goal})]
        step = 0
        tool_calls = 0
        for span in trace.root.walk():
            if span is trace.root:
                continue
            if span.type == "llm":
                step += 1
                events.append(make("llm.called", step, {"model": span.name}))
                events.append(make("llm.responded", step, {
                    "output": span.output_text, "output_length": len(span.output_text),
                    "finish_reason": span.metadata.get("finish_reason", "stop")}))
            elif span.type == "tool":
                step += 1
                tool_calls += 1
                args = span.input if isinstance(span.input, Mapping) else span.input_text
                events.append(make("tool.called", step, {"tool_name": span.name, "args": args}))
                events.append(make("tool.responded", step, {
                    "tool_name": span.name, "output": span.output_text,
                    "output_length": len(span.output_text),
                    "success": bool(span.metadata.get("success", True))}))
            elif span.type == "retriever":
                step += 1
                events.append(make("retrieval.called", step, {"index_name": span.name,
                                                              "query": span.input_text}))
                events.append(make("retrieval.responded", step, {
                    "index_name": span.name, "content": span.output_text}))
        events.append(make("run.completed", step, {
            "total_steps": step, "exit_reason": "completed", "tool_call_count": tool_calls}))
        return cls(run_id=rid, agent_id=agent_id, events=events)


def _pop_or_new(
    open_calls: dict[str, list[Span]], children: list[Span], key: str, span_type: str,
    event: Event, name: str | None = None,
) -> Span:
    # A response is paired with the latest open call of its kind (LIFO, as Dunetrace does);
    # a response with no recorded call still becomes a span, so no output is lost.
    pending = open_calls.get(key)
    if pending:
        return pending.pop()
    span = Span(type=span_type, name=name or span_type)
    span.metadata["step_index"] = event.step_index
    children.append(span)
    return span


def _copy(span: Span, payload: Mapping[str, Any], *keys: str) -> None:
    for key in keys:
        if key in payload:
            span.metadata[key] = payload[key]


class Severity:
    """Severity bands of a signal, from its confidence."""

    CRITICAL = "CRITICAL"
    HIGH = "HIGH"
    MEDIUM = "MEDIUM"
    LOW = "LOW"
    ORDER = (LOW, MEDIUM, HIGH, CRITICAL)


def severity_for(confidence: float) -> str:
    """CRITICAL ≥ 0.85, HIGH ≥ 0.70, MEDIUM ≥ 0.50, else LOW."""
    if confidence >= 0.85:
        return Severity.CRITICAL
    if confidence >= 0.70:
        return Severity.HIGH
    if confidence >= 0.50:
        return Severity.MEDIUM
    return Severity.LOW


@dataclass(frozen=True)
class Signal:
    """One failure found in one run, by a structural detector or a semantic evaluator.

    ``evidence`` names the steps involved (``{"steps": [...], ...}``).
    """

    failure_type: str
    run_id: str
    severity: str
    confidence: float
    evidence: Mapping[str, Any] = field(default_factory=dict)
    step_index: int = 0
    source: str = "structural"
    shadow: bool = False
    agent_id: str = ""
    agent_version: str = ""
    co_signal_count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "failure_type": self.failure_type,
            "run_id": self.run_id,
            "severity": self.severity,
            "confidence": self.confidence,
            "evidence": dict(self.evidence),
            "step_index": self.step_index,
            "source": self.source,
            "shadow": self.shadow,
            "agent_id": self.agent_id,
            "agent_version": self.agent_version,
            "co_signal_count": self.co_signal_count,
        }


#: Payload key of a step that arrived without its run's root (an OTLP request of child
#: spans): what the step knows of the run (its user message, its system prompt), kept
#: until the run is assembled.
PART_KEY = "run_part"


def _call_key(event: Event) -> str:
    kind = event.event_type.split(".")[0]
    return f"{kind}:{event.payload.get('tool_name', '')}" if kind == "tool" else kind


def _assembled(events: list[Event]) -> list[Event]:
    """The events of a run whose steps came in parts, as one batch would have made them.

    A part without the root cannot know where its steps fall, nor the run's model, tools
    and prompt: its step events take step 0, no agent version, and carry :data:`PART_KEY`.
    Here steps are numbered 1..n in time order (a response keeps its call's number),
    ``run.started`` gets what its own part lacked (the goal and system prompt from the
    first model call that knew them, the model of the first call, the tools called), every
    event the agent version of that, and ``run.completed`` the run's totals.
    """
    ordered = sorted(events, key=lambda e: (e.event_type != "run.started", e.timestamp,
                                            e.event_type.endswith(".responded")))
    terminal = [e for e in ordered if e.event_type in TERMINAL_EVENTS]
    body = [e for e in ordered if e.event_type not in TERMINAL_EVENTS]
    step = 0
    open_steps: dict[str, list[int]] = {}
    numbered: list[tuple[Event, int]] = []
    for e in body:
        if e.event_type in STEP_EVENTS:
            step += 1
            open_steps.setdefault(_call_key(e), []).append(step)
            numbered.append((e, step))
        elif e.event_type.endswith(".responded"):
            pending = open_steps.get(_call_key(e))
            numbered.append((e, pending.pop() if pending else step))
        else:
            numbered.append((e, step if e.event_type != "run.started" else 0))
    started = next((e for e in body if e.event_type == "run.started"), None)
    version = started.agent_version if started else ""
    started_payload: dict[str, Any] = dict(started.payload) if started else {}
    if started is not None:
        calls = [e for e, _ in numbered if e.event_type == "llm.called"]
        known = [e.payload.get(PART_KEY) or {} for e in calls]
        for name in ("input_text", "system_prompt"):
            found = next((k[name] for k in known if k.get(name)), None)
            if found and not started_payload.get(name):
                started_payload[name] = found
        if not started_payload.get("model"):
            started_payload["model"] = next(
                (e.payload["model"] for e in calls if e.payload.get("model")), None)
        if not started_payload.get("tools"):
            started_payload["tools"] = sorted({str(e.payload["tool_name"]) for e in body
                                               if e.event_type == "tool.called"
                                               and e.payload.get("tool_name")})
        started_payload = {k: v for k, v in started_payload.items() if v is not None}
        version = agent_version(started_payload.get("system_prompt"),
                                started_payload.get("model"), started_payload.get("tools"))
    tools = sum(1 for e in body if e.event_type == "tool.called")
    # The root's part names the run (its agent, conversation…); a part of children only
    # knew its resource's service name.
    shared: dict[str, Any] = {}
    if started is not None:
        shared["agent_id"] = started.agent_id
        for name in ("conversation_id", "parent_run_id", "trace_id"):
            shared[name] = getattr(started, name) or next(
                (getattr(e, name) for e in ordered if getattr(e, name)), None)
    out: list[Event] = []
    for e, number in numbered:
        payload: Mapping[str, Any] = e.payload
        if e is started:
            payload = started_payload
        elif PART_KEY in payload:
            payload = {k: v for k, v in payload.items() if k != PART_KEY}
        out.append(replace(e, step_index=number, payload=payload,
                           agent_version=version or e.agent_version, **shared))
    for e in terminal:
        final = dict(e.payload)
        if e.event_type == "run.completed":
            final.update(total_steps=step, tool_call_count=tools)
        else:
            final["step_index"] = step
        out.append(replace(e, step_index=step, payload=final,
                           agent_version=version or e.agent_version, **shared))
    out.sort(key=lambda e: (e.step_index, e.timestamp))
    return out
