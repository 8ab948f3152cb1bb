"""Per-step detector budgets: a detector that keeps costing more than its budget drops
out of the per-step path, unless a signal policy names it. The clock is injected and only
the deliberately slow detector advances it, so every verdict here is deterministic."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from semloop.detect import DETECTORS
from semloop.sdk import DetectorBudgets, Policy, PolicyViolation, RunContext

from .conftest import Recorded

LOOP = Policy("loop", "signal", "contains", "TOOL_LOOP", "stop")


class SlowClock:
    """A clock that stands still except while the slow detector runs (5 ms a call)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.calls = 0

    def __call__(self) -> float:
        return self.now

    def slow(self, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        real = DETECTORS[name]

        def check(*args: Any) -> Any:
            self.calls += 1
            self.now += 0.005
            return real.check(*args)

        monkeypatch.setitem(DETECTORS, name, dataclasses.replace(real, check=check))


def _search(run: RunContext, query: str) -> None:
    run.tool_called("search_kb", {"query": query})
    run.tool_responded("search_kb", success=True, output=f"3 articles on {query}")


def test_a_slow_detector_drops_out_of_the_per_step_path(
        recorded: Callable[..., Recorded], monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SlowClock()
    clock.slow("TOOL_THRASHING", monkeypatch)
    budgets = DetectorBudgets(clock=clock)
    rec = recorded(policies=[LOOP], detector_budgets=budgets)
    with rec.client.run("agent", model="gpt-4o") as run:
        for i in range(6):
            _search(run, f"query {i}")  # two check points each, no loop
        run.final_answer()
    # Dropped after its 5th costly step (median 5 ms > 1 ms), not run on the 7 after it.
    assert clock.calls == 5
    assert budgets.dropped == {"TOOL_THRASHING"}
    assert rec.client.detector_budgets is budgets
    budgets.reset("TOOL_THRASHING")
    with rec.client.run("agent", model="gpt-4o") as run:
        _search(run, "again")
        run.final_answer()
    assert clock.calls == 7  # back in the path after reset()


def test_a_slow_detector_a_signal_policy_names_keeps_running(
        recorded: Callable[..., Recorded], monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SlowClock()
    clock.slow("TOOL_LOOP", monkeypatch)
    budgets = DetectorBudgets(clock=clock)
    rec = recorded(policies=[LOOP], detector_budgets=budgets)
    with pytest.raises(PolicyViolation) as stopped, \
            rec.client.run("agent", model="gpt-4o") as run:
        for i in range(4):
            _search(run, f"warm-up {i}")  # 8 costly steps: over budget long before the loop
        for _ in range(5):
            _search(run, "refund policy")
    assert "TOOL_LOOP" in stopped.value.observed  # still caught: the policy names it
    assert budgets.dropped == {"TOOL_LOOP"}  # over budget, and kept in the path anyway
    assert clock.calls == 13  # every check point: 8 warm-up, 5 until the third repeat


def test_one_slow_call_is_not_a_slow_detector() -> None:
    budgets = DetectorBudgets(clock=lambda: 0.0)
    for cost in (0.050, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001):  # a cold first call
        budgets.record("TOOL_LOOP", cost)
    assert budgets.dropped == frozenset()
    for _ in range(5):
        budgets.record("SILENT_TRUNCATION", 0.0001)  # 100 µs: over its 50 µs budget
    assert budgets.dropped == {"SILENT_TRUNCATION"}
    with pytest.raises(ValueError, match="positive number"):
        DetectorBudgets({"TOOL_LOOP": 0})
