"""Gemini CLI chat recordings, written by us in the shape of the real ones (the session
document, its JSON lines form with ``$set`` and ``$rewindTo`` lines; the content is ours)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from semloop.cli import app
from semloop.events import Run
from semloop.ingest.formats import convert, detect_format

FIXTURE = Path(__file__).parent / "fixtures" / "gemini_cli_session.json"
SID = "5d1e8c3a-0b7f-4e2a-9c61-3a8f2d4b6e10"


SESSION = json.loads(FIXTURE.read_text())
HEADER = {k: v for k, v in SESSION.items() if k != "messages"}
MESSAGES: list[dict[str, Any]] = SESSION["messages"]


def _payloads(run: Run, event_type: str) -> list[dict[str, Any]]:
    return [e.payload for e in run.events if e.event_type == event_type]


def test_a_recorded_session_is_one_run() -> None:
    path = FIXTURE
    assert detect_format(path) == "gemini-cli"
    (run,) = convert(path).runs_or_raise()
    assert (run.run_id, run.conversation_id) == (SID, SID)
    started = run.events[0].payload
    assert (started["input_text"], started["model"]) == ("Why does the cart total test fail?",
                                                         "gemini-2.5-pro")
    replies = _payloads(run, "llm.responded")
    # a reply that only thought and called tools reads its thoughts
    assert [r["output"] for r in replies] == ["Running the tests: I will run pytest.",
                                              "The discount is applied twice in cart.py."]
    assert [(r["prompt_tokens"], r["completion_tokens"], r["reasoning_tokens"])
            for r in replies] == [(9100, 40, 120), (9800, 25, 0)]
    calls = _payloads(run, "tool.called")
    assert [(c["tool_name"], json.loads(c["args"])) for c in calls] == [
        ("run_shell_command", {"command": "pytest -q"}),
        ("read_file", {"file_path": "/etc/shadow"})]
    answers = _payloads(run, "tool.responded")
    # the command failed (its exit code says so); the read was refused
    assert [(a["success"], a.get("error_type")) for a in answers] == [(False, "tool_error"),
                                                                     (False, "error")]
    assert answers[0]["error"] == "exit code 1"
    assert answers[0]["output"] == "Command: pytest -q\nExit Code: 1\n1 failed"
    assert answers[1]["error"] == "File path must be within the workspace"
    assert round(answers[0]["latency_ms"]) == 3500
    assert run.events[-1].payload["output"] == "The discount is applied twice in cart.py."


def test_the_json_lines_form_applies_rewrites_updates_and_rewinds(tmp_path: Path) -> None:
    first, second = MESSAGES[2], MESSAGES[3]
    lines = [
        # a header may leave out the project's hash
        json.dumps({**{k: v for k, v in HEADER.items() if k != "projectHash"}, "kind": "main"}),
        json.dumps(MESSAGES[1]),
        json.dumps({**first, "toolCalls": [], "content": "Let me look."}),  # written again below
        json.dumps({"$set": {"lastUpdated": "2026-11-30T09:00:10.000Z"}}),
        json.dumps(first),
        json.dumps({"id": "u2", "timestamp": "2026-11-30T09:00:15.000Z", "type": "user",
                    "content": [{"text": "Never mind that, "}, {"text": "fix it."}]}),
        json.dumps({"$patch": {"id": "u2"}}),  # a control record that writes no message
        json.dumps({"id": "g9", "timestamp": "2026-11-30T09:00:16.000Z", "type": "gemini",
                    "content": "Dropped by the rewind."}),
        json.dumps({"$rewindTo": "u2"}),
        "{\"id\": \"broken",
        json.dumps({"id": "u3", "timestamp": "soon", "type": "user", "content": "Go on."}),
        json.dumps({"$rewindTo": "nowhere"}),
        json.dumps(second),
    ]
    path = tmp_path / "session-2026-11-30T09-00-5d1e8c3a.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert detect_format(path) == "gemini-cli"
    result = convert(path)
    assert [(e.line, e.field) for e in result.rejected] == [
        (10, "[9]"), (11, "timestamp"), (12, "$rewindTo")]
    (run,) = result.runs
    replies = _payloads(run, "llm.responded")
    # the rewritten reply counts once, as last written; the rewound turn is gone
    assert [r["output"] for r in replies] == ["Running the tests: I will run pytest.",
                                              "The discount is applied twice in cart.py."]
    assert len(_payloads(run, "tool.called")) == 2
    assert run.run_id == SID


def test_what_the_user_typed_is_their_words(tmp_path: Path) -> None:
    typed = {"id": "u1", "timestamp": "2026-11-30T09:00:05.000Z", "type": "user",
             "content": [{"text": "Explain @cart.py"}, {"text": "--- cart.py ---\ndef total(): ..."}],
             "displayContent": [{"text": "Explain @cart.py"}]}
    path = tmp_path / "session.json"
    path.write_text(json.dumps({**HEADER, "messages": [typed, MESSAGES[3]]}))
    (run,) = convert(path).runs_or_raise()
    assert run.events[0].payload["input_text"] == "Explain @cart.py"


def test_an_error_ending_the_session_ends_the_run_errored(tmp_path: Path) -> None:
    error = {"id": "e1", "timestamp": "2026-11-30T09:01:00.000Z", "type": "error",
             "content": "[API Error: quota exceeded]"}
    path = tmp_path / "session.json"
    path.write_text(json.dumps({**HEADER, "messages": [*MESSAGES[:3], error]}))
    (run,) = convert(path).runs_or_raise()
    end = run.events[-1]
    assert (end.event_type, end.payload["error"]) == ("run.errored",
                                                      "[API Error: quota exceeded]")


def test_dry_run_detects_a_recording(tmp_path: Path) -> None:
    path = tmp_path / "session-2026-11-30T09-00-5d1e8c3a.json"
    path.write_text(json.dumps({**HEADER, "messages": MESSAGES}))
    out = CliRunner().invoke(app, ["import", str(path), "--dry-run"])
    assert out.exit_code == 0, out.output
    assert out.output.strip() == f"{path}: gemini-cli: 1 run, 10 events"


def test_a_shell_output_quoting_an_exit_code_is_read_by_its_trailer(tmp_path: Path) -> None:
    reply = json.loads(json.dumps(MESSAGES[2]))
    shell = reply["toolCalls"][0]["result"][0]["functionResponse"]["response"]
    shell["output"] = ("Command: cat build.log\nDirectory: (root)\nOutput: Exit Code: 3\n"
                       "Error: (none)\nExit Code: 0\nSignal: (none)")
    path = tmp_path / "session.json"
    path.write_text(json.dumps({**HEADER, "messages": [MESSAGES[1], reply]}))
    (run,) = convert(path).runs_or_raise()
    assert [a["success"] for a in _payloads(run, "tool.responded")] == [True, False]
