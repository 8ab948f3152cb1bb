"""Claude Code sessions: the transcripts it keeps under
``~/.claude/projects/<project>/<session>.jsonl`` (one JSON object a line), and the lines
``claude -p --output-format stream-json`` prints, which carry the same messages.

A line's ``type`` says what it is. ``assistant`` lines hold an Anthropic API message
(``message.id``, ``model``, ``content`` blocks, ``usage``); one reply is written as one
line per content block, all with the same ``message.id``, so they make one model step:
its ``text`` blocks are its output (its ``thinking`` when it wrote no text), and each
``tool_use`` block (``id``, ``name``, ``input``) is a tool call. ``user`` lines hold either
the user's words (a string or ``text`` blocks: the first is the goal, later ones the input
of the next model step) or ``tool_result`` blocks answering calls by ``tool_use_id``, with
``is_error`` for a failed call. Lines the harness adds for itself (``isMeta``, the summary
that opens a compacted conversation) are not the user's words. Other types (``summary``,
``system``, ``attachment``, ``file-history-snapshot``, …) are not steps, except the
stream's ``system`` ``init`` line (model and tools) and its ``result`` line (the final
answer, the cost, an error ending).

One run per session (``sessionId``, or the stream's ``session_id``). A subagent's lines
(``isSidechain`` with its ``agentId``, as in a session's ``subagents/agent-<id>.jsonl``
files; or the stream's lines with a ``parent_tool_use_id``) are a run of their own whose
parent is the session's run. A model step's prompt tokens are the usage's
``input_tokens`` plus the cache reads and writes (the API counts them apart); the last line
of a reply holds its final usage.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
    mapping,
    message_text,
    planned_calls,
    reject,
    string,
    values,
)

__all__ = ["LINE_TYPES", "convert", "read"]

NAME = "claude-code"

#: Line types of a session transcript or a stream (detection keys on them).
LINE_TYPES = frozenset({"user", "assistant", "summary", "system", "result", "attachment",
                        "file-history-snapshot", "queue-operation", "progress"})


def read(data: bytes | str) -> list[Run]:
    """The runs of a Claude Code transcript; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<claude-code>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    sessions: dict[tuple[str, str], _Session] = {}
    fallback = source.rsplit("/", 1)[-1].removesuffix(".jsonl")
    for line, _, doc in values(data, source, result):
        for where, item in _items(doc):
            try:
                _add(item, sessions, fallback)
            except SHAPE_ERRORS as exc:
                reject(result, exc, source, line, where)
    for session in sessions.values():
        if session.steps or session.goal:
            result.runs.append(build_run(session.draft(), clock=clock))
    return result


def _items(doc: Any) -> list[tuple[str, Any]]:
    # A file that is one JSON value: a list of lines (or a single line).
    return [(f"[{i}]", item) for i, item in enumerate(doc)] if isinstance(doc, list) else [
        ("", doc)]


@dataclass
class _Session:
    """One session's (or one subagent's) steps as its lines arrive."""

    run_id: str
    conversation: str
    parent: str | None = None
    goal: str = ""
    prompt: str = ""
    model: str | None = None
    tools: list[str] = field(default_factory=list)
    output: str | None = None
    error: str | None = None
    steps: list[Step] = field(default_factory=list)
    replies: dict[str, Step] = field(default_factory=dict)
    texts: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    calls: dict[str, Step] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    api_errors: set[str] = field(default_factory=set)

    def draft(self) -> Draft:
        for key, reply in self.replies.items():
            said, thought = self.texts[key]
            reply.output = "\n".join(said or thought) or planned_calls(reply.tool_calls)
            if key in self.api_errors:
                reply.error = str(reply.output) or "API error"
        return Draft(run_id=self.run_id, source=NAME, agent_id="claude-code", goal=self.goal,
                     model=self.model, tools=self.tools, conversation_id=self.conversation,
                     parent_run_id=self.parent, steps=self.steps,
                     output=self.output, errored=self.error is not None, error=self.error,
                     error_type="result" if self.error else None)


def _session(line: Mapping[str, Any], sessions: dict[tuple[str, str], _Session],
             fallback: str) -> _Session:
    sid = string(line.get("sessionId")) or string(line.get("session_id")) or fallback
    agent = ""
    if line.get("isSidechain") is True:
        agent = string(line.get("agentId")) or "sidechain"
    elif line.get("parent_tool_use_id"):
        agent = str(line["parent_tool_use_id"])
    found = sessions.get((sid, agent))
    if found is None:
        found = sessions[(sid, agent)] = _Session(
            run_id=f"{sid}/{agent}" if agent else sid, conversation=sid,
            parent=sid if agent else None)
    return found


def _add(line: Any, sessions: dict[tuple[str, str], _Session], fallback: str) -> None:
    if not isinstance(line, Mapping):
        raise TraceFormatError("a transcript line must be an object")
    kind = line.get("type")
    if not isinstance(kind, str):
        raise TraceFormatError("missing: every line names its type", field="type")
    if kind in ("assistant", "user"):
        session = _session(line, sessions, fallback)
        uuid = string(line.get("uuid"))
        if uuid is not None and uuid in session.seen:
            return  # a resumed session repeats the lines it carried over
        (_assistant if kind == "assistant" else _user)(session, line)
        if uuid is not None:
            session.seen.add(uuid)
    elif kind == "system" and line.get("subtype") == "init":
        session = _session(line, sessions, fallback)
        session.model = string(line.get("model")) or session.model
        session.tools = [str(t) for t in line.get("tools") or [] if isinstance(t, str)]
    elif kind == "result":
        session = _session(line, sessions, fallback)
        session.output = string(line.get("result")) or session.output
        if line.get("is_error") is True or str(line.get("subtype") or "").startswith("error"):
            session.error = string(line.get("result")) or str(line.get("subtype") or "error")


def _message(line: Mapping[str, Any]) -> Mapping[str, Any]:
    message = line.get("message")
    if not isinstance(message, Mapping):
        raise TraceFormatError("missing or not an object", field="message")
    return message


def _blocks(content: Any) -> list[Mapping[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise TraceFormatError("must be a string or a list of blocks", field="message.content")
    return [b for b in content if isinstance(b, Mapping)]


def _assistant(session: _Session, line: Mapping[str, Any]) -> None:
    message = _message(line)
    blocks = _blocks(message.get("content"))
    ts = epoch(line.get("timestamp"), field_name="timestamp")
    key = string(message.get("id")) or string(line.get("uuid")) or str(len(session.steps))
    model = string(message.get("model"))
    if model == "<synthetic>":  # the harness's own words (an API error), not a model's
        model = None
    reply = session.replies.get(key)
    if reply is None:
        reply = session.replies[key] = Step(
            kind="llm", name=model or "llm", step_id=f"m:{key}", start=ts,
            input=session.prompt, output="", model=model or session.model,
            order=len(session.steps))
        session.steps.append(reply)
        session.texts[key] = ([], [])
        session.prompt = ""
    said, thought = session.texts[key]
    said.extend(str(b["text"]) for b in blocks if b.get("type") == "text" and b.get("text"))
    thought.extend(str(b["thinking"]) for b in blocks
                   if b.get("type") == "thinking" and b.get("thinking"))
    if said:
        session.output = "\n".join(said)
    if line.get("isApiErrorMessage") is True:
        session.api_errors.add(key)
    usage = mapping(message.get("usage"))
    if usage:
        cached = sum(integer(usage.get(k)) or 0 for k in ("cache_creation_input_tokens",
                                                          "cache_read_input_tokens"))
        prompt = integer(usage.get("input_tokens"))
        reply.prompt_tokens = None if prompt is None else prompt + cached
        reply.completion_tokens = integer(usage.get("output_tokens"))
    reply.finish_reason = string(message.get("stop_reason")) or reply.finish_reason
    for i, block in enumerate(b for b in blocks if b.get("type") == "tool_use"):
        call_id = string(block.get("id"))
        if call_id is None:
            raise TraceFormatError("missing: a tool_use block has an id",
                                   field=f"message.content[{i}].id")
        name = string(block.get("name")) or "tool"
        arguments = block.get("input") if block.get("input") is not None else {}
        reply.tool_calls.append({"name": name, "arguments": arguments})
        tool = Step(kind="tool", name=name, step_id=f"t:{call_id}", start=ts, input=arguments,
                    output="", order=len(session.steps))
        session.steps.append(tool)
        session.calls[call_id] = tool


def _user(session: _Session, line: Mapping[str, Any]) -> None:
    blocks = _blocks(_message(line).get("content"))
    ts = epoch(line.get("timestamp"), field_name="timestamp")
    results = [b for b in blocks if b.get("type") == "tool_result"]
    for i, block in enumerate(results):
        call_id = str(block.get("tool_use_id") or "")
        tool = session.calls.get(call_id)
        if tool is None:
            raise TraceFormatError(f"answers tool_use {call_id!r}, which no assistant line "
                                   "before it made", field=f"message.content[{i}].tool_use_id")
        tool.end = ts
        tool.output = message_text(block.get("content"))
        if block.get("is_error") is True:
            tool.error = tool.output or "error"
            tool.error_type = "tool_error"
    if results or line.get("isMeta") is True or line.get("isCompactSummary") is True:
        return
    words = "\n".join(str(b.get("text") or "") for b in blocks if b.get("type") == "text")
    if not words:
        return
    if session.goal:
        session.prompt = words
    else:
        session.goal = words
