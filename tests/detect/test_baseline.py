"""Baselines: static fallbacks until 20 runs exist, then P75 × inflation."""

from __future__ import annotations

import pytest

from semloop.detect import DETECTORS, Baseline, run_detectors
from semloop.detect.baseline import BaselineHistory, percentile

from .builder import RunBuilder, healthy


def _run_with_steps(k: int, *, start: float, agent_version: str = "v1") -> RunBuilder:
    b = RunBuilder(start=start, agent_version=agent_version)
    for i in range(k):
        b.tool("search", {"q": f"{k}-{i}"}, f"r{i}")
    return b


def test_percentile_interpolates() -> None:
    assert percentile([], 75) is None
    assert percentile([7.0], 75) == 7.0
    assert percentile([float(v) for v in range(1, 21)], 75) == pytest.approx(15.25)


def test_not_ready_below_twenty_runs_uses_static_fallback() -> None:
    slow = healthy().tool("search", {"q": "x"}, "y", latency_ms=3_000).complete()
    nineteen = Baseline.from_runs([healthy().complete() for _ in range(19)])
    twenty = Baseline.from_runs([healthy().complete() for _ in range(20)])
    assert not nineteen.ready and twenty.ready
    assert nineteen.tool_latency_ms == pytest.approx(120.0)
    assert DETECTORS["SLOW_STEP"](slow, baseline=nineteen) is None  # static 15 s applies
    fired = DETECTORS["SLOW_STEP"](slow, baseline=twenty)
    assert fired is not None
    assert fired.evidence["threshold_source"] == "baseline"
    assert fired.evidence["threshold_ms"] == pytest.approx(240.0)


def test_p75_of_step_counts() -> None:
    runs = [_run_with_steps(k, start=1000.0 + k).complete() for k in range(1, 21)]
    baseline = Baseline.from_runs(runs)
    assert baseline.run_count == 20
    assert baseline.step_count == pytest.approx(15.25)
    over = _run_with_steps(31, start=5000.0).complete()  # > 2 × 15.25
    under = _run_with_steps(30, start=5000.0).complete()
    assert DETECTORS["STEP_COUNT_INFLATION"](over, baseline=baseline) is not None
    assert DETECTORS["STEP_COUNT_INFLATION"](under, baseline=baseline) is None


def test_only_completed_runs_count_and_the_newest_fifty() -> None:
    old_long = [_run_with_steps(40, start=float(i)).complete() for i in range(30)]
    recent = [_run_with_steps(4, start=10_000.0 + i).complete() for i in range(50)]
    errored = [_run_with_steps(90, start=20_000.0 + i).error() for i in range(10)]
    baseline = Baseline.from_runs(old_long + recent + errored)
    assert baseline.run_count == 50
    assert baseline.step_count == pytest.approx(4.0)


def test_filters_agent_and_version() -> None:
    runs = ([_run_with_steps(4, start=float(i)).complete() for i in range(20)]
            + [_run_with_steps(9, start=100.0 + i, agent_version="v2").complete()
               for i in range(20)])
    assert Baseline.from_runs(runs, agent_version="v2").step_count == pytest.approx(9.0)
    assert Baseline.from_runs(runs, agent_id="other").run_count == 0


def test_session_latency_against_baseline() -> None:
    baseline = Baseline.from_runs([healthy().wait(10).complete() for _ in range(20)])
    assert baseline.duration_s is not None
    long_run = healthy().wait(60).complete()  # ~5× a ~12 s run, far below 300 s
    signals = {s.failure_type: s for s in run_detectors(long_run, baseline=baseline)}
    assert signals["SESSION_LATENCY"].evidence["threshold_source"] == "baseline"
    assert "SESSION_LATENCY" not in {s.failure_type for s in run_detectors(long_run)}


def test_reasoning_stall_baseline_is_strictly_greater() -> None:
    # Baseline ratio P75 = 2 LLM per tool → threshold 4; exactly 4 does not fire with a
    # baseline (> 2× P75), while the static rule fires at ≥ 4.
    def run(llms: int, tools: int) -> RunBuilder:
        b = RunBuilder()
        for i in range(tools):
            b.tool("search", {"q": i}, f"r{i}")
        for i in range(llms):
            b.llm(f"thinking {i}")
        return b

    baseline = Baseline.from_runs([run(2, 1).complete() for _ in range(20)])
    assert baseline.llm_tool_ratio == pytest.approx(2.0)
    at = run(8, 2).complete()
    assert DETECTORS["REASONING_STALL"](at, baseline=baseline) is None
    assert DETECTORS["REASONING_STALL"](at) is not None
    assert DETECTORS["REASONING_STALL"](run(9, 2).complete(), baseline=baseline) is not None


def test_history_gives_each_run_the_runs_that_ended_before_it() -> None:
    runs = [_run_with_steps(k, start=1000.0 + 100 * k).complete() for k in range(1, 31)]
    history = BaselineHistory(runs)
    # The 21st run: twenty runs ended before it (1..20 steps), not itself, not the later ones.
    assert history.before(runs[20]) == Baseline.from_runs(runs[:20])
    assert history.before(runs[20]).step_count == pytest.approx(15.25)
    # The last: the newest 50 before it, here all 29 others.
    assert history.before(runs[-1]) == Baseline.from_runs(runs[:-1])
    assert history.before(runs[0]).run_count == 0
    assert history.before(runs[5], window=3) == Baseline.from_runs(runs[2:5])
