"""bench/make_real_runs.py: a tau2 judge-viewer transcript imports as the simulation it shows;
an OpenHands event store read from a commit imports as the conversation it records (the
event list itself is the ``openhands`` importer's, tests/formats/test_openhands.py)."""

from __future__ import annotations

import json
import runpy
import subprocess
from pathlib import Path
from typing import Any

import pytest

from semloop.evaluate.cases import system_prompt
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


def _action(reply: str, call: str, tool: str, arguments: str, thought: str = "") -> dict[str, Any]:
    return {"kind": "ActionEvent", "source": "agent", "timestamp": "2025-10-30T13:32:32",
            "thought": [{"type": "text", "text": thought}] if thought else [],
            "reasoning_content": None, "tool_name": tool, "tool_call_id": call,
            "tool_call": {"id": call, "name": tool, "arguments": arguments},
            "action": {"kind": "ExecuteBashAction"}, "llm_response_id": reply}


def _observation(call: str, **fields: Any) -> dict[str, Any]:
    return {"kind": "ObservationEvent", "source": "environment", "tool_call_id": call,
            "timestamp": "2025-10-30T13:32:33", "observation": {"kind": "X", **fields}}


def test_an_event_store_reads_as_its_event_list_in_file_order(make: dict[str, Any],
                                                              tmp_path: Path) -> None:
    # the SDK's event store: one file an event, named by its position; releases of 2025-09
    # keep the call in the chat API's shape ({"function": {"name", "arguments"}})
    call = _action("r1", "c1", "execute_bash", "")
    call["tool_call"] = {"id": "c1", "type": "function",
                         "function": {"name": "execute_bash", "arguments": '{"command": "ls"}'}}
    events = [
        {"kind": "MessageEvent", "source": "user", "timestamp": "2025-09-26T01:26:10",
         "llm_message": {"role": "user", "content": [{"type": "text", "text": "Fix it"}]}},
        call, _observation("c1", output="setup.py", metadata={"exit_code": 0})]
    store = tmp_path / "conv" / "event_service" / "events"
    store.mkdir(parents=True)
    for i, event in reversed(list(enumerate(events))):  # written out of order
        (store / f"event-{i:05d}-{i}.json").write_text(json.dumps(event))
    (store / "base_state.lock").write_text("")  # not an event
    path = "conv/event_service/events"
    from_tree = make["read_event_store"](tmp_path, "0" * 40, path)  # no such commit: the tree
    from_commit = make["read_event_store"](tmp_path, _committed(tmp_path), path)
    assert json.loads(from_tree) == json.loads(from_commit) == events
    trace = FORMATS["openhands"](from_commit, source="oh", clock=0.0).runs[0].to_trace()
    tool = trace.to_dict()["root"]["children"][1]
    assert (tool["name"], json.loads(tool["input"]), tool["output"]) == (
        "execute_bash", {"command": "ls"}, "setup.py")


def _committed(root: Path) -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                              text=True).stdout.strip()
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "events")
    sha = git("rev-parse", "HEAD")
    git("rm", "-rq", "conv")  # only the commit keeps the store now
    return sha


def test_an_evaluation_file_reads_as_the_simulations_it_keeps(make: dict[str, Any]) -> None:
    # tau2 experiment scripts keep each result's simulation under "trajectory" (a result that
    # failed to run keeps none) and the agent's policy once for the file
    simulation = {"id": "s1", "task_id": "7", "trial": 0, "reward_info": {"reward": 0.0},
                  "messages": [
                      {"role": "assistant", "content": "Hi! How can I help you today?"},
                      {"role": "user", "content": "Cancel reservation ABC123, please."},
                      {"role": "assistant", "content": None, "tool_calls": [
                          {"id": "c1", "name": "get_reservation_details",
                           "arguments": {"reservation_id": "ABC123"}}]},
                      {"role": "tool", "id": "c1", "content": '{"status": "booked"}'},
                      {"role": "assistant", "content": "It cannot be cancelled."}]}
    doc = {"config": {"agent_llm": "gpt-4o"}, "policy": "# Airline policy",
           "task_results": [{"task_id": "3", "success": False, "reward": 0.0, "error": "timeout"},
                            {"task_id": "7", "success": False, "reward": 0.0, "actions": [],
                             "trajectory": simulation}]}
    data = make["task_results_file"](json.dumps(doc).encode())
    assert json.loads(data)["simulations"] == [{**simulation, "policy": "# Airline policy"}]
    run, = FORMATS["tau-bench"](data, source="eval", clock=0.0).runs
    assert system_prompt(run) == "# Airline policy"  # what the evaluators read as instructions
    end, = (e for e in run.events if e.event_type == "run.completed")
    assert end.payload["output"] == "reward=0.0"  # the public outcome the bench reads
    tool = next(c for c in run.to_trace().to_dict()["root"]["children"] if c["type"] == "tool")
    assert (tool["name"], tool["output"]) == ("get_reservation_details", '{"status": "booked"}')
    # without a policy the simulations stand alone
    del doc["policy"]
    assert "policy" not in json.loads(make["task_results_file"](json.dumps(doc).encode()))["simulations"][0]


def test_a_swebench_report_gives_the_runs_of_its_submission_their_outcome(make: dict[str, Any],
                                                                         tmp_path: Path) -> None:
    trajs = tmp_path / "sub" / "trajs"
    for instance in ("a__a-1", "b__b-2", "c__c-3"):
        (trajs / instance).mkdir(parents=True)
        (trajs / instance / f"{instance}.traj.json").write_text("{}")
    (trajs / "sb-cli-reports").mkdir()
    (trajs / "sb-cli-reports" / "report.json").write_text(json.dumps(
        {"resolved_ids": ["a__a-1"], "unresolved_ids": ["b__b-2"]}))
    for args in (["init", "-q"], ["add", "-A"],
                 ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "runs"]):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)
    sha = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], check=True,
                         capture_output=True, text=True).stdout.strip()
    labels = [{"id": i, "source": "o/n", "commit": sha, "path": f"sub/trajs/{i}/{i}.traj.json"}
              for i in ("a__a-1", "b__b-2", "c__c-3")]
    # the run the report does not name keeps no outcome
    assert make["swebench_resolved"](labels, {"o/n": tmp_path}) == {"a__a-1": True, "b__b-2": False}
