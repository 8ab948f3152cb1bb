"""``GET /v1/signals``: signals newest first, filtered and paged like the runs; and
``GET /v1/signals/export``: every signal the same filters match, streamed as CSV or NDJSON."""

from __future__ import annotations

import csv
import functools
import io
import json
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from ..store import Position, Store, StoredSignal
from ._auth import require_org, store_of
from ._paging import decode_cursor, encode_cursor, parse_time
from ._schemas import SignalPage
from .runs import LIST_ERRORS, Cursor, Limit, Since, SourceFilter, Until

__all__ = ["router", "signal_body"]

router = APIRouter(tags=["signals"])

IncludeShadow = Annotated[bool, Query(
    description="Also list shadow signals (detectors in shadow mode, operational signals); "
                "they are never alerted and are left out by default.")]


def signal_body(s: StoredSignal) -> dict[str, Any]:
    return {**s.signal.to_dict(), "signal_id": s.id, "detected_at": s.detected_at}


def signal_filters(
    agent_id: str | None = None,
    failure_type: str | None = None,
    severity: str | None = None,
    run_id: str | None = None,
    source: SourceFilter = None,
    include_shadow: IncludeShadow = False,
    since: Since = None,
    until: Until = None,
) -> dict[str, Any]:
    """Dependency: the filters the listing and the export share, as ``list_signals`` takes
    them (times parsed, 422 naming a bad one)."""
    return {"agent_id": agent_id, "failure_type": failure_type, "severity": severity,
            "run_id": run_id, "source": source, "include_shadow": include_shadow,
            "since": parse_time("since", since), "until": parse_time("until", until)}


Filters = Annotated[dict[str, Any], Depends(signal_filters)]


@router.get(
    "/v1/signals",
    response_model=SignalPage,
    responses=LIST_ERRORS,
    summary="Signals, newest detection first, filtered and paged by cursor",
)
async def list_signals(
    request: Request,
    org_id: Annotated[str, Depends(require_org)],
    filters: Filters,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> Any:
    after = None if cursor is None else decode_cursor("signals", cursor)
    page = await run_in_threadpool(
        functools.partial(store_of(request).list_signals, org_id, limit=limit, after=after,
                          **filters))
    return {
        "signals": [signal_body(s) for s in page.items],
        "next_cursor": None if page.next is None else encode_cursor("signals", page.next),
    }


#: The columns of the CSV export, in order; evidence is its JSON text.
CSV_COLUMNS = ("signal_id", "detected_at", "run_id", "agent_id", "agent_version",
               "failure_type", "source", "severity", "confidence", "step_index", "shadow",
               "co_signal_count", "evidence")
_EXPORT_PAGE = 500
_MEDIA = {"csv": "text/csv; charset=utf-8", "ndjson": "application/x-ndjson"}


@router.get(
    "/v1/signals/export",
    responses={**LIST_ERRORS, 200: {"content": {m: {} for m in _MEDIA.values()},
                                    "description": "Every matching signal, newest first."}},
    summary="Every signal the filters match, streamed as CSV or NDJSON",
)
async def export_signals(
    request: Request,
    org_id: Annotated[str, Depends(require_org)],
    filters: Filters,
    format: Annotated[Literal["csv", "ndjson"], Query(
        description="csv (one header row) or ndjson (one JSON signal a line).")] = "ndjson",
) -> StreamingResponse:
    pages = _pages(store_of(request), org_id, filters)
    lines = _csv_lines(pages) if format == "csv" else (
        json.dumps(signal_body(s), separators=(",", ":")) + "\n" for s in pages)
    # A sync generator: Starlette pulls it in its thread pool, one page of rows at a time,
    # so an export of millions of signals never sits whole in memory.
    return StreamingResponse(lines, media_type=_MEDIA[format], headers={
        "Content-Disposition": f'attachment; filename="signals.{format}"'})


def _pages(store: Store, org_id: str, filters: dict[str, Any]) -> Iterator[StoredSignal]:
    after: Position | None = None
    while True:
        page = store.list_signals(org_id, limit=_EXPORT_PAGE, after=after, **filters)
        yield from page.items
        if page.next is None:
            return
        after = page.next


def _csv_lines(signals: Iterator[StoredSignal]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def take() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(CSV_COLUMNS)
    yield take()
    for s in signals:
        body = signal_body(s)
        writer.writerow([json.dumps(body["evidence"], separators=(",", ":"))
                         if c == "evidence" else body[c] for c in CSV_COLUMNS])
        yield take()
