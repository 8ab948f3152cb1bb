"""OpenHands agent-SDK event lists and event stores, written by us in the shape of the
SDK's events (kinds, field names and nesting; the content is ours)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from semloop.cli import app
from semloop.ingest.formats import convert, detect_format


def _action(reply: str, call: str, tool: str, arguments: str, thought: str = "",
            at: str = "2025-10-30T13:32:32") -> dict[str, Any]:
    return {"kind": "ActionEvent", "id": f"a-{call}", "source": "agent", "timestamp": at,
            "thought": [{"type": "text", "text": thought}] if thought else [],
            "reasoning_content": None, "tool_name": tool, "tool_call_id": call,
            "tool_call": {"id": call, "name": tool, "arguments": arguments},
            "action": {"kind": "ExecuteBashAction"}, "llm_response_id": reply}


def _observation(call: str, at: str = "2025-10-30T13:32:33", **fields: Any) -> dict[str, Any]:
    return {"kind": "ObservationEvent", "id": f"o-{call}", "source": "environment",
            "tool_call_id": call, "timestamp": at, "observation": {"kind": "X", **fields}}


def _message(source: str, body: str, at: str = "2025-10-30T13:32:30") -> dict[str, Any]:
    role = "user" if source == "user" else "assistant"
    return {"kind": "MessageEvent", "id": f"m-{body[:8]}", "source": source, "timestamp": at,
            "llm_message": {"role": role, "content": [{"type": "text", "text": body}]}}


# Our event list in the SDK's shape: a system prompt with its tools, a user task, one
# model reply with two parallel calls answered out of order (bash output with the pty's
# codes), an editor error, a second user message, a command that exits 2, a final message.
EVENTS = json.loads((Path(__file__).parent / "fixtures" / "openhands_events.json").read_text())


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_an_event_list_is_one_run_with_a_model_step_per_reply(tmp_path: Path) -> None:
    path = _write(tmp_path, "events.json", json.dumps(EVENTS))
    assert detect_format(path) == "openhands"
    result = convert(path)
    assert not result.rejected, result.rejected
    (run,) = result.runs
    trace = run.to_trace()
    assert trace.goal == "Find bill.pdf"
    started = run.events[0].payload
    assert started["system_prompt"] == "You are a careful agent."
    assert started["tools"] == ["execute_bash", "str_replace_editor"]
    root = trace.to_dict()["root"]
    steps = [(c["type"], c["name"], c["output"]) for c in root["children"]]
    assert steps == [
        ("llm", "llm", "Look around."),
        # each result goes to its own call (by id, not by order); the pty's codes are dropped
        ("tool", "execute_bash", "bin etc"), ("tool", "execute_bash", "workspace"),
        ("llm", "llm", 'str_replace_editor({"command": "view", "path": "/x"})'),
        ("tool", "str_replace_editor", "Invalid `path` parameter: /x."),
        ("llm", "llm", 'execute_bash({"command": "ls /srv"})'),
        ("tool", "execute_bash", "ls: cannot access"),
        ("llm", "llm", "Not found.")]
    assert root["children"][5]["input"] == "Look in /srv too."
    assert json.loads(root["children"][1]["input"]) == {"command": "ls /"}
    assert [c["metadata"]["success"] for c in root["children"] if c["type"] == "tool"] == [
        True, True, False, True]
    assert root["children"][1]["metadata"]["latency_ms"] == 2500.0
    assert run.events[-1].event_type == "run.completed"
    assert run.events[-1].payload["output"] == "Not found."


def test_failed_calls_come_from_the_observation_and_error_events(tmp_path: Path) -> None:
    events = [
        _message("user", "Run it"),
        _action("r1", "c1", "terminal", '{"command": "make"}'),
        # the SDK of 2026: content parts and is_error
        {**_observation("c1", content=[{"type": "text", "text": "boom"}], is_error=True,
                        exit_code=2)},
        _action("r2", "c2", "terminal", '{"command": "sleep 999"}'),
        _observation("c2", output="still running", error=False, timeout=True),
        _action("r3", "c3", "edit", "{broken"),
        {"kind": "AgentErrorEvent", "id": "e3", "source": "agent", "tool_name": "edit",
         "tool_call_id": "c3", "timestamp": "2025-10-30T13:32:40",
         "error": "Error validating args {broken"},
        _action("r4", "c4", "terminal", '{"command": "rm -rf /"}'),
        {"kind": "UserRejectObservation", "id": "u4", "source": "user", "tool_name": "terminal",
         "tool_call_id": "c4", "timestamp": "2025-10-30T13:32:41",
         "rejection_reason": "Too dangerous"},
    ]
    (run,) = convert(_write(tmp_path, "e.json", json.dumps(events))).runs
    answers = [e.payload for e in run.events if e.event_type == "tool.responded"]
    assert [(a["success"], a["error_type"], a["output"]) for a in answers] == [
        (False, "X", "boom"), (False, "timeout", "still running"),
        (False, "AgentErrorEvent", "Error validating args {broken"),
        (False, "rejected", "Too dangerous")]
    called = [e.payload["args"] for e in run.events if e.event_type == "tool.called"]
    assert called[2] == "{broken"  # arguments the model mangled are kept as written


def _store(tmp_path: Path, events: list[dict[str, Any]]) -> Path:
    service = tmp_path / "conv" / "event_service"
    store = service / "events"
    store.mkdir(parents=True)
    for i, event in reversed(list(enumerate(events))):  # written out of order
        (store / f"event-{i:05d}-{event['id']}.json").write_text(json.dumps(event))
    return service


def test_an_event_store_reads_as_a_folder_as_json_lines_and_concatenated(
        tmp_path: Path) -> None:
    service = _store(tmp_path, EVENTS)
    files = sorted((service / "events").iterdir())
    joined = _write(tmp_path, "cat.json", "".join(p.read_text() for p in files))
    lines = _write(tmp_path, "lines.jsonl", "\n".join(p.read_text() for p in files) + "\n")
    listed = _write(tmp_path, "list.json", json.dumps(EVENTS, indent=2))
    dumps = []
    for path in (service / "events", joined, lines, listed):
        assert detect_format(path) == "openhands", path
        result = convert(path, clock=0.0)
        assert not result.rejected, (path, result.rejected)
        dumps.append([e.to_dict() for e in result.runs[0].events])
    assert dumps[0] == dumps[1] == dumps[2] == dumps[3]


def test_the_conversation_state_gives_model_tokens_and_cost(tmp_path: Path) -> None:
    service = _store(tmp_path, EVENTS)
    usage = {"model": "litellm_proxy/claude-x", "prompt_tokens": 700, "completion_tokens": 40,
             "reasoning_tokens": 0, "response_id": "r2"}
    state = {"id": "conv-1", "agent": {"kind": "Agent", "llm": {"model": "claude-x"}},
             "agent_status": "finished",
             "stats": {"service_to_metrics": {"default": {
                 "token_usages": [{**usage, "response_id": "r1"}, usage],
                 "costs": [{"model": "claude-x", "cost": 0.01}, {"model": "claude-x",
                                                                "cost": 0.02}]}}}}
    (service / "base_state.json").write_text(json.dumps(state))
    result = convert(service)
    assert not result.rejected, result.rejected
    (run,) = result.runs
    assert run.run_id == run.conversation_id == "conv-1"
    replies = [e.payload for e in run.events if e.event_type == "llm.responded"]
    assert [(r.get("prompt_tokens"), r.get("cost_usd")) for r in replies] == [
        (700, 0.01), (700, 0.02), (None, None), (None, None)]
    assert run.events[0].payload["model"] == "claude-x"


def test_a_bad_event_is_reported_by_position_and_field_and_the_rest_kept(
        tmp_path: Path) -> None:
    events = [dict(e) for e in EVENTS]
    events[3] = {**events[3], "timestamp": "yesterday"}
    events.append(_observation("c9", output="?"))
    result = convert(_write(tmp_path, "events.json", json.dumps(events)))
    made = "which no ActionEvent before it made"
    assert [str(e) for e in result.rejected] == [
        f"{tmp_path}/events.json, field '[3].timestamp': not a time: 'yesterday'",
        # the result of the rejected call, then one for a call the file never made
        f"{tmp_path}/events.json, field '[4].tool_call_id': answers tool call 'c2', {made}",
        f"{tmp_path}/events.json, field '[12].tool_call_id': answers tool call 'c9', {made}"]
    (run,) = result.runs
    tools = [e.payload["tool_name"] for e in run.events if e.event_type == "tool.called"]
    assert tools == ["execute_bash", "str_replace_editor", "execute_bash"]


def test_a_broken_file_in_a_concatenated_store_loses_only_itself(tmp_path: Path) -> None:
    texts = [json.dumps(e) for e in EVENTS]
    texts[1] = texts[1][:40]  # a file cut short while it was written
    path = _write(tmp_path, "cat.jsonl", "\n".join(texts) + "\n")
    result = convert(path)
    (error,) = result.rejected
    assert (error.line, error.field) == (2, "[1]")
    assert error.message.startswith("not valid JSON")
    (run,) = result.runs
    assert run.to_trace().goal == "Look in /srv too."  # the first user message was lost
    assert sum(e.event_type == "tool.called" for e in run.events) == 4


def test_dry_run_detects_an_event_list_and_a_store_folder(tmp_path: Path) -> None:
    path = _write(tmp_path, "events.json", json.dumps(EVENTS))
    service = _store(tmp_path, EVENTS)
    result = CliRunner().invoke(app, ["import", str(path), str(service / "events"),
                                      "--dry-run"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{path}: openhands: 1 run, 18 events",
        f"{service / 'events'}: openhands: 1 run, 18 events"]


def test_a_folder_is_refused_for_any_other_format(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["import", str(tmp_path), "--format", "atif",
                                      "--dry-run"])
    assert result.exit_code == 2
    assert "a folder is read only as an OpenHands event store" in result.stderr
