"""The read API's listings: one page of runs or signals per indexed query, and agents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import queries as q
from ._connector import Area
from ._errors import translate_errors
from ._records import AgentSummary, Page, Position, RunSummary, StoredSignal
from ._rows import no_nul, signal_of

__all__ = ["MAX_PAGE", "Listing"]


class Listing(Area):
    """Pages of runs and signals, and per-agent counts, for the read API."""

    def list_runs(
        self,
        org_id: str,
        *,
        limit: int = 50,
        after: Position | None = None,
        agent_id: str | None = None,
        status: str | None = None,
        conversation_id: str | None = None,
        failure_type: str | None = None,
        source: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> Page[RunSummary]:
        """One page of ``org_id``'s runs, newest start first, in one indexed query.

        A run is listed once its ``run.started`` event is stored. ``since`` is inclusive,
        ``until`` exclusive (start times, epoch seconds); ``status`` is completed, errored
        or running; ``failure_type`` keeps runs with a signal of that type, ``source`` runs
        with a signal of that source (structural, semantic or external). Pass the page's
        ``next`` as ``after`` for the following page.
        """
        if status is not None and status not in q.RUN_STATUSES:
            raise ValueError(f"status is one of {', '.join(q.RUN_STATUSES)}, not {status!r}")
        _check_source(source)
        agent_id, failure_type = no_nul(agent_id), no_nul(failure_type)
        with translate_errors("list runs"), self._db.read() as conn:
            # A signal filter first counts the runs it can match: none is an empty page at
            # once, a few bound the walk, and only a common one walks the agent's history
            # (where matches come often, so a page fills fast).
            run_ids = None
            if failure_type is not None or source is not None:
                found = list(conn.execute(q.runs_with_signals(
                    org_id, FEW_RUNS + 1, failure_type=failure_type, source=source,
                    agent_id=agent_id)).scalars())
                if not found:
                    return Page([], None)
                run_ids = found if len(found) <= FEW_RUNS else None
            # A few runs found are exactly the runs with such a signal: no probe again.
            few = run_ids is not None
            rows = conn.execute(q.runs_page(
                org_id, _page_size(limit), agent_id=agent_id, status=status,
                conversation_id=no_nul(conversation_id),
                failure_type=None if few else failure_type, source=None if few else source,
                since=since, until=until, run_ids=run_ids,
                after=None if after is None else (after.time, after.id))).all()
        items = [_run_summary(row) for row in rows]
        return _page(items[:limit], len(items) > limit, lambda r: r.position)

    def list_signals(
        self,
        org_id: str,
        *,
        limit: int = 50,
        after: Position | None = None,
        agent_id: str | None = None,
        failure_type: str | None = None,
        severity: str | None = None,
        run_id: str | None = None,
        source: str | None = None,
        include_shadow: bool = True,
        since: float | None = None,
        until: float | None = None,
    ) -> Page[StoredSignal]:
        """One page of ``org_id``'s signals, newest detection first, in one indexed query.

        ``since`` inclusive, ``until`` exclusive (detection times, epoch seconds);
        ``source`` is structural, semantic or external (any other provider's name).
        """
        _check_source(source)
        stmt = q.signals_page(
            org_id, _page_size(limit), agent_id=no_nul(agent_id),
            failure_type=no_nul(failure_type), severity=no_nul(severity),
            run_id=no_nul(run_id), source=source, include_shadow=include_shadow, since=since, until=until,
            after=None if after is None else (after.time, after.id))
        with translate_errors("list signals"), self._db.read() as conn:
            rows = conn.execute(stmt).all()
        items = [StoredSignal(int(r.id), float(r.detected_at), signal_of(r)) for r in rows]
        return _page(items[:limit], len(items) > limit,
                     lambda s: Position(s.detected_at, s.id))

    def agent_summaries(self, org_id: str, *, after: str | None = None,
                        limit: int | None = None) -> list[AgentSummary]:
        """Per agent of ``org_id``, by agent id: runs, runs with a signal, signals by
        failure type and the last run's start, in one grouped query. ``after`` and
        ``limit`` page by agent id: the page is the first ``limit`` agents after
        ``after`` (an org has few agents, so the query groups them all)."""
        runs: dict[str, tuple[int, float | None]] = {}
        flagged: dict[str, int] = {}
        by_type: dict[str, dict[str, int]] = {}
        with translate_errors("summarise agents"), self._db.read() as conn:
            for agent_id, kind, failure_type, n, last in conn.execute(
                    q.agent_summaries(org_id, after)):
                if kind == "runs":
                    runs[agent_id] = (int(n), None if last is None else float(last))
                elif kind == "flagged":
                    flagged[agent_id] = int(n)
                else:
                    by_type.setdefault(agent_id, {})[failure_type] = int(n)
        return [
            AgentSummary(agent_id, runs.get(agent_id, (0, None))[0], flagged.get(agent_id, 0),
                         dict(sorted(by_type.get(agent_id, {}).items())),
                         runs.get(agent_id, (0, None))[1])
            for agent_id in sorted({*runs, *flagged, *by_type})[:limit]
        ]


#: The most a listing serves in one page.
MAX_PAGE = 500
#: Up to this many runs with a wanted signal, the runs listing walks those runs alone.
FEW_RUNS = 500


def _page_size(limit: int) -> int:
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit is 1 to {MAX_PAGE}, not {limit}")
    return limit


def _check_source(source: str | None) -> None:
    if source is not None and source not in q.SOURCES:
        raise ValueError(f"source is one of {', '.join(q.SOURCES)}, not {source!r}")


def _page(items: list[Any], more: bool, position: Callable[[Any], Position]) -> Page[Any]:
    return Page(items, position(items[-1]) if more and items else None)


def _run_summary(row: Any) -> RunSummary:
    terminal = row.terminal_type
    status = q.TERMINAL_TRIGGERS.get(terminal, "running")
    types = sorted(set(row.failure_types.split(","))) if row.failure_types else []
    return RunSummary(
        run_id=row.run_id, agent_id=row.agent_id, agent_version=row.agent_version,
        conversation_id=row.conversation_id, status=status,
        started_at=float(row.timestamp),
        ended_at=None if row.ended_at is None else float(row.ended_at),
        event_count=int(row.event_count), failure_types=tuple(types),
        position=Position(float(row.timestamp), int(row.id)),
    )
