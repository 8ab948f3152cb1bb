"""Per-detector time budgets for the detectors a ``signal`` policy runs on every step.

The detectors run on the agent's thread, over the run so far, at each check point: a
detector that keeps costing more than its budget drops out of that per-step path (the
detector worker still runs it on the finished run). A detector a ``signal`` policy names
never drops out: a safety check must not switch itself off for being slow.
"""

from __future__ import annotations

import logging
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping

__all__ = ["DEFAULT_BUDGET_S", "DetectorBudgets"]

logger = logging.getLogger("semloop.sdk")

#: Dunetrace's budgets: 1 ms per detector, 50 µs for its three lightweight newer ones.
DEFAULT_BUDGET_S = 0.001
_LIGHT = {"SILENT_TRUNCATION": 50e-6, "MODEL_FALLBACK_DRIFT": 50e-6,
          "AGENT_HANDOFF_FAILURE": 50e-6}


class DetectorBudgets:
    """Each detector's recent per-step costs against its budget (seconds).

    A detector is dropped once it has ``min_samples`` costs and the median of its last
    ``window`` is over budget: a detector that is slow step after step, not one slow call
    (a first call that compiles its patterns, a pause of the machine). ``budgets``
    overrides the defaults by detector name; ``clock`` times the detectors.
    """

    def __init__(self, budgets: Mapping[str, float] | None = None, *, min_samples: int = 5,
                 window: int = 20, clock: Callable[[], float] = time.perf_counter) -> None:
        if min_samples < 1 or window < min_samples:
            raise ValueError("need 1 ≤ min_samples ≤ window")
        for name, seconds in (budgets or {}).items():
            if (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                    or not seconds > 0):
                raise ValueError(f"the budget of {name} must be a positive number of "
                                 f"seconds, not {seconds!r}")
        self.budgets = {**_LIGHT, **(budgets or {})}
        self.min_samples = min_samples
        self.window = window
        self.clock = clock
        self._costs: dict[str, deque[float]] = {}
        self._dropped: set[str] = set()
        self._lock = threading.Lock()

    def budget(self, name: str) -> float:
        return self.budgets.get(name, DEFAULT_BUDGET_S)

    @property
    def dropped(self) -> frozenset[str]:
        """The detectors out of the per-step path (unless a signal policy names them)."""
        return frozenset(self._dropped)

    def record(self, name: str, seconds: float) -> None:
        with self._lock:
            costs = self._costs.get(name)
            if costs is None:
                costs = self._costs[name] = deque(maxlen=self.window)
            costs.append(seconds)
            if name in self._dropped or len(costs) < self.min_samples:
                return
            typical = statistics.median(costs)
            if typical <= self.budget(name):
                return
            self._dropped.add(name)
        logger.warning("semloop: detector %s costs %.0f µs per step (median of its last "
                       "%d), over its %.0f µs budget: it no longer runs per step unless a "
                       "signal policy names it", name, typical * 1e6, len(costs),
                       self.budget(name) * 1e6)

    def reset(self, name: str) -> None:
        """Put ``name`` back in the per-step path, with no costs remembered."""
        with self._lock:
            self._dropped.discard(name)
            self._costs.pop(name, None)
