"""The ``alerts:`` configuration: destinations, retries, and policy overrides per failure type.

    alerts:
      link_base_url: http://semloop.internal:8001
      cooldown_s: 3600
      retry: {max_attempts: 4, base_delay_s: 0.5, factor: 2, max_delay_s: 30}
      destinations:
        ops: {type: webhook, url: "https://ops.example/hook", headers: {X-Token: abc}}
        team: {type: slack, url: "https://hooks.slack.com/services/..."}
        pager:
          type: webhook
          url: "https://pager.example/hook"
          route: {agents: ["billing-*"], min_severity: high}
      policies:
        TOOL_LOOP: {mode: frequency, threshold: 3, window: 10}
        HALLUCINATION: {confidence_floor: 0.7}

Every key is checked; a bad one raises :class:`ConfigError` naming its path. Standard
library only, except :func:`load_alerts_config`, which reads YAML (``server`` extra).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._config import read_yaml
from .._defaults import DEFAULT_URL
from .._exceptions import ConfigError
from .._http import RetryPolicy
from ._policy import (
    DEFAULT_CONFIDENCE_FLOOR,
    DEFAULT_COOLDOWN_S,
    DEFAULT_POLICIES,
    MODES,
    AlertPolicy,
)
from ._route import ROUTE_KEYS, Routable, Route, route_matches
from ._send import DEFAULT_RETRY, retry_policy

__all__ = ["DESTINATION_TYPES", "AlertsConfig", "Destination", "load_alerts_config"]

DESTINATION_TYPES = ("webhook", "slack")
_TOP_KEYS = ("link_base_url", "cooldown_s", "retry", "destinations", "policies",
             "default_confidence_floor")
_DEST_KEYS = ("type", "url", "headers", "timeout_s", "route")
_POLICY_KEYS = ("mode", "threshold", "window", "confidence_floor")
_RETRY_KEYS = ("max_attempts", "base_delay_s", "factor", "max_delay_s")


@dataclass(frozen=True)
class Destination:
    """Where alerts go. ``type`` is ``webhook`` (the JSON body) or ``slack`` (Slack's).
    ``route`` narrows which alerts it gets; ``None`` means every alert."""

    name: str
    type: str
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = 5.0
    route: Route | None = None


@dataclass(frozen=True)
class AlertsConfig:
    destinations: tuple[Destination, ...] = ()
    policies: Mapping[str, AlertPolicy] = field(default_factory=dict)
    default_confidence_floor: float = DEFAULT_CONFIDENCE_FLOOR
    cooldown_s: float = DEFAULT_COOLDOWN_S
    retry: RetryPolicy = DEFAULT_RETRY
    link_base_url: str = DEFAULT_URL

    def policy(self, failure_type: str) -> AlertPolicy:
        """The policy for a failure type: an override, else the reference's, else immediate."""
        found = self.policies.get(failure_type) or DEFAULT_POLICIES.get(failure_type)
        if found is None:
            return AlertPolicy(confidence_floor=self.default_confidence_floor)
        if failure_type not in self.policies:
            return dataclasses.replace(found, confidence_floor=self.default_confidence_floor)
        return found

    @property
    def history_window(self) -> int:
        """The longest window any policy reads."""
        windows = [p.window for p in (*DEFAULT_POLICIES.values(), *self.policies.values())]
        return max(windows, default=1)

    def destination(self, name: str) -> Destination | None:
        return next((d for d in self.destinations if d.name == name), None)

    def destinations_for(self, alert: Routable) -> tuple[Destination, ...]:
        """The destinations whose route the alert matches, in configured order."""
        return tuple(d for d in self.destinations if route_matches(alert, d.route))

    @classmethod
    def from_dict(cls, data: Any, *, source: str | None = None) -> AlertsConfig:
        """Build from the ``alerts:`` section's mapping (the value, not ``{"alerts": …}``)."""
        return _parse(data, source)


def _fail(message: str, key: str, source: str | None) -> ConfigError:
    return ConfigError(message, key=key, source=source)


def _mapping(value: Any, key: str, source: str | None, known: tuple[str, ...] | None) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise _fail("must be a mapping", key, source)
    for name in value:
        if not isinstance(name, str):
            raise _fail(f"keys must be strings, not {name!r}", key, source)
        if known is not None and name not in known:
            raise _fail(f"unknown setting (known: {', '.join(known)})", f"{key}.{name}", source)
    return dict(value)


def _number(value: Any, key: str, source: str | None, *, minimum: float = 0.0,
            maximum: float = math.inf, integer: bool = False) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(f"must be a number, not {value!r}", key, source)
    if integer:
        if value != int(value):
            raise _fail(f"must be a whole number, not {value!r}", key, source)
        value = int(value)
    if not minimum <= value <= maximum:
        bound = f"between {minimum:g} and {maximum:g}" if maximum != math.inf else f"at least {minimum:g}"
        raise _fail(f"must be {bound}, not {value!r}", key, source)
    return value


def _string(value: Any, key: str, source: str | None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(f"must be a non-empty string, not {value!r}", key, source)
    return value


def _parse(data: Any, source: str | None) -> AlertsConfig:
    top = _mapping(data, "alerts", source, _TOP_KEYS)
    floor = DEFAULT_CONFIDENCE_FLOOR
    if "default_confidence_floor" in top:
        floor = _number(top["default_confidence_floor"], "alerts.default_confidence_floor",
                        source, maximum=1.0)
    cooldown = DEFAULT_COOLDOWN_S
    if "cooldown_s" in top:
        cooldown = float(_number(top["cooldown_s"], "alerts.cooldown_s", source))
    link = DEFAULT_URL
    if "link_base_url" in top:
        link = _string(top["link_base_url"], "alerts.link_base_url", source)
        if not link.startswith(("http://", "https://")):
            raise _fail("must start with http:// or https://", "alerts.link_base_url", source)

    raw_retry = _mapping(top.get("retry"), "alerts.retry", source, _RETRY_KEYS)
    retry_args: dict[str, Any] = {}
    for name, value in raw_retry.items():
        retry_args[name] = _number(value, f"alerts.retry.{name}", source,
                                   integer=name == "max_attempts")
    try:
        retry = retry_policy(**retry_args)
    except ConfigError as exc:
        raise _fail(exc.message, f"alerts.{exc.key}", source) from None

    destinations = []
    for name, raw in _mapping(top.get("destinations"), "alerts.destinations", source, None).items():
        key = f"alerts.destinations.{name}"
        settings = _mapping(raw, key, source, _DEST_KEYS)
        for required in ("type", "url"):
            if required not in settings:
                raise _fail("is required", f"{key}.{required}", source)
        kind = settings["type"]
        if kind not in DESTINATION_TYPES:
            raise _fail(f"unknown type {kind!r} (known: {', '.join(DESTINATION_TYPES)})",
                        f"{key}.type", source)
        url = _string(settings["url"], f"{key}.url", source)
        if not url.startswith(("http://", "https://")):
            raise _fail("must start with http:// or https://", f"{key}.url", source)
        headers = _mapping(settings.get("headers"), f"{key}.headers", source, None)
        for header, value in headers.items():
            if not isinstance(value, str):
                raise _fail("must be a string", f"{key}.headers.{header}", source)
        timeout = float(_number(settings.get("timeout_s", 5.0), f"{key}.timeout_s", source,
                                minimum=0.001, maximum=300.0))
        route = _route(settings["route"], f"{key}.route", source) if "route" in settings else None
        destinations.append(Destination(name, kind, url, headers, timeout, route))

    policies: dict[str, AlertPolicy] = {}
    for failure_type, raw in _mapping(top.get("policies"), "alerts.policies", source, None).items():
        key = f"alerts.policies.{failure_type}"
        settings = _mapping(raw, key, source, _POLICY_KEYS)
        base = DEFAULT_POLICIES.get(failure_type, AlertPolicy())
        mode = settings.get("mode", base.mode)
        if mode not in MODES:
            raise _fail(f"unknown mode {mode!r} (known: {', '.join(MODES)})", f"{key}.mode", source)
        threshold, window = base.threshold, base.window
        if mode != base.mode and mode in ("consecutive", "frequency") and base.mode not in (
                "consecutive", "frequency"):
            threshold, window = 2, 10  # a switch away from immediate starts at the usual window
        for name in ("threshold", "window"):
            if name in settings:
                if mode in ("immediate", "off"):
                    raise _fail(f"means nothing for mode {mode}", f"{key}.{name}", source)
                value = _number(settings[name], f"{key}.{name}", source, minimum=1,
                                maximum=100, integer=True)
                threshold, window = (value, window) if name == "threshold" else (threshold, value)
        if mode in ("immediate", "off"):
            threshold, window = 1, 1
        policy_floor = floor
        if "confidence_floor" in settings:
            policy_floor = _number(settings["confidence_floor"], f"{key}.confidence_floor",
                                   source, maximum=1.0)
        try:
            policies[failure_type] = AlertPolicy(mode, threshold, window, float(policy_floor))
        except ConfigError as exc:
            raise _fail(exc.message, f"{key}.{exc.key}", source) from None
    return AlertsConfig(tuple(destinations), policies, float(floor), cooldown, retry, link)


def _route(value: Any, key: str, source: str | None) -> Route:
    # An empty or null ``route:`` is refused rather than read as "everything": leaving the
    # key out already says that, so an empty one is most likely a half-written route.
    settings = _mapping(value, key, source, ROUTE_KEYS)
    lists: dict[str, tuple[str, ...]] = {}
    for name in ("agents", "failure_types", "sources"):
        if name not in settings:
            continue
        raw = settings[name]
        if not isinstance(raw, list | tuple):
            raise _fail(f"must be a list of names or globs, not {raw!r}", f"{key}.{name}", source)
        lists[name] = tuple(raw)
    severity = settings.get("min_severity")
    if "min_severity" in settings:
        if not isinstance(severity, str):
            raise _fail(f"must be one of low, medium, high, critical, not {severity!r}",
                        f"{key}.min_severity", source)
        severity = severity.upper()
    try:
        return Route(min_severity=severity, **lists)
    except ConfigError as exc:
        raise _fail(exc.message, f"{key}.{exc.key}" if exc.key else key, source) from None


def load_alerts_config(path: str | Path) -> AlertsConfig:
    """Read a YAML file whose one top-level key is ``alerts:``; errors name file and key."""
    source = str(path)
    data = read_yaml(path, "reading the alerts config")
    if not isinstance(data, Mapping) or "alerts" not in data:
        raise ConfigError("needs a top-level 'alerts:' section", key="alerts", source=source)
    for key in data:
        if key != "alerts":
            raise ConfigError("unknown section (known: alerts)", key=str(key), source=source)
    return _parse(data["alerts"], source)
