"""What a detector is: a pure check plus its named, typed, bounded parameters."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..events import Run, Signal

if TYPE_CHECKING:
    from .baseline import Baseline

__all__ = ["Detector", "Param", "names", "ratio_confidence", "signal", "tiers"]

Params = Mapping[str, Any]


@dataclass(frozen=True)
class Param:
    """One tunable value of a detector, as ``detectors.yml`` spells it."""

    name: str
    # A list of names is a tuple of strings; a name → number map a read-only mapping.
    default: int | float | bool | tuple[str, ...] | Mapping[str, int]
    help: str
    minimum: float | None = None
    maximum: float | None = None

    @property
    def kind(self) -> type:
        if isinstance(self.default, Mapping):
            return dict
        return type(self.default)


def names(*items: str) -> tuple[str, ...]:
    """A list-of-names parameter default (``[]`` in detectors.yml)."""
    return tuple(items)


def tiers(**items: int) -> Mapping[str, int]:
    """A name → integer map parameter default, read-only so detectors share it safely."""
    return MappingProxyType(dict(items))


@dataclass(frozen=True)
class Detector:
    """A named check. Call it as ``detector(run, params=None, baseline=None)``.

    ``params`` may be partial; missing ones take their defaults. Cross-run detectors
    (``cross_run=True``) are called as ``detector(parent, child, params=None)``.
    """

    name: str
    check: Callable[..., Signal | None]
    params: tuple[Param, ...]
    severity: str
    rule: str
    guards: tuple[str, ...] = ()
    uses_baseline: bool = False
    cross_run: bool = False
    server_only: bool = False
    #: Called as ``detector(chain, params)`` with the runs from the root to this one.
    lineage: bool = False
    #: New detectors start in shadow until their calibration says otherwise.
    shadow: bool = False

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def resolve(self, params: Params | None) -> dict[str, Any]:
        merged = self.defaults()
        if params:
            merged.update(params)
        return merged

    def __call__(self, *args: Any, params: Params | None = None,
                 baseline: Baseline | None = None) -> Signal | None:
        if self.cross_run:
            parent, child = args
            return self.check(parent, child, self.resolve(params))
        if self.lineage:
            (chain,) = args[:1]
            return self.check(chain, self.resolve(params if len(args) < 2 else args[1]))
        (run,) = args[:1]
        if len(args) > 1:
            params = args[1]
        if len(args) > 2:
            baseline = args[2]
        return self.check(run, self.resolve(params), baseline)


def ratio_confidence(observed: float, threshold: float) -> float:
    """``min(1, 0.5 + (observed/threshold − 1) × 0.4)``: 0.5 at the threshold."""
    if threshold <= 0:
        return 1.0
    return round(max(0.0, min(1.0, 0.5 + (observed / threshold - 1.0) * 0.4)), 4)


def signal(
    run: Run, failure_type: str, severity: str, confidence: float, steps: Sequence[int],
    **evidence: Any,
) -> Signal:
    """A structural signal for ``run``; ``step_index`` is the step where the rule held."""
    ordered = sorted(set(steps))
    return Signal(
        failure_type=failure_type,
        run_id=run.run_id,
        severity=severity,
        confidence=round(min(1.0, max(0.0, confidence)), 4),
        evidence={"steps": ordered, **evidence},
        step_index=ordered[-1] if ordered else 0,
        source="structural",
        agent_id=run.agent_id,
        agent_version=run.agent_version,
    )
