"""OpenAI Codex CLI rollouts: the session files it keeps under
``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`` (one JSON object a line).

Since Codex CLI 0.2x every line is ``{"timestamp", "type", "payload"}``: ``session_meta``
(the session ``id``, ``cwd``, ``cli_version``, ``base_instructions``), ``turn_context`` (the
``model`` of the turn), ``response_item`` (what went to and came from the model: a
``message`` with a ``role``, ``reasoning``, ``function_call`` / ``custom_tool_call`` /
``local_shell_call`` / ``web_search_call`` and the ``*_output`` answering a ``call_id``) and
``event_msg`` (the UI's events: ``user_message``, ``agent_message``, ``token_count``,
``turn_aborted``, ``error``…). Rollouts of mid 2025 open with a bare header
(``{"id", "timestamp", "instructions"}``) and hold bare response items and
``{"record_type": "state"}`` markers; both are read.

One run per file. The model's items of one request (reasoning, words, the calls it plans)
are one model step: a step ends when a call's output or the user's words arrive. Each
request's usage is a ``token_count`` event whose total changed (Codex repeats the last one);
the n-th such usage is the n-th step's (``last_token_usage``: prompt = ``input_tokens``,
which holds the cached ones, completion = ``output_tokens``, reasoning =
``reasoning_output_tokens``). A call's output failed when it says a non-zero exit code
(``Exit code: N``, ``Process exited with code N``, ``metadata.exit_code``) or
``success: false``. The user's words are the ``user_message`` events when the file has them
(the ``user`` messages also carry the harness's ``<environment_context>`` and AGENTS.md);
otherwise the ``user`` messages that are not such a tagged block.
"""

from __future__ import annotations

import json
import re
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
    exit_code,
    integer,
    mapping,
    message_text,
    planned_calls,
    reject,
    string,
    values,
)

__all__ = ["LINE_TYPES", "convert", "read"]

NAME = "codex"

#: Envelope types of a rollout line (detection keys on them).
LINE_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context",
                        "compacted"})
_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call",
                    "web_search_call"})
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output",
                      "local_shell_call_output"})
# Blocks the harness writes as a user message: <environment_context>, <user_instructions>,
# "# AGENTS.md instructions for …", <turn_aborted>.
_HARNESS = re.compile(r"^\s*(<[a-z_]+>|# AGENTS\.md instructions)")


def read(data: bytes | str) -> list[Run]:
    """The run of a Codex rollout; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<codex>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    stem = source.rsplit("/", 1)[-1].removesuffix(".jsonl")
    lines = [(line, index, doc) for line, index, doc in values(data, source, result)]
    if len(lines) == 1 and lines[0][0] is None and isinstance(lines[0][2], list):
        lines = [(None, i, doc) for i, doc in enumerate(lines[0][2])]  # a JSON list of lines
    session = _Session(run_id=stem, typed=any(_is_user_event(doc) for _, _, doc in lines))
    for line, index, doc in lines:
        try:
            session.add(doc)
        except SHAPE_ERRORS as exc:
            reject(result, exc, source, line, "" if line is not None else f"[{index}]")
    if session.steps or session.goal:
        result.runs.append(build_run(session.draft(), clock=clock))
    return result


def _is_user_event(doc: Any) -> bool:
    return isinstance(doc, Mapping) and doc.get("type") == "event_msg" and mapping(
        doc.get("payload")).get("type") == "user_message"


@dataclass
class _Session:
    """One rollout's steps as its lines arrive."""

    run_id: str
    typed: bool  # the file has user_message events: the user's words come from them
    goal: str = ""
    prompt: str = ""
    system: str | None = None
    parent: str | None = None  # the session that spawned this one (a subagent's)
    model: str | None = None
    when: float | None = None
    output: str | None = None
    error: str | None = None
    error_type: str | None = None
    steps: list[Step] = field(default_factory=list)
    replies: list[Step] = field(default_factory=list)
    texts: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    open: Step | None = None
    calls: dict[str, Step] = field(default_factory=dict)
    usages: list[Mapping[str, Any]] = field(default_factory=list)
    total: Any = None

    def add(self, doc: Any) -> None:
        if not isinstance(doc, Mapping):
            raise TraceFormatError("a rollout line must be an object")
        if "timestamp" in doc:
            self.when = epoch(doc.get("timestamp"), field_name="timestamp") or self.when
        kind = doc.get("type")
        if kind in LINE_TYPES:
            payload = doc.get("payload")
            if not isinstance(payload, Mapping):
                raise TraceFormatError("missing or not an object", field="payload")
            if kind == "session_meta":
                self._meta(payload)
            elif kind == "turn_context":
                self.model = string(payload.get("model")) or self.model
            elif kind == "response_item":
                self._item(payload, "payload.")
            elif kind == "event_msg":
                self._event(payload)
        elif "record_type" in doc:
            return  # a legacy rollout's state marker
        elif isinstance(kind, str):
            self._item(doc, "")  # a legacy rollout's bare response item
        elif "id" in doc and "timestamp" in doc:
            self._meta(doc)  # a legacy rollout's header
        else:
            raise TraceFormatError("missing: a rollout line names its type", field="type")

    def _meta(self, meta: Mapping[str, Any]) -> None:
        self.run_id = string(meta.get("id")) or self.run_id
        base = meta.get("base_instructions")
        self.system = string(mapping(base).get("text") if isinstance(base, Mapping) else base
                             ) or string(meta.get("instructions")) or self.system
        self.model = string(meta.get("model")) or self.model
        spawn = mapping(mapping(mapping(meta.get("source")).get("subagent")).get("thread_spawn"))
        self.parent = string(meta.get("parent_thread_id")) or string(
            spawn.get("parent_thread_id")) or self.parent

    def _item(self, item: Mapping[str, Any], at: str) -> None:
        kind = item.get("type")
        if kind == "message":
            role = item.get("role")
            said = message_text(item.get("content"))
            if role == "assistant":
                words = self.texts[self._reply().step_id][0]
                if said:
                    words.append(said)
                    self.output = said
            elif role == "user" and not self.typed and said and not _HARNESS.match(said):
                self._user(said)
        elif kind == "reasoning":
            thought = [message_text(item.get(k)) for k in ("summary", "content")]
            self.texts[self._reply().step_id][1].extend(t for t in thought if t)
        elif kind in _CALLS:
            self._call(item, at)
        elif kind in _OUTPUTS:
            self._output(item, at)

    def _reply(self) -> Step:
        """The model step now open; opens one when none is."""
        if self.open is None:
            self.open = Step(kind="llm", name=self.model or "llm", step_id=f"m{len(self.replies)}",
                             start=self.when, input=self.prompt, output="", model=self.model,
                             order=len(self.steps))
            self.texts[self.open.step_id] = ([], [])
            self.steps.append(self.open)
            self.replies.append(self.open)
            self.prompt = ""
            self.error = self.error_type = None  # the run went on after it
        return self.open

    def _call(self, item: Mapping[str, Any], at: str) -> None:
        reply = self._reply()
        kind = item["type"]
        call_id = string(item.get("call_id")) or string(item.get("id"))
        if kind == "local_shell_call":
            name, arguments = "local_shell", item.get("action") or {}
        elif kind == "web_search_call":
            name, arguments = "web_search", item.get("action") or {}
        else:
            name = string(item.get("name")) or "tool"
            arguments = item.get("arguments") if kind == "function_call" else item.get("input")
            if isinstance(arguments, str) and kind == "function_call":
                try:
                    arguments = json.loads(arguments)
                except json.JSONDecodeError:
                    pass  # kept as the model wrote it
        if call_id is None and kind != "web_search_call":
            raise TraceFormatError("missing: a call has a call_id", field=f"{at}call_id")
        reply.tool_calls.append({"name": name, "arguments": arguments})
        tool = Step(kind="tool", name=name, step_id=f"t:{call_id or len(self.steps)}",
                    start=self.when, input=arguments, output="", order=len(self.steps))
        self.steps.append(tool)
        if call_id is not None:
            self.calls[call_id] = tool

    def _output(self, item: Mapping[str, Any], at: str) -> None:
        call_id = str(item.get("call_id") or "")
        tool = self.calls.get(call_id)
        if tool is None:
            raise TraceFormatError(f"answers call {call_id!r}, which no earlier line made",
                                   field=f"{at}call_id")
        self.open = None  # the model's next words are another request
        said, failed = _result(item.get("output"))
        tool.end = self.when
        tool.output = said
        if failed:
            tool.error = failed
            tool.error_type = "tool_error"

    def _event(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "user_message" and self.typed:
            said = string(event.get("message"))
            if said:
                self._user(said)
        elif kind == "token_count":
            info = mapping(event.get("info"))
            total = info.get("total_token_usage")
            if info and total != self.total:
                self.total = total
                self.usages.append(mapping(info.get("last_token_usage")) or mapping(total))
        elif kind in ("turn_aborted", "error"):
            self.error_type = str(kind)
            self.error = string(event.get("message")) or string(event.get("reason")) or str(kind)

    def _user(self, said: str) -> None:
        self.open = None
        if self.goal:
            self.prompt = f"{self.prompt}\n{said}" if self.prompt else said
        else:
            self.goal = said

    def draft(self) -> Draft:
        for reply, usage in zip(self.replies, self.usages, strict=False):
            reply.prompt_tokens = integer(usage.get("input_tokens"))
            reply.completion_tokens = integer(usage.get("output_tokens"))
            reply.reasoning_tokens = integer(usage.get("reasoning_output_tokens"))
        for reply in self.replies:
            said, thought = self.texts[reply.step_id]
            reply.output = "\n".join(said or thought) or planned_calls(reply.tool_calls)
        return Draft(run_id=self.run_id, source=NAME, agent_id="codex", goal=self.goal,
                     system_prompt=self.system, model=self.model, parent_run_id=self.parent,
                     conversation_id=self.parent or self.run_id,
                     steps=self.steps, output=self.output, errored=self.error is not None,
                     error=self.error, error_type=self.error_type)


def _result(output: Any) -> tuple[str, str | None]:
    """(text, error) of a call's output: a string (``Exit code: N`` … or the JSON
    ``{"output", "metadata": {"exit_code"}}`` of older releases), or ``{content, success}``."""
    failed: str | None = None
    if isinstance(output, str) and output.startswith("{"):
        try:
            parsed = json.loads(output)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, Mapping) and "output" in parsed:
            code = integer(mapping(parsed.get("metadata")).get("exit_code"))
            said = message_text(parsed.get("output"))
            return said, f"exit code {code}" if code else None
    if isinstance(output, Mapping):
        if output.get("success") is False:
            failed = "failed"
        output = output.get("content")
    said = message_text(output)
    code = exit_code(said)
    if code:
        failed = f"exit code {code}"
    return said, failed
