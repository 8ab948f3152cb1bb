"""The platform's event model: validation names the bad field; runs convert to traces."""

from __future__ import annotations

import dataclasses
import math

import pytest

from semloop import EventFormatError
from semloop.events import Event, Run, agent_version, severity_for


def _raw(**over: object) -> dict[str, object]:
    raw: dict[str, object] = {"event_type": "tool.called", "run_id": "r1", "agent_id": "a",
                              "step_index": 1, "timestamp": 1_700_000_000.5,
                              "payload": {"tool_name": "grep", "args": {"q": "x"}}}
    raw.update(over)
    return raw


@pytest.mark.parametrize(
    ("over", "field"),
    [
        ({"event_type": "tool.exploded"}, "event_type"),
        ({"run_id": ""}, "run_id"),
        ({"agent_id": 7}, "agent_id"),
        ({"step_index": -1}, "step_index"),
        ({"step_index": True}, "step_index"),
        ({"timestamp": "yesterday"}, "timestamp"),
        ({"timestamp": math.inf}, "timestamp"),
        ({"timestamp": math.nan}, "timestamp"),
        ({"payload": [1, 2]}, "payload"),
        ({"payload": []}, "payload"),
        ({"payload": False}, "payload"),
        ({"payload": ""}, "payload"),
        ({"step_index": 5.5}, "step_index"),
    ],
)
def test_a_bad_field_is_named(over: dict[str, object], field: str) -> None:
    with pytest.raises(EventFormatError) as info:
        Event.from_dict(_raw(**over))
    assert info.value.field == field
    assert field in str(info.value)


def test_round_trip_keeps_every_field() -> None:
    event = Event.from_dict(_raw(conversation_id="c1", event_id="e1"))
    assert Event.from_dict(event.to_dict()) == event


def test_agent_version_ignores_tool_order() -> None:
    assert agent_version("p", "m", ["b", "a"]) == agent_version("p", "m", ["a", "b"])
    assert len(agent_version(None, None, None)) == 8


def test_run_status_and_trace_pair_calls_with_responses() -> None:
    events = [
        Event("run.started", "r", "a", 0, 1.0, {"input_text": "fix the build"}),
        Event("llm.called", "r", "a", 1, 2.0, {"model": "m"}),
        Event("llm.responded", "r", "a", 1, 3.0, {"output": "I will grep."}),
        Event("tool.called", "r", "a", 2, 4.0, {"tool_name": "grep", "args": {"q": "err"}}),
        Event("tool.responded", "r", "a", 2, 5.0, {"tool_name": "grep", "output": "hit"}),
        Event("run.errored", "r", "a", 2, 6.0, {"error": "boom"}),
    ]
    run = Run.from_events(reversed(events))
    assert run.status == "errored" and run.user_input == "fix the build"
    trace = run.to_trace()
    assert trace.goal == "fix the build"
    assert [(s.type, s.output) for s in trace.root.children] == [("llm", "I will grep."),
                                                                ("tool", "hit")]
    back = Run.from_trace(trace, agent_id="a")
    assert [e.event_type for e in back.events][1:5] == ["llm.called", "llm.responded",
                                                        "tool.called", "tool.responded"]


def test_a_response_without_its_call_is_kept() -> None:
    run = Run.from_events([Event("tool.responded", "r", "a", 3, 1.0,
                                 {"tool_name": "grep", "output": "orphan"})])
    assert [s.output for s in run.to_trace().tool_spans] == ["orphan"]


def test_severity_bands() -> None:
    assert [severity_for(c) for c in (0.9, 0.85, 0.7, 0.5, 0.49)] == [
        "CRITICAL", "CRITICAL", "HIGH", "MEDIUM", "LOW"]


def test_every_event_type_the_dunetrace_sdk_emits_is_accepted() -> None:
    import re
    from pathlib import Path

    import dunetrace

    source = "\n".join(p.read_text() for p in Path(dunetrace.__file__).parent.rglob("*.py"))
    emitted = set(re.findall(
        r'"((?:run|llm|tool|retrieval|external|policy|approval|memory|recording|transcription'
        r'|tts|voice_activity|turn_taking)\.(?:started|completed|errored|called|responded|signal'
        r'|triggered|evaluated|requested|granted|denied|timeout|read|written|cleared|available'
        r'|received|generated|detected|changed))"', source))
    assert len(emitted) >= 20
    for event_type in sorted(emitted):
        Event.from_dict(_raw(event_type=event_type))


def test_an_integral_float_step_and_a_missing_payload_are_accepted() -> None:
    event = Event.from_dict(_raw(step_index=5.0, payload=None))
    assert event.step_index == 5 and type(event.step_index) is int
    assert event.payload == {}


def test_agent_version_hashes_whatever_tools_the_wire_holds() -> None:
    from semloop.events import agent_version

    assert agent_version("p", "m", ["b", "a"]) == agent_version("p", "m", ["a", "b"])
    for odd in (["a", 1, None], "search", [{"name": "x"}, 2.5], 7, {"k": 1}):
        assert len(agent_version("p", "m", odd)) == 8  # type: ignore[arg-type]


@pytest.mark.parametrize("over", [
    {},
    {"agent_version": "", "trace_id": "", "event_id": ""},  # empty optional text is absent
    {"timestamp": 1_700_000_000, "step_index": 3.0, "payload": None},
    {"parent_run_id": "p", "conversation_id": "c", "trace_id": "t"},
])
def test_a_stored_shape_event_reads_the_same_as_one_checked_field_by_field(
        over: dict[str, object]) -> None:
    from types import MappingProxyType

    raw = _raw(**over)
    fast = Event.from_dict(raw)  # a dict: the one-pass check
    slow = Event.from_dict(MappingProxyType(raw))  # any other mapping: field by field
    if not raw.get("event_id"):
        slow = Event(**{**slow.to_dict(), "event_id": fast.event_id})
    assert fast == slow
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.run_id = "other"  # type: ignore[misc]


@pytest.mark.parametrize("over", [{"event_type": ["llm.called"]}, {"run_id": "a\x00b"},
                                  {"timestamp": True}, {"agent_id": ""}])
def test_a_malformed_dict_still_names_its_field(over: dict[str, object]) -> None:
    with pytest.raises(EventFormatError):
        Event.from_dict(_raw(**over))
