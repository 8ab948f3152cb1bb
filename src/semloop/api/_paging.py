"""Query parameters the listings share: opaque cursors and times. Pure: no I/O.

A cursor is the position of the last item served, ``(time, row id)`` (or, for a listing
ordered by name, the last name), tagged with its listing and base64url-encoded. Clients treat it as opaque; the server refuses one it did
not make with 422, naming ``cursor``, never a 500.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from datetime import datetime, timezone

from fastapi import HTTPException

from ..store import Position

__all__ = ["bad_parameter", "decode_cursor", "decode_name_cursor", "encode_cursor",
           "encode_name_cursor", "parse_time"]

_BIGINT_MAX = 2**63 - 1  # row ids are BIGINT on PostgreSQL: past this it would fail, not match
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def bad_parameter(name: str, problem: str) -> HTTPException:
    """422 naming the query parameter at fault, in the shape of every error body."""
    return HTTPException(422, f"query.{name}: {problem}")


def encode_cursor(listing: str, position: Position) -> str:
    text = f"{listing}|{position.time!r}|{position.id}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


_NOT_OURS = "not a cursor of this listing; pass next_cursor as given"


def _unwrap(cursor: str) -> str:
    try:
        return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, ValueError):
        raise bad_parameter("cursor", _NOT_OURS) from None


def encode_name_cursor(listing: str, name: str) -> str:
    return base64.urlsafe_b64encode(f"{listing}|{name}".encode()).decode().rstrip("=")


def decode_name_cursor(listing: str, cursor: str) -> str:
    """The last name in a cursor of ``listing`` ordered by name; 422 for any other."""
    tag, _, name = _unwrap(cursor).partition("|")
    if tag != listing or not name or "\x00" in name:
        raise bad_parameter("cursor", _NOT_OURS)
    return name


def decode_cursor(listing: str, cursor: str) -> Position:
    """The position in ``cursor``; 422 unless it is a cursor of ``listing`` we made."""
    problem = bad_parameter("cursor", _NOT_OURS)
    parts = _unwrap(cursor).split("|")
    if len(parts) != 3 or parts[0] != listing or not _NUMBER.fullmatch(parts[1]) \
            or not parts[2].isdigit() or len(parts[2]) > 19:
        raise problem
    time, row_id = float(parts[1]), int(parts[2])
    if not math.isfinite(time) or row_id > _BIGINT_MAX:
        raise problem
    return Position(time, row_id)


def parse_time(name: str, value: str | None) -> float | None:
    """Epoch seconds from ``value``: a number, or an ISO-8601 time (UTC unless it says).

    422 naming ``name`` for anything else, including times past what a float holds.
    """
    if value is None:
        return None
    text = value.strip()
    if _NUMBER.fullmatch(text):
        seconds = float(text)
        if not math.isfinite(seconds):
            raise bad_parameter(name, f"{value!r} is out of range")
        return seconds
    try:
        when = datetime.fromisoformat(text)
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return when.timestamp()
    except (ValueError, OverflowError):  # OverflowError: an offset pushes year 1 past 0
        raise bad_parameter(
            name, f"{value!r} is neither epoch seconds nor an ISO-8601 time "
                  "(e.g. 1764500000 or 2026-11-30T12:00:00Z)") from None
