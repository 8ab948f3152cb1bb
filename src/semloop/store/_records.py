"""What the store's listings return: plain frozen records, no database types."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..events import Signal

__all__ = ["KEY_PREFIX", "AgentSummary", "KeyInfo", "Page", "Position", "PruneResult",
           "RunSummary", "StoredSignal"]

T = TypeVar("T")

#: Every key starts with this, then a public key id, then the secret: ``sl_<id>_<secret>``.
KEY_PREFIX = "sl_"


@dataclass(frozen=True, order=True)
class Position:
    """Where a listing stands: the sort time and row id of the last item served.

    Listings run newest first on ``(time, id)``; the next page holds what sorts strictly
    below it, so items that arrive meanwhile (newer ones, at the top) never shift a page.
    """

    time: float
    id: int


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    #: Where the next page starts, or ``None`` when this page is the last.
    next: Position | None


@dataclass(frozen=True)
class RunSummary:
    """One run in a listing, read from its ``run.started`` event and a few lookups."""

    run_id: str
    agent_id: str
    agent_version: str
    conversation_id: str | None
    status: str
    started_at: float
    ended_at: float | None
    event_count: int
    failure_types: tuple[str, ...]
    position: Position


@dataclass(frozen=True)
class StoredSignal:
    """A stored signal with its row id and when it was detected."""

    id: int
    detected_at: float
    signal: Signal


@dataclass(frozen=True)
class AgentSummary:
    agent_id: str
    runs: int
    runs_with_signals: int
    signals_by_type: Mapping[str, int] = field(default_factory=dict)
    last_run_at: float | None = None


@dataclass(frozen=True)
class KeyInfo:
    """An API key as listed: its public id and dates, never the secret."""

    key_id: str
    org_id: str
    org_name: str
    created_at: float
    revoked_at: float | None

    @property
    def prefix(self) -> str:
        """The start of the key as it was printed: enough to recognise it, not to use it."""
        return f"{KEY_PREFIX}{self.key_id}_"

    def to_dict(self) -> dict[str, Any]:
        return {"key_id": self.key_id, "prefix": self.prefix, "org": self.org_name,
                "created_at": self.created_at, "revoked_at": self.revoked_at}


@dataclass(frozen=True)
class PruneResult:
    """What :meth:`Store.prune` deleted (or, with ``dry_run``, would delete)."""

    runs: int = 0
    events: int = 0
    signals: int = 0
    alerts: int = 0
    dry_run: bool = False

    def __add__(self, other: PruneResult) -> PruneResult:
        return PruneResult(self.runs + other.runs, self.events + other.events,
                           self.signals + other.signals, self.alerts + other.alerts,
                           self.dry_run)

    def to_dict(self) -> dict[str, Any]:
        return {"runs": self.runs, "events": self.events, "signals": self.signals,
                "alerts": self.alerts, "dry_run": self.dry_run}

    def describe(self, cutoff: float) -> str:
        """One line: what was deleted (or would be), and the cutoff (epoch seconds)."""
        verb = "would delete" if self.dry_run else "deleted"
        when = time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(cutoff))
        return (f"{verb} {_plural(self.runs, 'run')} ({_plural(self.events, 'event')}, "
                f"{_plural(self.signals, 'signal')}, {_plural(self.alerts, 'alert')}) "
                f"last received before {when}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
