"""Chat message lists (OpenAI's shape) as steps: what tau-bench result files and
mini-swe-agent trajectories hold.

An assistant message is a model step (its text, or ``name(arguments)`` when it only calls
tools); each tool call becomes a tool step whose output is the ``tool`` message answering
it (matched by ``tool_call_id``, or tau2's ``id``, else by order). A user message after
the first is the input of the next model step: the customer's reply, or the environment's observation.
A harness that runs the command written in the text (mini-swe-agent before tool calling,
one fenced ``bash`` block per turn) gets a ``bash`` tool step whose output is the next
user message; a reply with no block or several is refused by that harness (nothing runs),
and gets a ``format_error`` step, with no input, whose output is the refusal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ._common import Step, loads_if_json, mapping, message_text, planned_calls, role_of

__all__ = ["chat_steps", "goal_and_system"]

#: The tool step of a reply the harness refused for holding no command or more than one.
REFUSED = "format_error"
_FENCED = re.compile(r"```(?:bash|sh|shell)\s*\n(.*?)```", re.DOTALL)


def goal_and_system(messages: Sequence[Any]) -> tuple[str, str | None]:
    """The first user message (the task) and the system prompt."""
    goal = next((message_text(m) for m in messages if role_of(m) == "user"), "")
    system = next((message_text(m) for m in messages if role_of(m) == "system"), None)
    return goal, system or None


def _calls(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for call in message.get("tool_calls") or []:
        if not isinstance(call, Mapping):
            continue
        fn = mapping(call.get("function"))
        name = fn.get("name") or call.get("name") or "tool"
        args = loads_if_json(fn.get("arguments", call.get("arguments", call.get("args"))))
        out.append({"id": str(call.get("id") or ""), "name": str(name), "arguments": args})
    return out


def chat_steps(messages: Sequence[Any], *, model: str | None = None,
               text_commands: bool = False) -> list[Step]:
    """Steps of one conversation, in order. ``text_commands``: the harness runs the fenced
    shell block of an assistant message that calls no tool, and answers with a user message."""
    steps: list[Step] = []
    pending: dict[str, Step] = {}  # tool_call_id -> its tool step, until answered
    unanswered: list[Step] = []
    awaiting_text_output: Step | None = None
    prompt = ""
    seen_user = False
    for m in messages:
        role = role_of(m)
        if not isinstance(m, Mapping):
            continue
        if role == "user":
            content = message_text(m)
            if awaiting_text_output is not None:
                awaiting_text_output.output = content
                awaiting_text_output = None
            elif seen_user:
                prompt = content
            seen_user = True
            continue
        if role == "assistant":
            calls = _calls(m)
            body = message_text(m)
            planned = [{"name": c["name"], "arguments": c["arguments"]} for c in calls]
            steps.append(Step(kind="llm", name=model or "llm", input=prompt,
                              output=body or planned_calls(planned), model=model,
                              tool_calls=planned, order=len(steps)))
            prompt = ""
            for c in calls:
                tool = Step(kind="tool", name=c["name"], input=c["arguments"], output="",
                            order=len(steps))
                steps.append(tool)
                if c["id"]:
                    pending[c["id"]] = tool
                unanswered.append(tool)
            if not calls and text_commands:
                blocks = _FENCED.findall(body or "")
                if len(blocks) == 1:
                    tool = Step(kind="tool", name="bash", input={"command": blocks[0].strip()},
                                output="", order=len(steps))
                else:
                    # The harness runs exactly one block; any other reply is refused and
                    # nothing runs. Its answer is the observation of a refused reply, not
                    # of the first command written in it.
                    tool = Step(kind="tool", name=REFUSED, input={}, output="", order=len(steps))
                steps.append(tool)
                awaiting_text_output = tool
            continue
        if role == "tool" or m.get("tool_call_id"):
            call_id = str(m.get("tool_call_id") or m.get("id") or "")  # tau2: its call's id
            target = pending.pop(call_id, None) if call_id else None
            if target is None and unanswered:
                target = unanswered[0]
            if target is None:
                continue
            if target in unanswered:
                unanswered.remove(target)
            target.output = message_text(m)
    if awaiting_text_output is not None and awaiting_text_output.name == REFUSED:
        steps.remove(awaiting_text_output)  # the run ended on a reply with no command
    return steps
