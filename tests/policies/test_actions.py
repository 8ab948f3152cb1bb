"""What firing does: stop, switch_model, inject_prompt, log; priority and at-most-once."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from semloop.events import Event, Run
from semloop.sdk import Client, FileEmitter, Policy, PolicyViolation

from .conftest import Recorded


class AgentError(Exception):
    pass


def test_stop_raises_into_the_agent_and_the_run_ends_errored(tmp_path: Path) -> None:
    path = tmp_path / "events.ndjson"
    client = Client(emitter=FileEmitter(path),
                    policies=[Policy("max-tools", "tool_call_count", "gt", 2, "stop",
                                     message="too many tool calls")])
    calls = 0
    with pytest.raises(PolicyViolation) as info, client.run("agent", model="gpt-4o") as run:
        for i in range(10):
            run.tool_called("search", {"page": i})
            calls += 1
    assert client.shutdown(10)
    assert calls == 2  # the third call raised before the agent ran the tool
    violation = info.value
    assert violation.policy_name == "max-tools" and violation.observed == 3
    assert violation.trigger == "tool_call_count" and violation.reason == "stop"
    assert "too many tool calls" in str(violation)

    events = [Event.from_dict(json.loads(line)) for line in path.read_text().splitlines()]
    assert [e.event_type for e in events] == [
        "run.started", "tool.called", "tool.called", "tool.called", "policy.triggered",
        "run.errored"]
    triggered, errored = events[-2].payload, events[-1].payload
    assert triggered["policy_name"] == "max-tools" and triggered["observed"] == 3
    assert triggered["action"] == "stop" and triggered["value"] == 2
    assert errored["exit_reason"] == "policy_violation"
    assert errored["policy_name"] == "max-tools"
    assert errored["error_type"] == "PolicyViolation"
    assert Run.from_events(events).status == "errored"


def test_a_wrapped_violation_still_ends_the_run_as_a_policy_violation(
        recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[Policy("cap", "step_count", "gte", 1, "stop")])
    with pytest.raises(AgentError), rec.client.run("agent") as run:
        try:
            run.tool_called("search")
        except PolicyViolation as exc:
            raise AgentError("gave up") from exc
    errored = rec.of_type("run.errored")[0].payload
    assert errored["error_type"] == "AgentError"
    assert errored["exit_reason"] == "policy_violation" and errored["policy_name"] == "cap"


def test_an_ordinary_error_keeps_exit_reason_error(recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[Policy("cap", "step_count", "gte", 100, "stop")])
    with pytest.raises(AgentError), rec.client.run("agent") as run:
        run.tool_called("search")
        raise AgentError("boom")
    errored = rec.of_type("run.errored")[0].payload
    assert errored["exit_reason"] == "error" and "policy_name" not in errored


def test_stop_fires_once_so_an_agent_that_catches_it_can_go_on(
        recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[Policy("cap", "tool_call_count", "gte", 2, "stop")])
    stopped = 0
    with rec.client.run("agent") as run:
        for _ in range(5):
            try:
                run.tool_called("search")
            except PolicyViolation:
                stopped += 1
    assert stopped == 1
    assert len(rec.of_type("policy.triggered")) == 1
    assert rec.of_type("run.completed")[0].payload["tool_call_count"] == 5


def test_switch_model_and_inject_prompt_are_advisory_and_readable(
        recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[
        Policy("cheaper", "step_count", "gte", 2, "switch_model", model="gpt-4o-mini"),
        Policy("wrap-up", "tool_call_count", "gte", 3, "inject_prompt",
               prompt="You have enough information: answer now."),
        Policy("truncated", "finish_reason", "eq", "length", "inject_prompt",
               prompt="Answer in under 200 words."),
    ])
    with rec.client.run("agent", model="gpt-4o") as run:
        assert run.model_override is None and run.prompt_additions == []
        assert run.pop_prompt_addition() is None
        run.llm_called("gpt-4o")
        run.llm_responded(finish_reason="tool_calls")
        run.tool_called("search")
        assert run.model_override == "gpt-4o-mini"
        run.tool_called("search")
        run.tool_called("search")  # the agent goes on: advice never raises
        run.llm_called("gpt-4o-mini")
        run.llm_responded(finish_reason="length")
        assert run.prompt_additions == ["You have enough information: answer now.",
                                        "Answer in under 200 words."]
        assert run.pop_prompt_addition() == "You have enough information: answer now."
        assert run.prompt_additions == ["Answer in under 200 words."]
        run.final_answer()
    assert rec.of_type("run.completed")[0].payload["exit_reason"] == "final_answer"
    fired = [(e.payload["policy_name"], e.payload["action"])
             for e in rec.of_type("policy.triggered")]
    assert fired == [("cheaper", "switch_model"), ("wrap-up", "inject_prompt"),
                     ("truncated", "inject_prompt")]
    assert rec.of_type("policy.triggered")[0].payload["model"] == "gpt-4o-mini"
    assert rec.client.stats.policies_triggered == 3


def test_log_fires_every_time_and_logs(recorded: Callable[..., Recorded],
                                       caplog: pytest.LogCaptureFixture) -> None:
    rec = recorded(policies=[Policy("slow", "llm_latency_ms", "gt", 1000, "log",
                                    message="slow model")])
    with caplog.at_level(logging.WARNING, logger="semloop.sdk"), rec.client.run("agent") as run:
        for latency in (2000, 10, 3000, 4000):
            run.llm_called("m")
            run.llm_responded(latency_ms=latency)
    assert [e.payload["observed"] for e in rec.of_type("policy.triggered")] == [
        2000, 3000, 4000]
    lines = [r.getMessage() for r in caplog.records if "slow" in r.getMessage()]
    assert len(lines) == 3 and "slow model" in lines[0] and "2000" in lines[0]


def test_the_lowest_priority_number_wins_and_only_one_fires_per_event(
        recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[
        Policy("late", "tool_call_count", "gte", 1, "log", priority=50),
        Policy("first", "step_count", "gte", 1, "switch_model", model="small", priority=5),
        Policy("tie-a", "tool_call_count", "gte", 1, "inject_prompt", prompt="a",
               priority=20),
        Policy("tie-b", "tool_call_count", "gte", 1, "inject_prompt", prompt="b",
               priority=20),
    ])
    with rec.client.run("agent") as run:
        for _ in range(5):
            run.tool_called("search")
    fired = [e.payload["policy_name"] for e in rec.of_type("policy.triggered")]
    # One per event; the once-only policies step aside after firing; ties go to the one
    # registered first; log keeps firing once it is the best left.
    assert fired == ["first", "tie-a", "tie-b", "late", "late"]


def test_priority_picks_stop_over_advice(recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[
        Policy("advise", "tool_call_count", "gte", 3, "switch_model", model="small"),
        Policy("hard-cap", "tool_call_count", "gte", 3, "stop", priority=1),
    ])
    with pytest.raises(PolicyViolation, match="hard-cap"), rec.client.run("agent") as run:
        for _ in range(3):
            run.tool_called("search")
    assert run.model_override is None
    assert [e.payload["policy_name"] for e in rec.of_type("policy.triggered")] == ["hard-cap"]


def test_policies_are_per_run(recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[Policy("cheaper", "tool_call_count", "gte", 1, "switch_model",
                                    model="small")])
    for _ in range(3):
        with rec.client.run("agent") as run:
            run.tool_called("search")
            assert run.model_override == "small"
    assert len(rec.of_type("policy.triggered")) == 3


def test_add_policy_applies_to_a_run_under_way(recorded: Callable[..., Recorded]) -> None:
    rec = recorded()
    with pytest.raises(PolicyViolation), rec.client.run("agent") as run:
        run.tool_called("search")
        run.tool_responded("search", success=False, error="x")
        rec.client.add_policy(Policy("errors", "error_count", "gte", 2, "stop"))
        run.tool_called("search")
        run.tool_responded("search", success=False, error="x")  # counted from the start
    assert rec.of_type("run.errored")[0].payload["policy_name"] == "errors"


def test_async_agents_get_the_same_stop(recorded: Callable[..., Recorded]) -> None:
    import asyncio

    rec = recorded(policies=[Policy("cap", "tool_call_count", "gte", 2, "stop")])

    async def agent() -> None:
        async with rec.client.run("agent") as run:
            for _ in range(3):
                run.tool_called("search")
                await asyncio.sleep(0)

    with pytest.raises(PolicyViolation):
        asyncio.run(agent())
    assert rec.of_type("run.errored")[0].payload["exit_reason"] == "policy_violation"
