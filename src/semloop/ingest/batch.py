"""A batch of incoming events, validated: the events to store and each one refused.

Pure functions, no I/O: ``semloop.api.ingest`` calls them for ``POST /v1/ingest`` and
``POST /v1/traces``, so one bad event never costs its batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._exceptions import EventFormatError
from ..events import Event
from ..store import LIMITS, check_event

__all__ = ["RejectedEvent", "RejectedSpans", "Unstorable", "check_storable", "otlp_events",
           "validate_batch"]


class Unstorable:
    """Stands in for a JSON number no database stores: ``NaN``, ``±Infinity``, a float past
    1.8e308, an integer past Python's 4300-digit conversion limit.

    Being neither int nor float, it fails the typed event fields on its own, and a payload
    holding one is refused by :func:`check_storable` for that one event only.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text if len(text) <= 24 else f"{text[:12]}…({len(text)} characters)"

    def __repr__(self) -> str:
        return f"Unstorable({self.text!r})"


@dataclass(frozen=True)
class RejectedEvent:
    """One event of a batch that was not stored: its position, the field to blame, why."""

    index: int
    field: str | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "field": self.field, "reason": self.reason}


def validate_batch(raw_events: list[Any], *, suspect: bool, latest: float,
                   ) -> tuple[list[Event], list[RejectedEvent]]:
    """Valid events, and the rest by index and field. ``suspect``: the body may hold values
    no database stores, so walk each event for them (the common batch is spared the walk).
    ``latest``: the latest timestamp to accept (the clock plus the allowed skew)."""
    valid: list[Event] = []
    rejected: list[RejectedEvent] = []
    for index, raw in enumerate(raw_events):
        try:
            event = Event.from_dict(raw)
            check_event(event)
            if event.timestamp > latest:
                raise EventFormatError(
                    f"is {event.timestamp - latest:.0f} s past the latest time accepted "
                    "(the server's clock plus max_future_skew_s)", field="timestamp")
            if suspect:
                check_storable(event)
        except EventFormatError as exc:
            rejected.append(RejectedEvent(index, exc.field, exc.message))
        else:
            valid.append(event)
    return valid, rejected


@dataclass(frozen=True)
class RejectedSpans:
    """What ``POST /v1/traces`` left out, for OTLP's ``partialSuccess``: the number of spans
    and why (at most five reasons, each once)."""

    count: int
    reasons: tuple[str, ...]

    @property
    def message(self) -> str:
        return "; ".join(self.reasons)


def otlp_events(body: bytes, kind: str, *, latest: float) -> tuple[list[Event], RejectedSpans]:
    """An OTLP export (``kind`` is its content type) as valid events, and every span left
    out: unreadable, in a trace that could not be converted, or with an event that
    :func:`validate_batch` refuses.

    Raises :class:`TraceFormatError` for a body that is not OTLP, as
    :func:`semloop.ingest.formats.otlp.read_export` does.
    """
    from .formats.otlp import read_export  # the OTLP reader imports protobuf

    export = read_export(body, kind)
    events = export.events
    # Always walked: OTLP bodies come from the reader, not a JSON parse that flags them.
    valid, rejected = validate_batch([e.to_dict() for e in events], suspect=True, latest=latest)
    reasons = [str(error) for error in export.dropped]
    count = len(export.dropped)
    if rejected:
        count += len(export.span_ids([events[r.index] for r in rejected]))
        reasons += [(f"{r.field}: " if r.field else "") + r.reason for r in rejected]
    return valid, RejectedSpans(count, tuple(dict.fromkeys(reasons))[:5])


_SURROGATE = "holds an unpaired surrogate (a lone \\ud800-\\udfff escape), which is not text"


def check_storable(event: Event) -> None:
    """EventFormatError for what the store cannot hold on every database: unpaired
    surrogates (no UTF-8 form) and NaN or infinite numbers (JSONB refuses them).

    Left to the store, one such event fails the whole batch's transaction.
    """
    for name in LIMITS:
        value = getattr(event, name)
        if value and not _is_text(value):
            raise EventFormatError(_SURROGATE, field=name)
    stack: list[Any] = [event.payload]
    while stack:  # iterative: the parser allows nesting deeper than our own stack would
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if isinstance(key, str) and not _is_text(key):
                    raise EventFormatError(_SURROGATE, field="payload")
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if not _is_text(item):
                raise EventFormatError(_SURROGATE, field="payload")
        elif isinstance(item, Unstorable) or (isinstance(item, float)
                                              and not math.isfinite(item)):
            shown = item.text if isinstance(item, Unstorable) else repr(item)
            raise EventFormatError(f"holds the number {shown}, which JSON cannot store",
                                   field="payload")


def _is_text(value: str) -> bool:
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
