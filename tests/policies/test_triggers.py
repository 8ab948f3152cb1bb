"""Each trigger observes the right value at the right events, with every operator."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from semloop.sdk import MODEL_PRICES, Policy, PolicyViolation, RunContext

from .conftest import Recorded


def _log(trigger: str, operator: str, value: Any, **kw: Any) -> Policy:
    return Policy("p", trigger, operator, value, "log", **kw)


def _agent(run: RunContext) -> None:
    """Two LLM turns and three tool calls, the second failing."""
    run.llm_called("gpt-4o", prompt_tokens=1000)
    run.llm_responded(completion_tokens=100, latency_ms=800, finish_reason="tool_calls")
    run.tool_called("search", {"q": "a"})
    run.tool_responded("search", success=True, output="hit")
    run.tool_called("fetch", {"url": "https://x.test/1"})
    run.tool_responded("fetch", success=False, error="timeout")
    run.tool_called("fetch", {"url": "https://x.test/2"})
    run.tool_responded("fetch", success=True, output="page")
    run.llm_called("gpt-4o", prompt_tokens=3000)
    run.llm_responded(completion_tokens=400, latency_ms=7000, finish_reason="length",
                      error="cut short")


def _observed(recorded: Callable[..., Recorded], policy: Policy) -> list[tuple[str, Any]]:
    """(event type just before, observed value) for every firing of the policy."""
    rec = recorded(policies=[policy])
    with rec.client.run("agent", model="gpt-4o") as run:
        _agent(run)
    events = rec.events
    out = []
    for i, e in enumerate(events):
        if e.event_type == "policy.triggered":
            assert e.payload["policy_name"] == policy.name
            out.append((events[i - 1].event_type, e.payload["observed"]))
    return out


@pytest.mark.parametrize(("policy", "expected"), [
    # tool_call_count is checked after each tool.called: 1, 2, 3
    (_log("tool_call_count", "gt", 1), [("tool.called", 2), ("tool.called", 3)]),
    (_log("tool_call_count", "gte", 3), [("tool.called", 3)]),
    (_log("tool_call_count", "lt", 2), [("tool.called", 1)]),
    (_log("tool_call_count", "lte", 2), [("tool.called", 1), ("tool.called", 2)]),
    (_log("tool_call_count", "eq", 2), [("tool.called", 2)]),
    (_log("tool_call_count", "neq", 2), [("tool.called", 1), ("tool.called", 3)]),
    # step_count after tool.called and llm.responded: 1 (llm), 2, 3, 4 (tools), 5 (llm)
    (_log("step_count", "gte", 4), [("tool.called", 4), ("llm.responded", 5)]),
    (_log("step_count", "eq", 1), [("llm.responded", 1)]),
    # error_count after tool.responded and llm.responded: the failed fetch, the LLM error
    (_log("error_count", "gte", 1), [("tool.responded", 1), ("tool.responded", 1),
                                     ("llm.responded", 2)]),
    (_log("error_count", "eq", 2), [("llm.responded", 2)]),
    # llm_latency_ms after llm.responded: 800, 7000
    (_log("llm_latency_ms", "gt", 5000), [("llm.responded", 7000)]),
    (_log("llm_latency_ms", "lte", 800), [("llm.responded", 800)]),
    # finish_reason: tool_calls, length
    (_log("finish_reason", "eq", "length"), [("llm.responded", "length")]),
    (_log("finish_reason", "neq", "length"), [("llm.responded", "tool_calls")]),
    (_log("finish_reason", "contains", "call"), [("llm.responded", "tool_calls")]),
])
def test_trigger_and_operator(recorded: Callable[..., Recorded], policy: Policy,
                              expected: list[tuple[str, Any]]) -> None:
    assert _observed(recorded, policy) == expected


def test_cost_usd_from_tokens_and_the_price_table(recorded: Callable[..., Recorded]) -> None:
    inp, out = MODEL_PRICES["gpt-4o"]
    first = (1000 * inp + 100 * out) / 1e6
    total = first + (3000 * inp + 400 * out) / 1e6
    fired = _observed(recorded, _log("cost_usd", "gt", first * 1.5))
    assert fired == [("llm.responded", pytest.approx(total))]


def test_cost_usd_the_agent_passes_replaces_the_estimate(
        recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[Policy("budget", "cost_usd", "gte", 1.0, "stop")])
    with pytest.raises(PolicyViolation) as info:
        with rec.client.run("agent", model="unknown-model") as run:
            run.llm_called("unknown-model", prompt_tokens=10**9)
            run.llm_responded(completion_tokens=10**9)  # unknown model: costs nothing
            assert run.cost_usd == 0.0
            run.llm_called("unknown-model")
            run.llm_responded(completion_tokens=5, cost_usd=0.75)
            assert run.cost_usd == 0.75
            run.llm_called("unknown-model")
            run.llm_responded(completion_tokens=5, cost_usd=0.25)
    assert info.value.observed == 1.0
    responded = rec.of_type("llm.responded")
    assert [e.payload.get("cost_usd") for e in responded] == [None, 0.75, 0.25]


def test_prices_match_dated_and_prefixed_model_names(recorded: Callable[..., Recorded]) -> None:
    rec = recorded(model_prices={"my-finetune": (1.0, 2.0)})
    with rec.client.run("agent") as run:
        run.llm_called("gpt-4o-mini-2024-07-18", prompt_tokens=1_000_000)
        run.llm_responded(completion_tokens=0)
        assert run.cost_usd == pytest.approx(MODEL_PRICES["gpt-4o-mini"][0])
        run.llm_called("openai/gpt-4o", prompt_tokens=0)
        run.llm_responded(completion_tokens=1_000_000)
        assert run.cost_usd == pytest.approx(MODEL_PRICES["gpt-4o-mini"][0]
                                             + MODEL_PRICES["gpt-4o"][1])
        before = run.cost_usd
        run.llm_called("My-Finetune-v3", prompt_tokens=500_000)
        run.llm_responded(completion_tokens=500_000, prompt_tokens=1_000_000)
        # the response's prompt_tokens win over the call's: no double count
        assert run.cost_usd - before == pytest.approx(1.0 + 1.0)


def test_run_model_prices_an_llm_call_without_one(recorded: Callable[..., Recorded]) -> None:
    rec = recorded()
    with rec.client.run("agent", model="gpt-4o") as run:
        run.llm_responded(completion_tokens=1_000_000)  # no llm_called: the run's model
        assert run.cost_usd == pytest.approx(MODEL_PRICES["gpt-4o"][1])


def test_before_tool_call_observes_the_tool_name_before_it_is_recorded(
        recorded: Callable[..., Recorded]) -> None:
    seen: list[tuple[str | None, Any]] = []

    def approver(request: Any) -> bool:
        seen.append((request.tool_name, request.args))
        return True

    rec = recorded(approver=approver, policies=[
        Policy("deletes", "before_tool_call", "contains", "delete", "require_approval")])
    with rec.client.run("agent") as run:
        run.tool_called("search", {"q": "a"})
        run.tool_called("delete_user", {"id": 7})
        run.tool_called("delete_order", {"id": 8})  # at most once per run
    assert seen == [("delete_user", {"id": 7})]
    types = rec.types()
    i = types.index("approval.requested")
    assert types[i - 1:i + 3] == ["policy.triggered", "approval.requested",
                                  "approval.granted", "tool.called"]
    assert rec.of_type("tool.called")[1].payload["tool_name"] == "delete_user"


@pytest.mark.parametrize(("operator", "value", "fires_on"), [
    ("eq", "delete_user", ["delete_user"]),
    ("neq", "search", ["delete_user"]),
    ("contains", "user", ["delete_user"]),
])
def test_before_tool_call_operators(recorded: Callable[..., Recorded], operator: str,
                                    value: str, fires_on: list[str]) -> None:
    asked: list[str | None] = []

    def approver(request: Any) -> bool:
        asked.append(request.tool_name)
        return True

    rec = recorded(approver=approver, policies=[
        Policy("gate", "before_tool_call", operator, value, "require_approval")])
    with rec.client.run("agent") as run:
        run.tool_called("search")
        run.tool_called("delete_user")
    assert asked == fires_on


def test_match_narrows_a_policy_to_some_events(recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[
        Policy("prod-writes", "tool_call_count", "gte", 1, "log",
               match={"tool_name": "write_*", "args.env": ["prod", "production"]}),
        Policy("big-steps", "step_count", "gte", 1, "log", priority=200,
               match={"run.agent_id": "agent", "event.tool_name": "read"}),
    ])
    with rec.client.run("agent") as run:
        run.tool_called("write_file", {"env": "staging"})
        run.tool_called("write_file", {"env": "production"})
        run.tool_called("read", {"env": "prod"})
        run.tool_called("write_db", "not a mapping")  # type: ignore[arg-type]
    fired = [(e.payload["policy_name"], e.payload["tool_name"])
             for e in rec.of_type("policy.triggered")]
    # On the second call prod-writes (priority 100) wins over big-steps' miss; read
    # matches only big-steps.
    assert fired == [("prod-writes", "write_file"), ("big-steps", "read")]
