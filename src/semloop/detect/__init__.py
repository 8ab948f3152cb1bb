"""Structural detection: pure functions from a run's events (and the agent's baseline)
to at most one :class:`~semloop.events.Signal` per detector.

    from semloop.detect import run_detectors, load_config, Baseline

    signals = run_detectors(run, load_config("detectors.yml"), Baseline.from_runs(history))

Standard library only, except :func:`load_config`, which reads YAML (``server`` extra).
See ``docs/detectors.md`` for every rule, parameter and false-positive guard.
"""

from __future__ import annotations

from ._catalog import DETECTORS, SINGLE_RUN
from ._combine import (
    OVERRIDE_IDENTICAL_SHARE,
    OVERRIDE_SAME_TOOL_CALLS,
    OVERRIDE_TAIL_FAILURES,
    co_occurrence_multiplier,
    combine,
    detect_handoff,
    detect_lineage,
    hard_override,
    run_detectors,
)
from ._handoff import MAX_CHAIN
from ._packs import FOREIGN_PACKS, PACKS, Pack
from ._registry import Detector, Param, ratio_confidence
from .baseline import Baseline, BaselineHistory
from .config import DetectorConfig, DetectorSettings, load_config

__all__ = [
    "DETECTORS",
    "FOREIGN_PACKS",
    "MAX_CHAIN",
    "OVERRIDE_IDENTICAL_SHARE",
    "OVERRIDE_SAME_TOOL_CALLS",
    "OVERRIDE_TAIL_FAILURES",
    "PACKS",
    "SINGLE_RUN",
    "Baseline",
    "BaselineHistory",
    "Detector",
    "DetectorConfig",
    "DetectorSettings",
    "Pack",
    "Param",
    "co_occurrence_multiplier",
    "combine",
    "detect_handoff",
    "detect_lineage",
    "hard_override",
    "load_config",
    "ratio_confidence",
    "run_detectors",
]
