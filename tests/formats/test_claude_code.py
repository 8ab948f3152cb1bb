"""Claude Code session transcripts and stream-json output, written by us in the shape of
the real ones (line types, field names and nesting; the content is ours)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from semloop.cli import app
from semloop.events import Run
from semloop.ingest.formats import convert, detect_format

SESSION = Path(__file__).parent / "fixtures" / "claude_code_session.jsonl"
SID = "3f2a9c1e-5b7d-4e21-9a0c-6d8e1f2b3c4d"


def _payloads(run: Run, event_type: str) -> list[dict[str, Any]]:
    return [e.payload for e in run.events if e.event_type == event_type]


def test_a_session_is_one_run_and_its_subagent_another() -> None:
    assert detect_format(SESSION) == "claude-code"
    result = convert(SESSION)
    assert not result.rejected, result.rejected
    main, sub = result.runs
    assert (main.run_id, main.parent_run_id) == (SID, None)
    assert (sub.run_id, sub.parent_run_id, sub.conversation_id) == (f"{SID}/a1b2c3d", SID, SID)
    trace = main.to_trace()
    # the harness's own /clear line is not the user's words
    assert trace.goal.startswith("The cart total test fails")
    replies = _payloads(main, "llm.responded")
    # one reply written over two lines is one step; its final usage counts, cache included
    assert replies[0]["output"] == "Let me run the cart tests first."
    assert (replies[0]["prompt_tokens"], replies[0]["completion_tokens"]) == (12 + 15000 + 2100, 88)
    assert replies[1]["output"] == "The discount may be applied twice."  # thinking, no text
    assert replies[-1]["output"].startswith("Fixed: the discount was applied twice")
    assert [p["tool_name"] for p in _payloads(main, "tool.called")] == [
        "Bash", "Read", "Grep", "Task", "Edit", "Bash"]
    answers = _payloads(main, "tool.responded")
    assert [a["success"] for a in answers] == [False, True, True, True, True, True]
    assert answers[0]["output"].startswith("F.\nFAILED tests/test_cart.py::test_total")
    # parallel calls answered in reverse order: each result goes to its own call
    assert answers[1]["output"].startswith("    14\t    total = apply_discount")
    assert answers[2]["output"].startswith("cart.py:14: total")
    called = _payloads(main, "llm.called")
    assert called[4]["prompt"] == "Run the whole suite too, please."
    assert main.events[-1].payload["output"].startswith("Fixed:")
    assert sub.to_trace().goal == "List every caller of apply_discount in /home/dev/shop."
    assert [p["tool_name"] for p in _payloads(sub, "tool.called")] == ["Grep"]
    assert _payloads(sub, "llm.called")[0]["model"] == "claude-haiku-4-5-20251001"


def test_a_resumed_session_repeating_its_lines_counts_them_once(tmp_path: Path) -> None:
    lines = SESSION.read_text().splitlines()
    path = tmp_path / "resumed.jsonl"
    path.write_text("\n".join(lines + lines[2:12]) + "\n")
    once = [e.to_dict() for r in convert(SESSION, clock=0.0).runs for e in r.events]
    twice = [e.to_dict() for r in convert(path, clock=0.0).runs for e in r.events]
    assert once == twice


def _stream() -> list[dict[str, Any]]:
    sid = "9d1c0f2e-aaaa-4bbb-8ccc-123456789abc"
    env = {"session_id": sid, "parent_tool_use_id": None}

    def assistant(mid: str, content: list[dict[str, Any]], parent: str | None = None,
                  ) -> dict[str, Any]:
        return {**env, "parent_tool_use_id": parent, "type": "assistant", "uuid": f"u-{mid}",
                "message": {"model": "claude-opus-4-5-20251101", "id": mid, "type": "message",
                            "role": "assistant", "content": content, "stop_reason": None,
                            "usage": {"input_tokens": 3, "output_tokens": 20}}}

    def result(call: str, text: str, error: bool = False, parent: str | None = None,
               ) -> dict[str, Any]:
        return {**env, "parent_tool_use_id": parent, "type": "user", "uuid": f"r-{call}",
                "message": {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": call, "content": text,
                     "is_error": error}]}}

    return [
        {"type": "system", "subtype": "init", "session_id": sid, "cwd": "/root",
         "model": "claude-opus-4-5-20251101", "tools": ["Task", "Bash", "Read"]},
        {**env, "type": "user", "uuid": "u0",
         "message": {"role": "user", "content": "Count the lines of data.txt"}},
        assistant("m1", [{"type": "tool_use", "id": "t1", "name": "Read",
                          "input": {"file_path": "/root/data.txt"}}]),
        result("t1", "<tool_use_error>File content (748.9KB) exceeds maximum allowed size"
               "</tool_use_error>", error=True),
        assistant("m2", [{"type": "tool_use", "id": "t2", "name": "Task",
                          "input": {"prompt": "Count the lines of /root/data.txt"}}]),
        {**env, "parent_tool_use_id": "t2", "type": "user", "uuid": "s0",
         "message": {"role": "user", "content": "Count the lines of /root/data.txt"}},
        assistant("m3", [{"type": "tool_use", "id": "t3", "name": "Bash",
                          "input": {"command": "wc -l /root/data.txt"}}], parent="t2"),
        result("t3", "16673 /root/data.txt", parent="t2"),
        result("t2", "16673 lines"),
        {"type": "result", "subtype": "error_max_turns", "is_error": True, "num_turns": 3,
         "session_id": sid, "total_cost_usd": 0.42, "result": "Reached the turn limit."},
    ]


def test_stream_json_output_is_read_too(tmp_path: Path) -> None:
    path = tmp_path / "claude-code.txt"
    path.write_text("".join(json.dumps(line) + "\n" for line in _stream()))
    assert detect_format(path) == "claude-code"
    result = convert(path)
    assert not result.rejected, result.rejected
    main, sub = result.runs
    assert main.events[0].payload["model"] == "claude-opus-4-5-20251101"
    assert main.events[0].payload["tools"] == ["Task", "Bash", "Read"]
    assert [a["success"] for a in _payloads(main, "tool.responded")] == [False, True]
    assert main.events[-1].event_type == "run.errored"
    assert main.events[-1].payload["error"] == "Reached the turn limit."
    assert (sub.parent_run_id, sub.to_trace().goal) == (
        main.run_id, "Count the lines of /root/data.txt")
    assert [a["output"] for a in _payloads(sub, "tool.responded")] == ["16673 /root/data.txt"]


def test_bad_lines_are_reported_by_line_and_field_and_the_rest_kept(tmp_path: Path) -> None:
    lines = SESSION.read_text().splitlines()
    lines[4] = lines[4][:50]  # cut short: not JSON
    broken = json.loads(lines[9])
    del broken["message"]
    lines[9] = json.dumps(broken)
    stray = json.loads(lines[-1])
    stray.update(type="user", uuid="stray", message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_99", "content": "?"}]})
    lines.append(json.dumps(stray))
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = convert(path)
    located = [(e.line, e.field, e.message) for e in result.rejected]
    assert located[0][:2] == (5, "[4]") and located[0][2].startswith("not valid JSON")
    assert located[1] == (10, "message", "missing or not an object")
    assert located[2] == (24, "message.content[0].tool_use_id",
                          "answers tool_use 'toolu_99', which no assistant line before it made")
    main, _ = result.runs
    # line 5 held the reply's text, line 10 the Read/Grep results: both lost, the rest kept
    assert [p["tool_name"] for p in _payloads(main, "tool.called")] == [
        "Bash", "Read", "Grep", "Task", "Edit", "Bash"]
    assert [a["output"] == "" for a in _payloads(main, "tool.responded")][1:3] == [False, True]


def test_dry_run_detects_a_session_and_a_stream(tmp_path: Path) -> None:
    stream = tmp_path / "claude-code.txt"
    stream.write_text("".join(json.dumps(line) + "\n" for line in _stream()))
    result = CliRunner().invoke(app, ["import", str(SESSION), str(stream), "--dry-run"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"{SESSION}: claude-code: 2 runs, 34 events",
        f"{stream}: claude-code: 2 runs, 16 events"]


def test_a_reply_whose_calls_are_split_by_a_result_is_still_one_step(tmp_path: Path) -> None:
    # Claude Code runs a call while the reply is still being written: the first call's
    # result can come before the reply's next tool_use line (same message.id); other line
    # types (attachment) are not steps.
    env = {"isSidechain": True, "agentId": "a9", "sessionId": "s1", "userType": "external"}

    def line(kind: str, uuid: str, at: str, **fields: Any) -> str:
        return json.dumps({**env, "type": kind, "uuid": uuid,
                           "timestamp": f"2026-08-14T20:46:{at}Z", **fields})

    def call(uuid: str, at: str, call_id: str, path: str, out: int) -> str:
        return line("assistant", uuid, at, message={
            "model": "claude-opus-5", "id": "msg_1", "role": "assistant", "content": [
                {"type": "tool_use", "id": call_id, "name": "Read",
                 "input": {"file_path": path}}],
            "usage": {"input_tokens": 2092, "cache_creation_input_tokens": 1674,
                      "cache_read_input_tokens": 20472, "output_tokens": out}})

    def result(uuid: str, at: str, call_id: str, text: str) -> str:
        return line("user", uuid, at, message={"role": "user", "content": [
            {"tool_use_id": call_id, "type": "tool_result", "content": text}]})

    path = tmp_path / "agent-a9.jsonl"
    path.write_text("\n".join([
        line("user", "u1", "00.000", message={"role": "user", "content": "Implement it."}),
        line("attachment", "u2", "00.001", attachment={"type": "skill_listing"}),
        line("assistant", "u3", "01.000", message={
            "model": "claude-opus-5", "id": "msg_1", "role": "assistant",
            "content": [{"type": "text", "text": "I'll read the requirement first."}],
            "usage": {"input_tokens": 2092, "output_tokens": 1}}),
        call("u4", "01.500", "t1", "/w/req.yaml", 1),
        result("u5", "01.600", "t1", "title: Migrate"),
        call("u6", "02.000", "t2", "/w/NOTES.md", 161),
        result("u7", "02.100", "t2", "# Notes"),
        line("user", "u8", "20.000", message={"role": "user", "content": [
            {"type": "text", "text": "[Request interrupted by user]"}]}),
    ]) + "\n")
    result_ = convert(path)
    assert not result_.rejected, result_.rejected
    (run,) = result_.runs
    assert (run.run_id, run.parent_run_id) == ("s1/a9", "s1")
    (reply,) = _payloads(run, "llm.responded")
    assert reply["output"] == "I'll read the requirement first."
    assert (reply["prompt_tokens"], reply["completion_tokens"]) == (2092 + 1674 + 20472, 161)
    assert [(a["tool_name"], a["output"]) for a in _payloads(run, "tool.responded")] == [
        ("Read", "title: Migrate"), ("Read", "# Notes")]


def test_two_lines_written_as_one_are_both_read(tmp_path: Path) -> None:
    # a writer that lost a newline: two JSON objects on one line (seen in real transcripts)
    lines = SESSION.read_text().splitlines()
    path = tmp_path / "joined.jsonl"
    path.write_text("\n".join([*lines[:6], lines[6] + lines[7], *lines[8:]]) + "\n")
    result = convert(path, clock=0.0)
    assert not result.rejected, result.rejected
    assert [e.to_dict() for r in result.runs for e in r.events] == [
        e.to_dict() for r in convert(SESSION, clock=0.0).runs for e in r.events]
