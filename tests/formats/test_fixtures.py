"""Each format's real fixture converts to the run its source describes."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from semloop.events import EVENT_TYPES, Run
from semloop.ingest.formats import FORMATS, convert, deepeval, detect_format, load

FIXTURES = Path(__file__).parent / "fixtures"
ALL = sorted(p.name for p in FIXTURES.iterdir() if not p.name.startswith("."))
DETECTED = {
    "deepeval_api.json": "deepeval",
    "deepeval_in_process.json": "deepeval",
    "deepeval_trace_dict.json": "deepeval",
    "langfuse_trace.json": "langfuse",
    "langsmith_run_tree.json": "langsmith",
    "openai_agents_export.json": "openai-agents",
    "openinference_otlp.json": "otlp",
    "openinference_spans.jsonl": "openinference",
    "otlp_genai.json": "otlp",
    "otlp_genai.jsonl": "otlp",
    "otlp_genai.pb": "otlp",
    "semloop_events.ndjson": "ndjson",
    "swe_agent.traj": "swe-agent",
    "atif_trajectory.json": "atif",
    "mini_swe_agent.traj.json": "mini-swe-agent",
    "tau_bench_results.json": "tau-bench",
    "openhands_events.json": "openhands",
    "claude_code_session.jsonl": "claude-code",
    "codex_rollout.jsonl": "codex",
    "gemini_cli_session.json": "gemini-cli",
}


def steps(run: Run) -> list[tuple[str, str]]:
    """(event type, tool name or model) for every call and response."""
    out = []
    for e in run.events:
        if e.event_type.startswith(("llm.", "tool.", "retrieval.")):
            p = e.payload
            out.append((e.event_type, str(p.get("tool_name") or p.get("index_name") or "")))
    return out


def iso(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).replace(
        tzinfo=timezone.utc).timestamp()


def test_every_fixture_is_listed_and_detected() -> None:
    assert sorted(DETECTED) == ALL
    for name, fmt in DETECTED.items():
        assert detect_format(FIXTURES / name) == fmt, name
    # Every format has at least one real fixture.
    assert set(DETECTED.values()) == set(FORMATS)


@pytest.mark.parametrize("name", ALL)
def test_fixture_events_are_well_formed(name: str) -> None:
    result = convert(FIXTURES / name)
    assert result.rejected == []
    assert result.runs
    for run in result.runs:
        assert run.events[0].event_type == "run.started"
        assert run.events[-1].event_type in ("run.completed", "run.errored")
        assert run.status in ("completed", "errored")
        ids = [e.event_id for e in run.events]
        assert len(set(ids)) == len(ids)
        for e in run.events:
            assert e.event_type in EVENT_TYPES
            assert e.run_id == run.run_id and e.agent_id == run.agent_id
            assert e.timestamp > 0
            assert e.agent_version == run.agent_version and len(run.agent_version) == 8
        # Step indices never go down, and every call has its response right after it.
        indices = [e.step_index for e in run.events]
        assert indices == sorted(indices)
        calls = [e for e in run.events if e.event_type.endswith(".called")]
        responses = [e for e in run.events if e.event_type.endswith(".responded")]
        assert [c.step_index for c in calls] == [r.step_index for r in responses]


def test_importing_is_deterministic() -> None:
    for name in ALL:
        a = convert(FIXTURES / name, clock=5.0).runs
        b = convert(FIXTURES / name, clock=5.0).runs
        assert [e.event_id for r in a for e in r.events] == [e.event_id for r in b for e in r.events]


def test_otlp_genai_current_names() -> None:
    raw = json.loads((FIXTURES / "otlp_genai.json").read_text())
    spans = [s for rs in raw["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    root = next(s for s in spans if s["name"] == "invoke_agent weather-agent")
    run = next(r for r in load(FIXTURES / "otlp_genai.json") if r.run_id == root["traceId"])
    assert run.agent_id == "weather-agent"
    assert run.conversation_id == "conv-7"
    assert run.trace_id == root["traceId"]
    assert run.user_input == "What is the weather in Paris?"
    assert run.started is not None
    assert run.started.payload["system_prompt"] == "You answer weather questions."
    assert run.started.payload["tools"] == ["get_weather"]
    assert run.started.timestamp == int(root["startTimeUnixNano"]) / 1e9
    assert steps(run) == [
        ("llm.called", ""), ("llm.responded", ""),
        ("tool.called", "get_weather"), ("tool.responded", "get_weather"),
        ("llm.called", ""), ("llm.responded", ""),
        ("tool.called", "get_weather"), ("tool.responded", "get_weather"),
        ("llm.called", ""), ("llm.responded", ""),
    ]
    llm = run.of_type("llm.responded")
    assert [e.payload["completion_tokens"] for e in llm] == [18, 18, 12]
    assert [e.payload["prompt_tokens"] for e in llm] == [120, 160, 210]
    assert llm[0].payload["model"] == "gpt-4o-mini-2024-07-18"
    assert llm[0].payload["output"] == "I need the weather tool."
    assert llm[0].payload["finish_reason"] == "tool_calls"
    assert llm[0].payload["tool_calls"] == [{"name": "get_weather",
                                             "arguments": {"city": "Paris"}}]
    assert llm[-1].payload["output"] == "It is 18°C and cloudy in Paris."
    failed, ok = run.of_type("tool.responded")
    assert failed.payload["success"] is False
    assert failed.payload["error"] == "weather service timed out"
    assert failed.payload["error_type"] == "TimeoutError"
    assert ok.payload == {**ok.payload, "success": True, "output": "18°C, cloudy"}
    assert run.of_type("tool.called")[0].payload["args"] == '{"city": "Paris"}'
    chat = next(s for s in spans if s["name"].startswith("chat"))
    called = run.of_type("llm.called")[0]
    assert called.timestamp == int(chat["startTimeUnixNano"]) / 1e9
    expected_ms = (int(chat["endTimeUnixNano"]) - int(chat["startTimeUnixNano"])) / 1e6
    # epoch seconds as floats keep about 0.2 µs of a nanosecond clock
    assert llm[0].payload["latency_ms"] == pytest.approx(expected_ms, abs=1e-3)
    assert run.status == "completed"
    assert run.events[-1].payload["output"] == "It is 18°C and cloudy in Paris."


def test_otlp_genai_old_names() -> None:
    run = next(r for r in load(FIXTURES / "otlp_genai.json") if r.agent_id == "support-bot")
    assert run.user_input == "Reset my password please"
    assert run.started is not None
    assert run.started.payload["system_prompt"] == "You are a support bot."
    assert steps(run) == [("llm.called", ""), ("llm.responded", ""),
                          ("tool.called", "lookup_account"), ("tool.responded", "lookup_account"),
                          ("llm.called", ""), ("llm.responded", "")]
    first, second = run.of_type("llm.responded")
    assert (first.payload["prompt_tokens"], first.payload["completion_tokens"]) == (55, 9)
    assert first.payload["output"] == "Let me look up your account."
    assert first.payload["finish_reason"] == "tool_calls"
    # Content recorded as span events (gen_ai.user.message / gen_ai.choice).
    assert run.of_type("llm.called")[1].payload["prompt"] == "Reset my password please"
    assert second.payload["output"] == "I sent you a reset link."
    assert run.of_type("tool.called")[0].payload["args"] == '{"email": "a@b.co"}'
    assert run.of_type("tool.responded")[0].payload["output"] == "account 991 found"


def test_otlp_encodings_agree() -> None:
    """The same spans as protobuf, JSON and file-exporter JSON lines give the same events."""
    def dump(name: str) -> list[dict[str, object]]:
        return [e.to_dict() for r in load(FIXTURES / name) for e in r.events]

    pb = dump("otlp_genai.pb")
    assert dump("otlp_genai.json") == pb
    assert dump("otlp_genai.jsonl") == pb  # lines in span-end order, children first


@pytest.mark.parametrize("name", ["openinference_spans.jsonl", "openinference_otlp.json"])
def test_openinference(name: str) -> None:
    (run,) = load(FIXTURES / name)
    assert run.agent_id == "rag-agent"
    assert run.conversation_id == "sess-123"
    assert run.user_input == "Summarise our refund policy"
    assert steps(run) == [
        ("retrieval.called", "retrieve"), ("retrieval.responded", "retrieve"),
        ("llm.called", ""), ("llm.responded", ""),
        ("tool.called", "get_policy"), ("tool.responded", "get_policy"),
        ("llm.called", ""), ("llm.responded", ""),
    ]
    (ret,) = run.of_type("retrieval.responded")
    assert ret.payload["result_count"] == 2 and ret.payload["top_score"] == 0.82
    assert run.of_type("retrieval.called")[0].payload["query"] == "refund policy"
    plan, answer = run.of_type("llm.responded")
    assert plan.payload["prompt_tokens"] == 300 and plan.payload["cost_usd"] == 0.0021
    assert plan.payload["output"] == 'get_policy({"section": "refunds"})'
    assert answer.payload["output"].startswith("Refunds are accepted within 30 days")
    (tool,) = run.of_type("tool.responded")
    assert tool.payload["success"] is False and tool.payload["error_type"] == "KeyError"
    assert run.of_type("tool.called")[0].payload["args"] == '{"section": "refunds"}'


def test_openinference_both_encodings_share_event_ids() -> None:
    a = load(FIXTURES / "openinference_spans.jsonl")[0]
    b = load(FIXTURES / "openinference_otlp.json")[0]
    assert [e.event_id for e in a.events] == [e.event_id for e in b.events]


def test_openinference_ids_that_are_not_hex_are_mapped_deterministically(
        tmp_path: Path) -> None:
    # Phoenix span JSON with its own ids (names, Relay-style base64 of text, UUIDs).
    lines = (FIXTURES / "openinference_spans.jsonl").read_text().splitlines()
    spans = [json.loads(line) for line in lines]
    names: dict[str, str] = {}
    for span in spans:
        for holder, key in ((span["context"], "span_id"), (span, "parent_id")):
            if holder.get(key):
                holder[key] = names.setdefault(holder[key], f"U3BhbjoxMjM={len(names)}")
        span["context"]["trace_id"] = "refund-session-7"
    path = tmp_path / "phoenix.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in spans))
    (run,) = load(path)
    (hex_run,) = load(FIXTURES / "openinference_spans.jsonl")
    assert steps(run) == steps(hex_run) and run.user_input == hex_run.user_input
    assert len(run.run_id) == 32 and int(run.run_id, 16) >= 0
    assert [e.event_id for e in load(path)[0].events] == [e.event_id for e in run.events]
    # A dashed UUID is the hex id it spells.
    uuid = "46815dbf-bcce-2e4c-9cbc-de16b714797b"
    path.write_text("\n".join(line.replace("0x46815dbfbcce2e4c9cbcde16b714797b", uuid)
                              for line in lines))
    assert load(path)[0].run_id == hex_run.run_id


def test_deepeval_api_body() -> None:
    raw = json.loads((FIXTURES / "deepeval_api.json").read_text())
    ok, failed = load(FIXTURES / "deepeval_api.json")
    assert ok.run_id == raw[0]["uuid"]
    assert ok.conversation_id == "thread-1"
    assert ok.user_input == "What is the capital of France?"
    assert ok.agent_id == "agent"
    assert ok.started is not None and ok.started.payload["tools"] == ["search"]
    assert ok.started.timestamp == iso(raw[0]["startTime"])
    # llmSpans come before toolSpans in the body; start times restore the real order.
    assert steps(ok) == [("llm.called", ""), ("llm.responded", ""),
                         ("tool.called", "search"), ("tool.responded", "search"),
                         ("llm.called", ""), ("llm.responded", "")]
    assert ok.of_type("llm.called")[0].payload["prompt"] == "What is the capital of France?"
    assert ok.of_type("tool.called")[0].payload["args"] == json.dumps(
        {"limit": 3, "query": "What is the capital of France"})
    assert ok.status == "completed"
    assert failed.status == "errored"
    assert failed.events[-1].payload["error"] == "search backend unavailable"
    assert failed.of_type("tool.responded")[0].payload["success"] is False


def test_deepeval_trace_dict_has_no_times_so_keeps_walk_order() -> None:
    ok, failed = load(FIXTURES / "deepeval_trace_dict.json", clock=1000.0)
    api_ok = load(FIXTURES / "deepeval_api.json")[0]
    assert steps(ok) == steps(api_ok)
    assert [e.payload.get("output") for e in ok.of_type("llm.responded")] == [
        e.payload.get("output") for e in api_ok.of_type("llm.responded")]
    assert ok.events[0].timestamp == 1000.0
    assert [e.timestamp for e in ok.events] == sorted(e.timestamp for e in ok.events)
    assert "latency_ms" not in ok.of_type("llm.responded")[0].payload
    assert failed.status == "errored"


def test_deepeval_in_process_dict_keeps_true_durations() -> None:
    raw = json.loads((FIXTURES / "deepeval_in_process.json").read_text())
    ok, failed = load(FIXTURES / "deepeval_in_process.json", clock=1000.0)
    api_ok = load(FIXTURES / "deepeval_api.json")[0]
    assert steps(ok) == steps(api_ok)  # spans carry no type here; their fields tell it
    assert ok.run_id == raw[0]["uuid"] and ok.conversation_id == "thread-1"
    assert ok.user_input == "What is the capital of France?"
    think = raw[0]["root_spans"][0]["children"][0]
    assert ok.started is not None and ok.started.timestamp == 1000.0
    called = ok.of_type("llm.called")[0]
    assert called.timestamp == pytest.approx(1000.0 + think["start_time"] - raw[0]["start_time"])
    latency = ok.of_type("llm.responded")[0].payload["latency_ms"]
    assert latency == pytest.approx((think["end_time"] - think["start_time"]) * 1000)
    assert failed.status == "errored"
    assert failed.events[-1].payload["error"] == "search backend unavailable"


def _without_tool_spans(span: dict[str, Any]) -> dict[str, Any]:
    children = [_without_tool_spans(c) for c in span.get("children", []) if c.get("type") != "tool"]
    return {**span, "children": children}


def test_deepeval_calls_listed_but_not_traced_become_tool_steps() -> None:
    case = json.loads((FIXTURES / "deepeval_trace_dict.json").read_text())[0]
    untraced = {**case, "_trace_dict": _without_tool_spans(case["_trace_dict"])}
    (run,) = deepeval.convert(json.dumps(untraced)).runs
    (traced,) = deepeval.convert(json.dumps(case)).runs
    # The agent span lists the search it made: a step after its children (the two LLM
    # calls), exactly as many tool calls as when the tool span was traced.
    assert steps(run) == [("llm.called", ""), ("llm.responded", ""),
                          ("llm.called", ""), ("llm.responded", ""),
                          ("tool.called", "search"), ("tool.responded", "search")]
    assert len(traced.of_type("tool.called")) == 1
    called, responded = run.of_type("tool.called")[0], run.of_type("tool.responded")[0]
    assert json.loads(called.payload["args"]) == {
        "query": "What is the capital of France", "limit": 3}
    assert responded.payload["output"] == "Paris is the capital of France."


def test_deepeval_api_body_fills_in_untraced_calls_at_their_span_end() -> None:
    body = json.loads((FIXTURES / "deepeval_api.json").read_text())[0]
    body = {**body, "toolSpans": []}
    (run,) = deepeval.convert(json.dumps(body)).runs
    agent = next(s for s in body["agentSpans"] if s.get("toolsCalled"))
    (called,) = run.of_type("tool.called")
    assert called.payload["tool_name"] == "search"
    assert called.timestamp == iso(agent["endTime"])


@pytest.mark.parametrize(("listed", "field"), [
    ("search", "tools_called"), (["search"], "tools_called[0]")])
def test_deepeval_malformed_tools_called_names_the_field(listed: Any, field: str) -> None:
    case = json.loads((FIXTURES / "deepeval_trace_dict.json").read_text())[0]
    bad = {**case, "_trace_dict": {**case["_trace_dict"], "tools_called": listed}}
    result = deepeval.convert(json.dumps([bad, case]))
    assert len(result.runs) == 1  # the good trace beside it is kept
    (rejected,) = result.rejected
    assert field in str(rejected)


def test_langsmith_run_tree() -> None:
    (run,) = load(FIXTURES / "langsmith_run_tree.json")
    assert run.run_id == "1f0c2a3e-0000-4000-8000-000000000001"
    assert run.agent_id == "research-agent"
    # extra.metadata.thread_id, not session_id (the tracing project).
    assert run.conversation_id == "thread-lyon"
    assert run.user_input == "Find the population of Lyon."
    assert run.started is not None
    assert run.started.payload["system_prompt"] == "You are a research assistant."
    assert run.started.timestamp == iso("2026-11-30T10:00:00")
    assert steps(run) == [("llm.called", ""), ("llm.responded", ""),
                          ("tool.called", "web_search"), ("tool.responded", "web_search"),
                          ("tool.called", "web_search"), ("tool.responded", "web_search"),
                          ("llm.called", ""), ("llm.responded", "")]
    plan, answer = run.of_type("llm.responded")
    assert plan.payload["output"] == 'web_search({"query": "Lyon population"})'
    assert (plan.payload["prompt_tokens"], plan.payload["completion_tokens"]) == (85, 17)
    assert plan.payload["model"] == "gpt-4o-mini" and plan.payload["latency_ms"] == 2000.0
    assert (answer.payload["prompt_tokens"], answer.payload["completion_tokens"]) == (140, 12)
    assert answer.payload["output"] == "Lyon has about 520,000 inhabitants."
    failed, ok = run.of_type("tool.responded")
    assert failed.payload["error"] == "HTTPError: 503 Service Unavailable"
    assert ok.payload["output"] == "Lyon: population 522,250 (2021 census)."
    assert run.of_type("tool.called")[1].payload["args"] == '{"query": "Lyon population"}'


def test_langsmith_flat_runs_in_any_order() -> None:
    tree = json.loads((FIXTURES / "langsmith_run_tree.json").read_text())
    children = tree.pop("child_runs")
    flat = list(reversed([tree, *children]))
    lines = "\n".join(json.dumps(r) for r in flat)
    from semloop.ingest.formats import langsmith

    (run,) = langsmith.read(lines.encode())
    (nested,) = load(FIXTURES / "langsmith_run_tree.json")
    assert [e.to_dict() for e in run.events] == [e.to_dict() for e in nested.events]


def test_langfuse_trace() -> None:
    (run,) = load(FIXTURES / "langfuse_trace.json")
    assert run.run_id == "lf-trace-0001"
    assert run.agent_id == "booking-agent"
    assert run.conversation_id == "session-booking-77"
    assert run.user_input == "Book a table for two at 8pm"
    assert run.started is not None
    assert run.started.payload["system_prompt"] == "You book restaurant tables."
    # Observations are listed out of order; startTime restores it.
    assert steps(run) == [("llm.called", ""), ("llm.responded", ""),
                          ("tool.called", "book_table"), ("tool.responded", "book_table"),
                          ("tool.called", "book_table"), ("tool.responded", "book_table"),
                          ("llm.called", ""), ("llm.responded", "")]
    plan = run.of_type("llm.responded")[0]
    assert plan.payload["cost_usd"] == 0.000775 and plan.payload["prompt_tokens"] == 210
    assert plan.payload["finish_reason"] == "tool_calls"
    assert run.of_type("llm.called")[0].timestamp == iso("2026-11-30T09:00:00.100")
    failed, ok = run.of_type("tool.responded")
    assert failed.payload["success"] is False
    assert failed.payload["error"] == "No availability at 20:00"
    assert ok.payload["output"] == '{"confirmation": "R-2231"}'
    assert run.events[-1].payload["output"] == "Your table for two is booked at 20:00."


def test_langfuse_bare_observations_group_by_trace() -> None:
    trace = json.loads((FIXTURES / "langfuse_trace.json").read_text())
    from semloop.ingest.formats import langfuse

    body = json.dumps({"data": trace["observations"], "meta": {"page": 1}})
    (run,) = langfuse.read(body)
    assert run.run_id == "lf-trace-0001"
    assert steps(run) == steps(load(FIXTURES / "langfuse_trace.json")[0])
    assert run.user_input == "Book a table for two at 8pm"


def test_openai_agents_export() -> None:
    (run,) = load(FIXTURES / "openai_agents_export.json")
    assert run.run_id == "trace_9f1e2d3c4b5a69788796a5b4c3d2e1f0"
    assert run.agent_id == "Customer service"
    assert run.conversation_id == "chat-thread-31"  # group_id
    assert run.user_input == "Where is my order 8812?"
    assert run.started is not None
    assert run.started.payload["tools"] == ["lookup_order"]
    assert steps(run) == [("llm.called", ""), ("llm.responded", ""),
                          ("tool.called", "lookup_order"), ("tool.responded", "lookup_order"),
                          ("llm.called", ""), ("llm.responded", ""),
                          ("tool.called", "issue_refund"), ("tool.responded", "issue_refund"),
                          ("llm.called", ""), ("llm.responded", "")]
    response = run.of_type("llm.responded")[1]
    # A `response` span keeps only usage: the step is there, its text is not.
    assert response.payload["output"] == ""
    assert response.payload["reasoning_tokens"] == 8
    (handoff,) = run.of_type("external.signal")
    assert handoff.payload["signal_name"] == "handoff"
    assert handoff.payload["meta"] == {"from_agent": "Triage agent", "to_agent": "Refund agent"}
    refund = run.of_type("tool.responded")[1]
    assert refund.payload["success"] is False
    assert "refunds disabled for shipped orders" in refund.payload["error"]
    assert run.of_type("tool.called")[0].payload["args"] == '{"order_id": "8812"}'
    assert run.events[-1].payload["output"] == "Your order 8812 shipped on 28 November with DHL."


def test_ndjson_from_the_sdk() -> None:
    lines = (FIXTURES / "semloop_events.ndjson").read_text().splitlines()
    raw = [json.loads(line) for line in lines]
    ok, failed = load(FIXTURES / "semloop_events.ndjson")
    assert [e.to_dict() for e in ok.events + failed.events] == raw
    assert ok.conversation_id == "conv-faq-1" and ok.status == "completed"
    assert failed.status == "errored"


def test_langsmith_children_without_their_root_group_by_dotted_order() -> None:
    from semloop.ingest.formats import langsmith

    tree = json.loads((FIXTURES / "langsmith_run_tree.json").read_text())
    children = [{k: v for k, v in c.items() if k != "trace_id"} for c in tree["child_runs"]]
    (run,) = langsmith.read("\n".join(json.dumps(c) for c in children))
    assert run.run_id == tree["id"]  # from the first dotted_order segment
    assert len(run.of_type("tool.called")) == 2 and len(run.of_type("llm.called")) == 2


def test_a_trace_that_is_one_model_call_is_one_step() -> None:
    from semloop.ingest.formats import langfuse

    trace = json.loads((FIXTURES / "langfuse_trace.json").read_text())
    (gen,) = [o for o in trace["observations"] if o["id"] == "obs-gen-4"]
    gen["parentObservationId"] = None
    (run,) = langfuse.read(json.dumps({**trace, "observations": [gen]}))
    assert [e.event_type for e in run.events] == [
        "run.started", "llm.called", "llm.responded", "run.completed"]
