"""Running the detectors over a run and combining what they found: the co-occurrence
multiplier, the hard overrides and shadow mode."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Container, Sequence
from dataclasses import replace

from ..events import Run, Severity, Signal
from ._catalog import DETECTORS, SINGLE_RUN
from ._view import view_of
from .baseline import Baseline
from .config import DetectorConfig

__all__ = [
    "OVERRIDE_IDENTICAL_SHARE",
    "OVERRIDE_SAME_TOOL_CALLS",
    "OVERRIDE_TAIL_FAILURES",
    "co_occurrence_multiplier",
    "combine",
    "detect_handoff",
    "detect_lineage",
    "hard_override",
    "run_detectors",
]

log = logging.getLogger("semloop.detect")

OVERRIDE_SAME_TOOL_CALLS = 8
OVERRIDE_IDENTICAL_SHARE = 0.9
OVERRIDE_TAIL_FAILURES = 5

_DEFAULT_CONFIG: DetectorConfig | None = None


def _default_config() -> DetectorConfig:
    global _DEFAULT_CONFIG
    if _DEFAULT_CONFIG is None:
        _DEFAULT_CONFIG = DetectorConfig()
    return _DEFAULT_CONFIG


def co_occurrence_multiplier(count: int) -> float:
    """1 signal × 1.0, 2 × 1.15, 3 × 1.30, 4 or more × 1.40."""
    if count <= 1:
        return 1.0
    return {2: 1.15, 3: 1.30}.get(count, 1.40)


def hard_override(run: Run) -> tuple[str, str, float] | None:
    """(rule, severity, confidence) when a run is unambiguously broken, else None.

    Same tool ≥ 8 calls with ≥ 90 % identical arguments → CRITICAL @ 0.98; ≥ 5
    consecutive tool failures at the tail → HIGH @ 0.95. The CRITICAL rule wins.
    """
    view = view_of(run)
    by_tool: dict[str, dict[str, int]] = {}
    for call in view.tools:
        counts = by_tool.get(call.name)
        if counts is None:
            counts = by_tool[call.name] = {}
        counts[call.key] = counts.get(call.key, 0) + 1
    for counts in by_tool.values():
        total = sum(counts.values())
        if total >= OVERRIDE_SAME_TOOL_CALLS and \
                max(counts.values()) / total >= OVERRIDE_IDENTICAL_SHARE:
            return "identical_tool_calls", Severity.CRITICAL, 0.98
    tail = 0
    for call in reversed(view.tools):
        if call.failed is None:
            continue  # still in flight: neither a failure nor a success yet
        if not call.failed:
            break
        tail += 1
    if tail >= OVERRIDE_TAIL_FAILURES:
        return "tail_tool_failures", Severity.HIGH, 0.95
    return None


def combine(run: Run, signals: Sequence[Signal]) -> list[Signal]:
    """Apply the co-occurrence multiplier (cap 1.0) and the hard overrides.

    Live signals count live signals only: a detector still in shadow must not raise the
    confidence of the alerts people receive. Shadow signals count all, to show what
    they would become if promoted.
    """
    live = sum(1 for s in signals if not s.shadow)
    out = []
    for s in signals:
        count = len(signals) if s.shadow else live
        confidence = round(min(1.0, s.confidence * co_occurrence_multiplier(count)), 4)
        out.append(replace(s, confidence=confidence, co_signal_count=count))
    override = hard_override(run) if out else None
    if override is not None:
        rule, severity, confidence = override
        out = [replace(s, severity=severity, confidence=confidence,
                       evidence={**s.evidence, "override": rule}) for s in out]
    return out


def run_detectors(run: Run, config: DetectorConfig | None = None,
                  baseline: Baseline | None = None, *, skip: Container[str] = (),
                  on_cost: Callable[[str, float], None] | None = None,
                  clock: Callable[[], float] = time.perf_counter) -> list[Signal]:
    """Every enabled single-run detector over ``run`` but those in ``skip``, combined; at
    most one signal each. With ``on_cost``, each detector's time by ``clock`` is reported
    as ``on_cost(name, seconds)`` (the SDK's per-step budgets).

    A detector that raises is logged and skipped: one bad rule must not cost the run
    the other signals (nor crash a worker).
    """
    settings = (config or _default_config()).for_agent(run.agent_id)
    found: list[Signal] = []
    for name in SINGLE_RUN:
        s = settings[name]
        if not s.enabled or name in skip:
            continue
        try:
            if on_cost is None:
                result = DETECTORS[name].check(run, s.params, baseline)
            else:
                start = clock()
                try:
                    result = DETECTORS[name].check(run, s.params, baseline)
                finally:
                    on_cost(name, clock() - start)
        except Exception:
            log.exception("detector %s failed on run %s", name, run.run_id)
            continue
        if result is not None:
            found.append(replace(result, shadow=s.shadow) if s.shadow else result)
    return combine(run, found)


def detect_handoff(parent: Run, child: Run,
                   config: DetectorConfig | None = None) -> Signal | None:
    """HANDOFF_CONTEXT_LOSS for a parent run and one child run (server-side only)."""
    s = (config or _default_config()).for_agent(child.agent_id)["HANDOFF_CONTEXT_LOSS"]
    if not s.enabled:
        return None
    result = DETECTORS["HANDOFF_CONTEXT_LOSS"].check(parent, child, s.params)
    if result is None:
        return None
    return replace(result, shadow=s.shadow)


def detect_lineage(chain: Sequence[Run], config: DetectorConfig | None = None) -> Signal | None:
    """DELEGATION_LOOP over the runs from the root to the last one (server-side only)."""
    run = chain[-1]
    s = (config or _default_config()).for_agent(run.agent_id)["DELEGATION_LOOP"]
    if not s.enabled:
        return None
    result = DETECTORS["DELEGATION_LOOP"].check(list(chain), s.params)
    if result is None:
        return None
    return replace(result, shadow=s.shadow)
