"""Alert policies and de-duplication: pure functions of one signal and the agent's history.

A policy says when a failure type is worth a message: ``immediate`` (every run that has it),
``consecutive`` (the last N runs of the agent all had it) or ``frequency`` (N of the last M
runs had it). De-duplication then keeps one open alert per (org, agent, failure type); see
:func:`decide` for when an alert closes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .._exceptions import ConfigError
from ._route import severity_rank
from .records import AlertDecision, LastAlert, PastSignal, RunOutcome, UndecidedSignal

__all__ = [
    "DEFAULT_CONFIDENCE_FLOOR",
    "DEFAULT_COOLDOWN_S",
    "DEFAULT_POLICIES",
    "MODES",
    "AlertPolicy",
    "decide",
    "eligible",
    "policy_holds",
]

MODES = ("immediate", "consecutive", "frequency", "off")

#: A semantic signal below this confidence is stored but never alerted (reference §9, §12).
DEFAULT_CONFIDENCE_FLOOR = 0.6
#: An open alert closes this long after it was sent, even if the failure goes on.
DEFAULT_COOLDOWN_S = 3600.0


@dataclass(frozen=True)
class AlertPolicy:
    """When a failure type alerts. ``threshold`` runs out of the last ``window`` runs."""

    mode: str = "immediate"
    threshold: int = 1
    window: int = 1
    confidence_floor: float = DEFAULT_CONFIDENCE_FLOOR

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"unknown mode {self.mode!r} (known: {', '.join(MODES)})",
                              key="mode")
        if self.threshold < 1:
            raise ConfigError("must be at least 1", key="threshold")
        if self.window < self.threshold:
            raise ConfigError(f"must be at least threshold ({self.threshold})", key="window")
        if not 0.0 <= self.confidence_floor <= 1.0:
            raise ConfigError("must be between 0 and 1", key="confidence_floor")

    @property
    def label(self) -> str:
        if self.mode in ("immediate", "off"):
            return self.mode
        return f"{self.mode} {self.threshold}/{self.window}"


_IMM = AlertPolicy("immediate", 1, 1)
_CONS = AlertPolicy("consecutive", 2, 10)
_FREQ = AlertPolicy("frequency", 3, 10)

#: The reference's alert policy per detector (§5; the newer eleven from Dunetrace's yml,
#: where a detector with no alert_policy alerts immediately), plus the loop detectors.
DEFAULT_POLICIES: Mapping[str, AlertPolicy] = {
    **dict.fromkeys(
        ["SLOW_STEP", "TOOL_AVOIDANCE", "RAG_EMPTY_RETRIEVAL", "CONTEXT_BLOAT",
         "STEP_COUNT_INFLATION", "REASONING_STALL", "SESSION_LATENCY"], _FREQ),
    **dict.fromkeys(
        ["GOAL_ABANDONMENT", "TOOL_LOOP", "TOOL_THRASHING", "LLM_TRUNCATION_LOOP",
         "RETRY_STORM", "EMPTY_LLM_RESPONSE", "CASCADING_TOOL_FAILURE", "UNREAD_TOOL_ERROR",
         "AGENT_LOOP", "SEMANTIC_LOOP", "OVERSIZED_TOOL_ARGUMENTS", "SILENT_TRUNCATION",
         "MODEL_FALLBACK_DRIFT"], _CONS),
    **dict.fromkeys(
        ["FIRST_STEP_FAILURE", "COST_SPIKE", "PROMPT_INJECTION_SIGNAL",
         "PREMATURE_TERMINATION", "TOOL_ARGUMENT_FABRICATION", "RETRIEVED_CONTENT_INJECTION",
         "HANDOFF_CONTEXT_LOSS", "RUNAWAY_ITERATION", "EXCESSIVE_RETRIEVAL",
         "AGENT_HANDOFF_FAILURE", "MEMORY_POISONING", "DELEGATION_LOOP",
         "UNGROUNDED_DESTINATION", "UNRESOLVED_AMBIGUITY", "INSTRUMENTATION_DEGRADED",
         "SCATTERSHOT_TOOL_USE"], _IMM),
}


def eligible(signal: PastSignal | UndecidedSignal, floor: float) -> bool:
    """Whether a signal may count towards an alert: live, and (if semantic) at its floor."""
    if signal.shadow:
        return False
    return signal.source == "structural" or signal.confidence >= floor


def _flags(history: Sequence[RunOutcome], floor: float) -> list[bool]:
    return [any(eligible(s, floor) for s in run.signals) for run in history]


def _matching(policy: AlertPolicy, flags: Sequence[bool]) -> int:
    window = flags[:policy.window]
    if policy.mode == "frequency":
        return sum(window)
    streak = 0
    for failed in window:
        if not failed:
            break
        streak += 1
    return streak


def policy_holds(policy: AlertPolicy, flags: Sequence[bool]) -> bool:
    """Whether the policy fires on a history of runs (newest first; True = had the failure)."""
    if policy.mode == "off" or not flags or not flags[0]:
        return False
    return _matching(policy, flags) >= policy.threshold


def decide(
    signal: UndecidedSignal,
    policy: AlertPolicy,
    history: Sequence[RunOutcome],
    last_alert: LastAlert | None,
    *,
    now: float,
    cooldown_s: float = DEFAULT_COOLDOWN_S,
    complete: bool = True,
) -> AlertDecision:
    """The verdict on one signal.

    ``history`` is the agent's runs, newest first, starting with the signal's own run, each
    with its signals of this failure type. ``last_alert`` is the newest alert already sent
    for (org, agent, failure type). The de-duplication rule: that alert is **open** until

    - ``cooldown_s`` has passed since it was sent, or
    - the condition cleared: some run that ended after the alerted run, before this one, did
      not satisfy the policy (for ``immediate``: a run without the failure; for
      ``consecutive``: a run that broke the streak; for ``frequency``: a run at which fewer
      than N of the last M runs had it, whether or not that run had it itself);

    and while it is open, a signal that satisfies the policy is ``deduplicated``, unless its
    severity is above the open alert's: then it is alerted again (an escalation).
    ``complete`` says the history holds every earlier run of the agent (it was not cut at a
    limit); when it was cut, a run too close to the cut to judge never clears the alert.
    """
    def verdict(decision: str, reason: str, **counts: object) -> AlertDecision:
        return AlertDecision(signal.id, decision, reason, policy.label, counts)

    if signal.shadow:
        return verdict("shadow", "shadow signals are never alerted")
    if not eligible(signal, policy.confidence_floor):
        return verdict("below_floor",
                       f"confidence {signal.confidence:.2f} is below the "
                       f"{signal.failure_type} floor {policy.confidence_floor:.2f}",
                       confidence_floor=policy.confidence_floor)
    if not history or history[0].run_id != signal.run_id:
        # The signal itself is the newest evidence whatever the store found.
        history = [RunOutcome(signal.run_id, float("inf"),
                              [PastSignal(signal.source, signal.confidence, False)]),
                   *[r for r in history if r.run_id != signal.run_id]]
    flags = _flags(history, policy.confidence_floor)
    counts = {
        "policy": policy.mode,
        "threshold": policy.threshold,
        "window": policy.window,
        "matching_runs": _matching(policy, flags),
        "runs_considered": min(len(flags), policy.window),
    }
    if policy.mode == "off":
        return verdict("below_policy", "alerts are off for this failure type", **counts)
    if not policy_holds(policy, flags):
        return verdict("below_policy",
                       f"{counts['matching_runs']} of the last {counts['runs_considered']} "
                       f"runs; {policy.label} needs {policy.threshold}", **counts)
    if (last_alert is not None and now - last_alert.created_at < cooldown_s
            and not _cleared(policy, history, flags, last_alert, complete)):
        if severity_rank(signal.severity) > severity_rank(last_alert.severity):
            # Worse than what was sent: a route that waits for this severity (a pager
            # at critical) has heard nothing yet.
            return verdict("alerted", f"{policy.label} satisfied; escalated from "
                           f"{last_alert.severity} to {signal.severity}",
                           escalated_from=last_alert.id, **counts)
        return verdict("deduplicated",
                       f"alert {last_alert.id} (run {last_alert.run_id}) is still open",
                       open_alert=last_alert.id, **counts)
    return verdict("alerted", f"{policy.label} satisfied", **counts)


def _cleared(policy: AlertPolicy, history: Sequence[RunOutcome], flags: Sequence[bool],
             last: LastAlert, complete: bool) -> bool:
    if history[0].ended_at <= last.run_ended_at:
        return False  # this run is older news than the open alert
    # Runs a policy reads at one point: the streak for consecutive, the window for frequency.
    needed = policy.window if policy.mode == "frequency" else policy.threshold
    for i in range(1, len(history)):
        if history[i].run_id == last.run_id or history[i].ended_at <= last.run_ended_at:
            break
        if not complete and i + needed > len(history):
            break
        if not _condition(policy, flags[i:]):
            return True
    return False


def _condition(policy: AlertPolicy, flags: Sequence[bool]) -> bool:
    # Whether the failure is still going on at a run. For frequency that is the window's
    # count alone (a clean run inside a bad window does not end it); for the others a
    # clean run does.
    if policy.mode == "frequency":
        return _matching(policy, flags) >= policy.threshold
    return policy_holds(policy, flags)
