"""OpenHands agent-SDK conversations: the SDK's list of events, as a conversation's
``events`` (a JSON list, or ``{"events"|"items": [...]}``), or its event store
(``…/event_service/events/event-NNNNN-<id>.json``, one event a file) as a folder, as JSON
lines or as the files concatenated (``cat events/*.json``).

Each event has a ``kind``. ``ActionEvent`` is one tool call (``tool_name``,
``tool_call_id``, ``tool_call`` with the arguments, in the chat API's shape
``{"function": {"name", "arguments"}}`` in releases of 2025-09); the calls of one model
reply share an ``llm_response_id`` and make one model step whose text is the ``thought``
(and ``reasoning_content``). ``ObservationEvent`` (``observation``), ``AgentErrorEvent``
(``error``) and ``UserRejectObservation`` (``rejection_reason``) answer a call by
``tool_call_id``; the call failed when the observation says so (``is_error``, an
``error`` flag or message, ``timeout``), when the agent could not run it, or when it was
rejected. A bash command's exit code is the command's result, not a failed call.
``MessageEvent`` is a user message (the first is the goal, later ones the input of the
next model step) or an agent message (a model step). ``SystemPromptEvent`` gives the
system prompt and the tools. Token counts and cost are not in the events: they are read
from the conversation state (``base_state.json``, or a ``ConversationStateUpdateEvent``
with the ``stats``) when it is in the file or the folder, matched by response id.
Condensation and other bookkeeping events are not steps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
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
    integer,
    loads_if_json,
    mapping,
    message_text,
    number,
    planned_calls,
    reject,
    string,
    values,
)

__all__ = ["KINDS", "convert", "read", "read_folder"]

NAME = "openhands"

#: Event kinds that tell an SDK event list from other JSON.
KINDS = frozenset({"ActionEvent", "ObservationEvent", "MessageEvent", "SystemPromptEvent",
                   "AgentErrorEvent", "UserRejectObservation", "Condensation",
                   "CondensationRequest", "CondensationSummaryEvent", "PauseEvent",
                   "ConversationStateUpdateEvent", "ConversationErrorEvent"})
_ANSWERS = ("ObservationEvent", "AgentErrorEvent", "UserRejectObservation")
# The terminal's bracketed-paste and colour codes in bash output are the pty's, not output.
_PTY_CODES = re.compile(r"\x1b\[\??[0-9;]*[A-Za-z]")


def read(data: bytes | str) -> list[Run]:
    """The run of an OpenHands event list; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def read_folder(folder: Path) -> bytes:
    """An event store as one stream of events in file order: ``folder`` is the
    ``events/`` folder or the ``event_service/`` one (whose ``base_state.json`` holds the
    token counts and the model)."""
    events = folder / "events"
    files = sorted(events.glob("*.json")) if events.is_dir() else []
    state = folder / "base_state.json"
    if files and state.is_file():
        files.insert(0, state)
    if not files:
        files = sorted(folder.glob("*.json"))
    if not files:
        raise TraceFormatError("the folder holds no .json event files", source=str(folder))
    return b"\n".join(path.read_bytes() for path in files)


def convert(data: bytes | str, *, source: str = "<openhands>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    conversation = _Conversation()
    for line, where, raw in _events(data, source, result):
        try:
            conversation.add(raw)
        except SHAPE_ERRORS as exc:
            reject(result, exc, source, line, where)
    if conversation.steps or conversation.goal:
        result.runs.append(build_run(conversation.draft(source), clock=clock))
    return result


def _events(data: bytes | str, source: str,
            result: Result) -> Iterator[tuple[int | None, str, Any]]:
    """(line, path, event): a JSON list (or an object listing them), else a stream of JSON
    values, one a line or concatenated as ``cat`` joins the store's files."""
    for line, index, value in values(data, source, result):
        if line is None:
            if isinstance(value, Mapping):
                key = next((k for k in ("events", "items") if isinstance(value.get(k), list)),
                           None)
                value = value[key] if key else [value]
            if isinstance(value, list):
                for i, event in enumerate(value):
                    yield None, f"[{i}]", event
                return
        yield line, f"[{index}]", value


def _parts(value: Any) -> str:
    """Text of a string or a list of content parts (``{"type": "text", "text": …}``)."""
    if value is None or isinstance(value, bool):
        return ""
    return value if isinstance(value, str) else message_text(value)


class _Conversation:
    """One conversation's steps as its events arrive."""

    def __init__(self) -> None:
        self.goal = ""
        self.system: str | None = None
        self.tools: list[str] = []
        self.model: str | None = None
        self.run_id: str | None = None
        self.first_id: str | None = None
        self.output: str | None = None
        self.error: str | None = None
        self.prompt = ""
        self.steps: list[Step] = []
        self.replies: dict[str, Step] = {}
        self.calls: dict[str, Step] = {}
        self.usage: dict[str, Mapping[str, Any]] = {}

    def add(self, event: Any) -> None:
        if not isinstance(event, Mapping):
            raise TraceFormatError("an event must be an object")
        if "stats" in event and "kind" not in event:  # base_state.json
            self._state(event)
            return
        kind = event.get("kind")
        if not isinstance(kind, str) or not kind:
            raise TraceFormatError("missing: every event names its kind", field="kind")
        ts = epoch(event.get("timestamp"), field_name="timestamp")
        self.first_id = self.first_id or string(event.get("id"))
        if kind == "MessageEvent":
            self._message(event, ts)
        elif kind == "ActionEvent":
            self._action(event, ts)
        elif kind in _ANSWERS:
            self._answer(kind, event, ts)
        elif kind == "SystemPromptEvent":
            self.system = _parts(event.get("system_prompt")) or None
            self.tools = [str(n) for n in (mapping(t.get("function")).get("name") or t.get("name")
                                           for t in event.get("tools") or []
                                           if isinstance(t, Mapping)) if n]
        elif kind == "ConversationStateUpdateEvent":
            value = mapping(event.get("value"))
            key = str(event.get("key") or "")
            self._state(value if key == "full_state" else {key: value})
        elif kind == "ConversationErrorEvent":
            self.error = string(event.get("detail")) or string(event.get("code")) or kind

    def _message(self, event: Mapping[str, Any], ts: float | None) -> None:
        message = mapping(event.get("llm_message"))
        if "llm_message" not in event:
            raise TraceFormatError("missing: a MessageEvent holds its llm_message",
                                   field="llm_message")
        body = _parts(message.get("content"))
        if event.get("source") == "user":
            if self.goal:
                self.prompt = body
            else:
                self.goal = body
            return
        self.steps.append(Step(kind="llm", name="llm", step_id=str(event.get("id") or ""),
                               start=ts, input=self.prompt, output=body,
                               meta={"response": event.get("llm_response_id")},
                               order=len(self.steps)))
        self.prompt = ""
        self.output = body or self.output

    def _action(self, event: Mapping[str, Any], ts: float | None) -> None:
        call_id = string(event.get("tool_call_id"))
        if call_id is None:
            raise TraceFormatError("missing: an ActionEvent names its call", field="tool_call_id")
        call = mapping(event.get("tool_call"))
        call = mapping(call.get("function")) or call
        name = string(event.get("tool_name")) or string(call.get("name")) or "tool"
        arguments = loads_if_json(call.get("arguments") or "{}")
        response = str(event.get("llm_response_id") or event.get("id") or call_id)
        reply = self.replies.get(response)
        if reply is None:
            thought = "\n".join(t for t in (_parts(event.get("thought")),
                                            _parts(event.get("reasoning_content"))) if t)
            reply = self.replies[response] = Step(
                kind="llm", name="llm", step_id=f"r:{response}", start=ts, input=self.prompt,
                output=thought, meta={"response": response}, order=len(self.steps))
            self.steps.append(reply)
            self.prompt = ""
        reply.tool_calls.append({"name": name, "arguments": arguments})
        tool = Step(kind="tool", name=name, step_id=f"c:{call_id}", start=ts, input=arguments,
                    output="", order=len(self.steps))
        self.steps.append(tool)
        self.calls[call_id] = tool
        if name == "finish" and isinstance(arguments, Mapping):
            self.output = string(arguments.get("message")) or self.output

    def _answer(self, kind: str, event: Mapping[str, Any], ts: float | None) -> None:
        call_id = str(event.get("tool_call_id") or "")
        tool = self.calls.get(call_id)
        if tool is None:
            raise TraceFormatError(f"answers tool call {call_id!r}, which no ActionEvent "
                                   "before it made", field="tool_call_id")
        tool.end = ts
        if kind == "AgentErrorEvent":
            tool.output = tool.error = _parts(event.get("error")) or kind
            tool.error_type = kind
            return
        if kind == "UserRejectObservation":
            tool.output = tool.error = _parts(event.get("rejection_reason")) or "rejected"
            tool.error_type = "rejected"
            return
        obs = event.get("observation")
        if not isinstance(obs, Mapping):
            raise TraceFormatError("missing or not an object", field="observation")
        texts = (_parts(obs.get(k)) for k in ("output", "content", "message", "error"))
        tool.output = _PTY_CODES.sub("", "\n".join(t for t in texts if t)).strip()
        flag = obs.get("error")
        if obs.get("is_error") is True or flag is True or isinstance(flag, str) and flag:
            tool.error = flag if isinstance(flag, str) and flag else tool.output or "error"
            tool.error_type = string(obs.get("kind")) or "error"
        elif obs.get("timeout") is True:
            tool.error, tool.error_type = tool.output or "timed out", "timeout"

    def _state(self, state: Mapping[str, Any]) -> None:
        """The model, and each model call's tokens and cost by response id."""
        self.run_id = string(state.get("id")) or self.run_id
        llm = mapping(mapping(state.get("agent")).get("llm"))
        self.model = string(llm.get("model")) or self.model
        stats = mapping(state.get("stats"))
        services = mapping(stats.get("usage_to_metrics") or stats.get("service_to_metrics"))
        for metrics in services.values():
            usages = [u for u in mapping(metrics).get("token_usages") or []
                      if isinstance(u, Mapping)]
            costs = [c for c in mapping(metrics).get("costs") or [] if isinstance(c, Mapping)]
            # One cost is recorded per call, in the same order as the token counts.
            for i, usage in enumerate(usages):
                cost = costs[i].get("cost") if len(costs) == len(usages) else None
                self.usage[str(usage.get("response_id") or "")] = {**usage, "cost": cost}

    def draft(self, source: str) -> Draft:
        for step in self.steps:
            if step.kind != "llm":
                continue
            if not step.output and step.tool_calls:
                step.output = planned_calls(step.tool_calls)
            response = str(step.meta.pop("response", "") or "")
            usage = self.usage.get(response)
            if usage:
                step.prompt_tokens = integer(usage.get("prompt_tokens"))
                step.completion_tokens = integer(usage.get("completion_tokens"))
                step.reasoning_tokens = integer(usage.get("reasoning_tokens")) or None
                step.cost_usd = number(usage.get("cost"))
                step.model = string(usage.get("model"))
            step.model = step.model or self.model
        run_id = self.run_id or (f"openhands-{self.first_id}" if self.first_id else (
            f"{source.rsplit('/', 1)[-1]}#0"))
        return Draft(run_id=run_id, source=NAME, agent_id="openhands", goal=self.goal,
                     system_prompt=self.system, model=self.model, tools=self.tools,
                     conversation_id=self.run_id, steps=self.steps, output=self.output,
                     errored=self.error is not None, error=self.error,
                     error_type="ConversationErrorEvent" if self.error else None)

