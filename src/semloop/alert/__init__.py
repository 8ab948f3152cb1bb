"""Alerts: when a stored signal becomes a message, and how the message is sent.

    from semloop.alert import AlertsConfig, decide, load_alerts_config

Pure decision logic (policies, de-duplication, routing), payload builders (JSON webhook,
Slack) and a retrying sender. Standard library only, except :func:`load_alerts_config`
(YAML, ``server`` extra). The worker that wires them to the store is :class:`semloop.worker.AlertsWorker`.
See ``docs/alerts.md``.
"""

from __future__ import annotations

from ._payload import slack_payload, webhook_payload
from ._policy import (
    DEFAULT_POLICIES,
    AlertPolicy,
    decide,
    policy_holds,
)
from ._route import SEVERITIES, Routable, Route, route_matches
from ._send import (
    DEFAULT_RETRY,
    Attempt,
    HttpResponse,
    RetryPolicy,
    Send,
    SendResult,
    retry_policy,
    send_with_retry,
    urllib_send,
)
from .config import DESTINATION_TYPES, AlertsConfig, Destination, load_alerts_config
from .records import (
    DECISIONS,
    AlertDecision,
    Delivery,
    LastAlert,
    PastSignal,
    PendingDelivery,
    RunOutcome,
    StoredAlert,
    StoredDelivery,
    UndecidedSignal,
)

__all__ = [
    "DECISIONS",
    "DEFAULT_POLICIES",
    "DEFAULT_RETRY",
    "DESTINATION_TYPES",
    "SEVERITIES",
    "AlertDecision",
    "AlertPolicy",
    "AlertsConfig",
    "Attempt",
    "Delivery",
    "Destination",
    "HttpResponse",
    "LastAlert",
    "PastSignal",
    "PendingDelivery",
    "RetryPolicy",
    "Routable",
    "Route",
    "RunOutcome",
    "Send",
    "SendResult",
    "StoredAlert",
    "StoredDelivery",
    "UndecidedSignal",
    "decide",
    "load_alerts_config",
    "policy_holds",
    "retry_policy",
    "route_matches",
    "send_with_retry",
    "slack_payload",
    "urllib_send",
    "webhook_payload",
]
