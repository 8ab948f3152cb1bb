"""Workers: poll the shared events table and wire the pure detectors to the store.

    semloop worker detector    structural detectors -> failure_signals
    semloop worker loop        the judged loop detector alone (embedded judge by default)
    semloop worker semantic    sampling, evaluators (AGENT_LOOP among them), quotas, issues
    semloop worker alerts      signals -> webhook and Slack alerts (config: $SEMLOOP_ALERTS_CONFIG)
    semloop worker integrations  Langfuse / LangSmith / Braintrust scores -> signals
                               (config: --config or $SEMLOOP_INTEGRATIONS_CONFIG)

``RetentionWorker`` prunes old runs hourly beside ``semloop up --retention-days N``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path

from .._exceptions import ConfigError, SemloopError
from ..alert import load_alerts_config
from ..detect import load_config
from ..evaluate import load_evaluators_config
from ..evaluate.config import DEFAULT_CONFIG as DEFAULT_EVALUATORS_CONFIG
from ..evaluate.findings import default_similarity
from ..evaluate.sampling import DEFAULT_SAMPLING_CONFIG, load_sampling_config
from ..integrations import load_integrations
from ..judge import Backend
from ..judge.registry import default_judge, make_backend
from ..store import Store
from ._polling import PollingWorker, WorkerStats
from .alerts import AlertsWorker
from .detector import DetectorWorker
from .integrations import IntegrationsWorker
from .loop import LoopWorker, loop_signal
from .retention import RetentionWorker
from .semantic import SemanticWorker

__all__ = [
    "WORKERS",
    "AlertsWorker",
    "DetectorWorker",
    "IntegrationsWorker",
    "LoopWorker",
    "PollingWorker",
    "RetentionWorker",
    "SemanticWorker",
    "WorkerStats",
    "build_worker",
    "loop_signal",
    "semantic_enabled",
    "semantic_judge",
]

WORKERS = ("detector", "loop", "alerts", "semantic", "integrations")


def build_worker(
    name: str,
    store: Store,
    *,
    poll_interval: float | None = None,
    stall_timeout_s: float = 90.0,
    detectors_config: str | None = None,
    judge: str | None = None,
    alerts_config: str | None = None,
    sampling_config: str | None = None,
    evaluators_config: str | None = None,
    integrations_config: str | None = None,
) -> PollingWorker:
    """A worker by name, as ``semloop worker`` and ``semloop up`` start them.

    ``poll_interval`` None keeps each worker's own default (detector and loop 5 s, alerts
    10 s). The semantic worker reads ``sampling_config`` and ``evaluators_config``
    (default: the shipped files under docs/config when present). The alerts worker reads ``alerts_config`` (default ``$SEMLOOP_ALERTS_CONFIG``;
    without one it decides and records alerts but has nowhere to send them). The
    integrations worker reads ``integrations_config`` (default
    ``$SEMLOOP_INTEGRATIONS_CONFIG``; required).
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
    if name == "semantic":
        return _semantic_worker(store, poll_interval, judge, sampling_config, evaluators_config)
    if name == "integrations":
        path = integrations_config or os.environ.get("SEMLOOP_INTEGRATIONS_CONFIG")
        if not path:
            raise ConfigError("the integrations worker needs its integrations.yml: --config "
                              "or $SEMLOOP_INTEGRATIONS_CONFIG", key="integrations_config")
        return IntegrationsWorker(store, load_integrations(path),
                                  poll_interval=poll_interval or 60.0)
    raise ConfigError(f"unknown worker {name!r}; known: {', '.join(WORKERS)}", key="worker")


def semantic_enabled(environ: Mapping[str, str] | None = None) -> bool:
    """``SEMANTIC_WORKER_ENABLED=true``: off by default, so nothing is judged unasked."""
    env = os.environ if environ is None else environ
    return env.get("SEMANTIC_WORKER_ENABLED", "").strip().lower() in ("1", "true", "yes", "on")


def _semantic_worker(store: Store, poll_interval: float | None, judge: str | None,
                     sampling_config: str | None, evaluators_config: str | None,
                     ) -> SemanticWorker:
    primary = judge or default_judge()
    sampling = _existing(sampling_config, DEFAULT_SAMPLING_CONFIG)
    evaluators = _existing(evaluators_config, DEFAULT_EVALUATORS_CONFIG)
    # The second opinion comes from a different judge: the embedded one after an LLM, an
    # LLM (when one is configured) after the embedded one.
    second_name = "local" if primary != "local" else (
        "llm" if os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY") else None)
    return SemanticWorker(
        store, semantic_judge(primary),
        sampling=load_sampling_config(sampling) if sampling else None,
        evaluators=load_evaluators_config(evaluators) if evaluators else None,
        second_judge=_optional_backend(second_name),
        similarity=default_similarity(),
        poll_interval=poll_interval or float(os.environ.get("SEMANTIC_POLL_INTERVAL", "5")))


def semantic_judge(name: str) -> Backend:
    """The semantic worker's judge ``name``. The embedded one is asked by many threads at
    once there: two forward passes of one onnxruntime thread each keep both cores of a
    small machine busy with less CPU than one pass of two threads."""
    return make_backend(name, **({"threads": 1, "passes_at_once": 2} if name == "local" else {}))


def _existing(given: str | None, shipped: Path) -> str | None:
    if given:
        return given
    return str(shipped) if shipped.is_file() else None


def _optional_backend(name: str | None) -> Backend | None:
    if name is None:
        return None
    try:
        return make_backend(name)
    except SemloopError as exc:  # no second judge: findings keep their first severity
        logging.getLogger("semloop.worker").warning("no second-opinion judge %r: %s", name, exc)
        return None
