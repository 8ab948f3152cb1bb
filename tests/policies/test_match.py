"""Dunetrace's match expressions: parsed and evaluated as the official SDK does (checked
against it on generated blocks), refused with the path to the fault, and obeyed by
semloop's own SDK (``Policy(match=...)`` and trigger ``expression``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from dunetrace.policies.evaluator import EvaluationContext
from dunetrace.policies.evaluator import evaluate as dunetrace_evaluate
from dunetrace.policies.expressions import ExpressionError, parse_match_block
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semloop import ConfigError
from semloop._match import MatchError, evaluate, parse_match
from semloop.sdk import Policy, PolicyViolation

from .conftest import Recorded

# -- the same answers as Dunetrace's SDK ------------------------------------------------------

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.5, 2.0, 1e3]),
    st.sampled_from(["", "1", "2.5", "abc", "ab", "EUR", "urgent fix", "true", " 3 "]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3))
TEXTS = st.sampled_from(["", "a", "ab", "EUR", "urgent", "3"])
FIELDS = st.sampled_from(["args.amount", "args.currency", "args.user.tier", "run.step_count",
                          "event.type", "agent.tier", "org.plan", "args.tags"])
#: Operator -> the values it takes; the last entries are refused by both parsers.
OPERANDS: dict[str, st.SearchStrategy[Any]] = {
    **dict.fromkeys(["eq", "ne", "neq", "gt", "gte", "lt", "lte", "contains"], VALUES),
    "in": st.lists(SCALARS, min_size=1, max_size=3),
    "not_in": st.lists(SCALARS, min_size=1, max_size=3),
    "starts_with": TEXTS, "ends_with": TEXTS,
    "matches": st.sampled_from(["^ab", "c$", "[0-9]+", "urgent|asap", "^$"]),
    "exists": VALUES, "not_exists": VALUES,
}
VALID = st.sampled_from(sorted(OPERANDS)).flatmap(
    lambda op: OPERANDS[op].map(lambda value: (op, value)))
INVALID = st.one_of(
    st.tuples(st.sampled_from(["regex", "between", "=="]), VALUES),
    st.tuples(st.sampled_from(["in", "starts_with", "matches"]), st.integers()),
    st.tuples(st.just("matches"), st.sampled_from(["(", "a{2"])))
OPS = st.one_of(VALID, VALID, VALID, VALID, VALID, VALID, VALID, VALID, INVALID)


def _blocks(depth: int) -> st.SearchStrategy[Any]:
    field_tests = st.dictionaries(
        FIELDS, st.lists(OPS, min_size=1, max_size=2).map(dict), min_size=1, max_size=2)
    if depth == 0:
        return field_tests
    nested = st.lists(_blocks(depth - 1), min_size=1, max_size=2)
    combined = st.tuples(field_tests, st.sampled_from(["and", "or"]), nested).map(
        lambda t: {**t[0], t[1]: t[2]})
    broken = st.sampled_from([{}, {"or": []}, {"args.a": {}}, {"amount": {"eq": 1}}])
    return st.one_of(field_tests, combined, combined, broken)


CONTEXT = st.fixed_dictionaries({
    "args": st.dictionaries(st.sampled_from(["amount", "currency", "user", "tags"]),
                            st.one_of(VALUES, st.fixed_dictionaries({"tier": SCALARS}))),
    "run": st.dictionaries(st.sampled_from(["step_count", "agent_id"]), SCALARS),
    "event": st.dictionaries(st.sampled_from(["type"]), SCALARS),
})


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(block=_blocks(4), fields=CONTEXT)
def test_parses_and_evaluates_as_dunetraces_sdk(block: Any, fields: dict[str, Any]) -> None:
    try:
        theirs = parse_match_block(block)
    except ExpressionError:
        theirs = None
    try:
        ours = parse_match(block)
    except MatchError:
        ours = None
    assert (ours is None) == (theirs is None), block
    if ours is not None and theirs is not None:
        expected = dunetrace_evaluate(theirs, EvaluationContext(**fields))
        assert evaluate(ours, fields) is expected, (block, fields)


@settings(max_examples=800, deadline=None)
@given(test=OPS, actual=st.one_of(VALUES, st.just({"nested": 1})))
def test_each_comparison_as_dunetraces_sdk(test: tuple[str, Any], actual: Any) -> None:
    block = {"args.x": dict([test])}
    try:
        theirs = parse_match_block(block)
    except ExpressionError:
        with pytest.raises(MatchError):
            parse_match(block)
        return
    fields = {"args": {"x": actual}}
    expected = dunetrace_evaluate(theirs, EvaluationContext(**fields))
    assert evaluate(parse_match(block), fields) is expected


@pytest.mark.parametrize(("block", "where"), [
    ({}, "match"),
    ({"amount": {"gt": 1}}, "match.amount"),
    ({"args.amount": {"greater": 1}}, "match.args.amount.greater"),
    ({"args.amount": 5}, "match.args.amount"),
    ({"or": [{"args.a": {"eq": 1}}, {"and": []}]}, "match.or[1].and"),
    ({"or": [{"and": [{"or": [{"args.a": {"eq": 1}}]}]}]}, "match.or[0].and[0].or[0]"),
    ({"args.a": {"in": "EUR"}}, "match.args.a.in"),
    ({"args.a": {"matches": "(unclosed"}}, "match.args.a.matches"),
    # Python's re has no time limit: the exponential shapes are refused outright.
    ({"args.a": {"matches": "(a+)+$"}}, "match.args.a.matches"),
    ({"args.a": {"matches": r"^(\w+\s?)*$"}}, "match.args.a.matches"),
    ({"args.a": {"matches": "(x|xy)*z"}}, "match.args.a.matches"),
])
def test_a_malformed_block_is_refused_naming_where(block: Any, where: str) -> None:
    with pytest.raises(MatchError) as caught:
        parse_match(block)
    assert caught.value.where == where


@pytest.mark.parametrize("pattern", ["a+b*", "(ab)+", "[(+]+x", r"\(a+\)+", "(a+){1}",
                                     "(?:ab|cd)?e+"])
def test_patterns_without_nested_repeats_are_kept(pattern: str) -> None:
    assert evaluate(parse_match({"args.a": {"matches": pattern}}), {"args": {"a": "zz"}}) \
        is False


def test_a_record_of_every_test_when_asked() -> None:
    node = parse_match({"args.amount": {"gt": 1000}, "or": [
        {"agent.tier": {"eq": "trial"}}, {"args.currency": {"in": ["EUR"]}}]})
    checks: list[dict[str, Any]] = []
    assert evaluate(node, {"args": {"amount": "1500", "currency": "EUR"}}, checks) is True
    assert checks == [
        {"field_path": "args.amount", "operator": "gt", "expected": 1000, "actual": "1500",
         "result": True, "present": True},
        {"field_path": "agent.tier", "operator": "eq", "expected": "trial",
         "actual": "<absent>", "result": False, "present": False},
        {"field_path": "args.currency", "operator": "in", "expected": ("EUR",),
         "actual": "EUR", "result": True, "present": True}]


# -- semloop's SDK ----------------------------------------------------------------------------


def _refunds(rec: Recorded) -> None:
    with rec.client.run("refunder") as run:
        for amount, currency in [(20, "EUR"), (5000, "GBP"), (5000, "USD"), (70, "USD")]:
            run.tool_called("refund", {"amount": amount, "currency": currency,
                                       "customer": {"tier": "gold"}})
            run.tool_responded("refund", success=True)


def _fired(rec: Recorded) -> list[Any]:
    triggered = rec.of_type("policy.triggered")
    calls = {e.step_index: e.payload for e in rec.of_type("tool.called")}
    return [calls[e.step_index]["args"] for e in triggered]


def test_the_sdk_takes_a_dunetrace_expression_as_match(
        recorded: Callable[..., Recorded]) -> None:
    rec = recorded(policies=[Policy(
        "big refunds", "tool_call_count", "gte", 1, "log",
        match={"event.type": {"eq": "tool.called"}, "args.amount": {"gt": "1000"},
               "or": [{"args.currency": {"in": ["EUR", "USD"]}},
                      {"args.customer.tier": {"eq": "platinum"}}]})])
    _refunds(rec)
    fired = _fired(rec)
    assert len(fired) == 1 and '"amount": 5000' in fired[0] and "USD" in fired[0]


def test_trigger_expression_is_its_match_alone(recorded: Callable[..., Recorded]) -> None:
    policy = Policy("third refund", "expression", "eq", None, "stop",
                    match={"run.tool_call_count": {"gte": 3}, "run.step_count": {"exists": True},
                           "event.type": {"ne": "tool.responded"}})
    rec = recorded(policies=[policy])
    with pytest.raises(PolicyViolation) as stopped:
        _refunds(rec)
    assert stopped.value.policy_name == "third refund"
    assert [e.event_type for e in rec.events][-3:] == [
        "tool.called", "policy.triggered", "run.errored"]
    assert len(rec.of_type("tool.called")) == 3


@pytest.mark.parametrize(("kwargs", "key"), [
    ({"match": {"args.amount": {"gt": 1}, "or": []}}, "match.or"),
    ({"match": {"args.amount": {"gt": 1}, "tool_name": "refund"}}, "match.tool_name"),
    ({"match": {"args.note": {"matches": "(a*)*"}}}, "match.args.note.matches"),
])
def test_a_bad_expression_is_a_config_error_naming_where(kwargs: Any, key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Policy("p", "tool_call_count", "gt", 1, "log", **kwargs)
    assert caught.value.key == key


def test_trigger_expression_needs_a_match_and_no_approval() -> None:
    with pytest.raises(ConfigError) as caught:
        Policy("p", "expression", "eq", None, "stop")
    assert caught.value.key == "match"
    with pytest.raises(ConfigError) as caught:
        Policy("p", "expression", "eq", None, "require_approval",
               match={"args.a": {"exists": True}})
    assert caught.value.key == "action"


def test_an_expression_gates_approval_on_the_calls_arguments(
        recorded: Callable[..., Recorded]) -> None:
    asked: list[Any] = []
    rec = recorded(policies=[Policy(
        "big refunds", "before_tool_call", "eq", "refund", "require_approval",
        match={"args.amount": {"gt": 1000}, "args.customer.tier": {"ne": "platinum"},
               "event.type": {"eq": "before_tool_call"}})],
        approver=lambda request: asked.append(request.args) or True)
    _refunds(rec)
    assert [(a["amount"], a["currency"]) for a in asked] == [(5000, "GBP")]


def test_a_file_policy_with_trigger_expression_needs_no_operator_or_value() -> None:
    policy = Policy.from_dict({"name": "p", "trigger": "expression", "action": "log",
                               "match": {"run.error_count": {"gte": 2}}})
    assert (policy.trigger, policy.value) == ("expression", None)
