"""Retention: ``Store.prune``, ``semloop prune`` and the hourly prune of ``semloop up``, on
SQLite and PostgreSQL. Runs go whole with everything hanging off them, never half of one,
batch by batch, and an event that arrives mid-prune keeps its run."""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, text, update
from typer.testing import CliRunner

from semloop.alert import AlertDecision, Delivery, UndecidedSignal
from semloop.api import create_app
from semloop.api.testing import serve
from semloop.cli import app
from semloop.cli.prune import parse_duration
from semloop.events import Event, Signal
from semloop.settings import Settings
from semloop.store import PruneResult, Store
from semloop.store import queries as q
from semloop.store._dialect import Dialect
from semloop.worker import RetentionWorker

DAY = 86400.0
runner = CliRunner()


def _run(store: Store, org: str, run_id: str, *, tools: int = 1) -> None:
    events = [Event("run.started", run_id, "support", 0, 1e9, {}, event_id=f"{run_id}-s")]
    events += [Event("tool.called", run_id, "support", 1 + i, 1e9 + i, {"tool_name": "t"},
                     event_id=f"{run_id}-t{i}") for i in range(tools)]
    events.append(Event("run.completed", run_id, "support", 1 + tools, 1e9 + tools, {},
                        event_id=f"{run_id}-c"))
    store.add_events(org, events)


def _age(store: Store, run_ids: list[str], days: float) -> None:
    """Make the runs' events look received ``days`` ago (ingest stamps the real time)."""
    with store.engine.begin() as conn:
        conn.execute(update(q.events).where(q.events.c.run_id.in_(run_ids))
                     .values(received_at=time.time() - days * DAY))


def _count(store: Store, table: Any, run_id: str | None = None) -> int:
    stmt = select(func.count()).select_from(table)
    if run_id is not None:
        stmt = stmt.where(table.c.run_id == run_id)
    with store.engine.connect() as conn:
        return int(conn.execute(stmt).scalar_one())


def _alert_everything(store: Store) -> None:
    def decide(record: UndecidedSignal, *_: object) -> AlertDecision:
        return AlertDecision(record.id, "alerted", "test", policy="always",
                             deliveries=[Delivery("hook", {"run": record.run_id}),
                                         Delivery("slack", {"run": record.run_id})])
    store.decide_alerts(decide)


def _cutoff(days: float = 30) -> float:
    return time.time() - days * DAY


def test_old_runs_go_with_everything_hanging_off_them(store: Store) -> None:
    org = store.create_org("acme")
    key = store.create_api_key(org)
    for run_id in ("old-1", "old-2", "new-1"):
        _run(store, org, run_id, tools=2)
        store.add_signals(org, [Signal("TOOL_LOOP", run_id, "high", .9, agent_id="support")])
    _alert_everything(store)
    # Runs finished by a worker, and one left with an expired lease (a crashed worker's).
    for _org, run, trigger in store.runs_to_process("detector", now=1.0, lease_s=1.0):
        if run.run_id != "old-2":
            store.mark_processed("detector", org, run.run_id, trigger)
    store.runs_to_process("loop", now=1.0, lease_s=1.0)
    _age(store, ["old-1", "old-2"], 40)
    assert _count(store, q.claims, "old-2") == 2 and _count(store, q.processed, "old-1") == 1

    result = store.prune(_cutoff())

    assert result == PruneResult(runs=2, events=8, signals=2, alerts=2)
    for table in (q.events, q.signals, q.alerts, q.processed, q.claims):
        assert _count(store, table, "old-1") == _count(store, table, "old-2") == 0
    assert _count(store, q.deliveries) == 2  # the new run's two deliveries only
    assert store.get_run(org, "old-1") is None
    kept = store.get_run(org, "new-1")
    assert kept is not None and len(kept.events) == 4
    assert [s.failure_type for s in store.signals_for_run(org, "new-1")] == ["TOOL_LOOP"]
    assert [a.run_id for a in store.list_alerts(org)] == ["new-1"]
    assert store.org_for_key(key) == org  # keys and orgs are never pruned
    assert store.find_org("acme") == org


def test_a_run_straddling_the_cutoff_is_kept_whole(store: Store) -> None:
    org = store.create_org("acme")
    _run(store, org, "long", tools=3)
    _age(store, ["long"], 40)
    store.add_events(org, [Event("tool.called", "long", "support", 9, 1e9 + 9, {},
                                 event_id="long-late")])
    assert store.prune(_cutoff()) == PruneResult()
    run = store.get_run(org, "long")
    assert run is not None and len(run.events) == 6


def test_org_filter_prunes_that_org_only(store: Store) -> None:
    acme, other = store.create_org("acme"), store.create_org("other")
    for org in (acme, other):
        _run(store, org, "r1")
    _age(store, ["r1"], 40)
    assert store.prune(_cutoff(), org_id=acme).runs == 1
    assert store.get_run(acme, "r1") is None
    assert store.get_run(other, "r1") is not None
    assert store.prune(_cutoff(), org_id="no-such-org") == PruneResult()
    assert store.get_run(other, "r1") is not None


def _interleaved(store: Store, org: str, runs: int, steps: int) -> list[str]:
    """``runs`` old runs whose events arrived interleaved, so each run's events are spread
    over the whole walk (and over several batches)."""
    ids = [f"r{i:03d}" for i in range(runs)]
    for step in range(steps):
        store.add_events(org, [Event("tool.called", r, "support", step, 1e9 + step, {},
                                     event_id=f"{r}-{step}") for r in ids])
    with store.engine.begin() as conn:  # arrival order = row order, 40 days ago
        conn.execute(update(q.events).values(received_at=time.time() - 40 * DAY + q.events.c.id))
    return ids


def test_batches_decide_each_run_once_and_dry_run_changes_nothing(store: Store) -> None:
    org = store.create_org("acme")
    _interleaved(store, org, runs=23, steps=4)
    _run(store, org, "fresh")
    seen: list[PruneResult] = []

    dry = store.prune(_cutoff(), batch=5, dry_run=True, progress=seen.append)
    assert dry == PruneResult(runs=23, events=92, dry_run=True)
    assert store.count_events(org) == 95  # nothing deleted
    assert len(seen) >= 5 and all(b.runs - a.runs <= 5 for a, b in itertools.pairwise(seen))

    seen.clear()
    assert store.prune(_cutoff(), batch=5, progress=seen.append) == PruneResult(23, 92)
    assert len(seen) >= 5 and seen[-1] == PruneResult(23, 92)
    assert store.count_events(org) == 3
    assert store.prune(_cutoff(), batch=5) == PruneResult()  # idempotent


def test_an_event_arriving_mid_prune_keeps_its_run(store: Store,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    org = store.create_org("acme")
    for run_id in ("a", "b", "c"):
        _run(store, org, run_id)
    _age(store, ["a", "b", "c"], 40)
    scan: Callable[..., tuple[list[str], Any]] = store._prune_candidates

    def scan_then_event_arrives(*args: Any) -> tuple[list[str], Any]:
        # Between choosing the batch and deleting it: run "b" gets a new event.
        found = scan(*args)
        if "b" in found[0]:
            store.add_events(org, [Event("tool.called", "b", "support", 7, 2e9, {},
                                         event_id="b-late")])
        return found

    monkeypatch.setattr(store, "_prune_candidates", scan_then_event_arrives)
    assert store.prune(_cutoff()) == PruneResult(runs=2, events=6)
    run = store.get_run(org, "b")
    assert run is not None and len(run.events) == 4  # the old three and the new one
    assert store.get_run(org, "a") is None and store.get_run(org, "c") is None


@pytest.mark.postgres
def test_postgres_a_batch_waits_for_an_insert_in_flight(pg_template: Any) -> None:
    # Without the batch's table lock, the insert below (uncommitted while the batch checks
    # and deletes) would leave run "b" holding its new event alone.
    with pg_template.database() as url, Store(url) as store:
        org = store.create_org("acme")
        for run_id in ("a", "b", "c"):
            _run(store, org, run_id)
        _age(store, ["a", "b", "c"], 40)
        ingest = store.engine.connect()
        ingest.begin()
        ingest.execute(q.events.insert().values(
            org_id=org, event_id="b-late", event_type="tool.called", run_id="b",
            agent_id="support", agent_version="", step_index=7, timestamp=2e9, payload={},
            received_at=time.time()))
        done: list[PruneResult] = []
        pruning = threading.Thread(target=lambda: done.append(store.prune(_cutoff())))
        pruning.start()
        waiting = text("SELECT count(*) FROM pg_locks WHERE NOT granted "
                       "AND mode = 'ShareRowExclusiveLock'")
        deadline = time.monotonic() + 20
        with store.engine.connect() as watch:
            while not watch.execute(waiting).scalar():
                assert time.monotonic() < deadline and pruning.is_alive(), done
                watch.rollback()
                threading.Event().wait(0.01)
        ingest.commit()
        ingest.close()
        pruning.join(20)
        assert done == [PruneResult(runs=2, events=6)]
        run = store.get_run(org, "b")
        assert run is not None and len(run.events) == 4


def test_a_run_a_worker_is_processing_waits_for_the_next_prune(store: Store) -> None:
    org = store.create_org("acme")
    _run(store, org, "busy")
    _age(store, ["busy"], 40)
    [(_org, run, trigger)] = store.runs_to_process("detector", lease_s=300)
    assert store.prune(_cutoff()) == PruneResult()
    store.add_signals(org, [Signal("TOOL_LOOP", "busy", "high", .9)])
    store.mark_processed("detector", org, run.run_id, trigger)
    assert store.prune(_cutoff()) == PruneResult(runs=1, events=3, signals=1)
    assert _count(store, q.processed) == 0


def test_bad_arguments_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="older_than"):
        store.prune(float("nan"))
    with pytest.raises(ValueError, match="batch"):
        store.prune(time.time(), batch=0)


def _plan(store: Store, stmt: Any) -> list[str]:
    sql = str(stmt.compile(dialect=store.engine.dialect, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.dialect is Dialect.POSTGRESQL:
            return list(conn.execute(text("EXPLAIN (COSTS OFF) " + sql)).scalars())
        return [row[3] for row in conn.execute(text("EXPLAIN QUERY PLAN " + sql))]


def test_a_batch_reads_index_ranges_never_the_whole_table(store: Store) -> None:
    org = store.create_org("acme")
    other = store.create_org("other")
    for owner in (org, other):
        store.add_events(owner, [Event("tool.called", f"r{i}", "a", 0, 1e9, {},
                                       event_id=f"e{i}") for i in range(3000)])
    with store.engine.begin() as conn:
        conn.execute(update(q.events).values(received_at=1e9 + q.events.c.id))
        conn.execute(text("ANALYZE"))
    # The walk: the arrival index in order, no sort.
    for stmt in (q.prune_scan(org, 2e9, None, 500), q.prune_scan(org, 2e9, (1e9 + 10, 10), 500)):
        plan = _plan(store, stmt)
        if store.dialect is Dialect.POSTGRESQL:
            assert plan[0].startswith("Limit"), plan
            assert "Index Scan using ix_events_org_id_received_at_id" in plan[1], plan
            assert not any("Sort" in line for line in plan), plan
        else:
            assert any("USING INDEX ix_events_org_id_received_at_id" in line
                       for line in plan), plan
            assert not any("TEMP B-TREE" in line for line in plan), plan
    # The re-check and the deletes: the batch's runs looked up by (org_id, run_id).
    runs = [f"r{i}" for i in range(5)]
    for stmt in (q.prunable_runs(org, runs, (1e9 + 10, 10), 0.0),
                 q.prune_deletes(org, runs)["events"]):
        plan = "\n".join(_plan(store, stmt))
        assert "ix_events_org_id_run_id" in plan, plan
        assert "ix_events_org_id_received_at_id" not in plan, plan
        assert "Seq Scan on events" not in plan and "SCAN events" not in plan, plan


def test_the_read_api_no_longer_lists_pruned_runs(store: Store) -> None:
    org = store.create_org("acme")
    key = store.create_api_key(org)
    for run_id in ("old", "new"):
        _run(store, org, run_id)
    _age(store, ["old"], 40)
    with serve(create_app(store, Settings(database_url=store.url))) as url, \
            httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"},
                         timeout=10) as http:
        listed = http.get("/v1/runs").json()["runs"]
        assert sorted(r["run_id"] for r in listed) == ["new", "old"]
        store.prune(_cutoff())
        assert [r["run_id"] for r in http.get("/v1/runs").json()["runs"]] == ["new"]
        assert http.get("/v1/runs/old").status_code == 404
        assert http.get("/v1/runs/new").status_code == 200


# --- semloop prune ----------------------------------------------------------------------

def test_cli_prunes_and_dry_runs(db_url: str) -> None:
    with Store(db_url) as store:
        acme, other = store.create_org("acme"), store.create_org("other")
        _run(store, acme, "a-old")
        _run(store, other, "o-old")
        _run(store, acme, "a-new")
        _age(store, ["a-old", "o-old"], 40)
    base = ["prune", "--older-than", "30d", "--database-url", db_url]

    dry = runner.invoke(app, [*base, "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert dry.stdout.startswith("would delete 2 runs (6 events, 0 signals, 0 alerts) "
                                 "last received before ")
    one = runner.invoke(app, [*base, "--org", "acme"])
    assert one.exit_code == 0, one.output
    assert one.stdout.startswith("deleted 1 run (3 events, 0 signals, 0 alerts)")
    rest = runner.invoke(app, [*base, "--batch", "1"])
    assert rest.stdout.startswith("deleted 1 run (3 events")
    again = runner.invoke(app, base)
    assert again.stdout.startswith("deleted 0 runs (0 events")
    with Store(db_url) as store:
        assert store.get_run(acme, "a-new") is not None
        assert store.get_run(acme, "a-old") is None and store.get_run(other, "o-old") is None


@pytest.mark.parametrize("value", ["30", "30x", "d", "-1d", "0h", "1.5d", ""])
def test_cli_refuses_a_bad_duration_naming_the_option(value: str) -> None:
    result = runner.invoke(app, ["prune", "--older-than", value,
                                 "--database-url", "sqlite:///unused.db"])
    assert result.exit_code == 2
    assert "Invalid value for '--older-than'" in result.stderr
    assert "not a duration" in result.stderr


def test_cli_refuses_an_unknown_org(db_url: str) -> None:
    result = runner.invoke(app, ["prune", "--older-than", "1d", "--org", "nobody",
                                 "--database-url", db_url])
    assert result.exit_code == 2
    assert "no organization called 'nobody'" in result.stderr


def test_durations() -> None:
    assert [parse_duration(t) for t in ("90m", "12h", "30d", "2w", " 1D ")] == [
        5400.0, 43200.0, 2592000.0, 1209600.0, 86400.0]


# --- semloop up --retention-days --------------------------------------------------------

def test_the_hourly_prune_survives_a_failing_prune(store: Store, monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    org = store.create_org("acme")
    _run(store, org, "old")
    _age(store, ["old"], 40)
    real = store.prune
    calls: list[float] = []
    second = threading.Event()

    def flaky(older_than: float, **kwargs: Any) -> PruneResult:
        calls.append(older_than)
        if len(calls) == 1:
            raise RuntimeError("database went away")
        try:
            return real(older_than, **kwargs)
        finally:
            second.set()

    monkeypatch.setattr(store, "prune", flaky)
    job = RetentionWorker(store, 30, poll_interval=0.01)
    with caplog.at_level(logging.ERROR, logger="semloop.worker"):
        job.start()
        try:
            assert second.wait(10), "the prune was not tried again"
        finally:
            job.stop()
    assert job.stats.failed_batches == 1
    assert "retention: batch failed" in caplog.text and "database went away" in caplog.text
    assert job.last is not None and job.last.runs == 1
    assert abs(calls[0] - _cutoff(30)) < 60
    assert store.get_run(org, "old") is None


def test_up_refuses_a_retention_of_zero_days() -> None:
    result = runner.invoke(app, ["up", "--retention-days", "0"])
    assert result.exit_code == 2
    assert "--retention-days" in result.stderr


def test_up_with_retention_days_prunes_beside_the_server(db_url: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    with Store(db_url) as store:
        org = store.create_org("acme")
        _run(store, org, "old")
        _run(store, org, "new")
        _age(store, ["old"], 40)
    served: list[bool] = []

    def serve_until_pruned(_server: uvicorn.Server, *_args: Any, **_kwargs: Any) -> None:
        # Stands in for the server: returns once the hourly prune's first pass is done.
        deadline = time.monotonic() + 20
        with Store(db_url) as store:
            while store.get_run(org, "old") is not None:
                assert time.monotonic() < deadline, "up did not prune"
                threading.Event().wait(0.02)
            served.append(store.get_run(org, "new") is not None)

    monkeypatch.setattr(uvicorn.Server, "run", serve_until_pruned)
    result = runner.invoke(app, ["up", "--retention-days", "30", "--workers", "",
                                 "--database-url", db_url])
    assert result.exit_code == 0, result.output
    assert served == [True]
