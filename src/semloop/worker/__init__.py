"""Workers: poll the shared events table and wire the pure detectors to the store.

    semloop worker detector    structural detectors -> failure_signals
    semloop worker loop        the judged loop detector (embedded judge by default)
"""

from __future__ import annotations

from .._exceptions import ConfigError
from ..detect import load_config
from ..judge.registry import make_backend
from ..store import Store
from ._loop import PollingWorker, WorkerStats
from .detector import DetectorWorker
from .loop import LoopWorker, loop_signal

__all__ = [
    "WORKERS",
    "DetectorWorker",
    "LoopWorker",
    "PollingWorker",
    "WorkerStats",
    "build_worker",
    "loop_signal",
]

WORKERS = ("detector", "loop")


def build_worker(
    name: str,
    store: Store,
    *,
    poll_interval: float = 5.0,
    stall_timeout_s: float = 90.0,
    detectors_config: str | None = None,
    judge: str = "local",
) -> PollingWorker:
    """A worker by name, as ``semloop worker`` and ``semloop up`` start them."""
    if name == "detector":
        config = load_config(detectors_config) if detectors_config else None
        return DetectorWorker(store, config, poll_interval=poll_interval,
                              stall_timeout_s=stall_timeout_s)
    if name == "loop":
        return LoopWorker(store, make_backend(judge), poll_interval=poll_interval)
    raise ConfigError(f"unknown worker {name!r}; known: {', '.join(WORKERS)}", key="worker")
