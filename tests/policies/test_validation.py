"""A policy is checked when it is made: every bad field raises ConfigError naming it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from semloop._exceptions import ConfigError
from semloop.sdk import Client, DiscardEmitter, Policy, load_policies

GOOD: dict[str, Any] = {"name": "p", "trigger": "tool_call_count", "operator": "gt",
                        "value": 10, "action": "stop"}


@pytest.mark.parametrize(("changes", "key", "words"), [
    ({"name": ""}, "name", "non-empty"),
    ({"name": None}, "name", "non-empty"),
    ({"trigger": "tool_calls"}, "trigger", "unknown trigger 'tool_calls'"),
    ({"operator": "greater"}, "operator", "unknown operator"),
    ({"operator": "contains"}, "operator", "does not apply to trigger 'tool_call_count'"),
    ({"trigger": "finish_reason", "operator": "gt", "value": "length"}, "operator",
     "does not apply"),
    ({"trigger": "signal", "operator": "eq", "value": "TOOL_LOOP"}, "operator",
     "does not apply"),
    ({"action": "halt"}, "action", "unknown action 'halt'"),
    ({"trigger": "before_tool_call", "operator": "eq", "value": "rm"}, "action",
     "only with action 'require_approval'"),
    ({"value": "10"}, "value", "not a finite number"),
    ({"value": True}, "value", "not a finite number"),
    ({"value": float("nan")}, "value", "not a finite number"),
    ({"trigger": "finish_reason", "operator": "eq", "value": 3}, "value", "compares text"),
    ({"trigger": "signal", "operator": "contains", "value": "TOOL_LOP"}, "value",
     "not a single-run detector"),
    ({"trigger": "signal", "operator": "contains", "value": "HANDOFF_CONTEXT_LOSS"},
     "value", "not a single-run detector"),  # cross-run: only the worker sees it
    ({"priority": "high"}, "priority", "must be an integer"),
    ({"priority": True}, "priority", "must be an integer"),
    ({"message": 7}, "message", "must be a string"),
    ({"action": "switch_model"}, "model", "needs the model"),
    ({"model": "gpt-4o-mini"}, "model", "only by action 'switch_model'"),
    ({"action": "inject_prompt"}, "prompt", "needs the prompt"),
    ({"prompt": "be brief"}, "prompt", "only by action 'inject_prompt'"),
    ({"timeout_s": 5}, "timeout_s", "only by action 'require_approval'"),
    ({"action": "require_approval", "timeout_s": 0}, "timeout_s", "positive"),
    ({"action": "require_approval", "timeout_s": float("inf")}, "timeout_s", "positive"),
    ({"match": {}}, "match", "non-empty mapping"),
    ({"match": "tool_name=x"}, "match", "non-empty mapping"),
    ({"match": {"payload.x": 1}}, "match.payload.x", "'args.<key>'"),
    ({"match": {"run.colour": "red"}}, "match.run.colour", "unknown run field"),
])
def test_a_bad_field_is_named(changes: dict[str, Any], key: str, words: str) -> None:
    with pytest.raises(ConfigError) as info:
        Policy(**{**GOOD, **changes})
    assert info.value.key == key
    assert words in str(info.value)


def test_good_policies_of_every_action_build() -> None:
    Policy("a", "step_count", "gte", 30, "switch_model", model="gpt-4o-mini")
    Policy("b", "cost_usd", "gt", 0.5, "inject_prompt", prompt="Wrap up now.")
    Policy("c", "finish_reason", "eq", "length", "log", priority=-1)
    Policy("d", "before_tool_call", "contains", "delete", "require_approval", timeout_s=2)
    Policy("e", "signal", "contains", "TOOL_LOOP", "stop", match={"tool_name": "search*"})
    Policy("f", "error_count", "gte", 3, "stop", match=lambda view: True)


def test_policy_is_frozen() -> None:
    policy = Policy(**GOOD)
    with pytest.raises(AttributeError):
        policy.value = 3  # type: ignore[misc]


def test_names_are_unique_per_client() -> None:
    client = Client(emitter=DiscardEmitter(), policies=[Policy(**GOOD)])
    try:
        with pytest.raises(ConfigError, match="already registered"):
            client.add_policy(Policy(**{**GOOD, "value": 3}))
        with pytest.raises(ConfigError, match="already registered"):
            Client(emitter=DiscardEmitter(), policies=[Policy(**GOOD), Policy(**GOOD)])
        with pytest.raises(TypeError):
            client.add_policy(GOOD)  # type: ignore[arg-type]
        assert client.policies == (Policy(**GOOD),)
    finally:
        client.shutdown()


def test_client_options_are_checked() -> None:
    with pytest.raises(ValueError, match="approval_timeout"):
        Client(emitter=DiscardEmitter(), approval_timeout=0)
    with pytest.raises(ValueError, match="approver"):
        Client(emitter=DiscardEmitter(), approver="yes")  # type: ignore[arg-type]


def test_from_dict_names_unknown_and_missing_keys() -> None:
    assert Policy.from_dict(GOOD) == Policy(**GOOD)
    with pytest.raises(ConfigError) as info:
        Policy.from_dict({**GOOD, "treshold": 3})
    assert info.value.key == "treshold"
    with pytest.raises(ConfigError) as info:
        Policy.from_dict({k: v for k, v in GOOD.items() if k != "action"})
    assert info.value.key == "action" and "required" in str(info.value)


def test_load_policies_from_yaml_and_json(tmp_path: Path) -> None:
    yml = tmp_path / "policies.yml"
    yml.write_text(
        "policies:\n"
        "  - {name: max-tools, trigger: tool_call_count, operator: gt, value: 25,"
        " action: stop, priority: 10}\n"
        "  - name: cheaper\n"
        "    trigger: cost_usd\n    operator: gt\n    value: 0.5\n"
        "    action: switch_model\n    model: gpt-4o-mini\n"
        "  - {name: deletes, trigger: before_tool_call, operator: contains, value: delete,"
        " action: require_approval, match: {args.env: prod}}\n",
        encoding="utf-8")
    loaded = load_policies(yml)
    assert [p.name for p in loaded] == ["max-tools", "cheaper", "deletes"]
    assert loaded[0].priority == 10 and loaded[1].model == "gpt-4o-mini"
    assert loaded[2].match == {"args.env": "prod"}

    js = tmp_path / "policies.json"
    js.write_text(json.dumps([GOOD]), encoding="utf-8")
    assert load_policies(js) == [Policy(**GOOD)]


@pytest.mark.parametrize(("text", "where", "words"), [
    (('[{"name": "p", "trigger": "tool_call_count", "operator": "gt", "value": 1,'
      ' "action": "stop", "colour": "red"}]'), "policies[0]", "unknown field"),
    (('[{"name": "ok", "trigger": "step_count", "operator": "gt", "value": 1,'
      ' "action": "stop"}, {"name": "p", "trigger": "step_count", "operator": "gt",'
      ' "value": "many", "action": "stop"}]'), "policies[1]", "value"),
    ('{"policies": [], "extra": 1}', "extra", "unknown top-level key"),
    ('{"policies": {"name": "p"}}', "policies.json", "list of policies"),
    ("[1, 2", "policies.json", "not valid JSON"),
    ("[3]", "policies[0]", "must be a mapping"),
])
def test_load_policies_errors_name_the_file_and_entry(tmp_path: Path, text: str,
                                                      where: str, words: str) -> None:
    path = tmp_path / "policies.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_policies(path)
    assert where in str(info.value) and words in str(info.value)
    assert str(path) in str(info.value)


def test_load_policies_bad_yaml(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("policies: [ {name: a", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_policies(path)
