"""End to end with a real instrumentation library: OpenInference's OpenAI instrumentor
traces the official OpenAI client talking to a local stub model server, and the OTLP
exporter sends the spans to the served app, in one batch and one span per request."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import openai
import pytest
from openinference.instrumentation.openai import OpenAIInstrumentor
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    SimpleSpanProcessor,
    SpanExporter,
)

from .conftest import Server


def _completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 1796037452,
            "model": "gpt-4o-mini", "choices": [{"index": 0, "finish_reason": finish,
                                                 "message": message}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}}


class _Model(BaseHTTPRequestHandler):
    """A stub of the chat completions API: first a tool call, then an answer."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if body["messages"][-1]["role"] == "tool":
            reply = _completion({"role": "assistant", "content": "It is sunny in Paris."},
                                "stop")
        else:
            reply = _completion({"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_1", "type": "function", "function": {
                    "name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
                "tool_calls")
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def model() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Model)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/v1"
    finally:
        server.shutdown()


def _agent(server: Server, model: str,
           processor: Callable[[SpanExporter], SpanProcessor]) -> str:
    provider = TracerProvider(resource=Resource.create({"service.name": "weather-agent"}))
    provider.add_span_processor(processor(OTLPSpanExporter(
        endpoint=f"{server.url}/v1/traces", headers={"Authorization": f"Bearer {server.key}"},
        timeout=10)))
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        client = openai.OpenAI(base_url=model, api_key="sk-test", max_retries=0)
        tracer = provider.get_tracer("tests")
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": "You report the weather."},
            {"role": "user", "content": "Weather in Paris?"}]
        with tracer.start_as_current_span("weather-agent") as root:
            root.set_attribute("openinference.span.kind", "AGENT")
            root.set_attribute("input.value", "Weather in Paris?")
            first = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
            call = first.choices[0].message.tool_calls[0]
            with tracer.start_as_current_span("get_weather") as tool:
                tool.set_attributes({"openinference.span.kind": "TOOL",
                                     "tool.name": "get_weather",
                                     "input.value": call.function.arguments,
                                     "output.value": "sunny"})
            messages += [first.choices[0].message.model_dump(exclude_none=True),
                         {"role": "tool", "tool_call_id": call.id, "content": "sunny"}]
            client.chat.completions.create(model="gpt-4o-mini", messages=messages)
            trace_id = format(root.get_span_context().trace_id, "032x")
    finally:
        instrumentor.uninstrument()
    provider.force_flush()
    provider.shutdown()
    return trace_id


def test_the_openai_instrumentor_batched_or_span_by_span(server: Server, model: str) -> None:
    runs = []
    with server.client() as http:
        for processor in (BatchSpanProcessor, SimpleSpanProcessor):
            runs.append(http.get(f"/v1/runs/{_agent(server, model, processor)}").json())

    def shape(run: dict[str, Any]) -> list[tuple[Any, ...]]:
        return [(e["event_type"], e["step_index"], e["agent_version"],
                 {k: v for k, v in e["payload"].items() if k != "latency_ms"})
                for e in run["events"]]

    batch, per_span = runs
    assert shape(per_span) == shape(batch)
    types = [e["event_type"] for e in batch["events"]]
    assert types == ["run.started", "llm.called", "llm.responded", "tool.called",
                     "tool.responded", "llm.called", "llm.responded", "run.completed"]
    started = batch["events"][0]["payload"]
    assert started["input_text"] == "Weather in Paris?"
    assert started["system_prompt"] == "You report the weather."
    assert started["model"] == "gpt-4o-mini" and started["tools"] == ["get_weather"]
    plan = batch["events"][2]["payload"]
    assert plan["output"] == 'get_weather({"city": "Paris"})'  # not the raw ChatCompletion
    assert batch["events"][-1]["payload"]["total_steps"] == 3
