"""``POST /v1/traces``: the real OpenTelemetry SDK and its OTLP/HTTP exporter send spans,
which arrive as a run whose id is the trace id in hex."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    SimpleSpanProcessor,
    SpanExporter,
)

from .conftest import Server

FIXTURES = Path(__file__).resolve().parents[1] / "formats" / "fixtures"


def _agent_trace(server: Server, key: str,
                 processor: Callable[[SpanExporter], SpanProcessor] = BatchSpanProcessor,
                 ) -> str:
    exporter = OTLPSpanExporter(endpoint=f"{server.url}/v1/traces",
                                headers={"Authorization": f"Bearer {key}"}, timeout=10)
    provider = TracerProvider(resource=Resource.create({"service.name": "weather-agent"}))
    provider.add_span_processor(processor(exporter))
    tracer = provider.get_tracer("tests.api")
    with tracer.start_as_current_span("invoke_agent weather-agent") as root:
        root.set_attributes({"gen_ai.operation.name": "invoke_agent",
                             "gen_ai.agent.name": "weather-agent",
                             "gen_ai.conversation.id": "conv-42",
                             "gen_ai.request.model": "gpt-4o-mini"})
        with tracer.start_as_current_span("chat gpt-4o-mini") as llm:
            llm.set_attributes({"gen_ai.operation.name": "chat",
                                "gen_ai.request.model": "gpt-4o-mini",
                                "gen_ai.usage.input_tokens": 100,
                                "gen_ai.usage.output_tokens": 12})
        with tracer.start_as_current_span("execute_tool get_weather") as tool:
            tool.set_attributes({"gen_ai.operation.name": "execute_tool",
                                 "gen_ai.tool.name": "get_weather",
                                 "gen_ai.tool.call.arguments": json.dumps({"city": "Paris"}),
                                 "gen_ai.tool.call.result": "sunny"})
        trace_id = format(root.get_span_context().trace_id, "032x")
    provider.force_flush()
    provider.shutdown()
    return trace_id


def test_the_otel_exporter_sends_a_run_over_protobuf(server: Server) -> None:
    trace_id = _agent_trace(server, server.key)
    with server.client() as http:
        run = http.get(f"/v1/runs/{trace_id}")
    assert run.status_code == 200
    body = run.json()
    assert body["conversation_id"] == "conv-42"
    assert body["status"] == "completed"
    types = [e["event_type"] for e in body["events"]]
    assert types[0] == "run.started" and types[-1] == "run.completed"
    assert {"llm.called", "llm.responded", "tool.called", "tool.responded"} <= set(types)
    tool = next(e for e in body["events"] if e["event_type"] == "tool.called")
    assert tool["payload"]["tool_name"] == "get_weather"


def test_one_span_per_request_serves_the_run_one_batch_gives(server: Server) -> None:
    # Phoenix's register() default: SimpleSpanProcessor, one request per span, root last.
    runs = []
    with server.client() as http:
        for processor in (BatchSpanProcessor, SimpleSpanProcessor):
            trace_id = _agent_trace(server, server.key, processor)
            runs.append(http.get(f"/v1/runs/{trace_id}").json())

    def shape(run: dict[str, Any]) -> list[tuple[Any, ...]]:
        return [(e["event_type"], e["step_index"], e["agent_version"], e["agent_id"],
                 e["conversation_id"],
                 {k: v for k, v in e["payload"].items() if k != "latency_ms"})
                for e in run["events"]]

    batch, per_span = runs
    assert shape(per_span) == shape(batch)
    assert per_span["agent_version"] == batch["agent_version"] != ""
    completed = per_span["events"][-1]["payload"]
    assert (completed["total_steps"], completed["tool_call_count"]) == (2, 1)
    assert per_span["events"][0]["payload"]["model"] == "gpt-4o-mini"


def test_a_wrong_key_stores_no_spans(server: Server) -> None:
    _agent_trace(server, "sl_000000000000_wrong")
    assert server.store.count_events(server.org_id) == 0


def test_otlp_json_is_accepted_and_replays_add_nothing(server: Server) -> None:
    body = (FIXTURES / "otlp_genai.json").read_bytes()
    with server.client() as http:
        first = http.post("/v1/traces", content=body, headers={"Content-Type": "application/json"})
        stored = server.store.count_events(server.org_id)
        again = http.post("/v1/traces", content=body, headers={"Content-Type": "application/json"})
        bad = http.post("/v1/traces", content=b"{nope", headers={"Content-Type": "application/json"})
        text = http.post("/v1/traces", content=b"x", headers={"Content-Type": "text/plain"})
    assert first.status_code == 200 and first.json() == {}
    assert again.status_code == 200
    assert stored > 0 and server.store.count_events(server.org_id) == stored
    assert bad.status_code == 400 and "JSON" in bad.json()["detail"]
    assert text.status_code == 415


def test_events_too_big_for_the_schema_come_back_as_partial_success(server: Server) -> None:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
        ExportTraceServiceResponse,
    )

    long_id = "c" * 300  # longer than the conversation_id column holds
    doc = (FIXTURES / "otlp_genai.json").read_text().replace("conv-7", long_id)
    request = ExportTraceServiceRequest.FromString((FIXTURES / "otlp_genai.pb").read_bytes())
    for resource in request.resource_spans:
        for scope in resource.scope_spans:
            for span in scope.spans:
                for attr in span.attributes:
                    if attr.value.string_value == "conv-7":
                        attr.value.string_value = long_id
    with server.client() as http:
        as_json = http.post("/v1/traces", content=doc.encode(),
                            headers={"Content-Type": "application/json"})
        as_pb = http.post("/v1/traces", content=request.SerializeToString(),
                          headers={"Content-Type": "application/x-protobuf"})
    assert as_json.status_code == 200
    partial = as_json.json()["partialSuccess"]
    assert partial["rejectedSpans"] > 0
    assert "conversation_id: longer than 200 characters" in partial["errorMessage"]
    assert as_pb.status_code == 200
    assert as_pb.headers["content-type"] == "application/x-protobuf"
    reply = ExportTraceServiceResponse.FromString(as_pb.content)
    assert reply.partial_success.rejected_spans == partial["rejectedSpans"]
    # The other trace in the fixture is stored; the oversized one is not.
    assert server.store.count_events(server.org_id) > 0


def _json_span(trace: str, span: str, **fields: object) -> dict[str, object]:
    return {"traceId": trace, "spanId": span, "name": "execute_tool t",
            "startTimeUnixNano": "1796037452000000000", "endTimeUnixNano": "1796037453000000000",
            "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "t"}}],
            **fields}


def test_every_dropped_span_is_counted_in_partial_success(server: Server) -> None:
    good = "4fd4a4d492b74860bc30a34e4a57f929"
    body = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [
        _json_span(good, "5bd60ddcf1bdb072"),
        _json_span(good, "5bd60ddcf1bdb073", startTimeUnixNano="yesterday"),
        _json_span("nothex", "5bd60ddcf1bdb074"),
        _json_span("ab" * 40, "5bd60ddcf1bdb075"),  # too long to be a trace id
        # Readable, but its tool name holds a lone surrogate: refused by validation.
        _json_span(good, "5bd60ddcf1bdb076", attributes=[
            {"key": "gen_ai.tool.name", "value": {"stringValue": "\ud800"}}]),
    ]}]}]}).encode()
    with server.client() as http:
        reply = http.post("/v1/traces", content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 200
    partial = reply.json()["partialSuccess"]
    assert partial["rejectedSpans"] == 4
    message = partial["errorMessage"]
    assert "spans[1].startTimeUnixNano" in message and "spans[2].traceId" in message
    assert "spans[3].traceId" in message and "surrogate" in message
    stored = server.store.get_run(server.org_id, good)
    assert stored is not None
    assert [e.payload.get("tool_name") for e in stored.of_type("tool.called")] == ["t"]


def test_oversized_span_numbers_drop_that_span_not_the_request(server: Server) -> None:
    good = "4fd4a4d492b74860bc30a34e4a57f929"
    huge = "1" + "0" * 399
    tokens = [{"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
              {"key": "gen_ai.usage.input_tokens", "value": {"intValue": huge}}]
    body = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [
        _json_span(good, "5bd60ddcf1bdb072"),
        _json_span(good, "5bd60ddcf1bdb073", startTimeUnixNano=huge),
        _json_span(good, "5bd60ddcf1bdb074", attributes=tokens),
    ]}]}]}).encode()
    with server.client() as http:
        reply = http.post("/v1/traces", content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 200
    partial = reply.json()["partialSuccess"]
    assert partial["rejectedSpans"] == 2
    assert "spans[1].startTimeUnixNano" in partial["errorMessage"]
    assert "payload.prompt_tokens" in partial["errorMessage"]
    stored = server.store.get_run(server.org_id, good)
    assert stored is not None and len(stored.of_type("tool.called")) == 1
