"""Routing: which destinations an alert goes to. A pure function of the alert and a route.

A :class:`Route` narrows a destination to some agents, failure types, sources and a
minimum severity; every condition it sets must hold (AND), any item of a list may match
(OR). A destination without a route gets every alert, as before routes existed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Protocol

from .._exceptions import ConfigError
from ..events import Severity

__all__ = ["ROUTE_KEYS", "SEVERITIES", "Routable", "Route", "route_matches", "severity_rank"]

ROUTE_KEYS = ("agents", "failure_types", "min_severity", "sources")
#: Lowest first; the order signals are banded in (:class:`semloop.events.Severity`).
SEVERITIES = Severity.ORDER


class Routable(Protocol):
    """What routing reads of an alert: an :class:`UndecidedSignal` or a :class:`Signal`."""

    @property
    def agent_id(self) -> str: ...
    @property
    def failure_type(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def source(self) -> str: ...


def severity_rank(severity: str) -> int:
    """Position in :data:`SEVERITIES` (case-insensitive); -1 for a severity not in it."""
    try:
        return SEVERITIES.index(severity.upper())
    except ValueError:
        return -1


@dataclass(frozen=True)
class Route:
    """Conditions an alert must meet to reach a destination; ``None`` means any.

    ``agents``, ``failure_types`` and ``sources`` are exact names or shell-style globs
    (``billing-*``, ``*_INJECTION*``), matched case-sensitively. ``min_severity`` is one of
    :data:`SEVERITIES` and lets through that severity and the ones above it.
    """

    agents: tuple[str, ...] | None = None
    failure_types: tuple[str, ...] | None = None
    min_severity: str | None = None
    sources: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        for name in ("agents", "failure_types", "sources"):
            patterns = getattr(self, name)
            if patterns is None:
                continue
            if not isinstance(patterns, tuple | list):
                # A bare string would otherwise be read as one glob per character.
                raise ConfigError(f"must be a tuple of names or globs, not {patterns!r}",
                                  key=name)
            if not patterns:
                raise ConfigError("must list at least one name (leave it out to match any)",
                                  key=name)
            for i, pattern in enumerate(patterns):
                if not isinstance(pattern, str) or not pattern.strip():
                    raise ConfigError(f"must be a non-empty string, not {pattern!r}",
                                      key=f"{name}[{i}]")
        if self.min_severity is not None and self.min_severity not in SEVERITIES:
            raise ConfigError(f"unknown severity {self.min_severity!r} (known: "
                              f"{', '.join(s.lower() for s in SEVERITIES)})", key="min_severity")
        if all(getattr(self, name) is None for name in ROUTE_KEYS):
            raise ConfigError(f"sets no condition (known: {', '.join(ROUTE_KEYS)}); leave "
                              "route out for a destination that gets every alert")


def _any(patterns: Sequence[str] | None, value: str) -> bool:
    return patterns is None or any(fnmatchcase(value, p) for p in patterns)


def route_matches(alert: Routable, route: Route | None) -> bool:
    """Whether an alert goes to a destination with this route (``None``: every alert).

    A severity outside :data:`SEVERITIES` meets no ``min_severity``: it cannot be shown
    to be high enough, and the alert is still recorded and reaches routes without one.
    """
    if route is None:
        return True
    if route.min_severity is not None and (
            severity_rank(alert.severity) < SEVERITIES.index(route.min_severity)):
        return False
    return (_any(route.agents, alert.agent_id)
            and _any(route.failure_types, alert.failure_type)
            and _any(route.sources, alert.source))
