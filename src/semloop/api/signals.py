"""``GET /v1/signals``: signals newest first, filtered and paged like the runs."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool

from ._auth import require_org, store_of
from ._paging import decode_cursor, encode_cursor, parse_time
from ._schemas import SignalPage
from .runs import LIST_ERRORS, Cursor, Limit, Since, Until

__all__ = ["router"]

router = APIRouter(tags=["signals"])


@router.get(
    "/v1/signals",
    response_model=SignalPage,
    responses=LIST_ERRORS,
    summary="Signals, newest detection first, filtered and paged by cursor",
)
async def list_signals(
    request: Request,
    org_id: Annotated[str, Depends(require_org)],
    agent_id: str | None = None,
    failure_type: str | None = None,
    severity: str | None = None,
    run_id: str | None = None,
    since: Since = None,
    until: Until = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> Any:
    after = None if cursor is None else decode_cursor("signals", cursor)
    start, end = parse_time("since", since), parse_time("until", until)
    page = await run_in_threadpool(
        store_of(request).list_signals, org_id, limit=limit, after=after, agent_id=agent_id,
        failure_type=failure_type, severity=severity, run_id=run_id, since=start, until=end)
    return {
        "signals": [{**s.signal.to_dict(), "signal_id": s.id, "detected_at": s.detected_at}
                    for s in page.items],
        "next_cursor": None if page.next is None else encode_cursor("signals", page.next),
    }
