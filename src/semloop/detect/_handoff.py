"""Detectors across runs of one delegation tree. HANDOFF_CONTEXT_LOSS: a parent agent hands
a sub-task to a child run and drops the facts the child needs. DELEGATION_LOOP: agents
hand work back and forth along the parent chain. Only the server has the other runs."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ..events import Run, Severity, Signal
from ._patterns import entities
from ._registry import Detector, Param, signal
from ._view import view_of

__all__ = ["DELEGATION_LOOP", "HANDOFF_CONTEXT_LOSS", "MAX_CHAIN"]


def _handoff_context_loss(parent: Run, child: Run, p: dict[str, Any]) -> Signal | None:
    if child.parent_run_id != parent.run_id:
        raise ValueError(
            f"run {child.run_id!r} is not a child of {parent.run_id!r} "
            f"(its parent_run_id is {child.parent_run_id!r})")
    pv = view_of(parent)
    handed_at = child.events[0].timestamp if child.events else float("inf")
    context = [pv.input_text]
    for call in pv.calls:
        if call.responded_at is not None and call.responded_at <= handed_at and call.output:
            context.append(call.output)
    parent_chars = sum(len(t) for t in context)
    cv = view_of(child)
    child_text = cv.input_text
    if parent_chars == 0:
        return None
    reduction = 1.0 - len(child_text) / parent_chars
    if reduction <= p["min_reduction"]:
        return None
    # Only the user's own facts count: a sub-task legitimately leaves out most of what
    # the parent's tools returned, but not the order number the user gave.
    seen = (child_text + "\n" + cv.system_prompt).lower()
    lost = [e for e in entities(pv.input_text) if e.lower() not in seen]
    if len(lost) < p["min_lost_entities"]:
        return None
    confidence = min(0.95, 0.7 + 0.1 * (len(lost) - 1))
    return signal(child, "HANDOFF_CONTEXT_LOSS", Severity.HIGH, confidence,
                  [cv.calls[0].step if cv.calls else 0], parent_run_id=parent.run_id,
                  parent_context_chars=parent_chars, child_input_chars=len(child_text),
                  reduction=round(reduction, 3), lost_entities=lost[:20])


HANDOFF_CONTEXT_LOSS = Detector(
    name="HANDOFF_CONTEXT_LOSS",
    check=_handoff_context_loss,
    params=(
        Param("min_reduction", 0.5, "the child's input must be this much smaller than the "
              "parent's context", 0.0, 1.0),
        Param("min_lost_entities", 1, "entities of the user's input missing from the child",
              1, 1000),
    ),
    severity="HIGH",
    rule="the child's input is > min_reduction smaller than the parent's context at handoff "
         "(user input + outputs recorded before the child started) and ≥ min_lost_entities "
         "entities (UUID, email, URL, 3+-digit number) of the parent's user input are missing",
    guards=(("only entities of the parent's user input count: details of the parent's tool "
            "outputs are often rightly left out of a sub-task"),
            "the child's system prompt counts as context it received"),
    cross_run=True,
    server_only=True,
)


#: How far up the parent chain the worker walks (a corrupt cycle of run ids stops too).
MAX_CHAIN = 64


def _cycle(edges: dict[str, list[str]]) -> list[str]:
    """A cycle in the agent graph (three-colour depth-first search), or []."""
    colour: dict[str, int] = {}  # absent white, 1 grey (on the path), 2 black (done)
    for root in edges:
        if colour.get(root):
            continue
        path: list[str] = []
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:
            node, i = stack.pop()
            if i == 0:
                colour[node] = 1
                path.append(node)
            nexts = edges.get(node, [])
            if i < len(nexts):
                stack.append((node, i + 1))
                nxt = nexts[i]
                if colour.get(nxt) == 1:
                    return path[path.index(nxt):]
                if not colour.get(nxt):
                    stack.append((nxt, 0))
            else:
                colour[node] = 2
                path.pop()
    return []


def _delegation_loop(chain: list[Run], p: dict[str, Any]) -> Signal | None:
    if len(chain) < 2:
        return None
    edges: dict[str, list[str]] = {}
    for parent, child in pairwise(chain):
        targets = edges.setdefault(parent.agent_id, [])
        if child.agent_id not in targets:
            targets.append(child.agent_id)
    cycle = _cycle(edges)
    if not cycle:
        return None
    looping = [r for r in chain if r.agent_id in cycle]
    if len(looping) < p["min_loop_runs"]:
        return None
    run = chain[-1]
    cv = view_of(run)
    return signal(run, "DELEGATION_LOOP",
                  Severity.CRITICAL if len(looping) >= p["critical_runs"] else Severity.HIGH,
                  min(0.9, 0.6 + 0.05 * (len(looping) - p["min_loop_runs"] + 1)),
                  [cv.calls[0].step if cv.calls else 0], cycle=[*cycle, cycle[0]],
                  cycle_agents=sorted(set(cycle)), cycle_length=len(cycle),
                  loop_runs=len(looping), chain=[r.run_id for r in chain])


DELEGATION_LOOP = Detector(
    name="DELEGATION_LOOP",
    check=_delegation_loop,
    params=(
        Param("min_loop_runs", 5, "runs in the chain by agents of the cycle", 2, 10_000),
        Param("critical_runs", 7, "looping runs from which the loop is CRITICAL", 2, 10_000),
    ),
    severity="HIGH; CRITICAL from critical_runs looping runs",
    rule="along the parent_run_id chain from the root to this run, agents hand work to each "
         "other in a cycle (A → B → A…) and ≥ min_loop_runs runs of the chain belong to "
         "agents of the cycle",
    guards=(("a supervisor and a worker exchanging twice (4 runs) is ordinary review, not a "
             "loop: the default needs 5"),
            ("the worker walks at most 64 parents and stops at a run id it has seen, so a "
             "corrupt cycle of ids ends the walk")),
    server_only=True,
    lineage=True,
)
