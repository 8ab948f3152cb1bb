"""semloop's own event files: one ``Event.to_dict()`` per line, as the SDK's
``FileEmitter`` writes them (also a JSON list of events, or Dunetrace's batch envelope
``{"events": [...]}``). Events are grouped into runs by ``run_id``."""

from __future__ import annotations

from ..._exceptions import EventFormatError, TraceFormatError
from ...events import Event, Run
from ._common import Result, records

__all__ = ["convert", "read"]

NAME = "ndjson"


def read(data: bytes | str) -> list[Run]:
    """Runs from an events file; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<ndjson>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    by_run: dict[str, list[Event]] = {}
    for line, path, raw in records(data, source, result, unwrap=("events",)):
        try:
            event = Event.from_dict(raw)
        except EventFormatError as exc:
            field_ = f"{path}.{exc.field}" if path and exc.field else (exc.field or path or None)
            result.rejected.append(TraceFormatError(exc.message, source=source, line=line,
                                                    field=field_))
            continue
        by_run.setdefault(event.run_id, []).append(event)
    result.runs = [Run.from_events(events) for events in by_run.values()]
    return result
