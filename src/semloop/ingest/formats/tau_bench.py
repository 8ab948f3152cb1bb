"""tau-bench result files: a JSON list of ``{"task_id", "reward", "info", "traj", "trial"}``,
one per task attempt, as ``run.py`` writes them (and ``historical_trajectories/``).

``traj`` is the OpenAI message list of the conversation: the policy as system prompt, the
simulated customer as user messages, the agent's turns and tool results. Each attempt is a
run (``tau-<task_id>-<trial>``); the first customer message is its goal, and later
customer replies are the input of the agent turn that answers them. The reward is kept
in the run's output (``reward=1.0``): semloop does not grade, so it is not a verdict.
ReAct agents (``chat_react_agent``) write their tool calls as ``Action:`` text in the
content, which stays text: no tool steps for them.

Some forks wrap that list with the file's scores, ``{"metrics": {...}, "results": [...]}``;
the runs under such a wrapper are read the same, and a wrapper with no run is an error.

tau2-bench's result files (``{"info", "tasks", "simulations": [...]}``) are read too: each
simulation is a run, its ``messages`` the conversation (the agent greets first; tool calls
carry ``name`` and ``arguments`` at the top, tool results answer them by ``id``) and
the reward from ``reward_info``. The policy, which tau2 keeps out of the messages (in each
simulation's ``policy``, or once in the file's ``info.environment_info``), is the system prompt.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..._exceptions import TraceFormatError
from ...events import Run
from ._common import Draft, Result, convert_records, mapping, reject
from ._messages import chat_steps, goal_and_system

__all__ = ["convert", "read"]

NAME = "tau-bench"


def read(data: bytes | str) -> list[Run]:
    """Runs from a tau-bench result file; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<tau-bench>", clock: float = 0.0) -> Result:
    policy = _file_policy(data)
    result = convert_records(data, source, NAME, lambda raw, _runs: [_draft(raw, policy)],
                             clock=clock, unwrap=("simulations", "results"))
    if not result.runs and not result.rejected and _empty_wrapper(data):
        # An empty result list unwraps to nothing; say so rather than import nothing quietly.
        reject(result, _no_runs(), source, None, "")
    return result


def _no_runs() -> TraceFormatError:
    return TraceFormatError("a tau-bench result wrapper holds no runs (its result list is "
                            "empty or not a list)", field="results")


def _empty_wrapper(data: bytes | str) -> bool:
    try:
        doc = json.loads(data)
    except ValueError:
        return False
    return isinstance(doc, Mapping) and doc.get("results") == []


def _file_policy(data: bytes | str) -> str | None:
    # tau2's result file states the domain's policy once, in info.environment_info; its
    # simulations do not repeat it. The file is parsed a second time only when it has one.
    if (b"environment_info" not in data if isinstance(data, bytes)
            else "environment_info" not in data):
        return None
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    if not isinstance(doc, Mapping):
        return None
    policy = mapping(mapping(doc.get("info")).get("environment_info")).get("policy")
    return policy if isinstance(policy, str) and policy.strip() else None


def _draft(raw: Any, file_policy: str | None = None) -> Draft:
    if not isinstance(raw, Mapping):
        raise TraceFormatError("a tau-bench result must be an object")
    if "results" in raw and "traj" not in raw and "messages" not in raw:
        raise _no_runs()
    field = "traj" if "traj" in raw else "messages"
    traj = raw.get(field)
    if not isinstance(traj, Sequence) or isinstance(traj, str):
        raise TraceFormatError("missing or not a message list", field=field)
    task = raw.get("task_id")
    trial = raw.get("trial", 0)
    info = mapping(raw.get("info"))
    model = None
    goal, system = goal_and_system(traj)
    # tau2 keeps the policy out of the messages: beside them (the leaderboard's files) or
    # once for the whole file.
    policy = raw.get("policy")
    system = system or (policy if isinstance(policy, str) and policy.strip() else file_policy)
    reward = raw.get("reward", mapping(raw.get("reward_info")).get("reward"))
    return Draft(
        run_id=f"tau-{task}-{trial}", source=NAME, agent_id="tau-bench",
        goal=goal, system_prompt=system, model=model,
        conversation_id=str(mapping(info.get("task")).get("user_id") or "") or None,
        steps=chat_steps(traj, model=model),
        output=f"reward={reward}" if reward is not None else None,
    )
