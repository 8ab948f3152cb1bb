"""SWE-agent trajectories (``*.traj``): ``{"trajectory": [...], "history": [...],
"info": {...}, "environment": …}``.

Each ``trajectory`` item is one turn: ``thought`` (or ``response``) is the model step, and
``action`` is what SWE-agent ran in its shell session with ``observation`` as the output:
a ``bash`` tool step whose input is ``{"command": action}``, whatever the action
(``open``, ``edit``, ``python x.py``, ``submit``): SWE-agent's commands are shell
commands of its interface. ``history`` (the chat sent to the model) gives the task (its
first user message after the demonstrations) and the system prompt; per-turn token counts
are not in the file (``info.model_stats`` has totals only). ``info.exit_status`` other than
``submitted`` marks the run errored; ``info.submission`` (the diff) is its output.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._exceptions import TraceFormatError
from ...events import Run
from ._common import (
    Draft,
    Result,
    Step,
    convert_records,
    mapping,
    message_text,
    number,
    role_of,
    string,
    text,
)

__all__ = ["convert", "read"]

NAME = "swe-agent"


def read(data: bytes | str) -> list[Run]:
    """Runs from SWE-agent trajectories; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<swe-agent>", clock: float = 0.0) -> Result:
    return convert_records(data, source, NAME, lambda raw, runs: [_draft(raw, source, runs)],
                           clock=clock)


def _goal(history: Any) -> tuple[str, str | None]:
    if not isinstance(history, Sequence) or isinstance(history, str):
        return "", None
    system = next((message_text(m) for m in history if role_of(m) == "system"), None)
    # Demonstrations are user messages marked is_demo; the task is the first other one.
    goal = next((message_text(m) for m in history if role_of(m) == "user"
                 and not (isinstance(m, Mapping) and m.get("is_demo"))), "")
    return goal, system or None


def _draft(raw: Any, source: str, index: int) -> Draft:
    if not isinstance(raw, Mapping):
        raise TraceFormatError("a SWE-agent trajectory must be an object")
    traj = raw.get("trajectory")
    if not isinstance(traj, Sequence) or isinstance(traj, str):
        raise TraceFormatError("missing or not a list of turns", field="trajectory")
    info = mapping(raw.get("info"))
    goal, system = _goal(raw.get("history"))
    model = string(mapping(info.get("model_stats")).get("model"))
    steps: list[Step] = []
    for i, turn in enumerate(traj):
        if not isinstance(turn, Mapping):
            raise TraceFormatError("must be an object", field=f"trajectory[{i}]")
        thought = text(turn.get("thought") or turn.get("response") or "")
        action = text(turn.get("action") or "").strip()
        steps.append(Step(kind="llm", name="llm", step_id=f"t{i}", input="", output=thought
                          or action, model=model, order=len(steps),
                          tool_calls=[{"name": "bash", "arguments": {"command": action}}]
                          if action else []))
        if action:
            seconds = number(turn.get("execution_time"))
            steps.append(Step(kind="tool", name="bash", step_id=f"a{i}",
                              input={"command": action}, output=text(turn.get("observation")),
                              order=len(steps), meta={"execution_time": seconds}))
    status = str(info.get("exit_status") or "")
    errored = bool(status) and not status.lower().startswith("submitted")
    run_id = string(raw.get("instance_id")) or string(info.get("instance_id")) or (
        f"{source.rsplit('/', 1)[-1]}#{index}")
    return Draft(
        run_id=run_id, source=NAME, agent_id="swe-agent", goal=goal, system_prompt=system,
        model=model, steps=steps, output=info.get("submission"), errored=errored,
        error=status if errored else None, error_type=status if errored else None,
    )
