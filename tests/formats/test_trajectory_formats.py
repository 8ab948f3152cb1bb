"""SWE-agent, ATIF, mini-swe-agent and tau-bench files, written by us in the shape of the
real ones (field names and nesting; the content is ours)."""

from __future__ import annotations

import json
from pathlib import Path

from semloop.ingest.formats import convert, detect_format

SWE = {
    "environment": "swe_main",
    "info": {"exit_status": "submitted", "submission": "diff"},
    "history": [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": "demo", "is_demo": True},
        {"role": "user", "content": "Fix the missing colon in calc.py"},
    ],
    "trajectory": [
        {
            "action": "open calc.py",
            "observation": "1:def div(a, b)",
            "thought": "Look.",
            "response": "Look.",
            "state": "{}",
        },
        {
            "action": "python calc.py",
            "observation": "SyntaxError",
            "thought": "Run it.",
            "response": "Run it.",
            "state": "{}",
        },
    ],
}
ATIF = {
    "schema_version": "ATIF-v1.6",
    "session_id": "s-1",
    "agent": {"name": "terminus", "version": "2", "model_name": "m"},
    "steps": [
        {"step_id": 1, "source": "user", "message": "Make the tests pass"},
        {
            "step_id": 2,
            "source": "agent",
            "message": "Run them.",
            "tool_calls": [
                {
                    "tool_call_id": "c1",
                    "function_name": "bash",
                    "arguments": {"command": "pytest -q"},
                }
            ],
            "observation": {"results": [{"source_call_id": "c1", "content": "1 failed"}]},
            "metrics": {"prompt_tokens": 10, "completion_tokens": 3},
        },
    ],
}
MINI = {
    "trajectory_format": "mini-swe-agent-1.1",
    "instance_id": "x__y-1",
    "info": {"exit_status": "Submitted", "model_stats": {"api_calls": 1}},
    "messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Fix bug"},
        {
            "role": "assistant",
            "content": "List files.",
            "tool_calls": [
                {
                    "id": "t1",
                    "type": "function",
                    "function": {"name": "bash", "arguments": '{"command": "ls"}'},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": "t1",
            "content": "<returncode>0</returncode><output>a.py</output>",
        },
        {"role": "exit", "content": "diff --git"},
    ],
}
TAU = [
    {
        "task_id": 3,
        "reward": 0.0,
        "trial": 1,
        "info": {"task": {"user_id": "u_1"}},
        "traj": [
            {"role": "system", "content": "policy"},
            {"role": "user", "content": "Cancel my booking"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "a",
                        "type": "function",
                        "function": {
                            "name": "get_reservation_details",
                            "arguments": '{"reservation_id": "R1"}',
                        },
                    }
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "a",
                "name": "get_reservation_details",
                "content": '{"status": "ok"}',
            },
            {"role": "assistant", "content": "Shall I cancel it?"},
            {"role": "user", "content": "Yes"},
        ],
    }
]


def _write(tmp_path: Path, name: str, doc: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_each_shape_is_detected_and_keeps_steps(tmp_path: Path) -> None:
    cases = [
        ("a.traj", SWE, "swe-agent", "Fix the missing colon in calc.py"),
        ("t.json", ATIF, "atif", "Make the tests pass"),
        ("m.traj.json", MINI, "mini-swe-agent", "Fix bug"),
        ("r.json", TAU, "tau-bench", "Cancel my booking"),
    ]
    for name, doc, fmt, goal in cases:
        path = _write(tmp_path, name, doc)
        assert detect_format(path) == fmt
        result = convert(path)
        assert not result.rejected, result.rejected
        (run,) = result.runs
        trace = run.to_trace()
        assert trace.goal == goal
        tools = trace.tool_spans
        assert tools and tools[0].output, fmt


def test_tool_outputs_are_matched_by_call_id(tmp_path: Path) -> None:
    trace = convert(_write(tmp_path, "t.json", ATIF)).runs[0].to_trace()
    assert trace.tool_spans[0].output == "1 failed"
    assert json.loads(trace.tool_spans[0].input_text) == {"command": "pytest -q"}


def test_tau2_results_are_refused_clearly(tmp_path: Path) -> None:
    path = _write(tmp_path, "tau2.json", {"simulations": [{"messages": []}]})
    try:
        detect_format(path)
    except Exception as exc:  # noqa: BLE001 - the message is what is tested
        assert "tau2-bench" in str(exc)
    else:
        raise AssertionError("tau2 results must be refused")
