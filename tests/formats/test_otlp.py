"""OTLP: the real OpenTelemetry SDK and its OTLP/HTTP exporter, protobuf and JSON."""

from __future__ import annotations

import base64
import builtins
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode

from semloop._exceptions import MissingExtraError, TraceFormatError
from semloop.events import Run
from semloop.ingest.formats import otlp
from semloop.ingest.formats._otel import classify

FIXTURES = Path(__file__).parent / "fixtures"


def record_agent(provider: TracerProvider, *, fail_tool: bool = False,
                 system_prompt: str | None = None) -> None:
    tracer = provider.get_tracer("test")
    with tracer.start_as_current_span("invoke_agent planner") as root:
        root.set_attributes({"gen_ai.operation.name": "invoke_agent",
                             "gen_ai.agent.name": "planner",
                             "gen_ai.conversation.id": "c-1",
                             "gen_ai.input.messages": json.dumps([
                                 {"role": "user", "parts": [{"type": "text",
                                                             "content": "plan my trip"}]}])})
        for i in range(3):
            with tracer.start_as_current_span("chat m") as llm:
                if system_prompt:
                    llm.set_attribute("gen_ai.input.messages", json.dumps([
                        {"role": "system", "content": system_prompt},
                        {"role": "user", "content": "plan my trip"}]))
                llm.set_attributes({"gen_ai.operation.name": "chat",
                                    "gen_ai.request.model": "m",
                                    "gen_ai.usage.input_tokens": 10 + i,
                                    "gen_ai.usage.output_tokens": 5})
            with tracer.start_as_current_span("execute_tool search") as tool:
                tool.set_attributes({"gen_ai.operation.name": "execute_tool",
                                     "gen_ai.tool.name": "search",
                                     "gen_ai.tool.call.arguments": '{"q": "flights"}'})
                if fail_tool:
                    tool.set_status(Status(StatusCode.ERROR, "boom"))


class _Collector(BaseHTTPRequestHandler):
    bodies: ClassVar[list[tuple[bytes, dict[str, str]]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Collector.bodies.append((body, {k.lower(): v for k, v in self.headers.items()}))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[str]:
    _Collector.bodies = []
    server = HTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/v1/traces"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("compression", [Compression.NoCompression, Compression.Gzip])
def test_real_exporter_requests_become_runs(collector: str, compression: Compression) -> None:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(
        OTLPSpanExporter(endpoint=collector, compression=compression, timeout=5)))
    record_agent(provider)
    provider.shutdown()
    # SimpleSpanProcessor: one request per span, children before their root.
    assert len(_Collector.bodies) == 7
    events = []
    for body, headers in _Collector.bodies:
        assert headers["content-type"] == "application/x-protobuf"
        if compression is Compression.Gzip:
            assert headers["content-encoding"] == "gzip"
        # Left compressed on purpose: a receiver that did not undo Content-Encoding.
        events.extend(otlp.events_from_otlp(body, headers["content-type"])[0])
    run = Run.from_events(events)
    assert run.agent_id == "planner"
    assert run.conversation_id == "c-1"
    assert run.user_input == "plan my trip"
    assert run.status == "completed"
    assert len(run.run_id) == 32 and int(run.run_id, 16)
    expected = ["run.started",
                *["llm.called", "llm.responded", "tool.called", "tool.responded"] * 3,
                "run.completed"]
    # Spans came one per request; the stored parts are assembled into the whole run.
    assert [e.event_type for e in run.events] == expected
    assert [e.step_index for e in run.events] == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6]
    assert [e.payload["prompt_tokens"] for e in run.of_type("llm.called")] == [10, 11, 12]
    assert run.events[-1].payload["total_steps"] == 6
    assert run.events[-1].payload["tool_call_count"] == 3


def _per_span_and_whole(spans: Any, order: Any) -> tuple[Run, Run]:
    whole, _ = otlp.events_from_otlp(encode_spans(spans).SerializeToString(),
                                     "application/x-protobuf")
    parts = [e for s in order for e in otlp.events_from_otlp(
        encode_spans(s).SerializeToString(), "application/x-protobuf")[0]]
    return Run.from_events(parts), Run.from_events(whole)


def test_a_trace_sent_span_by_span_in_any_order_is_the_whole_trace() -> None:
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    record_agent(provider, system_prompt="You plan trips.")
    spans = list(memory.get_finished_spans())
    shuffled = [spans[i] for i in (3, 6, 0, 5, 1, 4, 2)]
    orders = {"one per request": [[s] for s in spans],
              "root first, shuffled": [[spans[-1]], *[[s] for s in shuffled if s is not spans[-1]]],
              "uneven requests": [spans[:2], spans[2:3], spans[3:]]}
    for name, order in orders.items():
        parts, whole = _per_span_and_whole(spans, order)
        assert [e.to_dict() for e in parts.events] == [e.to_dict() for e in whole.events], name
        assert parts.agent_version == whole.agent_version != "", name
    started = whole.started
    assert started is not None
    assert started.payload["model"] == "m" and started.payload["tools"] == ["search"]
    assert started.payload["system_prompt"] == "You plan trips."
    # A request of child spans alone neither opens nor closes the run, nor numbers it.
    children = [s for s in spans if s.parent is not None]
    partial, _ = otlp.events_from_otlp(encode_spans(children).SerializeToString(),
                                       "application/x-protobuf")
    assert {e.event_type for e in partial} == {"llm.called", "llm.responded", "tool.called",
                                               "tool.responded"}
    assert {e.step_index for e in partial} == {0} and {e.agent_version for e in partial} == {""}


def _json_body(spans: Any, *, base64_ids: bool = False) -> dict[str, Any]:
    from google.protobuf.json_format import MessageToDict

    body = MessageToDict(encode_spans(spans))
    if not base64_ids:
        for rs in body["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for span in ss["spans"]:
                    for key in ("traceId", "spanId", "parentSpanId"):
                        if key in span:
                            span[key] = base64.b64decode(span[key]).hex()
    return body


@pytest.mark.parametrize("base64_ids", [False, True])
def test_json_with_hex_or_base64_ids(base64_ids: bool) -> None:
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    record_agent(provider, fail_tool=True)
    spans = memory.get_finished_spans()
    body = json.dumps(_json_body(spans, base64_ids=base64_ids)).encode()
    events, _ = otlp.events_from_otlp(body, "application/json; charset=utf-8")
    pb, _ = otlp.events_from_otlp(encode_spans(spans).SerializeToString(),
                                  "application/x-protobuf")
    assert [e.to_dict() for e in events] == [e.to_dict() for e in pb]
    run = Run.from_events(events)
    assert run.run_id == format(spans[0].context.trace_id, "032x")
    assert [e.payload["success"] for e in run.of_type("tool.responded")] == [False] * 3
    assert run.of_type("tool.responded")[0].payload["error"] == "boom"


def _span(trace: str, span: str, attrs: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"traceId": trace, "spanId": span, "name": extra.pop("name", "s"),
            "startTimeUnixNano": extra.pop("start", "1796037452000000000"),
            "endTimeUnixNano": "1796037453000000000", "attributes": attrs, **extra}


def _request(*spans: dict[str, Any]) -> bytes:
    return json.dumps({"resourceSpans": [{"resource": {"attributes": []},
                                          "scopeSpans": [{"spans": list(spans)}]}]}).encode()


def test_complex_attribute_values_and_int_strings() -> None:
    trace = "4fd4a4d492b74860bc30a34e4a57f929"
    messages = {"arrayValue": {"values": [{"kvlistValue": {"values": [
        {"key": "role", "value": {"stringValue": "assistant"}},
        {"key": "parts", "value": {"arrayValue": {"values": [{"kvlistValue": {"values": [
            {"key": "type", "value": {"stringValue": "text"}},
            {"key": "content", "value": {"stringValue": "hello there"}}]}}]}}}]}}]}}
    body = _request(
        _span(trace, "5bd60ddcf1bdb072", [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "120"}},
            {"key": "gen_ai.output.messages", "value": messages}], status={}),
    )
    (run,) = otlp.read_request(body, "application/json")[0]
    (resp,) = run.of_type("llm.responded")
    assert resp.payload["output"] == "hello there"
    assert resp.payload["prompt_tokens"] == 120
    assert run.status == "completed"


def test_one_bad_span_or_trace_does_not_lose_the_others() -> None:
    good = "4fd4a4d492b74860bc30a34e4a57f929"
    body = _request(
        _span(good, "5bd60ddcf1bdb072", [{"key": "gen_ai.tool.name",
                                          "value": {"stringValue": "t"}}]),
        _span("nothex", "5bd60ddcf1bdb073", []),
        _span(good, "5bd60ddcf1bdb074", [{"key": "n", "value": {"intValue": "x"}}]),
    )
    runs, errors = otlp.read_request(body, "application/json")
    assert [r.run_id for r in runs] == [good]
    assert [e.event_type for e in runs[0].events] == [
        "run.started", "tool.called", "tool.responded", "run.completed"]
    assert [e.field for e in errors] == [
        "resourceSpans[0].scopeSpans[0].spans[1].traceId",
        "resourceSpans[0].scopeSpans[0].spans[2].attributes[0].value"]
    events, dropped = otlp.events_from_otlp(body, "application/json")
    assert len(events) == 4 and list(map(str, dropped)) == list(map(str, errors))


@pytest.mark.parametrize(("body", "content_type", "needle"), [
    (b"{not json", "application/json", "not valid JSON"),
    (b'{"foo": 1}', "application/json", "resourceSpans"),
    (b'{"resourceSpans": {}}', "application/json", "resourceSpans"),
    (b"\x0a\xff\xff\xff", "application/x-protobuf", "ExportTraceServiceRequest"),
    (b"{}", "text/plain", "unsupported content type"),
    (b"\x1f\x8b\x00garbage", "application/json", "gzip"),
])
def test_malformed_bodies_raise_clear_errors(body: bytes, content_type: str,
                                             needle: str) -> None:
    with pytest.raises(TraceFormatError, match=needle):
        otlp.events_from_otlp(body, content_type)


def test_protobuf_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def blocked(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("opentelemetry.proto"):
            raise ImportError(name=name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", blocked)
    with pytest.raises(MissingExtraError, match=r"semloop\[server\]"):
        otlp.events_from_otlp(b"\x0a\x00", "application/x-protobuf")


def test_file_with_a_bad_line_keeps_the_good_lines(tmp_path: Path) -> None:
    lines = (FIXTURES / "otlp_genai.jsonl").read_text().splitlines()
    lines.insert(3, "{oops")
    path = tmp_path / "spans.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = otlp.convert(path.read_bytes(), source=str(path))
    assert len(result.runs) == 2
    (bad,) = result.rejected
    assert bad.line == 4 and bad.source == str(path)


@pytest.mark.parametrize(("attrs", "kind"), [
    # Langfuse's ObservationTypeMapper order: the first rule that matches wins.
    ({"langfuse.observation.type": "tool", "openinference.span.kind": "LLM"}, "tool"),
    ({"openinference.span.kind": "LLM", "gen_ai.operation.name": "execute_tool"}, "llm"),
    ({"gen_ai.operation.name": "invoke_agent", "gen_ai.request.model": "m"}, "agent"),
    ({"gen_ai.operation.name": "embeddings"}, "other"),
    ({"gen_ai.tool.call.id": "c1", "gen_ai.request.model": "m"}, "tool"),
    ({"llm.model_name": "m"}, "llm"),
    ({"traceloop.span.kind": "tool"}, "tool"),
    ({"http.method": "GET"}, "other"),
])
def test_span_classifier_order(attrs: dict[str, Any], kind: str) -> None:
    assert classify(attrs) == kind


def test_langfuse_sdk_attributes_over_otlp() -> None:
    trace = "4fd4a4d492b74860bc30a34e4a57f929"

    def s(key: str, value: str) -> dict[str, Any]:
        return {"key": key, "value": {"stringValue": value}}

    body = _request(
        _span(trace, "5bd60ddcf1bdb070", [s("langfuse.trace.input", "find a flight"),
                                          s("langfuse.session.id", "lf-sess"),
                                          s("langfuse.observation.type", "agent")],
              name="travel-agent", start="1796037451000000000"),
        _span(trace, "5bd60ddcf1bdb071", [s("langfuse.observation.type", "generation"),
                                          s("langfuse.observation.model.name", "gpt-4o"),
                                          s("langfuse.observation.output", "searching")],
              parentSpanId="5bd60ddcf1bdb070", start="1796037451500000000"),
        _span(trace, "5bd60ddcf1bdb072", [s("langfuse.observation.type", "tool"),
                                          s("langfuse.observation.input", '{"to": "OSL"}'),
                                          s("langfuse.observation.level", "ERROR"),
                                          s("langfuse.observation.status_message", "no seats")],
              parentSpanId="5bd60ddcf1bdb070", name="flights"),
    )
    (run,) = otlp.read_request(body, "application/json")[0]
    assert run.conversation_id == "lf-sess" and run.user_input == "find a flight"
    assert run.agent_id == "travel-agent"
    (llm,) = run.of_type("llm.responded")
    assert (llm.payload["model"], llm.payload["output"]) == ("gpt-4o", "searching")
    (tool,) = run.of_type("tool.responded")
    assert tool.payload["tool_name"] == "flights" and tool.payload["error"] == "no seats"
    assert run.of_type("tool.called")[0].payload["args"] == '{"to": "OSL"}'
