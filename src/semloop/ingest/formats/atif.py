"""ATIF trajectories (Agent Trajectory Interchange Format, Harbor's ``trajectory.json``,
also written by OpenHands, Terminus and others): ``{"schema_version": "ATIF-v1.x",
"session_id", "agent": {"name", "version", "model_name"}, "steps": [...],
"final_metrics"}``.

A step's ``source`` is ``user``, ``agent`` or ``system``. An agent step is a model step
(``message``, else ``reasoning_content``; ``metrics``: prompt/completion tokens, cost);
each of its ``tool_calls`` (``tool_call_id``, ``function_name``, ``arguments``) is a tool
step whose output is the ``observation.results`` entry with that ``source_call_id`` (or
the results in order). The first user step is the goal, later user steps are the input of
the next agent step. ``subagent_trajectories`` are separate runs with this run as parent;
a ``continued_trajectory_ref`` is not followed (the file it names is not in this one).
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
    epoch,
    integer,
    loads_if_json,
    mapping,
    message_text,
    number,
    planned_calls,
    string,
)

__all__ = ["convert", "read"]

NAME = "atif"


def read(data: bytes | str) -> list[Run]:
    """Runs from ATIF trajectories; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<atif>", clock: float = 0.0) -> Result:
    return convert_records(data, source, NAME, lambda raw, runs: _drafts(raw, source, runs, None),
                           clock=clock, unwrap=("trajectories",))


def _content(value: Any) -> str:
    # Observation content is a string or a list of parts ({"type": "text", "text": …}).
    return message_text(value) if not isinstance(value, (str, type(None))) else (value or "")


def _drafts(raw: Any, source: str, index: int, parent: str | None) -> list[Draft]:
    if not isinstance(raw, Mapping):
        raise TraceFormatError("an ATIF trajectory must be an object")
    steps_raw = raw.get("steps")
    if not isinstance(steps_raw, Sequence) or isinstance(steps_raw, str):
        raise TraceFormatError("missing or not a list of steps", field="steps")
    agent = mapping(raw.get("agent"))
    model = string(agent.get("model_name"))
    run_id = string(raw.get("trajectory_id")) or string(raw.get("session_id")) or (
        f"{source.rsplit('/', 1)[-1]}#{index}")
    goal = ""
    system = None
    prompt = ""
    steps: list[Step] = []
    for i, st in enumerate(steps_raw):
        if not isinstance(st, Mapping):
            raise TraceFormatError("must be an object", field=f"steps[{i}]")
        who = str(st.get("source") or "")
        message = _content(st.get("message"))
        ts = epoch(st.get("timestamp"), field_name=f"steps[{i}].timestamp")
        if who == "system":
            system = system or message or None
            continue
        if who == "user":
            if not goal:
                goal = message
            else:
                prompt = message
            continue
        if who != "agent":
            raise TraceFormatError(f"unknown source {who!r} (user, agent or system)",
                                   field=f"steps[{i}].source")
        metrics = mapping(st.get("metrics"))
        calls = [c for c in st.get("tool_calls") or [] if isinstance(c, Mapping)]
        planned = [{"name": str(c.get("function_name") or "tool"),
                    "arguments": loads_if_json(c.get("arguments"))} for c in calls]
        body = message or _content(st.get("reasoning_content"))
        steps.append(Step(
            kind="llm", name=string(st.get("model_name")) or model or "llm",
            step_id=f"s{st.get('step_id', i)}", start=ts, input=prompt,
            output=body or planned_calls(planned), model=string(st.get("model_name")) or model,
            prompt_tokens=integer(metrics.get("prompt_tokens")),
            completion_tokens=integer(metrics.get("completion_tokens")),
            cost_usd=number(metrics.get("cost_usd")), tool_calls=planned, order=len(steps)))
        prompt = ""
        results = [r for r in mapping(st.get("observation")).get("results") or []
                   if isinstance(r, Mapping)]
        by_id = {str(r.get("source_call_id")): r for r in results if r.get("source_call_id")}
        loose = [r for r in results if not r.get("source_call_id")]
        for k, (c, p) in enumerate(zip(calls, planned)):
            found = by_id.pop(str(c.get("tool_call_id") or ""), None)
            if found is None and loose:
                found = loose.pop(0)
            steps.append(Step(
                kind="tool", name=p["name"], step_id=f"s{st.get('step_id', i)}c{k}", start=ts,
                input=p["arguments"], output=_content(found.get("content")) if found else "",
                order=len(steps)))
        if not calls and results:
            # Observations without a call (a harness's own feedback): the next step's input.
            prompt = "\n".join(_content(r.get("content")) for r in results)
    draft = Draft(run_id=run_id, source=NAME, agent_id=string(agent.get("name")) or "atif",
                  goal=goal, system_prompt=system, model=model, steps=steps,
                  parent_run_id=parent)
    out = [draft]
    for k, sub in enumerate(raw.get("subagent_trajectories") or []):
        out.extend(_drafts(sub, source, k, run_id))
    return out

