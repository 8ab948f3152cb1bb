"""``semantic-evaluators.yml``: how each evaluator runs.

::

    HALLUCINATION:                 # an evaluator's name, in any case
      enabled: true
      judge: local                 # local | llm | jev | deepeval | mock (null: the caller's judge)
      model: null                  # the judge's model (not for local, which has one)
      threshold: 0.5               # fires when P(failure) >= threshold
      confidence_floor: 0.6        # fired below it: stored and shown, never alerted
      require_second_opinion: true
      second_opinion_judge: llm    # null: the caller chooses
      second_opinion_model: null

An evaluator that is not listed runs with its defaults; a listed one inherits them for
every key it leaves out. An unknown evaluator or key, a value of the wrong type or out of
range raises :class:`~semloop.ConfigError` naming the file and the key path
(``SYCOPHANCY_SIGNAL.threshold``). Duplicate keys are errors too, also when they differ
only in case.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._config import read_yaml
from .._exceptions import ConfigError
from ..judge.registry import BACKENDS
from ._evaluators import EVALUATORS, EvaluatorSettings

__all__ = ["DEFAULT_CONFIG", "EvaluatorsConfig", "load_evaluators_config"]

#: Where the repository keeps the shipped file (the CLI reads it when present).
DEFAULT_CONFIG = Path("docs/config/semantic-evaluators.yml")

_PROBABILITIES = ("threshold", "confidence_floor")
_FLAGS = ("enabled", "require_second_opinion")
_JUDGES = ("judge", "second_opinion_judge")
_MODELS = ("model", "second_opinion_model")
_KEYS = frozenset(f.name for f in dataclasses.fields(EvaluatorSettings))


#: Evaluators that want a second judge by default: hallucination is the failure that
#: costs the most when wrong either way, so it is worth a second call.
_SECOND_OPINION = frozenset({"HALLUCINATION"})


def _defaults() -> dict[str, EvaluatorSettings]:
    """What the shipped file says, so a missing file or section changes nothing."""
    return {
        name: dataclasses.replace(evaluator.settings(), judge="local",
                                  require_second_opinion=name in _SECOND_OPINION)
        for name, evaluator in EVALUATORS.items()
    }


def _check(key: str, value: Any, path: str, source: str) -> Any:
    def bad(message: str) -> ConfigError:
        return ConfigError(message, key=path, source=source)

    if key in _PROBABILITIES:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad(f"must be a number from 0 to 1, not {value!r}")
        if not math.isfinite(value) or not 0.0 <= value <= 1.0:
            raise bad(f"must be from 0 to 1, not {value!r}")
        return float(value)
    if key in _FLAGS:
        if not isinstance(value, bool):
            raise bad(f"must be true or false, not {value!r}")
        return value
    if value is None:
        return None
    if key in _JUDGES:
        if value not in BACKENDS:
            raise bad(f"unknown judge {value!r}; known: {', '.join(sorted(BACKENDS))}")
        return value
    if not isinstance(value, str) or not value.strip():
        raise bad(f"must be a model name or null, not {value!r}")
    return value


def _section(name: str, raw: Any, base: EvaluatorSettings, source: str) -> EvaluatorSettings:
    if raw is None:
        return base
    if not isinstance(raw, Mapping):
        raise ConfigError(f"must be a mapping of settings, not {type(raw).__name__}",
                          key=name, source=source)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _KEYS:
            raise ConfigError(f"unknown key (known: {', '.join(sorted(_KEYS))})",
                              key=f"{name}.{key}", source=source)
        values[key] = _check(key, value, f"{name}.{key}", source)
    settings = dataclasses.replace(base, **values)
    for judge_key, model_key in zip(_JUDGES, _MODELS):
        if getattr(settings, judge_key) == "local" and getattr(settings, model_key):
            raise ConfigError("the local judge has one built-in model; leave it null",
                              key=f"{name}.{model_key}", source=source)
    return settings


@dataclass(frozen=True)
class EvaluatorsConfig:
    """Every evaluator's resolved settings."""

    settings: Mapping[str, EvaluatorSettings] = field(default_factory=_defaults)
    source: str = "<defaults>"

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<config>") -> EvaluatorsConfig:
        """Settings from parsed YAML/JSON data (``None`` = every default)."""
        settings = _defaults()
        if data is None:
            return cls(settings, source)
        if not isinstance(data, Mapping):
            raise ConfigError(f"the file must hold a mapping, not {type(data).__name__}",
                              source=source)
        seen: dict[str, str] = {}
        for key, raw in data.items():
            name = key.strip().upper() if isinstance(key, str) else None
            if name not in EVALUATORS:
                raise ConfigError(f"unknown evaluator (known: {', '.join(EVALUATORS)})",
                                  key=str(key), source=source)
            if name in seen:
                raise ConfigError(f"the same evaluator as {seen[name]!r}", key=str(key),
                                  source=source)
            seen[name] = str(key)
            settings[name] = _section(str(key), raw, settings[name], source)
        return cls(settings, source)

    def for_evaluator(self, name: str) -> EvaluatorSettings:
        """The settings of evaluator ``name`` (any case)."""
        return self.settings[name.strip().upper()]


def load_evaluators_config(path: str | Path) -> EvaluatorsConfig:
    """Read and validate ``semantic-evaluators.yml``; :class:`ConfigError` names file and key."""
    data = read_yaml(path, "reading semantic-evaluators.yml")
    return EvaluatorsConfig.from_dict(data, source=str(path))
