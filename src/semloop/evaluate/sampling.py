"""Adaptive sampling: which finished runs and conversations the semantic worker evaluates.

Pure: a run (or a conversation's id and run count), what the store knows about it and a
:class:`SamplingConfig` go in; a :class:`Sample` (decision, reason, rate, bucket) comes
out. Rules for a run, first match wins:

1. a structural signal fired on it: ``structural_signal_rate`` (100 %);
2. its agent is ``semantic_critical``: ``semantic_critical_rate`` (100 %);
3. its agent's own ``sample_rate`` (``agent_override``);
4. it made a retrieval: ``retrieval_rate`` (20 %);
5. otherwise ``baseline_rate`` (5 %).

The bucket is the first 8 bytes of sha256(id) as a fraction of 2**64: the same run always
gets the same decision (no ``PYTHONHASHSEED``), in steps far finer than 1 %, and every
evaluator reads the same sample. A conversation is bucketed on its own id, so a sampled
conversation stays sampled as it grows.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._config import read_yaml
from .._exceptions import ConfigError
from ..events import Run

__all__ = [
    "DEFAULT_SAMPLING_CONFIG",
    "AgentSemantics",
    "Sample",
    "SamplingConfig",
    "bucket_of",
    "load_sampling_config",
    "sample_conversation",
    "sample_run",
]

#: Where the repository keeps the shipped file.
DEFAULT_SAMPLING_CONFIG = Path("docs/config/semantic-sampling.yml")

_RETRIEVAL = frozenset({"retrieval.called", "retrieval.responded"})


@dataclass(frozen=True)
class SamplingConfig:
    """``semantic-sampling.yml``: every rate from 0 to 1."""

    structural_signal_rate: float = 1.0
    semantic_critical_rate: float = 1.0
    retrieval_rate: float = 0.20
    baseline_rate: float = 0.05
    conversation_evaluation_rate: float = 0.50
    #: A conversation with fewer finished runs is not evaluated yet.
    min_conversation_runs: int = 3

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<config>") -> SamplingConfig:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ConfigError(f"the file must hold a mapping, not {type(data).__name__}",
                              source=source)
        known = {f for f in cls.__dataclass_fields__}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise ConfigError(f"unknown key (known: {', '.join(sorted(known))})",
                                  key=str(key), source=source)
            if key == "min_conversation_runs":
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise ConfigError(f"must be a whole number of at least 1, not {value!r}",
                                      key=key, source=source)
            elif (isinstance(value, bool) or not isinstance(value, (int, float))
                  or not math.isfinite(value) or not 0.0 <= value <= 1.0):
                raise ConfigError(f"must be a number from 0 to 1, not {value!r}", key=key,
                                  source=source)
            values[key] = value
        return cls(**values)


def load_sampling_config(path: str | Path) -> SamplingConfig:
    """Read and validate ``semantic-sampling.yml``; a bad value names the file and key."""
    return SamplingConfig.from_dict(read_yaml(path, "reading semantic-sampling.yml"),
                                    source=str(path))


@dataclass(frozen=True)
class AgentSemantics:
    """One agent's ``agent_semantic_config`` row (defaults: no row)."""

    sample_rate: float | None = None
    budget_monthly: int | None = None
    #: Evaluators to run when sampled in; empty = every enabled evaluator.
    evaluators: Sequence[str] = field(default_factory=tuple)
    semantic_critical: bool = False


@dataclass(frozen=True)
class Sample:
    """A sampling decision and why: ``reason`` is the rule that set ``rate``."""

    sampled: bool
    reason: str
    rate: float
    bucket: float


def bucket_of(key: str) -> float:
    """A stable fraction in [0, 1) for ``key``: sha256's first 8 bytes over 2**64."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def _decide(key: str, rate: float, reason: str) -> Sample:
    bucket = bucket_of(key)
    return Sample(sampled=bucket < rate, reason=reason, rate=rate, bucket=bucket)


def sample_run(run: Run, config: SamplingConfig, agent: AgentSemantics, *,
               structural: bool) -> Sample:
    """Whether ``run`` is evaluated; ``structural``: a structural signal fired on it."""
    if structural:
        return _decide(run.run_id, config.structural_signal_rate, "structural_signal")
    if agent.semantic_critical:
        return _decide(run.run_id, config.semantic_critical_rate, "semantic_critical")
    if agent.sample_rate is not None:
        return _decide(run.run_id, agent.sample_rate, "agent_override")
    if any(e.event_type in _RETRIEVAL for e in run.events):
        return _decide(run.run_id, config.retrieval_rate, "retrieval")
    return _decide(run.run_id, config.baseline_rate, "baseline")


def sample_conversation(conversation_id: str, runs: int, config: SamplingConfig) -> Sample:
    """Whether a conversation of ``runs`` finished runs is evaluated."""
    if runs < config.min_conversation_runs:
        return Sample(False, "too_few_runs", config.conversation_evaluation_rate,
                      bucket_of(conversation_id))
    decided = _decide(conversation_id, config.conversation_evaluation_rate, "")
    reason = "conversation_sample_rate" if decided.sampled else "not_sampled"
    return Sample(decided.sampled, reason, decided.rate, decided.bucket)
