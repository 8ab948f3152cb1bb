"""Shapes that real clients write and the fixtures did not cover: OpenInference's OpenAI
instrumentor, LangSmith's ``wrap_openai`` and SDK batch bodies, deepeval's uploads.
Each file here is written by the test in the client's shape (fields, nesting, id forms)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from semloop.ingest.formats import load

# What the OpenAI SDK returns for a turn that only calls a tool, as
# ``ChatCompletion.model_dump()`` gives it.
TOOL_TURN = {
    "id": "chatcmpl-1", "object": "chat.completion", "created": 1796037452, "model": "gpt-4o",
    "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": None, "message": {
        "role": "assistant", "content": None, "refusal": None, "tool_calls": [{
            "id": "call_a", "type": "function",
            "function": {"name": "get_policy", "arguments": "{\"section\": \"refunds\"}"}}]}}],
    "usage": {"prompt_tokens": 300, "completion_tokens": 25, "total_tokens": 325},
}
PLANNED = 'get_policy({"section": "refunds"})'


def _write(tmp_path: Path, name: str, docs: list[Any]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(d) for d in docs))
    return path


def _oi_llm(span_id: str, **attributes: Any) -> dict[str, Any]:
    return {"name": "ChatCompletion", "context": {"trace_id": "0x" + "ab" * 16,
                                                  "span_id": "0x" + span_id},
            "parent_id": None, "start_time": "2026-11-30T12:15:01.000000Z",
            "end_time": "2026-11-30T12:15:02.000000Z", "status": {"status_code": "OK"},
            "attributes": {"openinference.span.kind": "LLM", "llm.model_name": "gpt-4o",
                           "input.value": "{\"messages\": []}", **attributes}}


def test_openinference_tool_call_turns_read_name_args(tmp_path: Path) -> None:
    # The OpenAI instrumentor sets both the output messages and the raw response.
    with_messages = _oi_llm("1" * 16, **{
        "output.value": json.dumps(TOOL_TURN), "output.mime_type": "application/json",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "get_policy",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments":
            "{\"section\": \"refunds\"}"})
    raw_only = _oi_llm("2" * 16, **{"output.value": json.dumps(TOOL_TURN)})
    for span in (with_messages, raw_only):
        (run,) = load(_write(tmp_path, "spans.jsonl", [span]), format="openinference")
        (responded,) = run.of_type("llm.responded")
        assert responded.payload["output"] == PLANNED
        assert responded.payload["finish_reason"] == "tool_calls"
        assert responded.payload["tool_calls"] == [
            {"name": "get_policy", "arguments": {"section": "refunds"}}]


def test_langsmith_wrap_openai_tool_call_turn_reads_name_args(tmp_path: Path) -> None:
    run = {"id": "6b3c1f0e-0000-4000-8000-000000000001", "name": "ChatOpenAI",
           "run_type": "llm", "start_time": "2026-11-30T12:15:01.000000",
           "end_time": "2026-11-30T12:15:02.000000",
           "inputs": {"messages": [{"role": "user", "content": "refunds?"}]},
           "outputs": TOOL_TURN, "extra": {"invocation_params": {"model": "gpt-4o"}}}
    (imported,) = load(_write(tmp_path, "runs.json", [run]), format="langsmith")
    (responded,) = imported.of_type("llm.responded")
    assert responded.payload["output"] == PLANNED
    assert responded.payload["finish_reason"] == "tool_calls"


_ROOT = "1b64098b-4ab7-43f6-afee-992304f198d8"
_LLM = "809ed3a2-0172-4f4d-8a02-a64e9b7a0f8a"
_DOTTED_ROOT = f"20261130T121501000000Z{_ROOT}"
_DOTTED_LLM = f"{_DOTTED_ROOT}.20261130T121501100000Z{_LLM}"


def _batch(*, patch_ids: bool) -> dict[str, Any]:
    """A ``/runs/batch`` body as the LangSmith SDKs send it: creates in ``post``, their
    updates (end time, outputs) in ``patch``; langsmith-js updates carry no id."""
    common = {"trace_id": _ROOT, "session_name": "default"}
    post = [
        {"id": _ROOT, "name": "support-agent", "run_type": "chain",
         "start_time": "2026-11-30T12:15:01.000000", "dotted_order": _DOTTED_ROOT,
         "inputs": {"question": "Where is my refund?"}, "extra": {"metadata": {
             "thread_id": "thread-9"}}, **common},
        {"id": _LLM, "name": "ChatOpenAI", "run_type": "llm", "parent_run_id": _ROOT,
         "start_time": "2026-11-30T12:15:01.100000", "dotted_order": _DOTTED_LLM,
         "inputs": {"messages": [{"role": "user", "content": "Where is my refund?"}]},
         "extra": {"invocation_params": {"model": "gpt-4o"}}, **common},
    ]
    patch = [
        {"id": _LLM, "parent_run_id": _ROOT, "dotted_order": _DOTTED_LLM,
         "end_time": "2026-11-30T12:15:02.000000",
         "outputs": {"generations": [[{"text": "It was sent on Monday.",
                                       "generation_info": {"finish_reason": "stop"}}]],
                     "llm_output": {"token_usage": {"prompt_tokens": 40,
                                                    "completion_tokens": 7}}},
         "extra": {"metadata": {"ls_run_depth": 1}}, **common},
        {"id": _ROOT, "dotted_order": _DOTTED_ROOT, "end_time": "2026-11-30T12:15:02.500000",
         "outputs": {"output": "It was sent on Monday."}, **common},
    ]
    if not patch_ids:
        for update in patch:
            del update["id"]
    return {"post": post, "patch": patch}


def _check_batch_run(path: Path, format: str = "auto") -> None:
    (run,) = load(path, format=format)
    assert run.run_id == _ROOT and run.agent_id == "support-agent"
    assert run.conversation_id == "thread-9" and run.status == "completed"
    (called,) = run.of_type("llm.called")
    (responded,) = run.of_type("llm.responded")
    assert called.payload["model"] == "gpt-4o" and called.payload["prompt_tokens"] == 40
    assert responded.payload["output"] == "It was sent on Monday."
    assert responded.payload["completion_tokens"] == 7
    assert round(responded.payload["latency_ms"]) == 900
    assert run.events[-1].payload["output"] == "It was sent on Monday."


def test_langsmith_batch_bodies_merge_posts_with_their_patches(tmp_path: Path) -> None:
    for patch_ids in (True, False):
        path = _write(tmp_path, "batch.json", [_batch(patch_ids=patch_ids)])
        _check_batch_run(path)
        _check_batch_run(path, format="langsmith")


def test_langsmith_post_and_patch_records_as_a_flat_list_merge_too(tmp_path: Path) -> None:
    body = _batch(patch_ids=True)
    _check_batch_run(_write(tmp_path, "runs.jsonl", [*body["post"], *body["patch"]]))


def _deepeval_body(**root: Any) -> dict[str, Any]:
    """deepeval's upload body (``TraceApi``): an agent span, a model span that plans a
    ``search`` call, the ``search`` tool span, and the agent listing the call as well."""
    call = {"name": "search", "inputParameters": {"q": "order 7"}, "output": "shipped"}
    agent = {"uuid": "a-1", "name": "support-agent", "status": "SUCCESS", "type": "agent",
             "startTime": "2026-11-30T12:15:01.000Z", "endTime": "2026-11-30T12:15:04.000Z",
             "input": "Where is order 7?", "output": "It shipped.", "toolsCalled": [call],
             **root}
    llm = {"uuid": "l-1", "name": "plan", "status": "SUCCESS", "type": "llm", "parentUuid": "a-1",
           "startTime": "2026-11-30T12:15:01.100Z", "endTime": "2026-11-30T12:15:02.000Z",
           "input": "Where is order 7?", "output": "", "model": "gpt-4o",
           "toolsCalled": [call]}
    tool = {"uuid": "t-1", "name": "search", "status": "SUCCESS", "type": "tool",
            "parentUuid": "a-1", "startTime": "2026-11-30T12:15:02.100Z",
            "endTime": "2026-11-30T12:15:03.000Z", "input": {"q": "order 7"},
            "output": "shipped"}
    return {"uuid": "trace-1", "agentSpans": [agent], "llmSpans": [llm], "toolSpans": [tool],
            "baseSpans": [], "retrieverSpans": [], "startTime": "2026-11-30T12:15:01.000Z",
            "endTime": "2026-11-30T12:15:04.000Z", "status": "SUCCESS"}


def test_deepeval_listed_calls_with_a_tool_span_are_one_step(tmp_path: Path) -> None:
    (run,) = load(_write(tmp_path, "trace.json", [_deepeval_body()]))
    assert [e.payload["tool_name"] for e in run.of_type("tool.called")] == ["search"]
    (responded,) = run.of_type("llm.responded")
    assert responded.payload["output"] == 'search({"q": "order 7"})'
    # Without the tool span, the listed call is still one step, not one per listing.
    body = {**_deepeval_body(), "toolSpans": []}
    (untraced,) = load(_write(tmp_path, "trace.json", [body]))
    assert [e.payload["tool_name"] for e in untraced.of_type("tool.called")] == ["search"]


def test_deepeval_chat_inputs_give_the_users_words_as_goal(tmp_path: Path) -> None:
    messages = [{"role": "system", "content": "You are a support agent."},
                {"role": "user", "content": "Where is order 7?"}]
    langchain = {"messages": [[
        {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages",
                                                "SystemMessage"],
         "kwargs": {"content": "You are a support agent.", "type": "system"}},
        {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages",
                                                "HumanMessage"],
         "kwargs": {"content": "Where is order 7?", "type": "human"}}]]}
    for goal in (messages, langchain):
        (run,) = load(_write(tmp_path, "trace.json", [_deepeval_body(input=goal)]))
        assert run.user_input == "Where is order 7?"


def test_score_reads_every_deepeval_body_import_reads(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from semloop.cli import app

    fixtures = Path(__file__).parent / "fixtures"
    bodies = {"upload.json": json.dumps(_deepeval_body()),
              "in_process.json": json.dumps(json.loads(
                  (fixtures / "deepeval_in_process.json").read_text())[0]),
              "wrapped.json": json.dumps({"input": "Where is order 7?", "_trace_dict": {
                  "type": "agent", "name": "a", "children": []}})}
    for name, body in bodies.items():
        path = tmp_path / name
        path.write_text(body)
        assert len(load(path, format="deepeval")) == 1, name
        result = CliRunner().invoke(app, ["score", str(path), "--json"])
        assert result.exit_code == 0, (name, result.output)
        assert json.loads(result.stdout)["kind"] == "deepeval trace", name
