"""Records to rows and rows back to records: what every area of the store shares."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ..events import Event, Signal

__all__ = ["CHUNK", "as_mapping", "dumps", "event_of", "no_nul", "signal_of"]

# Chunk IN lists and multi-row statements well under SQLite's bound-parameter limit.
CHUNK = 500

_JSON_NUL = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")


def no_nul(value: str | None) -> str | None:
    # PostgreSQL text cannot hold NUL; SQLite could, but both must store the same thing.
    if value is not None and "\x00" in value:
        return value.replace("\x00", "\ufffd")
    return value


def dumps(value: Any) -> str:
    # default=str: an embedded caller may hand over payload values JSON cannot encode;
    # storing their text beats losing the event. NUL escapes are rejected by JSONB.
    text = json.dumps(value, default=str, separators=(",", ":"))
    if "\\u0000" in text:
        text = _JSON_NUL.sub(lambda m: m.group(1) + "\\ufffd", text)
    return text


def as_mapping(value: Any) -> Mapping[str, Any]:
    # The JSON columns are written as objects; anything else read back is taken as empty
    # rather than failing the whole read.
    return value if isinstance(value, Mapping) else {}


def event_of(row: Any) -> Event:
    return Event(
        event_type=row.event_type,
        run_id=row.run_id,
        agent_id=row.agent_id,
        step_index=row.step_index,
        timestamp=row.timestamp,
        payload=as_mapping(row.payload),
        agent_version=row.agent_version,
        parent_run_id=row.parent_run_id,
        trace_id=row.trace_id,
        conversation_id=row.conversation_id,
        event_id=row.event_id,
    )


def signal_of(row: Any) -> Signal:
    return Signal(
        failure_type=row.failure_type,
        run_id=row.run_id,
        severity=row.severity,
        confidence=row.confidence,
        evidence=as_mapping(row.evidence),
        step_index=row.step_index,
        source=row.source,
        shadow=row.shadow,
        agent_id=row.agent_id,
        agent_version=row.agent_version,
        co_signal_count=row.co_signal_count,
    )
