"""HANDOFF_CONTEXT_LOSS: a parent agent hands a sub-task to a child run and drops the
facts the child needs. Cross-run, so only the server (which has both runs) runs it."""

from __future__ import annotations

from typing import Any

from ..events import Run, Severity, Signal
from ._patterns import entities
from ._registry import Detector, Param, signal
from ._view import view_of

__all__ = ["HANDOFF_CONTEXT_LOSS"]


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
