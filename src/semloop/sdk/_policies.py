"""Runtime policies: conditions checked synchronously on the agent's thread, and what
happens when one holds (stop the run, advise a model or a prompt, log, ask a human).

A :class:`Policy` is declared once and compiled at registration into a per-event table
(``{"tool.called": (compiled, ...), ...}``) sorted by priority, so an event that no policy
watches costs the agent one dict lookup. Evaluation never raises into the agent's code,
except the deliberate :class:`PolicyViolation` of ``stop`` and of a denied approval.

Only structural facts are available here: counts, cost, latency, finish reasons and the
single-run detectors of :mod:`semloop.detect`. Semantic findings exist only after a run,
so they never trigger a policy.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import math
import operator
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._exceptions import ConfigError, MissingExtraError, SemloopError
from .._match import MatchError, evaluate, parse_match
from ._budgets import DetectorBudgets

if TYPE_CHECKING:
    from ._client import RunContext

__all__ = [
    "ACTIONS",
    "MODEL_PRICES",
    "OPERATORS",
    "TRIGGERS",
    "ApprovalRequest",
    "Approver",
    "Policy",
    "PolicyViolation",
    "load_policies",
]

logger = logging.getLogger("semloop.sdk")

TRIGGERS = ("tool_call_count", "step_count", "cost_usd", "error_count", "finish_reason",
            "llm_latency_ms", "signal", "before_tool_call", "expression")
OPERATORS = ("gt", "gte", "lt", "lte", "eq", "neq", "contains")
ACTIONS = ("stop", "switch_model", "inject_prompt", "log", "require_approval")

_NUMERIC = frozenset({"tool_call_count", "step_count", "cost_usd", "error_count",
                      "llm_latency_ms"})
_TEXT_OPERATORS = ("eq", "neq", "contains")
_ALLOWED_OPERATORS: dict[str, tuple[str, ...]] = {
    **{t: ("gt", "gte", "lt", "lte", "eq", "neq") for t in _NUMERIC},
    "finish_reason": _TEXT_OPERATORS,
    "before_tool_call": _TEXT_OPERATORS,
    "signal": ("contains",),
    "expression": OPERATORS,  # the policy is its match block; operator and value unused
}

#: The check points each trigger is evaluated at: where its observed value can change.
#: ``before_tool_call`` is its own check point, reached before ``tool.called`` is recorded.
_CHECK_POINTS: dict[str, tuple[str, ...]] = {
    "tool_call_count": ("tool.called",),
    "step_count": ("tool.called", "llm.responded"),
    "cost_usd": ("llm.responded",),
    "error_count": ("llm.responded", "tool.responded"),
    "finish_reason": ("llm.responded",),
    "llm_latency_ms": ("llm.responded",),
    "signal": ("tool.called", "llm.responded", "tool.responded"),
    "before_tool_call": ("before_tool_call",),
    "expression": ("tool.called", "llm.responded", "tool.responded"),
}

#: USD per million tokens, (input, output), list prices. A model matches its exact name
#: or the longest key its name starts with (``gpt-4o-2024-08-06`` → ``gpt-4o``), after
#: lower-casing and dropping a ``provider/`` prefix. Unknown models cost 0 unless the
#: agent passes ``cost_usd``; extend the table with ``Client(model_prices=...)``.
MODEL_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-4": (30.00, 60.00),
    "gpt-3.5-turbo": (0.50, 1.50),
    "o1": (15.00, 60.00),
    "o1-mini": (1.10, 4.40),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "claude-3-haiku": (0.25, 1.25),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-3-opus": (15.00, 75.00),
    "claude-opus-4": (15.00, 75.00),
    "gemini-1.5-flash": (0.075, 0.30),
    "gemini-1.5-pro": (1.25, 5.00),
    "gemini-2.0-flash": (0.10, 0.40),
}

#: Fields a ``match`` mapping may name under ``run.``.
_RUN_FIELDS = ("agent_id", "run_id", "agent_version", "model", "step_index", "step_count",
               "tool_call_count", "error_count", "cost_usd")

DEFAULT_APPROVAL_TIMEOUT_S = 300.0


class PolicyViolation(SemloopError):
    """A policy stopped the run (``stop``, or ``require_approval`` not granted).

    Raised into the agent's code on purpose. ``policy_name`` and ``observed`` say which
    policy and what value made it fire; ``reason`` is ``"stop"``, ``"denied"``,
    ``"timeout"`` or ``"approver_error"``. Leaving ``client.run(...)`` with it ends the
    run as ``run.errored`` with ``exit_reason="policy_violation"``.
    """

    def __init__(self, policy_name: str, observed: Any, *, trigger: str = "",
                 action: str = "stop", reason: str = "stop", message: str | None = None
                 ) -> None:
        self.policy_name = policy_name
        self.observed = observed
        self.trigger = trigger
        self.action = action
        self.reason = reason
        self.message = message
        text = f"policy {policy_name!r} stopped the run ({trigger} = {observed!r}"
        text += ")" if reason == "stop" else f"; approval {reason})"
        super().__init__(f"{text}: {message}" if message else text)


@dataclass(frozen=True)
class ApprovalRequest:
    """What an approver is asked about. ``tool_name``/``args`` are set for
    ``before_tool_call`` policies (the tool has not run yet)."""

    request_id: str
    policy_name: str
    run_id: str
    agent_id: str
    step_index: int
    trigger: str
    observed: Any
    tool_name: str | None = None
    args: Any = None
    message: str | None = None


#: ``approver(request) -> bool``: only ``True`` approves; anything else, an exception or
#: no answer within the timeout denies (fail closed).
Approver = Callable[[ApprovalRequest], bool]

MatchFn = Callable[[Mapping[str, Any]], bool]


@dataclass(frozen=True)
class Policy:
    """A runtime rule: when ``trigger`` ``operator`` ``value`` holds (and ``match``, if
    given), do ``action``.

    - ``priority``: when several policies hold on one event, only the lowest number fires
      (ties: the one registered first).
    - ``match``: narrows the policy to some events. A mapping of ``"tool_name"``,
      ``"event.<field>"``, ``"args.<key>"`` or ``"run.<field>"`` to a value; a string is
      an fnmatch pattern (``"delete_*"``), a list means any of, else equality. Or a
      Dunetrace match expression (:mod:`semloop._match`): field paths mapped to
      ``{operator: value}``, with ``and``/``or`` lists. Or a callable taking the same
      fields as one mapping and returning a bool. Trigger ``expression`` makes the match
      the whole condition (operator and value are then unused).
    - ``model``: the model ``switch_model`` advises. ``prompt``: the text
      ``inject_prompt`` adds. ``timeout_s``: how long ``require_approval`` waits
      (default: the client's ``approval_timeout``).
    - ``message``: said in the log line, the ``policy.triggered`` event and the
      :class:`PolicyViolation`.

    Invalid values raise :class:`~semloop.ConfigError` naming the field.
    """

    name: str
    trigger: str
    operator: str
    value: Any
    action: str
    priority: int = 100
    match: Mapping[str, Any] | MatchFn | None = None
    message: str | None = None
    model: str | None = None
    prompt: str | None = None
    timeout_s: float | None = None
    _compiled_match: MatchFn | None = field(default=None, init=False, repr=False,
                                            compare=False)

    def __post_init__(self) -> None:
        def bad(key: str, problem: str) -> ConfigError:
            return ConfigError(problem, key=key, source=f"policy {self.name!r}"
                               if isinstance(self.name, str) and self.name else None)

        if not isinstance(self.name, str) or not self.name.strip():
            raise bad("name", "must be a non-empty string")
        if self.trigger not in TRIGGERS:
            raise bad("trigger", f"unknown trigger {self.trigger!r} (known: "
                      f"{', '.join(TRIGGERS)})")
        if self.operator not in OPERATORS:
            raise bad("operator", f"unknown operator {self.operator!r} (known: "
                      f"{', '.join(OPERATORS)})")
        allowed = _ALLOWED_OPERATORS[self.trigger]
        if self.operator not in allowed:
            raise bad("operator", f"{self.operator!r} does not apply to trigger "
                      f"{self.trigger!r} (use one of: {', '.join(allowed)})")
        if self.action not in ACTIONS:
            raise bad("action", f"unknown action {self.action!r} (known: {', '.join(ACTIONS)})")
        if self.trigger == "before_tool_call" and self.action != "require_approval":
            raise bad("action", "trigger 'before_tool_call' works only with "
                      "action 'require_approval'")
        if self.trigger == "expression":
            if self.match is None:
                raise bad("match", "trigger 'expression' is its match: required")
            if self.action == "require_approval":
                raise bad("action", "require_approval goes with trigger 'before_tool_call'")
        else:
            self._check_value(bad)
        if isinstance(self.priority, bool) or not isinstance(self.priority, int):
            raise bad("priority", f"must be an integer, not {self.priority!r}")
        if self.message is not None and not isinstance(self.message, str):
            raise bad("message", "must be a string")
        if self.action == "switch_model":
            if not isinstance(self.model, str) or not self.model:
                raise bad("model", "action 'switch_model' needs the model to switch to")
        elif self.model is not None:
            raise bad("model", "is used only by action 'switch_model'")
        if self.action == "inject_prompt":
            if not isinstance(self.prompt, str) or not self.prompt:
                raise bad("prompt", "action 'inject_prompt' needs the prompt text to add")
        elif self.prompt is not None:
            raise bad("prompt", "is used only by action 'inject_prompt'")
        if self.timeout_s is not None:
            if self.action != "require_approval":
                raise bad("timeout_s", "is used only by action 'require_approval'")
            if isinstance(self.timeout_s, bool) or not isinstance(self.timeout_s, (int, float)) \
                    or not (self.timeout_s > 0 and math.isfinite(self.timeout_s)):
                raise bad("timeout_s", f"must be a positive number of seconds, not "
                          f"{self.timeout_s!r}")
        object.__setattr__(self, "_compiled_match", _compile_match(self.match, bad))

    def _check_value(self, bad: Callable[[str, str], ConfigError]) -> None:
        value = self.value
        if self.trigger in _NUMERIC:
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise bad("value", f"trigger {self.trigger!r} compares numbers; "
                          f"{value!r} is not a finite number")
        elif not isinstance(value, str) or not value:
            raise bad("value", f"trigger {self.trigger!r} compares text; {value!r} is not "
                      "a non-empty string")
        elif self.trigger == "signal":
            from ..detect import SINGLE_RUN  # stdlib only; loaded for signal policies alone

            if value not in SINGLE_RUN:
                raise bad("value", f"{value!r} is not a single-run detector (known: "
                          f"{', '.join(sorted(SINGLE_RUN))})")

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], *, source: str | None = None) -> Policy:
        """A policy from a mapping with the constructor's field names; unknown or missing
        keys raise :class:`~semloop.ConfigError` naming them."""
        if not isinstance(raw, Mapping):
            raise ConfigError(f"a policy must be a mapping, not {type(raw).__name__}",
                              source=source)
        known = [f.name for f in fields(cls) if f.init]
        for key in raw:
            if key not in known:
                raise ConfigError(f"unknown field (known: {', '.join(known)})",
                                  key=str(key), source=source)
        if raw.get("trigger") == "expression":  # its match is the condition
            raw = {"operator": "eq", "value": None, **raw}
        for key in ("name", "trigger", "operator", "value", "action"):
            if key not in raw:
                raise ConfigError("is required", key=key, source=source)
        return cls(**raw)


def _compile_match(match: Any, bad: Callable[[str, str], ConfigError]) -> MatchFn | None:
    if match is None:
        return None
    if callable(match) and not isinstance(match, Mapping):
        return match  # type: ignore[no-any-return]
    if not isinstance(match, Mapping) or not match:
        raise bad("match", "must be a non-empty mapping of field to value, or a callable")
    if any(k in ("and", "or") or isinstance(v, Mapping) for k, v in match.items()):
        return _compile_expression(match, bad)
    tests: list[tuple[str, Callable[[Any], bool]]] = []
    for key, expected in match.items():
        if not isinstance(key, str) or not key:
            raise bad("match", f"keys must be field names, not {key!r}")
        head, _, rest = key.partition(".")
        if rest and head not in ("args", "event", "run"):
            raise bad(f"match.{key}", "must be 'tool_name', 'event.<field>', "
                      "'args.<key>' or 'run.<field>'")
        if head == "run" and rest not in _RUN_FIELDS:
            raise bad(f"match.{key}", f"unknown run field (known: {', '.join(_RUN_FIELDS)})")
        tests.append((key, _expectation(expected)))
    pairs = tuple(tests)

    def matches(view: Mapping[str, Any]) -> bool:
        for key, test in pairs:
            if key not in view or not test(view[key]):
                return False
        return True

    return matches


def _compile_expression(match: Mapping[str, Any],
                        bad: Callable[[str, str], ConfigError]) -> MatchFn:
    try:
        node = parse_match(match)
    except MatchError as exc:
        raise bad(exc.where, exc.message) from None

    def matches(view: Mapping[str, Any]) -> bool:
        # The flat view back into namespaces; nested paths then walk the values.
        fields: dict[str, dict[str, Any]] = {"args": {}, "event": {}, "run": {}}
        for key, value in view.items():
            head, _, rest = key.partition(".")
            if rest and head in fields:
                fields[head][rest] = value
        return evaluate(node, fields)

    return matches


def _expectation(expected: Any) -> Callable[[Any], bool]:
    if isinstance(expected, str):
        return lambda observed: fnmatch.fnmatchcase(str(observed), expected)
    if isinstance(expected, (list, tuple, set, frozenset)):
        options = [_expectation(e) for e in expected]
        return lambda observed: any(t(observed) for t in options)
    return lambda observed: bool(observed == expected)


def _comparison(policy: Policy) -> Callable[[Any], bool]:
    value = policy.value
    op = policy.operator
    if op == "contains":
        if policy.trigger == "signal":
            return lambda observed: value in observed
        return lambda observed: observed is not None and value in str(observed)
    # ``observed OP value`` with ``value`` bound first: gt means value < observed.
    flipped = _FLIPPED[op]
    if policy.trigger in _NUMERIC:
        def numeric(observed: Any, _f: Any = flipped, _v: Any = value) -> bool:
            return observed is not None and bool(_f(_v, observed))
        return numeric
    return lambda observed: bool(flipped(value, observed))


def _observe(trigger: str) -> Callable[[RunContext, Mapping[str, Any], _Engine], Any]:
    if trigger == "tool_call_count":
        return lambda run, event, engine: run._tool_calls
    if trigger == "step_count":
        return lambda run, event, engine: run._step
    if trigger == "cost_usd":
        return lambda run, event, engine: run._cost
    if trigger == "error_count":
        return lambda run, event, engine: run._errors
    if trigger == "finish_reason":
        return lambda run, event, engine: event.get("finish_reason")
    if trigger == "llm_latency_ms":
        return lambda run, event, engine: event.get("latency_ms")
    if trigger == "before_tool_call":
        return lambda run, event, engine: event.get("tool_name")
    if trigger == "signal":
        return lambda run, event, engine: engine.signals(run)
    if trigger == "expression":
        return lambda run, event, engine: None
    raise AssertionError(trigger)


#: Triggers whose observed value is a number the run keeps: compared without a detour.
_COUNTERS = {"tool_call_count": "_tool_calls", "step_count": "_step", "cost_usd": "_cost",
             "error_count": "_errors"}
_FLIPPED = {"gt": operator.lt, "gte": operator.le, "lt": operator.gt, "lte": operator.ge,
            "eq": operator.eq, "neq": operator.ne}

Holds = Callable[["RunContext", Mapping[str, Any], "_Engine"], Any]


def _holds(policy: Policy, observe: Callable[..., Any], test: Callable[[Any], bool]) -> Holds:
    if policy.trigger == "expression":
        return lambda run, event, engine: True  # the match decides
    attr = _COUNTERS.get(policy.trigger)
    if attr is not None:
        # The hot path: one Python frame, then C (attrgetter, operator.lt…).
        get, compare, value = operator.attrgetter(attr), _FLIPPED[policy.operator], policy.value
        return lambda run, event, engine: compare(value, get(run))
    return lambda run, event, engine: test(observe(run, event, engine))


class _Compiled:
    """One policy, ready to check: its observer, comparison and match bound once."""

    __slots__ = ("action", "holds", "match", "name", "observe", "once", "point", "policy")

    def __init__(self, policy: Policy, point: str) -> None:
        self.policy = policy
        self.point = point  # the check point: event.type in a match
        self.name = policy.name
        self.action = policy.action
        self.once = policy.action != "log"  # log fires every time; the rest once per run
        self.observe = _observe(policy.trigger)
        self.holds = _holds(policy, self.observe, _comparison(policy))
        self.match = policy._compiled_match


def _match_view(run: RunContext, event: Mapping[str, Any], point: str) -> dict[str, Any]:
    now = time.time()
    # As Dunetrace's SDK: the check point, and the wall clock read once (hour in UTC).
    view: dict[str, Any] = {"event.type": point, "event.timestamp": now,
                            "event.hour": time.gmtime(now).tm_hour}
    for key, value in event.items():
        view[f"event.{key}"] = value
        if key == "tool_name":
            view["tool_name"] = value
    args = event.get("args")
    if isinstance(args, Mapping):
        for key, value in args.items():
            view[f"args.{key}"] = value
    view.update({
        "run.agent_id": run.agent_id, "run.run_id": run.run_id, "run.model": run._model,
        "run.agent_version": run.agent_version, "run.step_count": run._step,
        "run.step_index": run._step, "run.tool_call_count": run._tool_calls,
        "run.error_count": run._errors, "run.cost_usd": run._cost,
    })
    return view


def _model_key(model: str) -> str:
    return model.lower().rsplit("/", 1)[-1]


class _Engine:
    """A client's policies, compiled per check point, and what firing them does.

    ``checks`` is one dict for the client's lifetime: runs hold a reference to it, and
    :meth:`add` replaces its values (copy-on-write, under a lock the agent never takes),
    so the agent's path reads it without a lock.
    """

    def __init__(self, sender: Any, *, approver: Approver | None, approval_timeout: float,
                 model_prices: Mapping[str, tuple[float, float]] | None,
                 detector_config: Any, build: Callable[[Any], Any],
                 budgets: DetectorBudgets | None = None) -> None:
        if isinstance(approval_timeout, bool) or not isinstance(approval_timeout, (int, float)) \
                or not approval_timeout > 0:
            raise ValueError(f"approval_timeout must be a positive number, not "
                             f"{approval_timeout!r}")
        if approver is not None and not callable(approver):
            raise ValueError("approver must be a callable taking an ApprovalRequest")
        self.sender = sender
        self.approver = approver
        self.approval_timeout = float(approval_timeout)
        prices = dict(MODEL_PRICES)
        for name, pair in (model_prices or {}).items():
            inp, out = pair
            prices[_model_key(str(name))] = (float(inp), float(out))
        self.prices = prices
        # Longest first, so "gpt-4o-mini-2024" finds gpt-4o-mini before gpt-4o.
        self._prefixes = sorted(prices, key=len, reverse=True)
        self._price_cache: dict[str, tuple[float, float] | None] = {}
        self.detector_config = detector_config
        self.build = build
        self.budgets = budgets if budgets is not None else DetectorBudgets()
        # Detectors a signal policy names: never dropped for their cost.
        self.pinned: frozenset[str] = frozenset()
        self.checks: dict[str, tuple[_Compiled, ...]] = {}
        self.policies: tuple[Policy, ...] = ()
        self.wants_events = False
        self._lock = threading.Lock()
        self._reported: set[str] = set()

    # -- registration -------------------------------------------------------------------

    def add(self, policies: Iterable[Policy]) -> None:
        new = list(policies)
        for p in new:
            if not isinstance(p, Policy):
                raise TypeError(f"expected a Policy, not {type(p).__name__}")
        with self._lock:
            names = {p.name for p in self.policies}
            for p in new:
                if p.name in names:
                    raise ConfigError("a policy with this name is already registered "
                                      "(names key the at-most-once rule)", key="name",
                                      source=f"policy {p.name!r}")
                names.add(p.name)
            self.policies = all_policies = self.policies + tuple(new)
            ranked = sorted(range(len(all_policies)),
                            key=lambda i: (all_policies[i].priority, i))
            table: dict[str, list[_Compiled]] = {}
            for i in ranked:
                for point in _CHECK_POINTS[all_policies[i].trigger]:
                    table.setdefault(point, []).append(_Compiled(all_policies[i], point))
            if any(p.trigger == "signal" for p in all_policies):
                self.wants_events = True
                self.pinned = frozenset(str(p.value) for p in all_policies
                                        if p.trigger == "signal")
            for point, entries in table.items():
                self.checks[point] = tuple(entries)  # one atomic store per key

    # -- the agent's path ----------------------------------------------------------------

    def check(self, run: RunContext, checks: tuple[_Compiled, ...],
              event: Mapping[str, Any]) -> None:
        """Fire the first (lowest priority number) policy that holds on this event.

        Raises only :class:`PolicyViolation`.
        """
        try:
            fired = run._fired
            for c in checks:
                if c.once and c.name in fired:
                    continue
                try:
                    if not c.holds(run, event, self):
                        continue
                    observed = c.observe(run, event, self)
                    if c.match is not None and not c.match(_match_view(run, event, c.point)):
                        continue
                except Exception:
                    self._broken(c.name)
                    continue
                self._fire(run, c, observed, event)
                return
        except PolicyViolation:
            raise
        except Exception:
            self._broken("<engine>")

    def _broken(self, name: str) -> None:
        # Counted every time; logged with its traceback once per policy, then at DEBUG, so a
        # policy broken on every event does not flood the agent's log.
        try:
            self.sender.policy_errors += 1
            if name not in self._reported:
                self._reported.add(name)
                logger.exception("semloop: policy %r failed to evaluate (ignored; "
                                 "counted in stats.policy_errors)", name)
            else:
                # Called from the except clause that caught the policy's error.
                logger.debug("semloop: policy %r failed to evaluate again", name,
                             exc_info=True)  # noqa: LOG014
        except Exception:
            pass

    def _fire(self, run: RunContext, c: _Compiled, observed: Any,
              event: Mapping[str, Any]) -> None:
        p = c.policy
        if c.once and p.action != "require_approval":
            run._fired.add(c.name)  # before any effect: a failing effect must not refire
        # The advice first: it must reach the agent even if recording the event fails.
        if p.action == "switch_model":
            run.model_override = p.model
        elif p.action == "inject_prompt":
            run.prompt_additions.append(p.prompt or "")
        try:
            self.sender.policies_triggered += 1
            run._put(("policy.triggered", run._info, run._step, time.time(), {
                "policy_name": p.name, "trigger": p.trigger, "operator": p.operator,
                "value": p.value, "observed": observed, "action": p.action,
                "priority": p.priority, "message": p.message,
                **({"model": p.model} if p.model else {}),
                **({"tool_name": event["tool_name"]} if "tool_name" in event else {}),
            }))
            if p.action == "log":
                logger.warning("semloop: policy %r: %s = %r (%s %r)%s", p.name, p.trigger,
                               observed, p.operator, p.value,
                               f": {p.message}" if p.message else "")
        except Exception:
            self._broken(p.name)
        if p.action == "stop":
            raise PolicyViolation(p.name, observed, trigger=p.trigger, action="stop",
                                  message=p.message)
        if p.action == "require_approval":
            outcome = self._approve(run, p, observed, event)
            if outcome == "granted":
                # A grant covers the rest of the run. A denial does not count as firing:
                # an agent that catches the violation and tries again is asked again.
                run._fired.add(c.name)
            else:
                raise PolicyViolation(p.name, observed, trigger=p.trigger,
                                      action="require_approval", reason=outcome,
                                      message=p.message)

    def _approve(self, run: RunContext, p: Policy, observed: Any,
                 event: Mapping[str, Any]) -> str:
        """Block until the approver answers or the timeout passes: ``granted``,
        ``denied``, ``timeout`` or ``approver_error``. Everything but ``True`` denies."""
        request_id = uuid.uuid4().hex
        timeout = p.timeout_s if p.timeout_s is not None else self.approval_timeout
        request = ApprovalRequest(
            request_id=request_id, policy_name=p.name, run_id=run.run_id,
            agent_id=run.agent_id, step_index=run._step, trigger=p.trigger,
            observed=observed, tool_name=event.get("tool_name"), args=event.get("args"),
            message=p.message,
        )
        self._annotate(run, "approval.requested", {
            "request_id": request_id, "policy_name": p.name, "observed": observed,
            "timeout_s": timeout, "tool_name": request.tool_name, "args": request.args})
        outcome, detail = self._ask(request, timeout)
        kind = {"granted": "approval.granted", "timeout": "approval.timeout"}.get(
            outcome, "approval.denied")
        payload: dict[str, Any] = {"request_id": request_id, "policy_name": p.name}
        if outcome not in ("granted", "timeout"):
            payload["reason"] = detail
        self._annotate(run, kind, payload)
        if outcome != "granted":
            logger.warning("semloop: approval for policy %r not granted (%s): the run "
                           "stops", p.name, detail)
        return outcome

    def _ask(self, request: ApprovalRequest, timeout: float) -> tuple[str, str]:
        approver = self.approver
        if approver is None:
            return "denied", "no approver configured"
        answer: list[Any] = []
        done = threading.Event()

        def ask() -> None:
            try:
                answer.append(approver(request) is True)
            except BaseException as exc:
                answer.append(exc)
            finally:
                done.set()

        # The approver runs on its own thread so a hung approver cannot outlast the
        # timeout; whatever it answers after that is ignored.
        threading.Thread(target=ask, name="semloop-approval", daemon=True).start()
        if not done.wait(timeout):
            return "timeout", f"no answer within {timeout:g} s"
        result = answer[0]
        if isinstance(result, BaseException):
            logger.error("semloop: approver raised for policy %r (denied)",
                         request.policy_name, exc_info=result)
            return "approver_error", f"approver raised {type(result).__name__}: {result}"
        return ("granted", "approved") if result else ("denied", "approver denied")

    def _annotate(self, run: RunContext, event_type: str, payload: dict[str, Any]) -> None:
        try:
            run._put((event_type, run._info, run._step, time.time(), payload))
        except Exception:
            self._broken("<events>")

    # -- observed values -----------------------------------------------------------------

    def price(self, model: Any) -> tuple[float, float] | None:
        key = _model_key(str(model)) if model else ""
        if key in self._price_cache:
            return self._price_cache[key]
        found = self.prices.get(key)
        if found is None:
            found = next((self.prices[k] for k in self._prefixes if key.startswith(k)), None)
        if len(self._price_cache) < 1024:
            self._price_cache[key] = found
        return found

    def cost(self, model: Any, prompt_tokens: Any, completion_tokens: Any) -> float:
        pair = self.price(model)
        if pair is None:
            return 0.0
        return (float(prompt_tokens or 0) * pair[0]
                + float(completion_tokens or 0) * pair[1]) / 1_000_000

    def signals(self, run: RunContext) -> tuple[str, ...]:
        """Failure types the single-run detectors find in the run's events so far
        (shadow detectors, and those dropped for their cost that no signal policy names,
        left out). Computed once per new event, shared by every signal policy checked
        on it."""
        records = run._records
        if records is None:
            return ()  # the run started before any signal policy was registered
        cached = run._signals
        if cached is not None and cached[0] == len(records):
            return cached[1]
        from ..detect import run_detectors
        from ..events import Run

        events = run._built
        for record in records[len(events):]:
            events.append(self.build(record))
        snapshot = Run(run_id=run.run_id, agent_id=run.agent_id, events=list(events),
                       agent_version=run.agent_version)
        budgets = self.budgets
        found = tuple(s.failure_type for s in run_detectors(
            snapshot, self.detector_config, skip=budgets.dropped - self.pinned,
            on_cost=budgets.record, clock=budgets.clock) if not s.shadow)
        run._signals = (len(records), found)
        return found


def load_policies(path: str | Path) -> list[Policy]:
    """Policies from a JSON or YAML file (YAML needs pyyaml, in the ``server`` extra).

    The file holds a list of policies, or a mapping with a ``policies:`` list; each policy
    is a mapping with :class:`Policy`'s field names. Errors name the file and the entry.
    """
    source = str(path)
    text = Path(path).read_text(encoding="utf-8")
    if source.endswith((".yml", ".yaml")):
        try:
            import yaml  # type: ignore[import-untyped,unused-ignore]
        except ImportError as exc:
            raise MissingExtraError("loading policies from YAML", "server", "pyyaml") from exc
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(f"not valid YAML: {exc}", source=source) from exc
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"not valid JSON: {exc}", source=source) from exc
    if isinstance(data, Mapping):
        extra = [k for k in data if k != "policies"]
        if extra:
            raise ConfigError("unknown top-level key (expected only 'policies')",
                              key=str(extra[0]), source=source)
        data = data.get("policies")
    if not isinstance(data, list):
        raise ConfigError("must hold a list of policies (or a 'policies:' list)",
                          source=source)
    out = []
    for i, raw in enumerate(data):
        where = f"{source}: policies[{i}]"
        try:
            out.append(Policy.from_dict(raw, source=where))
        except ConfigError as exc:
            if exc.source and exc.source.startswith(source):
                raise
            raise ConfigError(exc.message, key=exc.key, source=where) from exc
        except TypeError as exc:
            raise ConfigError(str(exc), source=where) from exc
    return out
