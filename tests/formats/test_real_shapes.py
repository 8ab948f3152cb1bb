"""Shapes met in real exports (bench/import_real_files.py, docs/import.md "Real files"),
each written here by hand from its documented form: Langfuse's downloaded trace with
JSON-text inputs and outputs, provider answers as SDKs log them, and the attribute names
of the Vercel AI SDK, Logfire/pydantic-ai, Google ADK and LangSmith's OTel exporter."""

from __future__ import annotations

import json
from typing import Any

import pytest

from semloop.ingest.formats import langfuse, otlp
from semloop.ingest.formats._common import model_reply, request_messages
from semloop.ingest.formats._otel import classify

TRACE = "0af7651916cd43dd8448eb211c80319c"


@pytest.mark.parametrize("answer, said, calls, reason", [
    ({"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "lookup", "arguments": '{"id": 7}'}}]},
        "finish_reason": "tool_calls"}]}, "", [("lookup", {"id": 7})], "tool_calls"),
    ({"object": "response", "output": [
        {"type": "function_call", "name": "lookup", "arguments": '{"id": 7}', "call_id": "x"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "Looking it up."}]}]},
     "Looking it up.", [("lookup", {"id": 7})], None),
    ({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "Let me check."}, {"function_call": {"name": "lookup", "args": {"id": 7}}}]},
        "finish_reason": "STOP"}]}, "Let me check.", [("lookup", {"id": 7})], "STOP"),
    ({"content": {"role": "model", "parts": [{"text": "Done."}]}, "finish_reason": "STOP"},
     "Done.", [], "STOP"),
    ({"role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "t1", "name": "lookup", "input": {"id": 7}}]},
     "Checking.", [("lookup", {"id": 7})], "tool_use"),
    ({"index": 0, "message": {"role": "assistant", "content": "Paris."}}, "Paris.", [], None),
    ({"finishReason": "stop", "message": {"role": "model", "content": [
        {"text": {"score": 0.9}}]}}, '{"score": 0.9}', [], "stop"),
    ({"role": "assistant", "content": "", "additional_kwargs": {"tool_calls": [
        {"id": "c", "function": {"name": "lookup", "arguments": '{"id": 7}'}}]}},
     "", [("lookup", {"id": 7})], None),
    ([{"role": "assistant", "parts": [{"type": "tool_call", "id": "1", "name": "lookup",
                                       "arguments": {"id": 7}}]}],
     "", [("lookup", {"id": 7})], None),
    ([{"toolCallId": "c", "toolName": "lookup", "input": '{"id": 7}'}],
     "", [("lookup", {"id": 7})], None),
])
def test_model_answers_in_each_provider_shape(answer: Any, said: str,
                                              calls: list[tuple[str, Any]],
                                              reason: str | None) -> None:
    for value in (answer, json.dumps(answer)):  # a dict, or its JSON text as exports keep it
        got = model_reply(value)
        assert got is not None
        assert (got[0], [(c["name"], c["arguments"]) for c in got[1]], got[2]) == (
            said, calls, reason)


@pytest.mark.parametrize("value", [
    "not an answer", {"output": "plain"}, {"message": "an error text"}, [{"role": "user"}], 3])
def test_other_values_are_not_model_answers(value: Any) -> None:
    assert model_reply(value) is None


@pytest.mark.parametrize("request_, first_text", [
    ({"messages": [{"role": "user", "content": "hi"}]}, "hi"),
    ({"model": "gemini", "contents": "hi"}, "hi"),
    ({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, "hi"),
    ({"prompt": "hi"}, "hi"),
    ({"user_id": "u", "new_message": {"role": "user", "parts": [{"text": "hi"}]}}, "hi"),
    ({"args": ["hi"], "kwargs": {}}, "hi"),
    ({"message": "hi", "stream": False}, "hi"),
    ('{"input": [{"role": "user", "content": "hi"}]}', "hi"),
])
def test_request_messages_of_each_sdk(request_: Any, first_text: str) -> None:
    from semloop.ingest.formats._common import first_of_role

    assert first_of_role(request_messages(request_), "user") == first_text


def _observation(oid: str, kind: str, start: str, **fields: Any) -> dict[str, Any]:
    return {"id": oid, "traceId": TRACE, "type": kind, "name": fields.pop("name", kind.lower()),
            "startTime": f"2026-03-01T10:00:{start}Z", "endTime": f"2026-03-01T10:00:{start}Z",
            "parentObservationId": fields.pop("parent", "root"), "level": "DEFAULT",
            "metadata": "{}", **fields}


def test_langfuse_downloaded_trace_with_json_text_fields() -> None:
    """The UI's "download" of a trace: ``{"trace", "observations"}``, inputs and outputs
    kept as JSON text, the trace input a JSON string literal."""
    gemini_call = {"content": {"role": "model", "parts": [
        {"function_call": {"name": "get_forecast", "args": {"city": "Bergen"}}}]},
        "finish_reason": "STOP"}
    answer = {"role": "assistant", "content": [{"type": "text", "text": "Rain all week."}]}
    doc = {
        "trace": {"id": TRACE, "name": "weather-bot", "sessionId": "s-9",
                  "input": json.dumps("Will it rain in Bergen?"), "observations": []},
        "observations": [
            _observation("root", "AGENT", "00", parent=None),
            _observation("g1", "GENERATION", "01", model="gemini-2.0-flash",
                         input=json.dumps({"model": "gemini-2.0-flash", "contents": [
                             {"role": "user", "parts": [{"text": "Will it rain in Bergen?"}]}]}),
                         output=json.dumps(gemini_call),
                         usageDetails={"input": 20, "output": 4}),
            _observation("t1", "TOOL", "02", name="get_forecast",
                         input=json.dumps({"city": "Bergen"}), output=json.dumps("rain")),
            _observation("g2", "GENERATION", "03", model="claude", output=json.dumps(answer),
                         usageDetails={}, inputUsage=50, outputUsage=5),
        ],
    }
    (run,) = langfuse.read(json.dumps(doc))
    assert run.user_input == "Will it rain in Bergen?" and run.conversation_id == "s-9"
    first, second = run.of_type("llm.responded")
    assert first.payload["output"] == 'get_forecast({"city": "Bergen"})'
    assert first.payload["tool_calls"] == [{"name": "get_forecast",
                                            "arguments": {"city": "Bergen"}}]
    assert first.payload["finish_reason"] == "STOP" and first.payload["prompt_tokens"] == 20
    assert run.of_type("llm.called")[0].payload["prompt"] == "Will it rain in Bergen?"
    assert second.payload["output"] == "Rain all week."
    assert (second.payload["prompt_tokens"], second.payload["completion_tokens"]) == (50, 5)
    (tool,) = run.of_type("tool.called")
    assert tool.payload["args"] == '{"city": "Bergen"}'
    assert run.of_type("tool.responded")[0].payload["output"] == "rain"


def _attr(key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": value if isinstance(value, str)
                                  else json.dumps(value)}}


def _span(span: str, name: str, attrs: dict[str, Any], start: int,
          parent: str = "a000000000000001") -> dict[str, Any]:
    return {"traceId": TRACE, "spanId": span, "parentSpanId": parent, "name": name,
            "startTimeUnixNano": str(1796037450000000000 + start * 1000000),
            "endTimeUnixNano": str(1796037450000000000 + start * 1000000 + 500000),
            "attributes": [_attr(k, v) for k, v in attrs.items()]}


def _run(*spans: dict[str, Any], root_attrs: dict[str, Any] | None = None) -> Any:
    root = _span("a000000000000001", "agent", root_attrs or {}, 0, parent="")
    body = json.dumps({"resourceSpans": [{"resource": {"attributes": []},
                                          "scopeSpans": [{"spans": [root, *spans]}]}]})
    (run,) = otlp.read(body.encode())
    return run


def test_vercel_ai_sdk_spans() -> None:
    """``ai.generateText.doGenerate`` and ``ai.toolCall`` spans (AI SDK telemetry)."""
    run = _run(
        _span("b000000000000001", "ai.generateText.doGenerate", {
            "ai.operationId": "ai.generateText.doGenerate", "gen_ai.request.model": "gpt-4o",
            "ai.prompt.messages": [{"role": "system", "content": "Be brief."},
                                   {"role": "user", "content": [
                                       {"type": "text", "text": "Weather in Lima?"}]}],
            "ai.response.toolCalls": [{"toolCallId": "c1", "toolName": "weather",
                                       "args": '{"city": "Lima"}'}],
            "ai.usage.promptTokens": 31, "ai.usage.completionTokens": 9}, 1),
        _span("b000000000000002", "ai.toolCall", {
            "ai.operationId": "ai.toolCall", "ai.toolCall.name": "weather",
            "ai.toolCall.id": "c1", "ai.toolCall.args": '{"city": "Lima"}',
            "ai.toolCall.result": '{"temp": 19}'}, 2),
        _span("b000000000000003", "ai.generateText.doGenerate", {
            "gen_ai.request.model": "gpt-4o", "ai.response.text": "19 degrees in Lima.",
            "ai.prompt": {"prompt": "Weather in Lima?"}}, 3),
    )
    first, second = run.of_type("llm.responded")
    assert first.payload["output"] == 'weather({"city": "Lima"})'
    assert (first.payload["prompt_tokens"], first.payload["completion_tokens"]) == (31, 9)
    assert second.payload["output"] == "19 degrees in Lima."
    assert run.user_input == "Weather in Lima?"
    assert run.started.payload["system_prompt"] == "Be brief."
    (call,) = run.of_type("tool.called")
    assert (call.payload["tool_name"], call.payload["args"]) == ("weather", '{"city": "Lima"}')
    assert run.of_type("tool.responded")[0].payload["output"] == '{"temp": 19}'


def test_logfire_events_attribute_and_pydantic_ai_tool_span() -> None:
    """pydantic-ai before 0.3 (Logfire's event mode) logs messages as one ``events``
    attribute; its tool spans carry ``tool_arguments`` and ``tool_response``."""
    events = [
        {"event.name": "gen_ai.system.message", "role": "system", "content": "You rhyme."},
        {"event.name": "gen_ai.user.message", "role": "user", "content": "A word for cat?"},
        {"event.name": "gen_ai.choice", "index": 0,
         "message": {"role": "assistant", "content": "Hat."}},
    ]
    run = _run(
        _span("b000000000000001", "chat gpt-4o", {
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o",
            "events": events, "gen_ai.usage.input_tokens": 12}, 1),
        _span("b000000000000002", "running tool: rhymes", {
            "gen_ai.tool.name": "rhymes", "tool_arguments": '{"word": "cat"}',
            "tool_response": "hat, bat"}, 2),
    )
    (llm,) = run.of_type("llm.responded")
    assert llm.payload["output"] == "Hat." and llm.payload["prompt_tokens"] == 12
    assert run.user_input == "A word for cat?"
    assert run.started.payload["system_prompt"] == "You rhyme."
    (call,) = run.of_type("tool.called")
    assert call.payload["args"] == '{"word": "cat"}'
    assert run.of_type("tool.responded")[0].payload["output"] == "hat, bat"


def test_google_adk_logged_request_response_and_tool_args() -> None:
    run = _run(
        _span("b000000000000001", "call_llm", {
            "gen_ai.system": "gcp.vertex.agent", "gen_ai.request.model": "gemini-2.0-flash",
            "gcp.vertex.agent.llm_request": {"model": "gemini-2.0-flash", "contents": [
                {"role": "user", "parts": [{"text": "greet Ana"}]}]},
            "gcp.vertex.agent.llm_response": {"content": {"role": "model", "parts": [
                {"function_call": {"name": "say_hello", "args": {"name": "Ana"}}}]}}}, 1),
        _span("b000000000000002", "execute_tool say_hello", {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "say_hello",
            "gcp.vertex.agent.tool_call_args": '{"name": "Ana"}',
            "gcp.vertex.agent.tool_response": '{"result": "Hello Ana"}'}, 2),
    )
    (llm,) = run.of_type("llm.responded")
    assert llm.payload["tool_calls"] == [{"name": "say_hello", "arguments": {"name": "Ana"}}]
    assert run.of_type("llm.called")[0].payload["prompt"] == "greet Ana"
    (call,) = run.of_type("tool.called")
    assert call.payload["args"] == '{"name": "Ana"}'


@pytest.mark.parametrize("kind, expected", [
    ("llm", "llm"), ("tool", "tool"), ("retriever", "retrieval"), ("chain", "chain")])
def test_langsmith_otel_span_kind(kind: str, expected: str) -> None:
    assert classify({"langsmith.span.kind": kind}) == expected


def _buffer(hex_id: str) -> dict[str, Any]:
    return {"type": "Buffer", "data": list(bytes.fromhex(hex_id))}


def _long(number: int) -> dict[str, Any]:
    """protobufjs's Long in JSON: signed 32-bit halves."""
    def signed(half: int) -> int:
        return half - (1 << 32) if half >= 1 << 31 else half
    return {"low": signed(number & 0xFFFFFFFF), "high": signed(number >> 32 & 0xFFFFFFFF),
            "unsigned": True}


def test_a_node_dump_of_a_decoded_request() -> None:
    """A Node receiver that ``JSON.stringify``s the request protobufjs decoded writes ids
    as Buffers and 64-bit numbers as ``{low, high}`` Longs; OpenLit's content is one
    ``gen_ai.content.prompt`` / ``gen_ai.content.completion`` event a side."""
    start = 1738000000123456789
    span = {
        "traceId": _buffer(TRACE), "spanId": _buffer("b000000000000001"),
        "parentSpanId": {"type": "Buffer", "data": []}, "name": "openai.chat.completions",
        "startTimeUnixNano": _long(start), "endTimeUnixNano": _long(start + 2_500_000_000),
        "attributes": [
            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
            {"key": "gen_ai.request.model", "value": {"stringValue": "gpt-3.5-turbo"}},
            {"key": "gen_ai.usage.input_tokens",
             "value": {"intValue": {"low": 14, "high": 0, "unsigned": False}}},
            {"key": "gen_ai.request.max_tokens",
             "value": {"intValue": {"low": -1, "high": -1, "unsigned": False}}}],
        "events": [
            {"name": "gen_ai.content.prompt", "timeUnixNano": _long(start + 1),
             "attributes": [{"key": "gen_ai.prompt",
                             "value": {"stringValue": "user: Name a prime."}}]},
            {"name": "gen_ai.content.completion", "timeUnixNano": _long(start + 2),
             "attributes": [{"key": "gen_ai.completion", "value": {"stringValue": "Seven."}}]}],
        "status": {},
    }
    body = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})
    (run,) = otlp.read(body.encode())
    assert run.run_id == TRACE
    assert run.events[0].timestamp == pytest.approx(start / 1e9)
    assert run.duration_s == pytest.approx(2.5)
    (llm,) = run.of_type("llm.responded")
    assert (llm.payload["output"], llm.payload["prompt_tokens"]) == ("Seven.", 14)
    assert run.user_input == "user: Name a prime."


def test_a_wrong_sized_buffer_id_is_refused_by_name() -> None:
    span = {"traceId": {"type": "Buffer", "data": [1, 2, 3]}, "spanId": _buffer("b0" * 8),
            "name": "s"}
    result = otlp.convert(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}))
    (error,) = result.rejected
    assert error.field == "resourceSpans[0].scopeSpans[0].spans[0].traceId"
    assert "16 bytes" in str(error)


def test_genkit_model_and_tool_actions() -> None:
    run = _run(
        _span("b000000000000001", "genkit-action", {
            "genkit:type": "action", "genkit:name": "openai/gpt-4o",
            "genkit:metadata:subtype": "model",
            "genkit:input": {"messages": [{"role": "user", "content": [{"text": "2+2?"}]}]},
            "genkit:output": {"finishReason": "stop", "message": {
                "role": "model", "content": [{"text": "4"}]}}}, 1),
        _span("b000000000000002", "genkit-action", {
            "genkit:type": "action", "genkit:name": "calculator",
            "genkit:metadata:subtype": "tool", "genkit:input": {"expr": "2+2"},
            "genkit:output": "4"}, 2),
    )
    (llm,) = run.of_type("llm.responded")
    assert (llm.payload["output"], llm.payload["finish_reason"]) == ("4", "stop")
    assert run.user_input == "2+2?"
    (call,) = run.of_type("tool.called")
    assert (call.payload["tool_name"], call.payload["args"]) == ("calculator",
                                                                 '{"expr": "2+2"}')


@pytest.mark.parametrize("root_input, goal", [
    ('{"messages": [{"role": "user", "content": "book a table"}]}', "book a table"),
    ('{"query": "book a table"}', "book a table"),
    ("book a table", "book a table"),
])
def test_goal_from_a_root_input_holding_a_request(root_input: str, goal: str) -> None:
    run = _run(_span("b000000000000001", "chat", {"gen_ai.operation.name": "chat",
                                                 "gen_ai.request.model": "m"}, 1),
               root_attrs={"openinference.span.kind": "AGENT", "input.value": root_input})
    assert run.user_input == goal


def test_langfuse_spans_that_are_untyped_tool_calls() -> None:
    """Langfuse types many frameworks' tool calls SPAN (LangGraph, Agno, Koog): a span whose
    name is a tool a generation planned, or whose kept OTel attributes name a tool, is a
    tool call; a graph node or an empty lifecycle span is not."""
    planned = {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "lookup_order", "arguments": '{"id": 7}'}}]}
    doc = {"trace": {"id": TRACE, "input": json.dumps("where is order 7?")}, "observations": [
        _observation("root", "SPAN", "00", parent=None, name="LangGraph"),
        _observation("g1", "GENERATION", "01", output=json.dumps(planned)),
        _observation("n1", "SPAN", "02", name="tools", input='{"messages": []}',
                     output='{"messages": []}'),
        _observation("t1", "SPAN", "03", name="tool.lookup_order", input='{"id": 7}',
                     output='"shipped"'),
        _observation("t2", "SPAN", "04", name="run", input='{"q": "eta"}', output='"2 days"',
                     metadata=json.dumps({"attributes": {"tool.name": "eta"}})),
        _observation("t3", "SPAN", "05", name="start",
                     metadata=json.dumps({"attributes": {"tool.name": "eta"}})),
    ]}
    (run,) = langfuse.read(json.dumps(doc))
    calls = [(e.payload["tool_name"], e.payload["args"]) for e in run.of_type("tool.called")]
    assert calls == [("lookup_order", '{"id": 7}'), ("eta", '{"q": "eta"}')]
    assert [e.payload["output"] for e in run.of_type("tool.responded")] == ["shipped", "2 days"]


def test_langfuse_generation_wrapping_one_call_is_not_a_second_call() -> None:
    """The Vercel AI SDK's ``ai.generateText`` (and Agno's ``invoke``) is a GENERATION
    around the real call: one model step, which takes what it lacks from the wrapper."""
    planned = {"choices": [{"finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function",
             "function": {"name": "search", "arguments": '{"q": "news"}'}}]}}]}
    doc = {"trace": {"id": TRACE, "input": json.dumps("any news?")}, "observations": [
        _observation("w1", "GENERATION", "01", parent=None, name="invoke",
                     output=json.dumps(planned), usageDetails={"input": 9, "output": 3}),
        _observation("g1", "GENERATION", "02", parent="w1", name="chat", model="m",
                     output="None", usageDetails={"input": 7}),
        _observation("w2", "GENERATION", "03", parent=None, name="ai.generateText",
                     output=json.dumps("Quiet day.")),
        _observation("g2", "GENERATION", "04", parent="w2", name="doGenerate",
                     output=json.dumps("Quiet day.")),
        _observation("g3", "GENERATION", "05", parent="w2", name="doGenerate",
                     output=json.dumps("Still quiet.")),
    ]}
    (run,) = langfuse.read(json.dumps(doc))
    first, *rest = run.of_type("llm.responded")
    assert first.payload["output"] == 'search({"q": "news"})'
    assert first.payload["tool_calls"] == [{"name": "search", "arguments": {"q": "news"}}]
    assert (first.payload["prompt_tokens"], first.payload["completion_tokens"]) == (7, 3)
    assert [e.payload["output"] for e in rest] == ["Quiet day.", "Still quiet."]


def test_two_instrumentations_on_one_model_call_are_one_step() -> None:
    """A framework's LLM span around the provider SDK's chat span (Agno's OpenInference
    span around the OpenAI instrumentation's): one model step, the outer lending the
    inner what it lacks."""
    completion = {"choices": [{"finish_reason": "tool_calls", "message": {
        "role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {
            "name": "search", "arguments": '{"q": "x"}'}}]}}]}
    outer = _span("b000000000000001", "OpenAIChat.invoke", {
        "openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini",
        "output.value": completion}, 1)
    inner = _span("b000000000000002", "chat gpt-4o-mini", {
        "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.usage.input_tokens": 40, "gen_ai.usage.output_tokens": 6}, 2,
        parent="b000000000000001")
    run = _run(outer, inner)
    (llm,) = run.of_type("llm.responded")
    assert llm.payload["output"] == 'search({"q": "x"})'
    assert (llm.payload["prompt_tokens"], llm.payload["completion_tokens"]) == (40, 6)


def test_pydantic_ai_agent_run_span_gives_goal_and_output() -> None:
    conversation = [
        {"role": "system", "parts": [{"type": "text", "content": "You tell jokes."}]},
        {"role": "user", "parts": [{"type": "text", "content": "A joke about tea?"}]},
        {"role": "assistant", "parts": [{"type": "text", "content": "Steeped in humour."}]}]
    run = _run(_span("b000000000000001", "chat gpt-4o", {"gen_ai.operation.name": "chat",
                                                       "gen_ai.request.model": "gpt-4o"}, 1),
               root_attrs={"gen_ai.agent.name": "joke_agent",
                           "pydantic_ai.all_messages": conversation,
                           "final_result": "Steeped in humour."})
    assert run.user_input == "A joke about tea?"
    assert run.of_type("run.completed")[0].payload["output"] == "Steeped in humour."
