"""The semantic worker against a real store, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import sqlalchemy as sa

from semloop import JudgeError
from semloop.evaluate import EvaluatorsConfig
from semloop.evaluate.sampling import AgentSemantics, SamplingConfig
from semloop.events import Event
from semloop.store import Store
from semloop.worker import DetectorWorker

from .helpers import ALL_RUNS, NO_LOOP, Judge, add_run, fixed, semantic_signals, worker


def _tasks(store: Store) -> dict[tuple[str, str], tuple[str, int]]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT run_id, evaluator, state, attempts FROM semantic_tasks")).all()
    return {(r.run_id, r.evaluator): (r.state, r.attempts) for r in rows}


def test_every_run_gets_a_decision_and_waits_for_the_detector(store: Store) -> None:
    org = store.create_org("acme")
    add_run(store, org, "r1")
    sampling = SamplingConfig(baseline_rate=0.0)
    semantic = worker(store, fixed(0.9), sampling=sampling, after="detector")
    assert semantic.drain() == 0  # the detector has not seen it yet
    assert store.sample_of(org, "r1") is None
    assert DetectorWorker(store).drain() == 1
    assert semantic.drain() == 1
    decision = store.sample_of(org, "r1")
    assert decision is not None and not decision.sampled and decision.reason == "baseline"
    assert semantic_signals(store, org, "r1") == []
    assert semantic.drain() == 0  # decided once


def test_a_fired_verdict_is_a_semantic_signal_with_its_band(store: Store) -> None:
    org = store.create_org("acme")
    add_run(store, org, "high")
    add_run(store, org, "low", question="Refund order 43")
    judge = Judge(lambda state, _k: (0.75, "Refused a refund it could do.")
                  if "42" in state["input"] else (0.55, "Maybe incomplete."))
    assert worker(store, judge).drain() == 2
    [high] = semantic_signals(store, org, "high")
    assert (high.failure_type, high.severity, high.confidence) == ("TASK_COMPLETION", "HIGH", 0.75)
    assert high.evidence["judge"] == "scripted" and high.evidence["alertable"] is True
    assert "Refused" in high.evidence["reasoning"]
    [low] = semantic_signals(store, org, "low")
    # Below the evaluator's 0.6 floor: stored and visible, never alertable.
    assert low.severity == "MEDIUM" and low.evidence["alertable"] is False
    log = store.evaluations(org)
    assert len(log) == 2 and all(e["cost_usd"] == 0.001 for e in log)


def test_a_runs_evaluators_are_judged_side_by_side(store: Store) -> None:
    org = store.create_org("acme")
    add_run(store, org, "r1")
    both = threading.Barrier(2, timeout=10)

    def verdict(_state: object, _kind: str) -> tuple[float, str]:
        both.wait()  # broken (an error, so no finding) unless the other call is in flight
        return 0.9, "The agent did not do what was asked."

    two = EvaluatorsConfig.from_dict({"HALLUCINATION": {"enabled": True},
                                      "TASK_COMPLETION": {"enabled": True}, **{
        name: {"enabled": False} for name in ("TASK_UNDERSTANDING_FAILURE", "OFF_TOPIC_DRIFT",
                                              "AGENT_LOOP", "USER_FRUSTRATION",
                                              "CONFUSION_LOOP", "SYCOPHANCY_SIGNAL")}})
    semantic = worker(store, Judge(verdict), evaluators=two, judge_threads=2)
    assert semantic.drain() == 1
    assert {s.failure_type for s in semantic_signals(store, org, "r1")} == {
        "HALLUCINATION", "TASK_COMPLETION"}
    assert semantic.stats.judging_s > 0


def test_a_healthy_verdict_writes_no_signal_but_is_logged(store: Store) -> None:
    org = store.create_org("acme")
    add_run(store, org, "ok")
    assert worker(store, fixed(0.1)).drain() == 1
    assert semantic_signals(store, org, "ok") == []
    [entry] = store.evaluations(org, "ok")
    assert entry["fired"] is False and entry["confidence"] == 0.1


def test_one_failing_evaluator_is_retried_then_failed_without_failing_the_others(
        store: Store) -> None:
    org = store.create_org("acme")
    add_run(store, org, "r")
    store.update_org_semantics(org, count_local_evaluations=True)

    def verdict(_state: object, kind: str) -> tuple[float, str] | Exception:
        if kind == "hallucination":
            return JudgeError("the judge host is down")
        return (0.9, "Did the wrong thing.") if kind == "task_completion" else (0.1, "fine")

    semantic = worker(store, Judge(verdict), evaluators=NO_LOOP, max_attempts=3)
    for _ in range(5):
        semantic.drain()
    tasks = _tasks(store)
    assert tasks[("r", "HALLUCINATION")] == ("failed", 3)
    assert tasks[("r", "TASK_COMPLETION")][0] == "done"
    assert {s.failure_type for s in semantic_signals(store, org, "r")} == {"TASK_COMPLETION"}
    attempts = [e["attempt"] for e in store.evaluations(org, "r")
                if e["evaluator"] == "HALLUCINATION"]
    assert attempts == [1, 2, 3]
    assert all(e["error"] for e in store.evaluations(org, "r") if e["evaluator"] == "HALLUCINATION")
    # The run spent one quota unit for all its evaluators and retries, and is done.
    assert store.usage(org, _month()).used == 1
    assert semantic.drain() == 0


def test_an_undecided_judge_is_not_read_as_healthy(store: Store) -> None:
    org = store.create_org("acme")
    add_run(store, org, "r")
    semantic = worker(store, Judge(lambda _s, _k: (float("nan"), "")), max_attempts=2)
    semantic.drain()
    semantic.drain()
    assert _tasks(store)[("r", "TASK_COMPLETION")] == ("failed", 2)


def _month() -> str:
    import time

    from semloop.store._semantic import month_of

    return month_of(time.time())


def test_the_org_quota_stops_evaluations_and_says_so_once(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, evaluation_quota=3, count_local_evaluations=True)
    for i in range(6):
        add_run(store, org, f"r{i}")
    judge = fixed(0.9)
    assert worker(store, judge).drain() == 6
    assert judge.calls == 3
    reasons = sorted(store.sample_of(org, f"r{i}").reason for i in range(6))  # type: ignore[union-attr]
    assert reasons == ["baseline"] * 3 + ["org_quota_exceeded"] * 3
    exceeded = [s for i in range(6) for s in store.signals_for_run(org, f"r{i}")
                if s.failure_type == "SEMANTIC_QUOTA_EXCEEDED"]
    assert len(exceeded) == 1 and exceeded[0].shadow and exceeded[0].evidence["scope"] == "org"
    usage = store.usage(org, _month())
    assert (usage.used, usage.quota) == (3, 3)


def test_overage_keeps_evaluating(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, evaluation_quota=1, allow_overage=True,
                               count_local_evaluations=True)
    for i in range(3):
        add_run(store, org, f"r{i}")
    assert worker(store, fixed(0.9)).drain() == 3
    assert store.usage(org, _month()).used == 3


def test_an_agent_budget_is_its_own_limit(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, count_local_evaluations=True)
    store.set_agent_semantics(org, "support", AgentSemantics(budget_monthly=2))
    for i in range(4):
        add_run(store, org, f"r{i}")
    add_run(store, org, "other", agent="billing")
    judge = fixed(0.9)
    worker(store, judge).drain()
    assert judge.calls == 3  # two of support's, billing's one
    assert store.sample_of(org, "r3").reason == "budget_exceeded"  # type: ignore[union-attr]
    assert store.usage(org, _month()).used == 3  # a refused unit is not spent


def test_the_embedded_judge_costs_no_quota_unless_the_org_counts_it(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, evaluation_quota=1)
    for i in range(3):
        add_run(store, org, f"r{i}")
    local = Judge(lambda _s, _k: (0.9, "Did not refund."), name="local")
    worker(store, local).drain()
    assert local.calls == 3 and store.usage(org, _month()).used == 0


def test_structural_and_critical_runs_are_always_sampled(store: Store) -> None:
    org = store.create_org("acme")
    none = SamplingConfig(baseline_rate=0.0, retrieval_rate=0.0)
    store.set_agent_semantics(org, "vip", AgentSemantics(semantic_critical=True))
    add_run(store, org, "critical", agent="vip")
    add_run(store, org, "plain")
    # A tool loop: the detector flags it structurally.
    t = 1000.0
    events = [Event("run.started", "looped", "support", 0, t, {"input_text": "find it"})]
    for i in range(1, 7):
        events.append(Event("tool.called", "looped", "support", i, t + i,
                            {"tool_name": "search", "args": {"q": "x"}}))
        events.append(Event("tool.responded", "looped", "support", i, t + i + 0.5,
                            {"tool_name": "search", "success": True, "output": "[]"}))
    events.append(Event("llm.responded", "looped", "support", 7, t + 8, {"output": "none"}))
    events.append(Event("run.completed", "looped", "support", 7, t + 9, {}))
    store.add_events(org, events)
    DetectorWorker(store).drain()
    worker(store, fixed(0.9), sampling=none, after="detector").drain()
    reasons = {r: store.sample_of(org, r) for r in ("critical", "plain", "looped")}
    assert reasons["critical"].reason == "semantic_critical" and reasons["critical"].sampled  # type: ignore[union-attr]
    assert not reasons["plain"].sampled  # type: ignore[union-attr]
    assert reasons["looped"].reason == "structural_signal" and reasons["looped"].sampled  # type: ignore[union-attr]


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, count_local_evaluations=True)
    add_run(store, org, "r")

    class Killed(BaseException):
        """What a SIGKILL looks like to the code after it: nothing more runs."""

    def dies(_state: object, kind: str) -> tuple[float, str] | BaseException:
        return Killed() if kind == "task_understanding_failure" else (0.9, f"{kind} failed.")

    try:
        worker(store, Judge(dies), evaluators=NO_LOOP).drain()
    except Killed:
        pass
    # The run's outcomes are one transaction: nothing of it was written but its charge.
    assert _tasks(store) == {}
    assert semantic_signals(store, org, "r") == []
    assert store.evaluations(org) == []
    with store.engine.begin() as conn:  # its lease runs out
        conn.execute(sa.text("UPDATE run_claims SET claimed_until = 0"))
    judge = Judge(lambda _s, kind: (0.9, f"{kind} failed."))
    assert worker(store, judge, evaluators=NO_LOOP).drain() == 1
    types = [s.failure_type for s in semantic_signals(store, org, "r")]
    assert sorted(types) == sorted(set(types))  # no duplicates
    assert set(types) == {"HALLUCINATION", "TASK_COMPLETION", "TASK_UNDERSTANDING_FAILURE",
                          "OFF_TOPIC_DRIFT"}
    assert judge.calls == 4  # every evaluator once, none twice
    assert store.usage(org, _month()).used == 1  # the run was charged once


def test_two_workers_never_evaluate_a_run_twice(store: Store) -> None:
    org = store.create_org("acme")
    for i in range(10):
        add_run(store, org, f"r{i}")
    first, second = fixed(0.9), fixed(0.9)
    a, b = worker(store, first, batch_size=3), worker(store, second, batch_size=3)
    while a.run_once() + b.run_once():
        pass
    assert first.calls + second.calls == 10


def test_evaluators_of_an_agent_limit_what_runs(store: Store) -> None:
    org = store.create_org("acme")
    store.set_agent_semantics(org, "support", AgentSemantics(evaluators=["hallucination"]))
    add_run(store, org, "r")
    worker(store, fixed(0.9), evaluators=EvaluatorsConfig()).drain()
    assert [s.failure_type for s in semantic_signals(store, org, "r")] == ["HALLUCINATION"]


def test_sampling_every_run_uses_the_sample_for_every_evaluator(store: Store) -> None:
    org = store.create_org("acme")
    for i in range(40):
        add_run(store, org, f"r{i}")
    worker(store, fixed(0.9), evaluators=NO_LOOP,
           sampling=SamplingConfig(baseline_rate=0.3)).drain()
    for i in range(40):
        sample = store.sample_of(org, f"r{i}")
        assert sample is not None
        kinds = {s.failure_type for s in semantic_signals(store, org, f"r{i}")}
        assert kinds == (set() if not sample.sampled else
                         {"HALLUCINATION", "TASK_COMPLETION", "TASK_UNDERSTANDING_FAILURE",
                          "OFF_TOPIC_DRIFT"})
    assert ALL_RUNS.baseline_rate == 1.0


def test_stopping_the_worker_ends_its_judge_threads_and_a_restart_judges_again(
        store: Store) -> None:
    org = store.create_org("acme")
    add_run(store, org, "r1")
    semantic = worker(store, fixed(0.9), poll_interval=0.05)

    def judge_threads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name.startswith("semantic-judge")]

    def wait_for(done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 10
        while not done():
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.02)

    with semantic:
        wait_for(lambda: len(semantic_signals(store, org, "r1")) == 1)
        assert judge_threads()
    wait_for(lambda: not judge_threads())
    add_run(store, org, "r2")
    with semantic:
        wait_for(lambda: len(semantic_signals(store, org, "r2")) == 1)
    wait_for(lambda: not judge_threads())
