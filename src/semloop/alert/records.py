"""The records the alert decision reads and writes. Plain data, standard library only.

The store builds the inputs (one signal, the agent's recent runs, its last alert) and
stores the output; everything between is a pure function in ``_policy``. Public, because
they are the contract between the store and the alerts worker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DECISIONS",
    "AlertDecision",
    "Delivery",
    "LastAlert",
    "PastSignal",
    "PendingDelivery",
    "RunOutcome",
    "StoredAlert",
    "StoredDelivery",
    "UndecidedSignal",
]

#: What happened to a signal the alerts worker considered (``failure_signals.alert_decision``).
#: ``error`` marks a signal the decision raised on (logged); ``preexisting`` a signal stored
#: before the alerts tables existed.
DECISIONS = ("alerted", "deduplicated", "below_policy", "below_floor", "shadow", "error",
             "preexisting")


@dataclass(frozen=True)
class UndecidedSignal:
    """A stored signal awaiting its alert verdict: the row id, the org, and the signal.

    Flat, unlike :class:`semloop.store.StoredSignal`, because routing and the payloads
    read it as a :class:`~semloop.alert.Routable`; it carries the org's name for them."""

    id: int
    org_id: str
    org_name: str
    run_id: str
    agent_id: str
    agent_version: str
    failure_type: str
    source: str
    severity: str
    confidence: float
    evidence: Mapping[str, Any]
    step_index: int
    shadow: bool
    detected_at: float


@dataclass(frozen=True)
class PastSignal:
    """One signal of the same failure type on a run in the agent's history."""

    source: str
    confidence: float
    shadow: bool


@dataclass(frozen=True)
class RunOutcome:
    """One run of the agent, newest first in a history: when it ended, and its signals of
    the failure type being decided (empty when the run did not have it)."""

    run_id: str
    ended_at: float
    signals: Sequence[PastSignal] = ()


@dataclass(frozen=True)
class LastAlert:
    """The newest alert already sent for the same (org, agent, failure type)."""

    id: int
    run_id: str
    created_at: float
    run_ended_at: float
    severity: str  # of the signal it was opened for


@dataclass(frozen=True)
class Delivery:
    """One message to send: the destination's name and the body to POST."""

    destination: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class AlertDecision:
    """The verdict on one signal. ``deliveries`` is non-empty only when ``decision`` is
    ``alerted``; ``counts`` says what the policy saw."""

    signal_id: int
    decision: str
    reason: str
    policy: str = ""
    counts: Mapping[str, Any] = field(default_factory=dict)
    deliveries: Sequence[Delivery] = ()


@dataclass(frozen=True)
class PendingDelivery:
    """A queued delivery leased to one sender."""

    id: int
    alert_id: int
    destination: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class StoredDelivery:
    """A delivery as recorded: its final (or pending) status and every attempt."""

    id: int
    destination: str
    status: str
    attempts: int
    attempt_log: Sequence[Mapping[str, Any]]
    last_error: str | None
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class StoredAlert:
    id: int
    org_id: str
    agent_id: str
    failure_type: str
    run_id: str
    signal_id: int
    policy: str
    severity: str
    confidence: float
    counts: Mapping[str, Any]
    created_at: float
    deliveries: Sequence[StoredDelivery] = ()
