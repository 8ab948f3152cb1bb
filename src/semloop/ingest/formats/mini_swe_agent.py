"""mini-swe-agent trajectories (``*.traj.json``): ``{"info", "messages",
"trajectory_format": "mini-swe-agent-1…"}``.

``messages`` is the chat: system prompt, the task as the first user message, then the
agent's turns. Since 1.1 every command is a ``bash`` tool call answered by a ``tool``
message (``<returncode>…</returncode><output>…</output>``); before that the command was a
fenced ``bash`` block in the assistant's text and the next user message was its output,
and both become a ``bash`` tool step. The final ``exit`` message (the submitted diff) is
the run's output; ``info.exit_status`` other than ``Submitted`` marks the run errored.
Token counts per turn are not in the file (only ``info.model_stats``: total cost and
calls), so steps carry none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._exceptions import TraceFormatError
from ...events import Run
from ._common import (
    Draft,
    Result,
    convert_records,
    mapping,
    message_text,
    role_of,
    string,
)
from ._messages import chat_steps, goal_and_system

__all__ = ["convert", "read"]

NAME = "mini-swe-agent"


def read(data: bytes | str) -> list[Run]:
    """Runs from mini-swe-agent trajectories; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<mini-swe-agent>", clock: float = 0.0) -> Result:
    return convert_records(data, source, NAME, lambda raw, runs: [_draft(raw, source, runs)],
                           clock=clock)


def _draft(raw: Any, source: str, index: int) -> Draft:
    if not isinstance(raw, Mapping):
        raise TraceFormatError("a mini-swe-agent trajectory must be an object")
    messages = raw.get("messages")
    if not isinstance(messages, Sequence) or isinstance(messages, str):
        raise TraceFormatError("missing or not a message list", field="messages")
    info = mapping(raw.get("info"))
    config = mapping(info.get("config"))
    model = string(mapping(config.get("model")).get("model_name")) or string(
        info.get("model_name"))
    goal, system = goal_and_system(messages)
    exit_msg = next((m for m in reversed(messages) if role_of(m) == "exit"), None)
    status = str(info.get("exit_status") or "")
    errored = bool(status) and status.lower() not in ("submitted", "")
    run_id = string(raw.get("instance_id")) or f"{source.rsplit('/', 1)[-1]}#{index}"
    return Draft(
        run_id=run_id, source=NAME, agent_id="mini-swe-agent", goal=goal,
        system_prompt=system, model=model,
        steps=chat_steps(messages, model=model, text_commands=True),
        output=(message_text(exit_msg) if exit_msg is not None else info.get("submission")),
        errored=errored, error=status if errored else None,
        error_type=status if errored else None,
    )
