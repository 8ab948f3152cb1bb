"""Remote policies as the Dunetrace SDK reads them: validation and signing (pure).

Validation refuses what the SDK would refuse to install or could never fire, with a
message naming the field, so a mistake shows at ``POST /v1/policies`` rather than as an
error in some agent's log; ``condition.match`` blocks are parsed by :mod:`semloop._match`.
Signing follows the SDK's canonical form: HMAC-SHA256 over the NUL-joined ``id, agent_id,
name, condition, action, enabled, priority`` (condition and action as
``json.dumps(..., sort_keys=True)``, ``enabled`` as Python spells a bool), preceded by
``v2`` for a condition with ``match`` (the SDK's version 2, which a version-1 signature
cannot be replayed as).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from .._match import MatchError, parse_match

__all__ = [
    "ACTIONS",
    "ENFORCING_ACTIONS",
    "OPERATORS",
    "TRIGGERS",
    "PolicyError",
    "check_policy",
    "sig_version",
    "sign_policy",
]

#: The triggers the SDK supplies a metric for, and ``expression``: a policy that is its
#: ``match`` block alone (operator and value are then ignored).
TRIGGERS = frozenset({"tool_call_count", "step_count", "cost_usd", "error_count",
                      "finish_reason", "llm_latency_ms", "signal", "before_tool_call",
                      "expression"})
OPERATORS = frozenset({"gt", "gte", "lt", "lte", "eq", "neq", "contains"})
ACTIONS = frozenset({"stop", "switch_model", "inject_prompt", "log", "require_approval",
                     "stop_current_tts", "escalate_to_human", "inject_recovery_prompt",
                     "slow_response_pace"})
#: What an SDK without the shared secret downgrades to ``log``: they change what the
#: agent does, so the SDK obeys them only when their signature verifies.
ENFORCING_ACTIONS = frozenset({"stop", "require_approval", "escalate_to_human",
                               "stop_current_tts", "switch_model", "inject_prompt",
                               "inject_recovery_prompt"})
_CONDITION_KEYS = ("trigger", "operator", "value", "match")
_ACTION_KEYS = frozenset({"type", "params"})


class PolicyError(ValueError):
    """A policy the SDK would refuse or never fire; ``field`` names where."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def _check_condition(condition: Any) -> dict[str, Any]:
    if not isinstance(condition, Mapping):
        raise PolicyError("condition", "must be an object {trigger, operator, value}")
    extra = sorted(set(condition) - set(_CONDITION_KEYS))
    if extra:
        raise PolicyError(f"condition.{extra[0]}",
                          f"unknown key (known: {', '.join(_CONDITION_KEYS)})")
    trigger = condition.get("trigger")
    if trigger not in TRIGGERS:
        raise PolicyError("condition.trigger",
                          f"unknown trigger {trigger!r} (known: {', '.join(sorted(TRIGGERS))})")
    if condition.get("match") is not None:
        try:
            parse_match(condition["match"], "condition.match")
        except MatchError as exc:
            raise PolicyError(exc.where, exc.message) from None
    if trigger == "expression":
        if condition.get("match") is None:
            raise PolicyError("condition.match", "trigger 'expression' is its match block: "
                              "required")
        return _kept(condition)
    operator = condition.get("operator", "gt")  # the SDK's default
    if operator not in OPERATORS:
        raise PolicyError("condition.operator", f"unknown operator {operator!r} "
                          f"(known: {', '.join(sorted(OPERATORS))})")
    if "value" not in condition:
        raise PolicyError("condition.value", "required")
    value = condition["value"]
    # The signal metric is a list of failure types: only `contains` can match a name in it.
    if trigger == "signal" and isinstance(value, str) and operator != "contains":
        raise PolicyError("condition.operator",
                          f"trigger 'signal' is a list of failure types; {operator!r} never "
                          f"matches (or, for neq, always does): use 'contains'")
    return _kept(condition)


def _kept(condition: Mapping[str, Any]) -> dict[str, Any]:
    # "match": null is no match block: dropped, so the policy signs in version 1.
    return {k: condition[k] for k in _CONDITION_KEYS
            if k in condition and (k != "match" or condition[k] is not None)}


def _check_action(action: Any, trigger: str) -> dict[str, Any]:
    if not isinstance(action, Mapping):
        raise PolicyError("action", "must be an object {type, params}")
    extra = sorted(set(action) - _ACTION_KEYS)
    if extra:
        raise PolicyError(f"action.{extra[0]}", "unknown key (known: type, params)")
    kind = action.get("type")
    if kind not in ACTIONS:
        raise PolicyError("action.type",
                          f"unknown action {kind!r} (known: {', '.join(sorted(ACTIONS))})")
    params = action.get("params", {})
    if not isinstance(params, Mapping):
        raise PolicyError("action.params", "must be an object")
    # The SDK asks for approval before a tool runs, so only that trigger can reach it.
    if (kind == "require_approval") != (trigger == "before_tool_call"):
        raise PolicyError("action.type", "require_approval goes with the trigger "
                          "before_tool_call, and that trigger only with require_approval")
    timeout = params.get("timeout_s", 300)
    if kind == "require_approval" and (isinstance(timeout, bool) or not isinstance(timeout, int)
                                       or not 1 <= timeout <= 86_400):
        raise PolicyError("action.params.timeout_s", "must be a whole number of seconds, "
                          "1 to 86400")
    out: dict[str, Any] = {"type": kind}
    if "params" in action:
        out["params"] = dict(params)
    return out


def check_policy(body: Mapping[str, Any]) -> dict[str, Any]:
    """The policy ``body`` describes, normalised; raises :class:`PolicyError`."""
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise PolicyError("name", "must be a non-empty string of at most 200 characters")
    agent_id = body.get("agent_id", "*")
    if not isinstance(agent_id, str) or not agent_id or len(agent_id) > 200:
        raise PolicyError("agent_id", "must be an agent id or '*' (every agent)")
    enabled = body.get("enabled", True)
    if not isinstance(enabled, bool):
        raise PolicyError("enabled", "must be true or false")
    priority = body.get("priority", 100)
    if isinstance(priority, bool) or not isinstance(priority, int) or abs(priority) > 2**31 - 1:
        raise PolicyError("priority", "must be a whole number (lower fires first)")
    condition = _check_condition(body.get("condition"))
    action = _check_action(body.get("action"), condition["trigger"])
    return {"name": name, "agent_id": agent_id, "enabled": enabled, "priority": priority,
            "condition": condition, "action": action}


def sig_version(condition: Mapping[str, Any]) -> int:
    """The SDK's canonical form for this condition: 2 with a ``match`` block, else 1."""
    return 2 if condition.get("match") is not None else 1


def sign_policy(secret: str, policy_id: int, agent_id: str, name: str,
                condition: Mapping[str, Any], action: Mapping[str, Any], enabled: bool,
                priority: int) -> str:
    """The SDK's signature of a policy, in the form :func:`sig_version` names, hex."""
    fields = [str(policy_id), agent_id, name, json.dumps(condition, sort_keys=True),
              json.dumps(action, sort_keys=True), str(enabled), str(priority)]
    version = sig_version(condition)
    if version > 1:
        fields.insert(0, f"v{version}")
    canonical = "\x00".join(fields)
    return hmac.new(secret.encode(), canonical.encode(), hashlib.sha256).hexdigest()
