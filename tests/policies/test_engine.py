"""The engine's promises: the signal trigger runs real detectors, a broken policy never
breaks the agent, and an unwatched event costs one dict lookup."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from semloop.sdk import Client, DiscardEmitter, Policy, PolicyViolation, RunContext

from .conftest import Recorded

LOOP = Policy("loop", "signal", "contains", "TOOL_LOOP", "stop")


def _turn(run: RunContext, args: dict[str, Any], output: str) -> None:
    run.llm_called("gpt-4o", prompt_tokens=200)
    run.llm_responded(completion_tokens=20, finish_reason="tool_calls",
                      output="Let me search the knowledge base.")
    run.tool_called("search_kb", args)
    run.tool_responded("search_kb", success=True, output=output)


def test_signal_stops_a_real_tool_loop(recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[LOOP])
    turns = 0
    with pytest.raises(PolicyViolation) as info:
        with rec.client.run("support-bot", user_input="What is the refund policy?",
                            model="gpt-4o", tools=["search_kb"]) as run:
            for _ in range(10):
                _turn(run, {"query": "refund policy"}, "No results found.")
                turns += 1
    assert "TOOL_LOOP" in info.value.observed
    assert turns == 2  # the third identical search is the loop
    triggered = rec.of_type("policy.triggered")[0].payload
    assert "TOOL_LOOP" in triggered["observed"] and triggered["trigger"] == "signal"
    assert rec.of_type("run.errored")[0].payload["exit_reason"] == "policy_violation"


def test_signal_leaves_paging_alone(recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[LOOP])
    with rec.client.run("support-bot", user_input="List every open ticket",
                        model="gpt-4o", tools=["search_kb"]) as run:
        for page in range(1, 7):
            _turn(run, {"query": "open tickets", "page": page}, f"tickets {page * 10}-"
                  f"{page * 10 + 9}: T-{page}01, T-{page}02")
        run.final_answer()
    assert rec.of_type("policy.triggered") == []
    assert rec.of_type("run.completed")


def test_detectors_run_once_per_new_event_and_only_for_signal_policies(
        recorded: Callable[..., Recorded], monkeypatch: pytest.MonkeyPatch) -> None:
    from semloop import detect

    calls: list[int] = []
    real = detect.run_detectors

    def counting(run: Any, *args: Any, **options: Any) -> Any:
        calls.append(len(run.events))
        return real(run, *args, **options)

    monkeypatch.setattr(detect, "run_detectors", counting)
    plain = recorded(policies=[Policy("cap", "step_count", "gt", 100, "stop")])
    with plain.client.run("agent") as run:
        assert run._records is None  # no signal policy: no copies of the events kept
        _turn(run, {"query": "x"}, "y")
    assert calls == []

    rec = recorded(policies=[LOOP, Policy("also", "signal", "contains", "RETRY_STORM",
                                          "log")])
    with rec.client.run("agent") as run:
        _turn(run, {"query": "x"}, "y")
    # two signal policies, three check points (tool.called, llm.responded,
    # tool.responded): one detector pass per check point, shared by both policies
    assert calls == [3, 4, 5]


def test_a_broken_policy_never_breaks_the_agent(recorded: Callable[..., Recorded],
                                                caplog: pytest.LogCaptureFixture) -> None:
    def broken(view: Any) -> bool:
        raise ZeroDivisionError("bug in a policy")

    rec = recorded(policies=[
        Policy("broken", "tool_call_count", "gte", 1, "stop", priority=1, match=broken),
        Policy("typed", "llm_latency_ms", "gt", 100, "stop", priority=2),
        Policy("fine", "tool_call_count", "gte", 2, "switch_model", model="small"),
    ])
    with caplog.at_level(logging.DEBUG, logger="semloop.sdk"), rec.client.run("agent") as run:
        for _ in range(3):
            run.tool_called("search")
        run.llm_called("m")
        run.llm_responded(latency_ms="slow")  # type: ignore[arg-type]
        assert run.model_override == "small"  # the next policy still fires
    assert rec.of_type("run.completed")
    stats = rec.client.stats
    assert stats.policy_errors == 4 and stats.internal_errors == 0
    tracebacks = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(tracebacks) == 2  # once per broken policy, then at DEBUG
    assert "'broken'" in tracebacks[0].getMessage()


def test_a_failing_buffer_does_not_stop_advice(recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[Policy("cheaper", "tool_call_count", "gte", 1, "switch_model",
                                    model="small")])
    with rec.client.run("agent") as run:
        run._put = _explode
        run.tool_called("search")
        assert run.model_override == "small"
    stats = rec.client.stats
    assert stats.internal_errors == 2 and stats.policy_errors == 1  # call + completion


def _explode(record: Any) -> None:
    raise RuntimeError("buffer gone")


def test_policies_compile_into_per_event_tables() -> None:
    client = Client(emitter=DiscardEmitter(), policies=[
        Policy("cost", "cost_usd", "gt", 1, "stop", priority=3),
        Policy("fin", "finish_reason", "eq", "length", "log", priority=1),
    ])
    try:
        checks = client._policies.checks
        assert set(checks) == {"llm.responded"}  # tool calls: one dict lookup, nothing run
        assert [c.name for c in checks["llm.responded"]] == ["fin", "cost"]
        with client.run("agent") as run:
            assert run._checks is checks
        client.add_policy(Policy("tools", "tool_call_count", "gt", 5, "stop"))
        assert set(checks) == {"llm.responded", "tool.called"}
        assert Client(emitter=DiscardEmitter())._policies.checks == {}
    finally:
        client.shutdown()


def test_the_sdk_imports_without_pyyaml_or_the_detectors() -> None:
    code = ("import sys; import semloop.sdk as s; "
            "s.Policy('p', 'step_count', 'gt', 1, 'stop'); "
            "print('yaml' in sys.modules, 'semloop.detect' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "False"]
