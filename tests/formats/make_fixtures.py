"""Regenerate the fixtures that come from real libraries (OpenTelemetry SDK, deepeval).

Run from the repository root: ``.venv/bin/python tests/formats/make_fixtures.py``.
The hand-written fixtures (LangSmith, Langfuse, OpenAI Agents) are not touched; see
docs/import.md for which is which. Needs the ``dev`` extra and no network.
"""

from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "fixtures"


def _otel_spans() -> list[Any]:
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import SpanKind, Status, StatusCode

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "weather-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("semloop.fixtures", "0.1")

    def pause() -> None:
        time.sleep(0.002)  # distinct start times, as real model and tool calls have

    # Trace 1: current GenAI names, content captured as JSON strings, one failing tool.
    with tracer.start_as_current_span("invoke_agent weather-agent", kind=SpanKind.INTERNAL) as root:
        root.set_attributes({
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "weather-agent",
            "gen_ai.conversation.id": "conv-7",
            "gen_ai.provider.name": "openai",
            "gen_ai.request.model": "gpt-4o-mini",
            "gen_ai.system_instructions": json.dumps(
                [{"type": "text", "content": "You answer weather questions."}]),
            "gen_ai.tool.definitions": json.dumps(
                [{"type": "function", "name": "get_weather"}]),
        })
        question = "What is the weather in Paris?"
        for turn in range(2):
            pause()
            with tracer.start_as_current_span("chat gpt-4o-mini", kind=SpanKind.CLIENT) as llm:
                llm.set_attributes({
                    "gen_ai.operation.name": "chat",
                    "gen_ai.provider.name": "openai",
                    "gen_ai.request.model": "gpt-4o-mini",
                    "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
                    "gen_ai.usage.input_tokens": 120 + 40 * turn,
                    "gen_ai.usage.output_tokens": 18,
                    "gen_ai.response.finish_reasons": ["tool_calls"],
                    "gen_ai.input.messages": json.dumps(
                        [{"role": "user", "parts": [{"type": "text", "content": question}]}]),
                    "gen_ai.output.messages": json.dumps([{
                        "role": "assistant",
                        "parts": [
                            {"type": "reasoning", "content": "I need the weather tool."},
                            {"type": "tool_call", "id": f"call_{turn}", "name": "get_weather",
                             "arguments": {"city": "Paris"}},
                        ],
                        "finish_reason": "tool_call",
                    }]),
                })
                time.sleep(0.003)
            pause()
            with tracer.start_as_current_span("execute_tool get_weather") as tool:
                tool.set_attributes({
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "get_weather",
                    "gen_ai.tool.call.id": f"call_{turn}",
                    "gen_ai.tool.type": "function",
                    "gen_ai.tool.call.arguments": json.dumps({"city": "Paris"}),
                })
                if turn == 0:
                    exc = TimeoutError("weather service timed out")
                    tool.record_exception(exc)
                    tool.set_attribute("error.type", "TimeoutError")
                    tool.set_status(Status(StatusCode.ERROR, "weather service timed out"))
                else:
                    tool.set_attribute("gen_ai.tool.call.result", "18°C, cloudy")
        pause()
        with tracer.start_as_current_span("chat gpt-4o-mini", kind=SpanKind.CLIENT) as llm:
            llm.set_attributes({
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": "openai",
                "gen_ai.request.model": "gpt-4o-mini",
                "gen_ai.usage.input_tokens": 210,
                "gen_ai.usage.output_tokens": 12,
                "gen_ai.response.finish_reasons": ["stop"],
                "gen_ai.output.messages": json.dumps([{
                    "role": "assistant",
                    "parts": [{"type": "text", "content": "It is 18°C and cloudy in Paris."}],
                    "finish_reason": "stop"}]),
            })
        root.set_attribute("gen_ai.output.messages", json.dumps([{
            "role": "assistant", "parts": [{"type": "text",
                                            "content": "It is 18°C and cloudy in Paris."}]}]))

    # Trace 2: the older names (gen_ai.system, prompt/completion tokens, indexed prompt
    # attributes, span events for content) that default instrumentations still emit.
    with tracer.start_as_current_span("support-bot") as root:
        root.set_attributes({"traceloop.span.kind": "workflow",
                             "traceloop.workflow.name": "support-bot",
                             "traceloop.entity.input": "Reset my password please"})
        pause()
        with tracer.start_as_current_span("openai.chat", kind=SpanKind.CLIENT) as llm:
            llm.set_attributes({
                "gen_ai.system": "openai",
                "gen_ai.request.model": "gpt-3.5-turbo",
                "gen_ai.usage.prompt_tokens": 55,
                "gen_ai.usage.completion_tokens": 9,
                "gen_ai.prompt.0.role": "system",
                "gen_ai.prompt.0.content": "You are a support bot.",
                "gen_ai.prompt.1.role": "user",
                "gen_ai.prompt.1.content": "Reset my password please",
                "gen_ai.completion.0.role": "assistant",
                "gen_ai.completion.0.content": "Let me look up your account.",
                "gen_ai.completion.0.finish_reason": "tool_calls",
            })
        pause()
        with tracer.start_as_current_span("lookup_account.tool") as tool:
            tool.set_attributes({"traceloop.span.kind": "tool",
                                 "traceloop.entity.name": "lookup_account",
                                 "traceloop.entity.input": json.dumps({"email": "a@b.co"}),
                                 "traceloop.entity.output": "account 991 found"})
        pause()
        with tracer.start_as_current_span("openai.chat", kind=SpanKind.CLIENT) as llm:
            llm.set_attributes({"gen_ai.system": "openai",
                                "gen_ai.request.model": "gpt-3.5-turbo",
                                "gen_ai.usage.prompt_tokens": 80,
                                "gen_ai.usage.completion_tokens": 11})
            llm.add_event("gen_ai.user.message", {"content": "Reset my password please"})
            llm.add_event("gen_ai.choice", {"index": 0, "finish_reason": "stop",
                                            "message": json.dumps({
                                                "content": "I sent you a reset link."})})
    return exporter.get_finished_spans()


def _openinference_spans() -> list[Any]:
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import Status, StatusCode

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "rag-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("openinference.instrumentation.fixture", "0.1")
    goal = "Summarise our refund policy"
    with tracer.start_as_current_span("agent") as root:
        root.set_attributes({"openinference.span.kind": "AGENT", "agent.name": "rag-agent",
                             "session.id": "sess-123", "user.id": "u-9",
                             "input.value": goal, "input.mime_type": "text/plain"})
        time.sleep(0.002)
        with tracer.start_as_current_span("retrieve") as ret:
            ret.set_attributes({
                "openinference.span.kind": "RETRIEVER",
                "input.value": "refund policy",
                "retrieval.documents.0.document.content": "Refunds within 30 days.",
                "retrieval.documents.0.document.score": 0.82,
                "retrieval.documents.1.document.content": "Store credit after 30 days.",
                "retrieval.documents.1.document.score": 0.55,
            })
        time.sleep(0.002)
        with tracer.start_as_current_span("ChatOpenAI") as llm:
            llm.set_attributes({
                "openinference.span.kind": "LLM",
                "llm.model_name": "gpt-4o",
                "llm.provider": "openai",
                "llm.input_messages.0.message.role": "system",
                "llm.input_messages.0.message.content": "Answer from the documents.",
                "llm.input_messages.1.message.role": "user",
                "llm.input_messages.1.message.content": goal,
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_a",
                "llm.output_messages.0.message.tool_calls.0.tool_call.function.name":
                    "get_policy",
                "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments":
                    json.dumps({"section": "refunds"}),
                "llm.token_count.prompt": 300,
                "llm.token_count.completion": 25,
                "llm.token_count.total": 325,
                "llm.cost.total": 0.0021,
            })
        time.sleep(0.002)
        with tracer.start_as_current_span("get_policy") as tool:
            tool.set_attributes({"openinference.span.kind": "TOOL", "tool.name": "get_policy",
                                 "input.value": json.dumps({"section": "refunds"}),
                                 "input.mime_type": "application/json"})
            tool.record_exception(KeyError("refunds"))
            tool.set_status(Status(StatusCode.ERROR, "KeyError: 'refunds'"))
        time.sleep(0.002)
        with tracer.start_as_current_span("ChatOpenAI") as llm:
            llm.set_attributes({
                "openinference.span.kind": "LLM", "llm.model_name": "gpt-4o",
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content":
                    "Refunds are accepted within 30 days; after that you get store credit.",
                "output.value":
                    "Refunds are accepted within 30 days; after that you get store credit.",
                "llm.token_count.prompt": 350, "llm.token_count.completion": 20,
            })
        root.set_attribute("output.value",
                           "Refunds are accepted within 30 days; after that you get store credit.")
    return exporter.get_finished_spans()


def _request(spans: list[Any]) -> Any:
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    return encode_spans(spans)


def _otlp_json(request: Any) -> dict[str, Any]:
    """OTLP/JSON as the spec defines it: proto3 JSON, but trace and span ids in hex."""
    from google.protobuf.json_format import MessageToDict

    body = MessageToDict(request)
    for rs in body.get("resourceSpans", []):
        for ss in rs.get("scopeSpans", []):
            for span in ss.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64decode(span[key]).hex()
                for link in span.get("links", []):
                    for key in ("traceId", "spanId"):
                        if link.get(key):
                            link[key] = base64.b64decode(link[key]).hex()
    return body


def make_otlp() -> None:
    spans = _otel_spans()
    request = _request(spans)
    (HERE / "otlp_genai.pb").write_bytes(request.SerializeToString())
    (HERE / "otlp_genai.json").write_text(
        json.dumps(_otlp_json(request), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    # What opentelemetry-exporter-otlp-json-file writes under a SimpleSpanProcessor: one
    # request per line, in span-end order (children before their root).
    lines = [json.dumps(_otlp_json(_request([span])), ensure_ascii=False) for span in spans]
    (HERE / "otlp_genai.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")

    oi = _openinference_spans()
    (HERE / "openinference_otlp.json").write_text(
        json.dumps(_otlp_json(_request(oi)), indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8")
    # ReadableSpan.to_json(): the flat span dicts Phoenix-style exports resemble.
    (HERE / "openinference_spans.jsonl").write_text(
        "\n".join(json.dumps(json.loads(span.to_json()), ensure_ascii=False) for span in oi)
        + "\n", encoding="utf-8")


def make_deepeval() -> None:
    os.environ["DEEPEVAL_TELEMETRY_OPT_OUT"] = "1"
    from deepeval.tracing import observe, trace_manager, update_current_trace
    from deepeval.tracing.trace_test_manager import trace_testing_manager
    from deepeval.tracing.utils import make_json_serializable

    # Trace-testing mode makes deepeval keep the TraceApi body (its upload shape) instead
    # of posting it; the nested dict is what metrics receive as test_case._trace_dict.
    trace_testing_manager.test_name = "semloop-fixture"
    api_bodies: list[Any] = []
    nested: list[Any] = []
    in_process: list[Any] = []
    original_end = trace_manager.end_trace

    def end_trace(trace_uuid: str) -> None:
        trace = trace_manager.active_traces[trace_uuid]
        nested.append({"input": trace.input, "_trace_dict": make_json_serializable(
            trace_manager.create_nested_spans_dict(trace.root_spans[0]))})
        # What get_all_traces_dict() returns while the trace is still held in memory.
        in_process.append(make_json_serializable(trace_manager.get_trace_dict(trace)))
        original_end(trace_uuid)
        api_bodies.append(trace_testing_manager.test_dict)

    trace_manager.end_trace = end_trace  # type: ignore[method-assign]

    @observe(type="tool")
    def search(query: str, limit: int = 3) -> str:
        time.sleep(0.003)
        if "moon" in query:
            raise RuntimeError("search backend unavailable")
        return "Paris is the capital of France."

    @observe(type="llm", model="gpt-4o-mini")
    def think(prompt: str) -> str:
        time.sleep(0.003)
        return "I should search for it." if "?" in prompt else "The answer is Paris."

    @observe(type="agent", available_tools=["search"])
    def agent(question: str) -> str:
        update_current_trace(thread_id="thread-1", input=question)
        think(question)
        found = search(question.rstrip("?"))
        return think(found)

    agent("What is the capital of France?")
    try:
        agent("How far is the moon?")
    except RuntimeError:
        pass
    trace_manager.end_trace = original_end  # type: ignore[method-assign]
    (HERE / "deepeval_api.json").write_text(
        json.dumps(api_bodies, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (HERE / "deepeval_trace_dict.json").write_text(
        json.dumps(nested, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (HERE / "deepeval_in_process.json").write_text(
        json.dumps(in_process, indent=1, ensure_ascii=False, default=str) + "\n",
        encoding="utf-8")


def make_ndjson() -> None:
    """Two runs recorded through semloop's own SDK into its NDJSON file emitter."""
    from semloop.sdk import Client, FileEmitter

    path = HERE / "semloop_events.ndjson"
    path.unlink(missing_ok=True)
    client = Client(emitter=FileEmitter(path))
    with client.run("faq-bot", user_input="How do I reset my password?",
                    system_prompt="You answer FAQ questions.", model="gpt-4o-mini",
                    tools=["search_faq"], conversation_id="conv-faq-1") as run:
        run.llm_called("gpt-4o-mini", prompt_tokens=40, prompt="How do I reset my password?")
        run.llm_responded(completion_tokens=8, latency_ms=310.0, finish_reason="tool_calls",
                          output="Searching the FAQ.")
        run.tool_called("search_faq", {"q": "reset password"})
        run.tool_responded("search_faq", output="Use the 'Forgot password' link.",
                           latency_ms=42.0)
        run.llm_called("gpt-4o-mini", prompt_tokens=75)
        run.llm_responded(completion_tokens=14, latency_ms=420.0,
                          output="Click 'Forgot password' on the login page.")
        run.final_answer()
    try:
        with client.run("faq-bot", user_input="Delete my account",
                        conversation_id="conv-faq-2") as run:
            run.tool_called("delete_account", {"user": "u-1"})
            run.tool_responded("delete_account", success=False, error="permission denied")
            raise PermissionError("permission denied")
    except PermissionError:
        pass
    client.shutdown(timeout=5.0)


if __name__ == "__main__":
    HERE.mkdir(parents=True, exist_ok=True)
    make_otlp()
    make_deepeval()
    make_ndjson()
