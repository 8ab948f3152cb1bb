"""Gemini CLI chat recordings: the sessions it keeps under
``~/.gemini/tmp/<project>/chats/session-<time>-<id>.json`` (since 0.6; one JSON document)
or ``….jsonl`` (since the recording was made append-only, 2026: a header line, then one
line a message).

The document is ``{"sessionId", "projectHash", "startTime", "lastUpdated", "messages": [...],
"summary"?, "kind"?}``; the JSON lines file holds the same header, then messages, a message
written again with the same ``id`` when it changes (the later line wins), ``{"$set": {...}}``
updates of the header (a ``messages`` list there replaces the messages) and
``{"$rewindTo": id}`` (the messages from that one on are dropped).

A message's ``type`` says whose it is: ``user`` (``content`` a string or Gemini ``parts``:
the first is the goal, later ones the input of the next model step), ``gemini`` (one model
step: its text, else its ``thoughts``; ``model``; ``tokens`` {input, output, cached,
thoughts, tool, total}: prompt = ``input``, which holds the cached ones, completion =
``output``, reasoning = ``thoughts``; each of its ``toolCalls`` {id, name, args, result,
status} a tool call whose result is the ``functionResponse`` parts' ``response``, failed
when ``status`` is ``error`` or ``cancelled``), ``error`` (the CLI's error: the run ends
errored when no model step follows it), ``info`` and ``warning`` (the CLI's notes, not steps).
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
    exit_code,
    integer,
    mapping,
    message_text,
    planned_calls,
    reject,
    string,
    text,
    values,
)

__all__ = ["convert", "is_recording", "read"]

NAME = "gemini-cli"

#: Keys of a recording's document or header line besides ``sessionId`` (detection keys on
#: them; a message line has ``type`` instead).
_HEADER_KEYS = frozenset({"projectHash", "messages", "startTime"})


def read(data: bytes | str) -> list[Run]:
    """The run of a Gemini CLI chat recording; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<gemini-cli>",
            clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    header: dict[str, Any] = {}
    # id → (line, field path, message); a message written again replaces its first place
    messages: dict[str, tuple[int | None, str, Any]] = {}
    for line, _, doc in values(data, source, result):
        try:
            _apply(doc, line, header, messages)
        except SHAPE_ERRORS as exc:
            reject(result, exc, source, line, "")
    draft = _Session(string(header.get("sessionId")) or
                   source.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    for line, where, message in messages.values():
        try:
            draft.add(message)
        except SHAPE_ERRORS as exc:
            reject(result, exc, source, line, where)
    if draft.steps or draft.goal:
        result.runs.append(build_run(draft, clock=clock))
    result.rejected.sort(key=lambda e: e.line or 0)  # messages are read after their lines
    return result


def _apply(doc: Any, line: int | None, header: dict[str, Any],
           messages: dict[str, tuple[int | None, str, Any]]) -> None:
    if not isinstance(doc, Mapping):
        raise TraceFormatError("a recording line must be an object")
    if "$rewindTo" in doc:
        target = str(doc["$rewindTo"])
        if target not in messages:
            raise TraceFormatError(f"rewinds to message {target!r}, which no line before "
                                   "it wrote", field="$rewindTo")
        keys = list(messages)
        for key in keys[keys.index(target):]:
            del messages[key]
        return
    if all(str(k).startswith("$") for k in doc) and "$set" not in doc:
        return  # another control record of the log: it writes no message
    update = doc.get("$set")
    if isinstance(update, Mapping) or is_recording(doc):
        fields = update if isinstance(update, Mapping) else doc
        if "messages" in fields:
            if not isinstance(fields["messages"], list):
                raise TraceFormatError("must be a list", field="messages")
            prefix = "$set.messages" if fields is update else "messages"
            messages.clear()
            for i, message in enumerate(fields["messages"]):
                _keep(message, line, f"{prefix}[{i}]", messages)
        header.update((k, v) for k, v in fields.items() if k != "messages")
        return
    _keep(doc, line, "", messages)


def is_recording(doc: Mapping[str, Any]) -> bool:
    """A recording's document, or the header line of its JSON lines form."""
    return "sessionId" in doc and "type" not in doc and bool(_HEADER_KEYS & set(doc))


def _keep(message: Any, line: int | None, where: str,
          messages: dict[str, tuple[int | None, str, Any]]) -> None:
    key = string(mapping(message).get("id")) or f"#{len(messages)}"
    messages[key] = (line, where, message)


class _Session(Draft):
    """One session's run as its messages are read."""

    def __init__(self, session: str) -> None:
        super().__init__(run_id=session, source=NAME, agent_id="gemini-cli",
                         conversation_id=session)
        self.prompt = ""

    def add(self, message: Any) -> None:
        if not isinstance(message, Mapping):
            raise TraceFormatError("a message must be an object")
        kind = message.get("type")
        if not isinstance(kind, str):
            raise TraceFormatError("missing: every message names its type", field="type")
        ts = epoch(message.get("timestamp"), field_name="timestamp")
        said = message_text(message.get("content"))
        if kind == "user":
            # displayContent: what the user typed, when the CLI sent more (a file's text)
            said = message_text(message.get("displayContent")) or said
            if not said:
                return
            if self.goal:
                self.prompt = f"{self.prompt}\n{said}" if self.prompt else said
            else:
                self.goal = said
        elif kind in ("gemini", "model"):
            self._reply(message, said, ts)
        elif kind == "error":
            self.errored, self.error, self.error_type = True, said or "error", "error"

    def _reply(self, message: Mapping[str, Any], said: str, ts: float | None) -> None:
        model = string(message.get("model"))
        tokens = mapping(message.get("tokens"))
        reply = Step(kind="llm", name=model or "llm",
                     step_id=f"m:{string(message.get('id')) or len(self.steps)}", start=ts,
                     input=self.prompt, model=model, order=len(self.steps),
                     prompt_tokens=integer(tokens.get("input")),
                     completion_tokens=integer(tokens.get("output")),
                     reasoning_tokens=integer(tokens.get("thoughts")))
        self.prompt = ""
        self.errored, self.error, self.error_type = False, None, None  # it went on
        self.model = self.model or model
        self.steps.append(reply)
        calls = message.get("toolCalls") or []
        if not isinstance(calls, list):
            raise TraceFormatError("must be a list", field="toolCalls")
        for i, call in enumerate(calls):
            if not isinstance(call, Mapping):
                raise TraceFormatError("a tool call must be an object", field=f"toolCalls[{i}]")
            name = string(call.get("name")) or "tool"
            arguments = call.get("args") if call.get("args") is not None else {}
            reply.tool_calls.append({"name": name, "arguments": arguments})
            output, error = _result(call)
            status = string(call.get("status"))
            end = epoch(call.get("timestamp"), field_name=f"toolCalls[{i}].timestamp")
            self.steps.append(Step(
                kind="tool", name=name, step_id=f"t:{string(call.get('id')) or reply.step_id}",
                start=ts, end=end if end is not None and ts is not None and end >= ts else None,
                input=arguments, output=output, order=len(self.steps),
                error=error or status if status in ("error", "cancelled") or error else None,
                error_type=status if status in ("error", "cancelled") else (
                    "tool_error" if error else None)))
        thoughts = [": ".join(t for t in (string(th.get("subject")), string(th.get("description")))
                              if t) for th in message.get("thoughts") or []
                    if isinstance(th, Mapping)]
        reply.output = said or "\n".join(t for t in thoughts if t) or planned_calls(
            reply.tool_calls)
        if said:
            self.output = said


def _result(call: Mapping[str, Any]) -> tuple[str, str | None]:
    """(output, error) of a tool call: its ``functionResponse`` parts' ``response``
    (``output`` / ``error``), else what the CLI displayed."""
    said: list[str] = []
    error: str | None = None
    parts = call.get("result")
    for part in parts if isinstance(parts, list) else []:
        response = mapping(mapping(mapping(part).get("functionResponse")).get("response"))
        if "error" in response:
            error = string(response.get("error"))
            said.append(error or "")
        elif "output" in response:
            said.append(message_text(response.get("output")))
        elif response:
            said.append(text(response))
        elif isinstance(mapping(part).get("text"), str):
            said.append(str(part["text"]))
    output = "\n".join(s for s in said if s)
    if not output:
        output = message_text(call.get("resultDisplay"))
    code = exit_code(output)
    return output, error or (f"exit code {code}" if code else None)
