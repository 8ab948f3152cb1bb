"""bench/make_real_runs.py: a tau2 judge-viewer transcript imports as the simulation it shows."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import pytest

from semloop.ingest.formats import FORMATS

ROOT = Path(__file__).resolve().parents[2]

TRANSCRIPT = """Domain: telecom

Conversation transcript:
1. Assistant: Hi! How can I help you today?
2. User: My data is slow. My number is 555-123-2002.
3. Assistant: Let me look.
4. Assistant TOOL CALL -> get_customer_by_phone {'phone_number': '555-123-2002'}
5. Tool call_a: {"customer_id": "C1001"}
6. Assistant TOOL CALL -> get_details_by_id {'id': 'L1001'}
7. Assistant TOOL CALL -> get_details_by_id {'id': 'P1001'}
8. Tool call_b: {"line_id": "L1001"}
9. Tool call_c: {"plan_id": "P1001"}
10. Assistant: Please try these steps:
1. Turn off airplane mode.
2. Run a speed test.
11. User: Done. ###STOP###

Judging instructions:
- Return JSON with `verdict`.
"""


@pytest.fixture(scope="module")
def make() -> dict[str, Any]:
    return runpy.run_path(str(ROOT / "bench" / "make_real_runs.py"))  # not run as __main__


def test_a_transcript_becomes_tau2_messages(make: dict[str, Any]) -> None:
    messages = make["transcript_messages"](TRANSCRIPT)
    assert [m["role"] for m in messages] == [
        "assistant", "user", "assistant", "tool", "assistant", "tool", "tool", "assistant", "user"]
    # a reply and the call after it are one agent message; calls take their results' ids in order
    assert messages[2]["content"] == "Let me look."
    assert messages[2]["tool_calls"] == [
        {"id": "call_a", "name": "get_customer_by_phone", "arguments": {"phone_number": "555-123-2002"}}]
    assert [c["id"] for c in messages[4]["tool_calls"]] == ["call_b", "call_c"]
    assert messages[4]["content"] is None
    # a numbered list inside a reply stays in it; the judge's instructions are not a message
    assert messages[7]["content"].endswith("1. Turn off airplane mode.\n2. Run a speed test.")
    assert messages[8]["content"] == "Done. ###STOP###"


def test_both_viewer_layouts_import_and_only_the_transcript_is_read(make: dict[str, Any]) -> None:
    record = {"simulation_id": "s1", "task_id": "t1", "judge_verdict": "pass"}
    lines = json.dumps({**record, "prompt": TRANSCRIPT}).encode()
    entries = json.dumps({"entries": [{**record, "judge_prompt": TRANSCRIPT}]}).encode()
    for data in (lines, entries):
        sims = json.loads(make["judge_viewer_file"](data))["simulations"]
        assert set(sims[0]) == {"id", "task_id", "trial", "messages"}
        runs = FORMATS["tau-bench"](make["judge_viewer_file"](data), source="viewer", clock=0.0).runs
        assert len(runs) == 1
        root = runs[0].to_trace().to_dict()["root"]
        assert [c["type"] for c in root["children"]] == ["llm", "llm", "tool", "llm", "tool", "tool", "llm"]
        assert root["children"][2]["output"] == '{"customer_id": "C1001"}'
