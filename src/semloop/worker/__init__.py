"""Workers: poll the shared events table and wire the pure detectors to the store.

    semloop worker detector    structural detectors -> failure_signals
    semloop worker loop        the judged loop detector (embedded judge by default)
    semloop worker alerts      signals -> webhook and Slack alerts (config: $SEMLOOP_ALERTS_CONFIG)

``RetentionWorker`` prunes old runs hourly beside ``semloop up --retention-days N``.
"""

from __future__ import annotations

import os

from .._exceptions import ConfigError
from ..alert import load_alerts_config
from ..detect import load_config
from ..judge.registry import default_judge, make_backend
from ..store import Store
from ._polling import PollingWorker, WorkerStats
from .alerts import AlertsWorker
from .detector import DetectorWorker
from .loop import LoopWorker, loop_signal
from .retention import RetentionWorker

__all__ = [
    "WORKERS",
    "AlertsWorker",
    "DetectorWorker",
    "LoopWorker",
    "PollingWorker",
    "RetentionWorker",
    "WorkerStats",
    "build_worker",
    "loop_signal",
]

WORKERS = ("detector", "loop", "alerts")


def build_worker(
    name: str,
    store: Store,
    *,
    poll_interval: float | None = None,
    stall_timeout_s: float = 90.0,
    detectors_config: str | None = None,
    judge: str | None = None,
    alerts_config: str | None = None,
) -> PollingWorker:
    """A worker by name, as ``semloop worker`` and ``semloop up`` start them.

    ``poll_interval`` None keeps each worker's own default (detector and loop 5 s, alerts
    10 s). The alerts worker reads ``alerts_config`` (default ``$SEMLOOP_ALERTS_CONFIG``;
    without one it decides and records alerts but has nowhere to send them).
    """
    if name == "detector":
        config = load_config(detectors_config) if detectors_config else None
        return DetectorWorker(store, config, poll_interval=poll_interval or 5.0,
                              stall_timeout_s=stall_timeout_s)
    if name == "loop":
        return LoopWorker(store, make_backend(judge or default_judge()),
                          poll_interval=poll_interval or 5.0)
    if name == "alerts":
        path = alerts_config or os.environ.get("SEMLOOP_ALERTS_CONFIG")
        alerts = load_alerts_config(path) if path else None
        return AlertsWorker(store, alerts, poll_interval=poll_interval or 10.0)
    raise ConfigError(f"unknown worker {name!r}; known: {', '.join(WORKERS)}", key="worker")
