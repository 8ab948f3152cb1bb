"""The listings' queries walk an index in order, on both databases: a page of 50 runs out
of thousands reads about 50 index entries, never sorts the org's whole history."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from semloop.events import Event, Signal
from semloop.store import Store
from semloop.store import queries as q
from semloop.store._dialect import Dialect
from semloop.store._records import Position

RUNS = 3_000


def _fill(store: Store) -> str:
    org = store.create_org("acme")
    other = store.create_org("other")  # another org's rows share the indexes
    for owner in (org, other):
        store.add_events(owner, [
            Event("run.started", f"r{i}", f"agent-{i % 5}", 0, 1e9 + i, {}, event_id=f"s{i}")
            for i in range(RUNS)])
        store.add_events(owner, [
            Event("run.completed", f"r{i}", f"agent-{i % 5}", 1, 1e9 + i + .5, {},
                  event_id=f"c{i}") for i in range(RUNS)])
        store.add_signals(owner, [Signal("TOOL_LOOP", f"r{i}", "high", .9, agent_id="agent-0")
                                  for i in range(0, RUNS, 3)])
    with store.engine.begin() as conn:
        conn.execute(text("ANALYZE"))
    return org


def _plan(store: Store, stmt: Any) -> list[str]:
    """The plan's lines; on SQLite those of the outer query only (parent 0)."""
    sql = str(stmt.compile(dialect=store.engine.dialect, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.dialect is Dialect.POSTGRESQL:
            return list(conn.execute(text("EXPLAIN (COSTS OFF) " + sql)).scalars())
        return [row[3] for row in conn.execute(text("EXPLAIN QUERY PLAN " + sql))
                if row[1] == 0]


def _walks_index(store: Store, stmt: Any, index: str) -> None:
    plan = _plan(store, stmt)
    if store.dialect is Dialect.POSTGRESQL:
        # Limit straight over a backward index scan: no Sort node above the scan.
        assert plan[0].startswith("Limit"), plan
        assert f"Index Scan Backward using {index}" in plan[1], plan
        outer = [line for line in plan if not line.startswith(" " * 8)]
        assert not any("Sort" in line for line in outer), plan
    else:
        assert any(f"USING INDEX {index}" in line for line in plan), plan
        assert not any("TEMP B-TREE" in line for line in plan), plan


def test_run_pages_walk_the_started_index(store: Store) -> None:
    org = _fill(store)
    first = store.list_runs(org, limit=50)
    assert first.next is not None
    _walks_index(store, q.runs_page(org, 50), "ix_events_started_org_id_timestamp_id")
    _walks_index(store, q.runs_page(org, 50, after=(first.next.time, first.next.id)),
                 "ix_events_started_org_id_timestamp_id")
    _walks_index(store, q.runs_page(org, 50, agent_id="agent-3"),
                 "ix_events_started_org_id_agent_id_timestamp_id")
    _walks_index(store, q.signals_page(org, 50, after=(2e9, 10**6)),
                 "ix_failure_signals_org_id_detected_at_id")


def test_pages_cover_every_run_once_in_order(store: Store) -> None:
    org = _fill(store)
    seen: list[str] = []
    after: Position | None = None
    while True:
        page = store.list_runs(org, limit=500, after=after)
        seen += [r.run_id for r in page.items]
        if page.next is None:
            break
        after = page.next
    assert seen == [f"r{i}" for i in reversed(range(RUNS))]
    counts = {a.agent_id: (a.runs, a.runs_with_signals) for a in store.agent_summaries(org)}
    assert counts["agent-0"] == (RUNS // 5, RUNS // 3)
    assert counts["agent-1"] == (RUNS // 5, 0)


def test_bad_limits_and_statuses_are_refused_before_querying(store: Store) -> None:
    org = store.create_org("acme")
    for limit in (0, 501):
        with pytest.raises(ValueError, match="limit is 1 to 500"):
            store.list_runs(org, limit=limit)
        with pytest.raises(ValueError, match="limit is 1 to 500"):
            store.list_signals(org, limit=limit)
    with pytest.raises(ValueError, match="status is one of completed, errored, running"):
        store.list_runs(org, status="stalled")
    assert store.list_runs(org).items == [] and store.list_runs(org).next is None
    assert store.agent_summaries(org) == []


def test_agent_health_reads_versions_and_baselines_from_one_entry_per_run(
        store: Store) -> None:
    org = _fill(store)
    # A version's newest completed runs: the completed index walked newest first, stopped
    # after the window (no sort of the agent's history).
    baseline = _plan(store, q.completed_runs_of_agent(org, "agent-3", "", 50))
    index = "ix_events_completed_org_id_agent_id_agent_version_timestamp_id"
    assert any(index in line for line in baseline), baseline
    assert not any("Sort" in line or "TEMP B-TREE" in line for line in baseline), baseline
    # Every third run has a live signal (r2988 here) and is no sample of normal.
    assert [r.run_id for r in store.recent_runs(org, "agent-3", "", 3)] == [
        f"r{i}" for i in (RUNS - 2, RUNS - 7, RUNS - 17)]
    # An agent's versions: grouped over the started index's entries of that agent only.
    versions = _plan(store, q.agent_versions(org, "agent-3"))
    index = "ix_events_started_org_id_agent_id_agent_version_timestamp"
    assert any(index in line for line in versions), versions
    assert [(v.agent_version, v.runs) for v in store.agent_versions(org, "agent-3")] == [
        ("", RUNS // 5)]
