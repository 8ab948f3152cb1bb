"""Embedded mode end to end: the SDK writes through StoreEmitter into a real SQLite store."""

from __future__ import annotations

from pathlib import Path

from semloop.events import agent_version
from semloop.sdk import Client, StoreEmitter
from semloop.store import Store


def test_runs_recorded_through_the_sdk_come_back_complete_from_the_store(
    tmp_path: Path,
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'semloop.db'}")
    try:
        org = store.create_org("acme")
        client = Client(emitter=StoreEmitter(store, org), batch_size=4)
        with client.run("bot", user_input="refund order 7", system_prompt="sp", model="m",
                        tools=["refund"], conversation_id="c-1") as run:
            run.llm_called("m", 10, prompt="refund order 7")
            run.llm_responded(completion_tokens=5, output="calling refund")
            run.tool_called("refund", {"order": 7, "api_key": "sk-live"})
            run.tool_responded("refund", success=False, error="card expired")
            run.final_answer()
        assert client.flush(10)
        client.shutdown()
        assert client.stats.sent == 6 and client.stats.send_failures == 0

        stored = store.get_run(org, run.run_id)
        assert stored is not None
        assert stored.status == "completed"
        assert stored.agent_version == agent_version("sp", "m", ["refund"])
        assert stored.conversation_id == "c-1"
        assert [(e.event_type, e.step_index) for e in stored.events] == [
            ("run.started", 0), ("llm.called", 1), ("llm.responded", 1),
            ("tool.called", 2), ("tool.responded", 2), ("run.completed", 2)]
        assert stored.events[3].payload["args"] == '{"order": 7, "api_key": "[REDACTED]"}'
        assert stored.events[4].payload["error"] == "card expired"
        trace = stored.to_trace()
        assert trace.goal == "refund order 7"
        assert [s.type for s in trace.root.children] == ["llm", "tool"]
        # A replayed batch adds nothing: event ids de-duplicate.
        assert store.add_events(org, stored.events) == 0
    finally:
        store.close()
