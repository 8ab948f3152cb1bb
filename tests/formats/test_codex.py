"""OpenAI Codex CLI rollouts, written by us in the shape of the real ones (line envelopes,
item and event types, field names; the content is ours)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from semloop.cli import app
from semloop.events import Run
from semloop.ingest.formats import convert, detect_format

FIXTURE = Path(__file__).parent / "fixtures" / "codex_rollout.jsonl"
SID = "019b0c2e-7a41-7d30-9e55-2f1d4c6b8a90"


ROLLOUT = FIXTURE.read_text().splitlines()


def _line(ts: str, kind: str, payload: dict[str, Any]) -> str:
    return json.dumps({"timestamp": f"2026-11-30T10:{ts}Z", "type": kind, "payload": payload})


def _text(role: str, said: str) -> dict[str, Any]:
    kind = "output_text" if role == "assistant" else "input_text"
    return {"type": "message", "role": role, "content": [{"type": kind, "text": said}]}


def _payloads(run: Run, event_type: str) -> list[dict[str, Any]]:
    return [e.payload for e in run.events if e.event_type == event_type]


def _write(tmp_path: Path, lines: list[str], name: str = "rollout.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_rollout_is_one_run() -> None:
    path = FIXTURE
    assert detect_format(path) == "codex"
    result = convert(path)
    assert not result.rejected, result.rejected
    (run,) = result.runs
    assert (run.run_id, run.conversation_id) == (SID, SID)
    started = run.events[0].payload
    # the harness's <environment_context> is not the user's words
    assert started["input_text"] == "The cart total test fails; fix it."
    assert (started["system_prompt"], started["model"]) == ("You are a coding agent.",
                                                            "gpt-5.1-codex")
    replies = _payloads(run, "llm.responded")
    # reasoning and the call it planned are one request; the repeated usage is not another
    assert [r["output"] for r in replies] == [
        "**Running tests**", 'apply_patch(*** Begin Patch\n*** Update File: cart.py\n)',
        "Fixed: the discount was applied twice."]
    assert [(r["prompt_tokens"], r["completion_tokens"], r["reasoning_tokens"])
            for r in replies] == [(4000, 60, 20), (4300, 300, 100), (4700, 40, 0)]
    assert replies[0]["tool_calls"] == [{"name": "shell_command", "arguments": {
        "command": "pytest tests/test_cart.py", "workdir": "."}}]
    calls = _payloads(run, "tool.called")
    assert [c["tool_name"] for c in calls] == ["shell_command", "apply_patch"]
    assert json.loads(calls[0]["args"]) == {"command": "pytest tests/test_cart.py",
                                            "workdir": "."}
    answers = _payloads(run, "tool.responded")
    assert [(a["success"], a.get("error")) for a in answers] == [(False, "exit code 1"),
                                                             (True, None)]
    assert answers[1]["output"] == "Success. Updated the following files:\nM cart.py\n"
    assert round(answers[0]["latency_ms"]) == 1100
    # the user interrupted the second turn: the run ends there
    end = run.events[-1]
    assert (end.event_type, end.payload["error_type"], end.payload["error"]) == (
        "run.errored", "turn_aborted", "interrupted")


def test_a_bad_line_is_rejected_by_line_and_field_and_the_rest_kept(tmp_path: Path) -> None:
    lines = [*ROLLOUT[:9], "{\"timestamp\": \"2026-11-30T10:03", ROLLOUT[9],
             _line("00:05.000", "response_item", {"type": "function_call_output",
                                                   "call_id": "call_zz", "output": "ok"}),
             json.dumps({"timestamp": "yesterday", "type": "event_msg",
                         "payload": {"type": "agent_message"}}),
             *ROLLOUT[10:]]
    result = convert(_write(tmp_path, lines))
    assert [(e.line, e.field) for e in result.rejected] == [
        (10, "[9]"), (12, "payload.call_id"), (13, "timestamp")]
    assert "answers call 'call_zz'" in result.rejected[1].message
    (run,) = result.runs
    assert len(_payloads(run, "tool.called")) == 2


def test_a_mid_2025_rollout_without_envelopes(tmp_path: Path) -> None:
    lines = [json.dumps({"id": "c27a9", "timestamp": "2025-08-20T13:20:47.060Z",
                         "instructions": None, "git": {"branch": "main"}}),
             json.dumps({"record_type": "state"}),
             json.dumps(_text("user", "<user_instructions>\nBe brief.\n</user_instructions>")),
             json.dumps(_text("user", "List the files.")),
             json.dumps({"type": "reasoning", "id": "rs_1", "summary": [],
                         "encrypted_content": "opaque"}),
             json.dumps({"type": "local_shell_call", "id": "lsh_1", "call_id": "call_1",
                         "status": "completed", "action": {"type": "exec",
                                                           "command": ["ls"]}}),
             json.dumps({"type": "function_call_output", "call_id": "call_1",
                         "output": json.dumps({"output": "cart.py\n",
                                               "metadata": {"exit_code": 0}})}),
             json.dumps({"record_type": "state"}),
             json.dumps(_text("assistant", "One file: cart.py."))]
    path = _write(tmp_path, lines, "rollout-2025-08-20.jsonl")
    assert detect_format(path) == "codex"
    (run,) = convert(path).runs_or_raise()
    assert run.run_id == "c27a9"
    assert run.events[0].payload["input_text"] == "List the files."
    assert [c["tool_name"] for c in _payloads(run, "tool.called")] == ["local_shell"]
    assert _payloads(run, "tool.responded")[0]["output"] == "cart.py\n"
    assert [r["output"] for r in _payloads(run, "llm.responded")] == [
        'local_shell({"command": ["ls"], "type": "exec"})', "One file: cart.py."]
    assert run.events[-1].payload["output"] == "One file: cart.py."


def test_dry_run_detects_a_rollout(tmp_path: Path) -> None:
    path = _write(tmp_path, ROLLOUT, "rollout-2026-11-30T10-00-00-ours.jsonl")
    out = CliRunner().invoke(app, ["import", str(path), "--dry-run"])
    assert out.exit_code == 0, out.output
    assert out.output.strip() == f"{path}: codex: 1 run, 12 events"


def test_an_exit_code_in_the_commands_own_output_does_not_count(tmp_path: Path) -> None:
    said = "Exit code: 0\nWall time: 0.2 seconds\nOutput:\nbuild.log: Exit code: 3\n"
    lines = [*ROLLOUT[:9], _line("00:04.200", "response_item", {
        "type": "function_call_output", "call_id": "call_a1", "output": said})]
    (run,) = convert(_write(tmp_path, lines)).runs_or_raise()
    (answer,) = _payloads(run, "tool.responded")
    assert (answer["success"], answer["output"]) == (True, said)


def test_a_subagents_rollout_is_a_child_of_the_session_that_spawned_it(tmp_path: Path) -> None:
    meta = _line("00:00.000", "session_meta", {
        "id": "child-1", "originator": "codex_exec", "cli_version": "0.160.0",
        "source": {"subagent": {"thread_spawn": {"parent_thread_id": SID, "depth": 1}}}})
    lines = [meta, _line("00:01.000", "event_msg", {"type": "user_message",
                                                    "message": "Review cart.py."}),
             _line("00:02.000", "response_item", _text("assistant", "Looks right."))]
    (run,) = convert(_write(tmp_path, lines)).runs_or_raise()
    assert (run.run_id, run.parent_run_id, run.conversation_id) == ("child-1", SID, SID)
