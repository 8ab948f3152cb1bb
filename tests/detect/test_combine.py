"""Co-occurrence, hard overrides, shadow mode, enabling, and isolation of a broken rule."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from semloop.detect import (
    DETECTORS,
    DetectorConfig,
    co_occurrence_multiplier,
    hard_override,
    run_detectors,
)
from semloop.events import Run

from .builder import RunBuilder, healthy


def _two_signal_run() -> Run:
    # TOOL_LOOP (4 identical calls) and SESSION_LATENCY (6 min), nothing else.
    b = RunBuilder().llm("Searching.")
    for _ in range(4):
        b.tool("search", {"q": "Paris weather"}, "sunny")
    return b.wait(360).llm("It is sunny in Paris tomorrow.").complete()


@pytest.mark.parametrize(("count", "factor"), [(0, 1.0), (1, 1.0), (2, 1.15), (3, 1.30),
                                               (4, 1.40), (9, 1.40)])
def test_multiplier_table(count: int, factor: float) -> None:
    assert co_occurrence_multiplier(count) == factor


def test_two_signals_are_each_multiplied_by_1_15() -> None:
    run = _two_signal_run()
    raw = {name: DETECTORS[name](run) for name in ("TOOL_LOOP", "SESSION_LATENCY")}
    signals = {s.failure_type: s for s in run_detectors(run)}
    assert set(signals) == set(raw)
    for name, before in raw.items():
        assert before is not None
        assert signals[name].co_signal_count == 2
        assert signals[name].confidence == pytest.approx(min(1.0, before.confidence * 1.15),
                                                         abs=1e-4)


def test_confidence_is_capped_at_one() -> None:
    run = RunBuilder().llm("Searching.").tool("search", {"q": "x"}, "y").tool(
        "search", {"q": "x"}, "y").tool("search", {"q": "x"}, "y").wait(2000).llm("Sunny.").complete()
    raw = DETECTORS["SESSION_LATENCY"](run)
    assert raw is not None and raw.confidence == 1.0  # 2000 s is 6.7× the 300 s fallback
    signals = {s.failure_type: s for s in run_detectors(run)}
    assert signals["SESSION_LATENCY"].co_signal_count == 2
    assert signals["SESSION_LATENCY"].confidence == 1.0


def _repeats(n: int, different: int = 0) -> Run:
    b = RunBuilder().llm("Searching.")
    for _ in range(n):
        b.tool("search", {"q": "Paris weather"}, "sunny")
    for i in range(different):
        b.tool("search", {"q": f"other {i}"}, f"x{i}")
    return b.running()


def test_identical_calls_override_makes_everything_critical() -> None:
    signals = run_detectors(_repeats(8))
    assert signals
    assert all(s.severity == "CRITICAL" and s.confidence == 0.98 for s in signals)
    assert all(s.evidence["override"] == "identical_tool_calls" for s in signals)


@pytest.mark.parametrize(("same", "different", "fires"), [(8, 0, True), (7, 0, False),
                                                          (9, 1, True), (8, 2, False)])
def test_identical_calls_override_thresholds(same: int, different: int, fires: bool) -> None:
    result = hard_override(_repeats(same, different))
    assert (result is not None and result[0] == "identical_tool_calls") is fires


def _tail_failures(n: int, *, then_ok: bool = False) -> Run:
    b = RunBuilder().llm("Working.")
    for i in range(n):
        b.fail(["search", "fetch"][i % 2], {"i": i})
    if then_ok:
        b.tool("search", {"i": 99}, "fine")
    return b.error()


def test_tail_failure_override_is_high_at_0_95() -> None:
    signals = run_detectors(_tail_failures(5))
    assert {s.failure_type for s in signals} >= {"CASCADING_TOOL_FAILURE"}
    assert all(s.severity == "HIGH" and s.confidence == 0.95 for s in signals)
    assert hard_override(_tail_failures(4)) is None
    assert hard_override(_tail_failures(5, then_ok=True)) is None


def test_override_without_signals_creates_none() -> None:
    assert run_detectors(healthy().complete()) == []


def test_shadow_signals_are_marked_and_do_not_boost_live_ones() -> None:
    run = _two_signal_run()
    config = DetectorConfig({"shadow": ["SESSION_LATENCY"]})
    signals = {s.failure_type: s for s in run_detectors(run, config)}
    assert signals["SESSION_LATENCY"].shadow is True
    assert signals["TOOL_LOOP"].shadow is False
    assert signals["TOOL_LOOP"].co_signal_count == 1
    raw = DETECTORS["TOOL_LOOP"](run)
    assert raw is not None and signals["TOOL_LOOP"].confidence == raw.confidence
    assert signals["SESSION_LATENCY"].co_signal_count == 2


def test_disabled_detector_does_not_run_and_agent_override_applies() -> None:
    run = _two_signal_run()
    config = DetectorConfig({"TOOL_LOOP": {"enabled": False}},
                            {"agent": {"TOOL_LOOP": {"enabled": True, "threshold": 5}}})
    other = replace(run, agent_id="someone-else")
    assert "TOOL_LOOP" not in {s.failure_type for s in run_detectors(other, config)}
    assert "TOOL_LOOP" not in {s.failure_type for s in run_detectors(run, config)}  # 4 < 5
    config4 = DetectorConfig(agents={"agent": {"TOOL_LOOP": {"threshold": 4}}})
    assert "TOOL_LOOP" in {s.failure_type for s in run_detectors(run, config4)}


def test_a_broken_detector_is_isolated(monkeypatch: pytest.MonkeyPatch,
                                       caplog: pytest.LogCaptureFixture) -> None:
    def boom(*args: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setitem(DETECTORS, "SESSION_LATENCY",
                        replace(DETECTORS["SESSION_LATENCY"], check=boom))
    with caplog.at_level(logging.ERROR, logger="semloop.detect"):
        signals = run_detectors(_two_signal_run())
    assert [s.failure_type for s in signals] == ["TOOL_LOOP"]
    assert "SESSION_LATENCY failed" in caplog.text
