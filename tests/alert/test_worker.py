"""The alerts worker against a real store (SQLite and PostgreSQL) and real HTTP receivers
on 127.0.0.1 that record what they are sent."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from semloop.alert import AlertPolicy, AlertsConfig
from semloop.store import Store
from semloop.worker import AlertsWorker, build_worker

from .conftest import Receiver, Runs

MakeReceiver = Callable[..., Receiver]
IMMEDIATE = AlertPolicy("immediate")


def config(*receivers: Receiver, kinds: tuple[str, ...] = (), **extra: Any) -> AlertsConfig:
    kinds = kinds or ("webhook",) * len(receivers)
    return AlertsConfig.from_dict({
        "destinations": {f"d{i}": {"type": kind, "url": r.url, "timeout_s": 5}
                         for i, (r, kind) in enumerate(zip(receivers, kinds, strict=True))},
        "link_base_url": "http://semloop.test:8000",
        "retry": {"max_attempts": 3, "base_delay_s": 0.01, "max_delay_s": 0.05},
        **extra,
    })


def run_together(workers: list[AlertsWorker], rounds: int) -> None:
    """Each worker polls ``rounds`` times in its own thread, all released at once so they
    race for the same rows."""
    barrier = threading.Barrier(len(workers))

    def work(worker: AlertsWorker) -> None:
        barrier.wait()
        for _ in range(rounds):
            worker.run_once()

    threads = [threading.Thread(target=work, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)


def test_an_immediate_alert_reaches_the_webhook_and_slack(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    hook, slack = receiver_factory(), receiver_factory()
    worker = AlertsWorker(store, config(hook, slack, kinds=("webhook", "slack")))
    runs.add("run-1", "FIRST_STEP_FAILURE", severity="MEDIUM", confidence=0.75)
    worker.drain()

    assert len(hook.requests) == 1 and len(slack.requests) == 1
    body = hook.bodies[0]
    assert {k: body[k] for k in ("org", "org_id", "agent", "failure_type", "severity",
                                 "confidence", "run_id", "evidence", "policy", "link")} == {
        "org": "acme", "org_id": runs.org_id, "agent": "support-bot",
        "failure_type": "FIRST_STEP_FAILURE", "severity": "MEDIUM", "confidence": 0.75,
        "run_id": "run-1", "evidence": {"steps": [1], "count": 3}, "policy": "immediate",
        "link": "http://semloop.test:8000/v1/runs/run-1",
    }
    assert body["counts"] == {"policy": "immediate", "threshold": 1, "window": 1,
                              "matching_runs": 1, "runs_considered": 1}
    assert hook.requests[0]["headers"]["content-type"] == "application/json"
    message = slack.bodies[0]
    assert message["text"].startswith("MEDIUM FIRST_STEP_FAILURE in support-bot: run run-1")
    assert [b["type"] for b in message["blocks"]] == ["header", "section", "section", "context"]

    [alert] = store.list_alerts(runs.org_id)
    assert (alert.failure_type, alert.run_id, alert.policy) == ("FIRST_STEP_FAILURE", "run-1",
                                                               "immediate")
    assert sorted((d.destination, d.status, d.attempts) for d in alert.deliveries) == [
        ("d0", "delivered", 1), ("d1", "delivered", 1)]
    assert {d.destination: d.payload for d in alert.deliveries} == {"d0": body, "d1": message}
    assert store.alert_decisions(runs.org_id, "run-1") == {
        ("FIRST_STEP_FAILURE", "structural"): "alerted"}
    assert [s.failure_type for s in store.signals_for_run(runs.org_id, "run-1")] == [
        "FIRST_STEP_FAILURE"]


def test_a_receiver_that_fails_twice_gets_the_alert_once(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    flaky = receiver_factory([503, 500])
    worker = AlertsWorker(store, config(flaky))
    runs.add("run-1", "COST_SPIKE")
    worker.drain()
    worker.drain()
    assert [r["status"] for r in flaky.requests] == [503, 500, 200]
    assert len(flaky.accepted) == 1
    [delivery] = store.list_alerts(runs.org_id)[0].deliveries
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("delivered", 3, None)
    assert [a["status"] for a in delivery.attempt_log] == [503, 500, 200]
    assert worker.deliveries == {"delivered": 1}


def test_a_receiver_that_always_fails_is_given_up_on_and_blocks_nobody(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    broken, good = receiver_factory([500] * 100), receiver_factory()
    worker = AlertsWorker(store, AlertsConfig.from_dict({
        "destinations": {"broken": {"type": "webhook", "url": broken.url},
                         # Port 9 (discard) has no listener here: connection refused.
                         "gone": {"type": "webhook", "url": "http://127.0.0.1:9/hook"},
                         "good": {"type": "slack", "url": good.url}},
        "retry": {"max_attempts": 3, "base_delay_s": 0.01}}))
    runs.add("run-1", "RUNAWAY_ITERATION")
    runs.add("run-2", "PROMPT_INJECTION_SIGNAL")
    for _ in range(3):
        worker.run_once()
    assert worker.stats.failed_batches == 0
    assert len(broken.requests) == 6  # 3 attempts for each of 2 alerts, then never again
    assert len(good.accepted) == 2
    statuses = {(a.run_id, d.destination): (d.status, d.attempts, d.last_error)
                for a in store.list_alerts(runs.org_id) for d in a.deliveries}
    assert statuses[("run-1", "broken")] == ("failed", 3, "HTTP 500")
    assert statuses[("run-1", "gone")][:2] == ("failed", 3)
    assert "ConnectionError" in statuses[("run-1", "gone")][2]
    assert statuses[("run-2", "good")] == ("delivered", 1, None)
    assert worker.deliveries == {"failed": 4, "delivered": 2}


def test_an_outage_costs_one_delivery_per_poll_and_the_queue_waits(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    down, up = receiver_factory([503] * 3), receiver_factory()
    worker = AlertsWorker(store, config(down, up))
    for i in range(3):
        runs.add(f"run-{i}", "COST_SPIKE", agent_id=f"agent-{i}")
    worker.run_once()
    # The healthy destination got everything; the one that is down was tried once, fully.
    assert sorted(b["run_id"] for b in up.bodies) == ["run-0", "run-1", "run-2"]
    assert [r["status"] for r in down.requests] == [503, 503, 503]
    pending = {a.run_id: d.status for a in store.list_alerts(runs.org_id)
               for d in a.deliveries if d.destination == "d0"}
    assert pending == {"run-0": "failed", "run-1": "pending", "run-2": "pending"}
    # It is back: the waiting deliveries go out at the next poll, once each.
    worker.run_once()
    assert [b["run_id"] for b in down.accepted] == ["run-1", "run-2"]
    assert worker.run_once() == 0
    assert len(up.requests) == 3


def test_a_redirect_is_not_followed_and_a_client_error_is_not_retried(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    moved, wrong = receiver_factory([302]), receiver_factory([400])
    worker = AlertsWorker(store, config(moved, wrong))
    runs.add("run-1", "COST_SPIKE")
    worker.drain()
    assert len(moved.requests) == 1 and len(wrong.requests) == 1
    statuses = {d.destination: (d.status, d.attempts, d.last_error)
                for d in store.list_alerts(runs.org_id)[0].deliveries}
    assert statuses == {"d0": ("failed", 1, "HTTP 302"), "d1": ("failed", 1, "HTTP 400")}


def test_consecutive_policy_at_and_beside_its_threshold(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    worker = AlertsWorker(store, config(hook))
    runs.add("a1", "TOOL_LOOP")
    runs.add("a2")                      # clean: breaks the streak
    runs.add("a3", "TOOL_LOOP")
    worker.drain()
    assert hook.bodies == []           # 1 in a row, twice: below 2/10
    assert store.alert_decisions(runs.org_id, "a3") == {("TOOL_LOOP", "structural"): "below_policy"}
    runs.add("a4", "TOOL_LOOP")        # 2 in a row
    worker.drain()
    assert [(b["run_id"], b["counts"]["matching_runs"]) for b in hook.bodies] == [("a4", 2)]


def test_frequency_policy_at_and_beside_its_threshold(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    worker = AlertsWorker(store, config(hook))
    runs.add("f1", "SLOW_STEP")
    for i in range(9):
        runs.add(f"c{i}")
    runs.add("f2", "SLOW_STEP")
    runs.add("f3", "SLOW_STEP")        # 3 SLOW_STEP runs, but f1 is 11 runs back
    worker.drain()
    assert hook.bodies == []
    runs.add("c9")
    runs.add("f4", "SLOW_STEP")        # f2, f3, f4: 3 of the last 10
    worker.drain()
    assert [(b["run_id"], b["counts"]) for b in hook.bodies] == [
        ("f4", {"policy": "frequency", "threshold": 3, "window": 10, "matching_runs": 3,
                "runs_considered": 10})]


def test_one_open_alert_per_agent_and_failure_type(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    worker = AlertsWorker(store, config(hook))
    for i in range(4):
        runs.add(f"x{i}", "TOOL_LOOP")
    runs.add("other-1", "TOOL_LOOP", agent_id="billing-bot")
    runs.add("other-2", "TOOL_LOOP", agent_id="billing-bot")
    worker.drain()
    assert [(b["agent"], b["run_id"]) for b in hook.bodies] == [
        ("support-bot", "x1"), ("billing-bot", "other-2")]
    assert [store.alert_decisions(runs.org_id, f"x{i}")[("TOOL_LOOP", "structural")]
            for i in range(4)] == ["below_policy", "alerted", "deduplicated", "deduplicated"]
    # The streak breaks, then a new one reaches the threshold: a new incident, a new alert.
    runs.add("x4")
    runs.add("x5", "TOOL_LOOP")
    runs.add("x6", "TOOL_LOOP")
    worker.drain()
    assert [b["run_id"] for b in hook.bodies] == ["x1", "other-2", "x6"]


def test_the_cooldown_reopens_a_failure_that_never_stopped(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    now = [1000.0]
    worker = AlertsWorker(store, config(hook, cooldown_s=60), clock=lambda: now[0])
    runs.add("i1", "COST_SPIKE")
    runs.add("i2", "COST_SPIKE")
    worker.drain()
    runs.add("i3", "COST_SPIKE")
    now[0] += 61
    worker.drain()
    assert [b["run_id"] for b in hook.bodies] == ["i1", "i3"]
    assert store.alert_decisions(runs.org_id, "i2") == {("COST_SPIKE", "structural"): "deduplicated"}


def test_shadow_and_below_floor_signals_are_stored_shown_and_never_alerted(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    worker = AlertsWorker(store, config(hook, policies={"TASK_COMPLETION": {"confidence_floor": 0.8}}))
    runs.add("s1", "PROMPT_INJECTION_SIGNAL", shadow=True)
    runs.add("s2", "HALLUCINATION", source="semantic", confidence=0.59)
    runs.add("s3", "TASK_COMPLETION", source="semantic", confidence=0.75)
    runs.add("s4", "HALLUCINATION", source="semantic", confidence=0.6)
    worker.drain()
    assert [(b["run_id"], b["failure_type"]) for b in hook.bodies] == [("s4", "HALLUCINATION")]
    assert store.alert_decisions(runs.org_id, "s1") == {
        ("PROMPT_INJECTION_SIGNAL", "structural"): "shadow"}
    assert store.alert_decisions(runs.org_id, "s2") == {("HALLUCINATION", "semantic"): "below_floor"}
    assert store.alert_decisions(runs.org_id, "s3") == {
        ("TASK_COMPLETION", "semantic"): "below_floor"}
    # Still stored and shown beside the run.
    [weak] = store.signals_for_run(runs.org_id, "s2")
    assert (weak.failure_type, weak.confidence, weak.source) == ("HALLUCINATION", 0.59, "semantic")
    assert store.signals_for_run(runs.org_id, "s1")[0].shadow is True


def test_below_floor_semantic_signals_do_not_count_towards_a_streak(
        store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    worker = AlertsWorker(store, config(hook))
    runs.add("l1", "SEMANTIC_LOOP", source="semantic", confidence=0.5)
    runs.add("l2", "SEMANTIC_LOOP", source="semantic", confidence=0.9)
    worker.drain()
    assert hook.bodies == []
    runs.add("l3", "SEMANTIC_LOOP", source="semantic", confidence=0.9)
    worker.drain()
    assert [b["run_id"] for b in hook.bodies] == ["l3"]


def test_each_signal_is_decided_once(store: Store, runs: Runs, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    worker = AlertsWorker(store, config(hook))
    runs.add("o1", "COST_SPIKE", "TOOL_LOOP")
    assert worker.drain() == 3          # 2 decisions + 1 delivery
    assert worker.drain() == 0
    assert AlertsWorker(store, config(hook)).drain() == 0  # a restart finds nothing new
    assert len(hook.requests) == 1


def test_two_workers_on_one_database_send_each_alert_once(
        db_url: str, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    seed = Store(db_url)
    runs = Runs(seed, seed.create_org("acme"))
    for i in range(30):
        runs.add(f"r{i}", "COST_SPIKE", agent_id=f"agent-{i}")
    stores = [Store(db_url), Store(db_url)]
    workers = [AlertsWorker(s, config(hook), batch_size=4) for s in stores]
    run_together(workers, rounds=20)
    try:
        assert sorted(b["run_id"] for b in hook.bodies) == sorted(f"r{i}" for i in range(30))
        assert all(w.stats.failed_batches == 0 for w in workers)
        assert sum(w.decisions.get("alerted", 0) for w in workers) == 30
    finally:
        for s in [*stores, seed]:
            s.close()


def test_two_workers_open_one_alert_for_one_ongoing_failure(
        db_url: str, receiver_factory: MakeReceiver) -> None:
    hook = receiver_factory()
    seed = Store(db_url)
    runs = Runs(seed, seed.create_org("acme"))
    for i in range(24):
        runs.add(f"r{i}", "COST_SPIKE")  # immediate, every run: one open alert
    stores = [Store(db_url), Store(db_url)]
    workers = [AlertsWorker(s, config(hook), batch_size=1) for s in stores]
    run_together(workers, rounds=30)
    try:
        assert [b["run_id"] for b in hook.bodies] == ["r0"]
        assert sum(w.decisions.get("deduplicated", 0) for w in workers) == 23
    finally:
        for s in [*stores, seed]:
            s.close()


def test_build_worker_reads_the_alerts_config(
        store: Store, runs: Runs, receiver_factory: MakeReceiver, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    hook = receiver_factory()
    path = tmp_path / "alerts.yml"
    path.write_text(f"alerts:\n  destinations:\n    ops: {{type: webhook, url: '{hook.url}'}}\n")
    monkeypatch.setenv("SEMLOOP_ALERTS_CONFIG", str(path))
    worker = build_worker("alerts", store)
    assert isinstance(worker, AlertsWorker) and worker.poll_interval == 10.0
    assert build_worker("alerts", store, poll_interval=2.0).poll_interval == 2.0
    runs.add("b1", "COST_SPIKE")
    worker.drain()
    assert [b["run_id"] for b in hook.bodies] == ["b1"]


def test_alerts_from_the_demo_agents_real_signals(
        db_url: str, receiver_factory: MakeReceiver) -> None:
    """The detector and loop workers' own signals, end to end through the alerts worker."""
    from semloop.alert import DEFAULT_POLICIES
    from semloop.demo import run_demo
    from semloop.judge.mock import MockBackend

    hook = receiver_factory()
    report = run_demo(db_url, MockBackend(default=0.9), repeat=2)
    with Store(db_url) as store:
        org = store.create_org("demo")
        AlertsWorker(store, config(hook)).drain()
        alerts = store.list_alerts(org)
        # Every (agent, failure type) with a live structural signal under an immediate
        # policy must have been alerted at least once.
        expected = {
            (run.agent_id, s.failure_type)
            for result in report.results for run_id in result.run_ids
            if (run := store.get_run(org, run_id)) is not None
            for s in store.signals_for_run(org, run_id)
            if not s.shadow and s.source == "structural"
            and DEFAULT_POLICIES.get(s.failure_type, IMMEDIATE).mode == "immediate"
        }
    assert expected and expected <= {(a.agent_id, a.failure_type) for a in alerts}
    # Each alert was delivered exactly once.
    assert sorted((b["agent"], b["failure_type"], b["run_id"]) for b in hook.bodies) == sorted(
        (a.agent_id, a.failure_type, a.run_id) for a in alerts)
    assert all(d.status == "delivered" for a in alerts for d in a.deliveries)
