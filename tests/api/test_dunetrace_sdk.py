"""Wire compatibility: the official ``dunetrace`` SDK from PyPI, unmodified, sends runs to
our ingest over real HTTP, and they arrive complete and in order."""

from __future__ import annotations

from typing import Any

import dunetrace
import pytest
from dunetrace.emitters import HttpBatchingEmitter, ShipOutcome

from .conftest import Server


class RecordingEmitter(HttpBatchingEmitter):
    """The SDK's own HTTP emitter, remembering what it shipped and how that went."""

    def __init__(self, endpoint: str, api_key: str) -> None:
        super().__init__(endpoint, api_key, max_retries=0)
        self.shipped: list[dict[str, Any]] = []
        self.outcomes: list[ShipOutcome] = []

    def ship(self, batch: list[Any]) -> ShipOutcome:
        outcome = super().ship(batch)
        self.shipped.extend(event.to_dict() for event in batch)
        self.outcomes.append(outcome)
        return outcome


def _agent_run(dt: dunetrace.Dunetrace, n: int, *, fail: bool = False) -> str:
    with dt.run("support-agent", user_input=f"refund order {n}", system_prompt="You help.",
                model="gpt-4o-mini", tools=["lookup_order", "refund"],
                conversation_id=f"conv-{n % 3}") as run:
        run.llm_called("gpt-4o-mini", prompt_tokens=120)
        run.llm_responded(completion_tokens=20, latency_ms=300, output="look it up")
        run.tool_called("lookup_order", {"order_id": n})
        run.tool_responded("lookup_order", success=True, output='{"status": "paid"}',
                           latency_ms=40)
        run.tool_called("refund", {"order_id": n})
        run.tool_responded("refund", success=not fail, error="gateway down" if fail else None)
        run.llm_called("gpt-4o-mini", prompt_tokens=200)
        run.llm_responded(completion_tokens=15, output="Your refund is on its way.")
        run.final_answer()
        if fail:
            raise RuntimeError("refund failed")
        return str(run.run_id)


def test_runs_sent_by_the_official_sdk_arrive_complete_and_in_order(server: Server) -> None:
    emitter = RecordingEmitter(server.url, server.key)
    dt = dunetrace.Dunetrace(endpoint=server.url, api_key=server.key, emitter=emitter)
    run_ids = [_agent_run(dt, n) for n in range(25)]  # 200+ events: several batches
    with pytest.raises(RuntimeError):
        _agent_run(dt, 99, fail=True)
    dt.shutdown(timeout=10)

    assert emitter.outcomes and all(o is ShipOutcome.DELIVERED for o in emitter.outcomes)
    sent_by_run: dict[str, list[dict[str, Any]]] = {}
    for event in emitter.shipped:
        sent_by_run.setdefault(event["run_id"], []).append(event)
    assert set(run_ids) < set(sent_by_run)

    with server.client() as http:
        for run_id, sent in sent_by_run.items():
            body = http.get(f"/v1/runs/{run_id}").json()
            got = body["events"]
            # Every event the SDK shipped is there, once, in the SDK's own emit order.
            assert [e["event_id"] for e in got] == [e["event_id"] for e in sent]
            assert [e["event_type"] for e in got] == [e["event_type"] for e in sent]
            assert got[0]["payload"]["input_text"] == sent[0]["payload"]["input_text"]
            assert body["agent_id"] == "support-agent"
            assert body["conversation_id"] == sent[0]["conversation_id"]
            assert body["signals"] == []
            if run_id in run_ids:
                assert body["status"] == "completed"
                assert [e["event_type"] for e in got] == [
                    "run.started", "llm.called", "llm.responded", "tool.called",
                    "tool.responded", "tool.called", "tool.responded", "llm.called",
                    "llm.responded", "run.completed"]
                assert got[-1]["payload"]["exit_reason"] == "final_answer"
            else:
                assert body["status"] == "errored"
                assert got[-1]["payload"]["error_type"] == "RuntimeError"
    assert server.store.count_events(server.org_id) == len(emitter.shipped)


def test_the_sdk_with_a_wrong_key_stores_nothing(server: Server) -> None:
    emitter = RecordingEmitter(server.url, "sl_000000000000_not-a-real-key")
    dt = dunetrace.Dunetrace(endpoint=server.url, api_key="sl_000000000000_not-a-real-key",
                             emitter=emitter)
    _agent_run(dt, 1)
    dt.shutdown(timeout=10)
    assert emitter.outcomes and all(o is ShipOutcome.REJECTED for o in emitter.outcomes)
    assert server.store.count_events(server.org_id) == 0


def test_the_sdk_as_users_configure_it(server: Server) -> None:
    # No emitter override: exactly `Dunetrace(endpoint=..., api_key=...)`.
    dt = dunetrace.Dunetrace(endpoint=server.url, api_key=server.key)
    run_id = _agent_run(dt, 7)
    dt.shutdown(timeout=10)
    with server.client() as http:
        body = http.get(f"/v1/runs/{run_id}").json()
    assert body["status"] == "completed"
    assert [e["event_type"] for e in body["events"]] == [
        "run.started", "llm.called", "llm.responded", "tool.called", "tool.responded",
        "tool.called", "tool.responded", "llm.called", "llm.responded", "run.completed"]
    steps = [e["step_index"] for e in body["events"]]
    assert steps == sorted(steps)
    assert len({e["event_id"] for e in body["events"]}) == 10
    assert body["events"][0]["payload"]["input_text"] == "refund order 7"
    assert body["events"][3]["payload"]["tool_name"] == "lookup_order"
