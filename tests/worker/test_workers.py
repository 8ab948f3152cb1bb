"""The workers against a real store, on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

import pytest
import sqlalchemy as sa

from semloop import JudgeAnswerError
from semloop.events import Event, Run
from semloop.judge.mock import MockBackend
from semloop.store import Store
from semloop.worker import DetectorWorker, LoopWorker, build_worker


def _run(run_id: str, *, calls: int, same: bool, ended: bool = True) -> list[Event]:
    t = time.time() - 1000
    events = [Event("run.started", run_id, "agent", 0, t, {"input_text": "find the invoice"})]
    for i in range(1, calls + 1):
        args = {"q": "invoice"} if same else {"q": f"invoice {i}"}
        events.append(Event("tool.called", run_id, "agent", i, t + i, {"tool_name": "search",
                                                                      "args": args}))
        events.append(Event("tool.responded", run_id, "agent", i, t + i + 0.5, {
            "tool_name": "search", "success": True, "output": "[]" if same else f"hit {i}"}))
    if ended:
        events.append(Event("run.completed", run_id, "agent", calls, t + calls + 1,
                            {"total_steps": calls, "exit_reason": "completed"}))
    return events


def test_detector_worker_writes_each_signal_once_across_workers_and_restarts(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, _run("loop", calls=6, same=True) + _run("fine", calls=3, same=False))
    first, second = DetectorWorker(store), DetectorWorker(store)
    assert first.drain() + second.drain() == 2
    loop_signals = store.signals_for_run(org, "loop")
    assert "TOOL_LOOP" in {s.failure_type for s in loop_signals}
    assert store.signals_for_run(org, "fine") == []
    # A restart that re-processes the same runs adds nothing.
    with store.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM processed_runs"))
    assert DetectorWorker(store).drain() == 2
    assert len(store.signals_for_run(org, "loop")) == len(loop_signals)


def test_detector_worker_finds_stalled_runs(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, _run("stuck", calls=6, same=True, ended=False))
    worker = DetectorWorker(store, stall_timeout_s=60)
    assert worker.drain() == 0  # still receiving events, as far as the store knows
    with store.engine.begin() as conn:  # nothing received for an hour: the agent died
        conn.execute(sa.text("UPDATE events SET received_at = received_at - 3600"))
    assert worker.drain() == 1
    assert "TOOL_LOOP" in {s.failure_type for s in store.signals_for_run(org, "stuck")}


def test_loop_worker_records_a_bad_judge_answer_and_goes_on(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, _run("a", calls=4, same=True) + _run("b", calls=4, same=True))
    worker = LoopWorker(store, MockBackend({}))  # answers nothing: every ask is an error
    assert worker.drain() == 2
    assert worker.stats.unjudged == 2 and worker.stats.failed_runs == 0
    assert worker.stats.failed_batches == 0
    assert store.signals_for_run(org, "a") == []
    assert worker.drain() == 0  # handled runs are not retried forever


def test_loop_worker_flags_a_judged_loop(store: Store) -> None:
    org = store.create_org("acme")
    steps = ["Searching the wiki for the VPN guide.", "Let me look through the wiki for VPN docs.",
             "Trying the wiki once more for the VPN setup page."]
    t = time.time() - 100
    events = [Event("run.started", "r", "agent", 0, t, {"input_text": "set up VPN"})]
    for i, text in enumerate(steps, start=1):
        events.append(Event("llm.called", "r", "agent", i, t + i, {"model": "m"}))
        events.append(Event("llm.responded", "r", "agent", i, t + i + 0.1, {"output": text}))
    events.append(Event("run.completed", "r", "agent", 3, t + 5, {"exit_reason": "completed"}))
    store.add_events(org, events)
    backend = MockBackend({"progress_*": 0.05, "revisit_*": 0.9, "stagnation": 3})
    assert LoopWorker(store, backend).drain() == 1
    [signal] = store.signals_for_run(org, "r")
    assert signal.failure_type == "SEMANTIC_LOOP" and signal.source == "semantic"
    assert signal.evidence["score_breakdown"]["reasoning_stagnation"] == 0.0
    assert signal.evidence["stuck_stretch"] == {"first_step": 0, "last_step": 2}
    assert signal.evidence["confirmed"] == ["reasoning_stagnation"]
    assert len(backend.calls) == 1


def _reasoning_run(run_id: str, n: int) -> list[Event]:
    t = time.time() - 100
    events = [Event("run.started", run_id, "agent", 0, t, {"input_text": "set up VPN"})]
    for i in range(1, n + 1):
        events.append(Event("llm.called", run_id, "agent", i, t + i, {"model": "m"}))
        events.append(Event("llm.responded", run_id, "agent", i, t + i + 0.1,
                            {"output": f"step {i} of the VPN setup"}))
    events.append(Event("run.completed", run_id, "agent", n, t + n + 1,
                        {"exit_reason": "completed"}))
    return events


HEALTHY = {"progress_*": 0.95, "revisit_*": 0.05, "tool_repeat_*": 0.05, "stagnation": 0}


def test_loop_worker_does_not_page_on_one_repeated_step(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, _reasoning_run("once", 6))
    # Step 2 repeats step 1 (judged certain), then the run moves on: no stretch of 3 steps.
    assert LoopWorker(store, MockBackend({**HEALTHY, "progress_1_2": 0.01})).drain() == 1
    assert store.signals_for_run(org, "once") == []


def test_loop_worker_pages_on_a_stretch_of_three_steps(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, _reasoning_run("stuck", 6))
    backend = MockBackend({**HEALTHY, "progress_1_2": 0.01, "progress_2_3": 0.02})
    assert LoopWorker(store, backend).drain() == 1
    [signal] = store.signals_for_run(org, "stuck")
    assert signal.evidence["confirmed"] == ["reasoning_stagnation"]
    assert signal.evidence["stuck_stretch"] == {"first_step": 1, "last_step": 3}
    assert "Stuck stretch: steps 1–3." in signal.evidence["reason"]


def test_loop_worker_still_pages_on_tool_repetition_at_zero(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, _run("same", calls=6, same=True))
    # The judge sees nothing wrong; six identical calls with nothing changed still page.
    assert LoopWorker(store, MockBackend(HEALTHY)).drain() == 1
    [signal] = store.signals_for_run(org, "same")
    assert signal.evidence["score_breakdown"]["tool_repetition"] == 0.0
    assert signal.evidence["confirmed"] == ["tool_repetition"]
    assert signal.evidence["stuck_stretch"] is None


def test_a_failing_batch_is_counted_and_the_worker_keeps_polling(store: Store) -> None:
    worker = DetectorWorker(store)

    def broken(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("database went away")

    worker.store = type("Broken", (), {"runs_to_process": broken})()  # type: ignore[assignment]
    assert worker.run_once() == 0
    assert worker.stats.failed_batches == 1


def test_build_worker_rejects_an_unknown_name(store: Store) -> None:
    from semloop import ConfigError

    with pytest.raises(ConfigError, match="unknown worker 'nope'"):
        build_worker("nope", store)


def test_run_to_trace_keeps_tool_steps() -> None:
    run = Run.from_events(_run("x", calls=2, same=False))
    trace = run.to_trace()
    assert [s.name for s in trace.tool_spans] == ["search", "search"]
    assert [s.output for s in trace.tool_spans] == ["hit 1", "hit 2"]


def test_unscripted_mock_is_an_error() -> None:
    with pytest.raises(JudgeAnswerError):
        MockBackend({}).ask({"goal": ""}, {"progress_0_1": {"type": "noul"}})


def test_the_embedded_judge_is_the_default_without_an_api_key() -> None:
    from semloop.judge.registry import default_judge

    assert default_judge({}) == "local"
    assert default_judge({"OPENAI_API_KEY": "sk-x"}) == "local"
    assert default_judge({"TYPESAFE_API_KEY": "ts-x"}) == "jev"


class _FlakyStore:
    """The real store, whose writes fail ``failures`` times first (the database went away)."""

    def __init__(self, store: Store, failures: int) -> None:
        self._store, self.failures = store, failures

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def mark_processed(self, *args: Any) -> int:
        if self.failures:
            self.failures -= 1
            raise RuntimeError("connection reset")
        return self._store.mark_processed(*args)


def test_a_run_whose_write_failed_is_retried_on_the_next_poll_not_after_its_lease(
        store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, _run("loop", calls=6, same=True))
    flaky = _FlakyStore(store, failures=2)
    worker = DetectorWorker(flaky)  # type: ignore[arg-type]
    assert worker.run_once() == 0 and worker.stats.failed_runs == 1
    # The run is still leased to this worker, so no other poll would see it for 300 s;
    # this worker retries it itself.
    assert store.runs_to_process("detector") == []
    assert worker.run_once() == 0 and worker.stats.failed_runs == 2
    assert worker.run_once() == 1
    assert "TOOL_LOOP" in {s.failure_type for s in store.signals_for_run(org, "loop")}
    assert worker.run_once() == 0 and worker.stats.runs == 1


def test_a_retried_run_keeps_the_deadline_of_its_first_lease(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    org = store.create_org("acme")
    store.add_events(org, _run("loop", calls=6, same=True))
    clock = [1000.0]
    monkeypatch.setattr("semloop.worker._polling.time.monotonic", lambda: clock[0])
    worker = DetectorWorker(_FlakyStore(store, failures=10), poll_interval=1)  # type: ignore[arg-type]
    worker.lease_s = 100.0
    assert worker.run_once() == 0  # leased at t=1000, retry deadline t=1090
    clock[0] = 1080.0
    assert worker.run_once() == 0 and worker.stats.failed_runs == 2  # still ours: retried
    clock[0] = 1095.0
    assert worker.run_once() == 0 and worker.stats.failed_runs == 2  # lease nearly over: dropped
