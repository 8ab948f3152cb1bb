"""The SDK against a real HTTP server: wire format, retries, dead endpoints."""

from __future__ import annotations

import json
import logging
import re
import socket
import time
from typing import TYPE_CHECKING

import pytest

from semloop.events import Event, Run, agent_version
from semloop.sdk import Client, HttpEmitter

if TYPE_CHECKING:
    from .conftest import Recorder


def _client(url: str, **options: object) -> Client:
    options.setdefault("flush_interval", 0.05)
    options.setdefault("retry_backoff", 0.01)
    return Client(url, "sk-test-key", **options)  # type: ignore[arg-type]


def _full_run(client: Client) -> str:
    with client.run(
        "support-bot", user_input="Where is my order 42?", system_prompt="Be brief.",
        model="gpt-4o", tools=["lookup_order", "search_kb"], conversation_id="conv-1",
        parent_run_id="parent-9", trace_id="trace-7",
    ) as run:
        run.llm_called("gpt-4o", prompt_tokens=120, prompt="Where is my order 42?")
        run.llm_responded(completion_tokens=12, latency_ms=340, finish_reason="tool_calls",
                          output="calling lookup_order")
        run.tool_called("lookup_order", {"order_id": 42})
        run.tool_responded("lookup_order", success=True, latency_ms=25, output="shipped")
        run.external_signal("rate_limit", source="openai", retry_in=2)
        run.retrieval_called("kb", query="shipping times")
        run.retrieval_responded("kb", result_count=3, top_score=0.82, latency_ms=9,
                                content="3 to 5 days")
        run.llm_called("gpt-4o", prompt_tokens=300)
        run.llm_responded(completion_tokens=30, reasoning_tokens=5, latency_ms=500,
                          output="It shipped; 3 to 5 days.", prompt_tokens=301)
        run.final_answer()
        return run.run_id


def test_a_full_run_arrives_with_types_order_steps_version_and_payloads(
    ingest: Recorder,
) -> None:
    client = _client(ingest.url)
    before = time.time()
    run_id = _full_run(client)
    assert client.flush(5)
    client.shutdown()

    assert {r["path"] for r in ingest.requests} == {"/v1/ingest"}
    for request in ingest.requests:
        assert request["headers"]["Authorization"] == "Bearer sk-test-key"
        assert request["headers"]["Content-Type"] == "application/json"
        assert request["body"]["api_key"] == "sk-test-key"
    raw = ingest.accepted_events
    assert [(e["event_type"], e["step_index"]) for e in raw] == [
        ("run.started", 0),
        ("llm.called", 1), ("llm.responded", 1),
        ("tool.called", 2), ("tool.responded", 2), ("external.signal", 2),
        ("retrieval.called", 3), ("retrieval.responded", 3),
        ("llm.called", 4), ("llm.responded", 4),
        ("run.completed", 4),
    ]
    version = agent_version("Be brief.", "gpt-4o", ["search_kb", "lookup_order"])
    for e in raw:
        assert e["run_id"] == run_id
        assert e["agent_id"] == "support-bot"
        assert e["agent_version"] == version
        assert (e["conversation_id"], e["parent_run_id"], e["trace_id"]) == (
            "conv-1", "parent-9", "trace-7")
        assert re.fullmatch(r"[0-9a-f]{32}", e["event_id"])
        assert before <= e["timestamp"] <= time.time()
    assert len({e["event_id"] for e in raw}) == len(raw)
    assert [e["timestamp"] for e in raw] == sorted(e["timestamp"] for e in raw)

    payloads = [e["payload"] for e in raw]
    assert payloads[0] == {"input_text": "Where is my order 42?", "system_prompt": "Be brief.",
                           "model": "gpt-4o", "tools": ["lookup_order", "search_kb"]}
    assert payloads[1] == {"model": "gpt-4o", "prompt_tokens": 120,
                           "prompt": "Where is my order 42?"}
    assert payloads[2] == {"completion_tokens": 12, "latency_ms": 340, "output_length": 20,
                           "finish_reason": "tool_calls", "output": "calling lookup_order"}
    assert payloads[3] == {"tool_name": "lookup_order", "args": '{"order_id": 42}'}
    assert payloads[4] == {"tool_name": "lookup_order", "success": True, "output_length": 7,
                           "latency_ms": 25, "output": "shipped"}
    assert payloads[5] == {"signal_name": "rate_limit", "source": "openai",
                           "meta": {"retry_in": 2}}
    assert payloads[6] == {"index_name": "kb", "query": "shipping times"}
    assert payloads[7] == {"index_name": "kb", "result_count": 3, "top_score": 0.82,
                           "latency_ms": 9, "content": "3 to 5 days"}
    assert payloads[9]["reasoning_tokens"] == 5 and payloads[9]["prompt_tokens"] == 301
    assert payloads[10] == {"total_steps": 4, "exit_reason": "final_answer",
                            "tool_call_count": 1}

    # What arrives is what the platform's model reads.
    run = Run.from_events(Event.from_dict(e) for e in raw)
    assert run.status == "completed" and run.user_input == "Where is my order 42?"
    trace = run.to_trace()
    assert [s.type for s in trace.root.children] == ["llm", "tool", "retriever", "llm"]
    assert trace.root.children[1].output == "shipped"
    assert client.stats.sent == client.stats.emitted == 11


def test_a_run_without_final_answer_completes_with_exit_reason_completed(
    ingest: Recorder,
) -> None:
    client = _client(ingest.url)
    with client.run("a") as run:
        run.tool_called("t")
    client.shutdown()
    last = ingest.accepted_events[-1]
    assert last["event_type"] == "run.completed"
    assert last["payload"] == {"total_steps": 1, "exit_reason": "completed", "tool_call_count": 1}
    assert ingest.accepted_events[1]["payload"]["args"] == "{}"


def test_endpoint_failing_twice_then_accepting_loses_nothing(ingest: Recorder) -> None:
    ingest.statuses = [503, 429]
    client = _client(ingest.url, batch_size=1000)
    _full_run(client)
    assert client.flush(5)
    client.shutdown()
    assert [r["status"] for r in ingest.requests] == [503, 429, 202]
    # Retries resend the same event ids, so the ingest side can de-duplicate.
    ids = [[e["event_id"] for e in r["body"]["events"]] for r in ingest.requests]
    assert ids[0] == ids[1] == ids[2]
    assert len(ingest.accepted_events) == 11
    stats = client.stats
    assert (stats.sent, stats.retries, stats.send_failures) == (11, 2, 0)


def test_client_errors_are_not_retried_and_are_counted(ingest: Recorder) -> None:
    ingest.statuses = [400]
    client = _client(ingest.url, batch_size=1000)
    _full_run(client)
    client.shutdown()
    assert [r["status"] for r in ingest.requests] == [400]
    assert (client.stats.send_failures, client.stats.retries, client.stats.sent) == (11, 0, 0)


def test_a_batch_too_large_for_the_server_is_split_not_lost(ingest: Recorder) -> None:
    ingest.status_for = lambda body: 413 if len(body["events"]) > 3 else None
    client = _client(ingest.url, batch_size=1000)
    _full_run(client)
    client.shutdown()
    assert len(ingest.accepted_events) == 11
    assert ingest.accepted_events[0]["event_type"] == "run.started"
    assert client.stats.sent == 11 and client.stats.send_failures == 0


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_dead_endpoint_never_reaches_the_agent(caplog: pytest.LogCaptureFixture) -> None:
    client = _client(f"http://127.0.0.1:{_closed_port()}", max_retries=2, batch_size=1000)
    with caplog.at_level(logging.DEBUG, logger="semloop.sdk"):
        answer = None
        for _ in range(3):
            _full_run(client)
            answer = "done"
        assert client.flush(10)
        client.shutdown()
    assert answer == "done"
    stats = client.stats
    assert stats.emitted == 33 and stats.sent == 0
    assert stats.send_failures == 33
    batches = stats.send_failures and sum(
        1 for r in caplog.records if "not sent after 3 attempts" in r.getMessage())
    assert stats.retries == 2 * batches
    # One warning per outage, the rest at debug level.
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "unreachable" in warnings[0].getMessage()


def test_http_emitter_defaults_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SEMLOOP_ENDPOINT", "http://ingest.local:9000/")
    monkeypatch.setenv("SEMLOOP_API_KEY", "sk-env")
    emitter = HttpEmitter()
    assert emitter.url == "http://ingest.local:9000/v1/ingest"
    assert emitter.api_key == "sk-env"
    assert "sk-env" not in repr(emitter)
    monkeypatch.delenv("SEMLOOP_ENDPOINT")
    monkeypatch.delenv("SEMLOOP_API_KEY")
    bare = HttpEmitter()
    assert bare.url == "http://127.0.0.1:8001/v1/ingest" and bare.api_key == ""
    client = Client()
    assert isinstance(client.emitter, HttpEmitter)
    assert client.emitter.url == "http://127.0.0.1:8001/v1/ingest"
    client.shutdown()



def test_events_the_server_rejects_by_index_are_counted_the_rest_sent(
    ingest: Recorder,
) -> None:
    # The ingest API keeps the valid events of a batch (202) and lists the rejected ones.
    ingest.reply = json.dumps({"accepted": 9, "stored": 9, "duplicates": 0, "rejected": [
        {"index": 3, "field": "agent_id", "reason": "longer than 200 characters"},
        {"index": 4, "field": "agent_id", "reason": "longer than 200 characters"}]}).encode()
    client = _client(ingest.url, batch_size=1000)
    _full_run(client)
    client.shutdown()
    stats = client.stats
    assert len(ingest.requests) == 1  # a rejection is final: no retry
    assert (stats.sent, stats.send_failures, stats.retries) == (9, 2, 0)
