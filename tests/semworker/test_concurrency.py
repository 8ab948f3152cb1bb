"""Exact quotas under four workers, each with its own store (its own connection pool),
and a real OpenAI-protocol judge server failing and recovering."""

from __future__ import annotations

import threading
import time

from judge.servers import Reply, ScriptedChatServer  # tests/judge/servers.py
from semloop.judge import LLMJudgeBackend
from semloop.store import Store
from semloop.store._semantic import month_of

from .helpers import add_run, fixed, semantic_signals, worker

QUOTA = 7


def test_four_workers_run_exactly_the_quota(db_url: str) -> None:
    with Store(db_url) as setup:
        org = setup.create_org("acme")
        setup.update_org_semantics(org, evaluation_quota=QUOTA, count_local_evaluations=True)
        for i in range(30):
            add_run(setup, org, f"r{i:02d}")
    judges = [fixed(0.9) for _ in range(4)]
    errors: list[BaseException] = []

    def serve(judge: object) -> None:
        try:
            # Migrated already: alembic's context is process-global, not for threads.
            with Store(db_url, migrate=False) as own:
                semantic = worker(own, judge, batch_size=2)
                while semantic.run_once():
                    pass
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=serve, args=(j,)) for j in judges]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    with Store(db_url) as check:
        assert sum(j.calls for j in judges) == QUOTA
        assert check.usage(org, month_of(time.time())).used == QUOTA
        evaluated = [i for i in range(30) if any(
            s.failure_type == "TASK_COMPLETION" for s in semantic_signals(check, org, f"r{i:02d}"))]
        assert len(evaluated) == QUOTA
        decided = [check.sample_of(org, f"r{i:02d}") for i in range(30)]
        assert all(d is not None for d in decided)
        assert sum(d.reason == "org_quota_exceeded" for d in decided if d) == 30 - QUOTA
        exceeded = [s for i in range(30) for s in check.signals_for_run(org, f"r{i:02d}")
                    if s.failure_type == "SEMANTIC_QUOTA_EXCEEDED"]
        assert len(exceeded) == 1


VERDICT = '{"failure": true, "confidence": 0.9, "reasoning": "Refused an eligible refund."}'


def test_a_failing_judge_server_is_retried_until_it_recovers(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, count_local_evaluations=True)
    add_run(store, org, "r")
    with ScriptedChatServer() as server:
        server.play(Reply(503, {"error": {"message": "overloaded"}}),
                    Reply(503, {"error": {"message": "overloaded"}}))
        server.say(VERDICT)
        judge = LLMJudgeBackend("test-key", base_url=server.base_url, max_retries=0,
                                input_usd_per_mtok=1.0, output_usd_per_mtok=2.0)
        semantic = worker(store, judge, max_attempts=5)
        for _ in range(4):
            semantic.drain()
    [finding] = semantic_signals(store, org, "r")
    assert finding.confidence == 0.9 and finding.evidence["judge"] == "llm"
    log = store.evaluations(org, "r")
    assert [e["attempt"] for e in log] == [1, 2, 3]
    assert [e["error"] is None for e in log] == [False, False, True]
    assert log[-1]["cost_usd"] > 0 and log[-1]["input_tokens"] > 0
    assert store.usage(org, month_of(time.time())).used == 1  # three calls, one unit
