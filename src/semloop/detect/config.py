"""``detectors.yml``: which detectors run, with which thresholds, live or in shadow.

::

    default:                       # applies to every agent
      shadow: [TOOL_ARGUMENT_FABRICATION]
      TOOL_LOOP: {threshold: 3, window: 5}
      SLOW_STEP: {enabled: false}
    agents:
      support-bot:                 # inherits default, overrides what it names
        TOOL_LOOP: {threshold: 4}
        SLOW_STEP: {enabled: true, shadow: true}

Every key is checked against the registry: an unknown detector or parameter, a value of
the wrong type or out of range raises :class:`ConfigError` naming the file and the key
path. Nothing is ignored silently (duplicate YAML keys included).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._config import read_yaml
from .._exceptions import ConfigError
from ._catalog import DETECTORS
from ._packs import PACKS
from ._registry import Detector, Param

__all__ = ["DetectorConfig", "DetectorSettings", "load_config"]

_SECTION_KEYS = frozenset({"shadow"})
_DETECTOR_KEYS = frozenset({"enabled", "shadow"})
_TOP_KEYS = frozenset({"default", "agents"})


@dataclass(frozen=True)
class DetectorSettings:
    """One detector's resolved settings for one agent."""

    enabled: bool = True
    shadow: bool = False
    params: Mapping[str, Any] = field(default_factory=dict)


def _check_value(param: Param, value: Any, key: str, source: str) -> Any:
    kind = param.kind
    if kind is tuple:
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise ConfigError(f"must be a list of names, not {value!r}", key=key, source=source)
        return tuple(value)
    if kind is dict:
        if not isinstance(value, Mapping):
            raise ConfigError(f"must be a mapping of names to numbers, not {value!r}", key=key,
                              source=source)
        return {str(k): _check_value(Param(param.name, 0, param.help, param.minimum,
                                           param.maximum), v, f"{key}.{k}", source)
                for k, v in value.items()}
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"must be true or false, not {value!r}", key=key, source=source)
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"must be a number, not {value!r}", key=key, source=source)
    if kind is int:
        if isinstance(value, float):
            if not value.is_integer():
                raise ConfigError(f"must be a whole number, not {value!r}", key=key,
                                  source=source)
            value = int(value)
    else:
        value = float(value)
        if not math.isfinite(value):
            raise ConfigError(f"must be a finite number, not {value!r}", key=key, source=source)
    if param.minimum is not None and value < param.minimum:
        raise ConfigError(f"must be ≥ {param.minimum:g}, not {value!r}", key=key, source=source)
    if param.maximum is not None and value > param.maximum:
        raise ConfigError(f"must be ≤ {param.maximum:g}, not {value!r}", key=key, source=source)
    return value


def _detector(name: Any, key: str, source: str) -> Detector:
    detector = DETECTORS.get(name) if isinstance(name, str) else None
    if detector is None:
        raise ConfigError(f"unknown detector (known: {', '.join(DETECTORS)})", key=key,
                          source=source)
    return detector


def _section(raw: Any, path: str, source: str) -> dict[str, dict[str, Any]]:
    """Validate one section (``default`` or one agent) into {detector: {key: value}}."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError(f"must be a mapping of detector names, not {type(raw).__name__}",
                          key=path, source=source)
    out: dict[str, dict[str, Any]] = {}
    shadow_list = raw.get("shadow")
    if shadow_list is not None:
        if not isinstance(shadow_list, list):
            raise ConfigError("must be a list of detector names", key=f"{path}.shadow",
                              source=source)
        for i, name in enumerate(shadow_list):
            _detector(name, f"{path}.shadow[{i}]", source)
            out.setdefault(name, {})["shadow"] = True
    for name, body in raw.items():
        if name in _SECTION_KEYS:
            continue
        key = f"{path}.{name}"
        detector = _detector(name, key, source)
        if body is None:
            body = {}
        if not isinstance(body, Mapping):
            raise ConfigError(f"must be a mapping of settings, not {type(body).__name__}",
                              key=key, source=source)
        params = {p.name: p for p in detector.params}
        settings = out.setdefault(name, {})
        for item, value in body.items():
            item_key = f"{key}.{item}"
            if item in _DETECTOR_KEYS:
                if not isinstance(value, bool):
                    raise ConfigError(f"must be true or false, not {value!r}", key=item_key,
                                      source=source)
                if item == "shadow" and "shadow" in settings and settings["shadow"] != value:
                    raise ConfigError("contradicts the section's shadow list", key=item_key,
                                      source=source)
                settings[item] = value
            elif item in params:
                settings[item] = _check_value(params[item], value, item_key, source)
            else:
                known = ", ".join(["enabled", "shadow", *params]) or "enabled, shadow"
                raise ConfigError(f"unknown setting (known: {known})", key=item_key,
                                  source=source)
    return out


def _resolve(*layers: Mapping[str, Mapping[str, Any]]) -> dict[str, DetectorSettings]:
    resolved: dict[str, DetectorSettings] = {}
    for name, detector in DETECTORS.items():
        merged: dict[str, Any] = {"enabled": True, "shadow": detector.shadow,
                                  **detector.defaults()}
        for layer in layers:
            merged.update(layer.get(name, {}))
        enabled = merged.pop("enabled")
        shadow = merged.pop("shadow")
        resolved[name] = DetectorSettings(enabled=enabled, shadow=shadow, params=merged)
    return resolved


class DetectorConfig:
    """Validated detector settings: a default section and per-agent overrides."""

    def __init__(self, default: Mapping[str, Any] | None = None,
                 agents: Mapping[str, Any] | None = None, *, source: str = "<config>") -> None:
        self.source = source
        self._default = _section(default, "default", source)
        if agents is not None and not isinstance(agents, Mapping):
            raise ConfigError("must be a mapping of agent ids", key="agents", source=source)
        self._agents: dict[str, dict[str, dict[str, Any]]] = {}
        for agent_id, section in (agents or {}).items():
            if not isinstance(agent_id, str) or not agent_id:
                raise ConfigError(f"agent ids must be non-empty strings, not {agent_id!r}",
                                  key="agents", source=source)
            self._agents[agent_id] = _section(section, f"agents.{agent_id}", source)
        self._packs: tuple[dict[str, dict[str, Any]], ...] = ()
        self._resolved: dict[str | None, dict[str, DetectorSettings]] = {
            None: _resolve(self._default)}

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<config>") -> DetectorConfig:
        """A config from parsed YAML/JSON data (``None`` = all defaults)."""
        if data is None:
            return cls(source=source)
        if not isinstance(data, Mapping):
            raise ConfigError(f"the file must hold a mapping, not {type(data).__name__}",
                              source=source)
        for key in data:
            if key not in _TOP_KEYS:
                raise ConfigError("unknown section (known: default, agents)", key=str(key),
                                  source=source)
        return cls(data.get("default"), data.get("agents"), source=source)

    @property
    def agents(self) -> list[str]:
        return list(self._agents)

    def settings(self, agent_id: str | None = None) -> dict[str, DetectorSettings]:
        """Every detector's settings for ``agent_id`` (default section when unknown)."""
        key = agent_id if agent_id in self._agents else None
        if key not in self._resolved:
            assert key is not None
            self._resolved[key] = _resolve(self._default, *self._packs, self._agents[key])
        return self._resolved[key]

    def with_packs(self, names: Iterable[str]) -> DetectorConfig:
        """This config with the named packs (:data:`~semloop.detect.PACKS`) layered over
        the default section, in name order; an agent's own section still wins."""
        chosen = sorted(set(names))
        if not chosen:
            return self
        unknown = [n for n in chosen if n not in PACKS]
        if unknown:
            raise ConfigError(f"unknown pack {unknown[0]!r} (known: {', '.join(PACKS)})",
                              source=self.source)
        packed = copy.copy(self)
        packed._packs = (*self._packs, *(_section(PACKS[n].settings, f"packs.{n}", "<pack>")
                                         for n in chosen))
        packed._resolved = {None: _resolve(self._default, *packed._packs)}
        return packed

    def for_agent(self, agent_id: str) -> dict[str, DetectorSettings]:
        """The resolved settings ``agent_id`` runs with: default, then its overrides."""
        return self.settings(agent_id)

    def shadow(self, agent_id: str | None = None) -> frozenset[str]:
        """Names of the detectors whose signals are shadow for ``agent_id``."""
        return frozenset(n for n, s in self.settings(agent_id).items() if s.shadow)


def load_config(path: str | Path) -> DetectorConfig:
    """Read and validate ``detectors.yml``; :class:`ConfigError` names file and key."""
    data = read_yaml(path, "reading detectors.yml")
    return DetectorConfig.from_dict(data, source=str(path))
