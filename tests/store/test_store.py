"""The Store contract, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event as sa_event
from sqlalchemy import text

from semloop import ConfigError, EventFormatError, StoreError
from semloop.events import Event, Signal
from semloop.store import Store

T0 = 1_700_000_000.0


def make_run(run_id: str, *, end: str | None = "run.completed", agent: str = "agent-a",
             version: str = "v1", t0: float = T0) -> list[Event]:
    events = [
        Event("run.started", run_id, agent, 0, t0, {"input_text": "find the invoice"},
              agent_version=version, conversation_id="conv-1"),
        Event("llm.called", run_id, agent, 1, t0 + 1, {"model": "m", "prompt_tokens": 10},
              agent_version=version),
        Event("llm.responded", run_id, agent, 1, t0 + 2, {"output": "call the tool"},
              agent_version=version),
        Event("tool.called", run_id, agent, 2, t0 + 3, {"tool_name": "search", "args": "{}"},
              agent_version=version),
        Event("tool.responded", run_id, agent, 2, t0 + 4,
              {"tool_name": "search", "success": True, "output": "found"}, agent_version=version),
    ]
    if end:
        events.append(Event(end, run_id, agent, 2, t0 + 5, {"exit_reason": "completed"},
                            agent_version=version))
    return events


def test_events_are_stored_once_and_read_back_in_order(store: Store) -> None:
    org = store.create_org("acme")
    events = make_run("r1")
    # Arrival order differs from run order, as it does when batches interleave.
    assert store.add_events(org, list(reversed(events))) == len(events)
    run = store.get_run(org, "r1")
    assert run is not None
    assert [e.event_id for e in run.events] == [e.event_id for e in events]
    assert run.status == "completed"
    assert run.conversation_id == "conv-1"
    assert run.events[3].payload == {"tool_name": "search", "args": "{}"}


def test_a_replayed_batch_adds_nothing(store: Store) -> None:
    org = store.create_org("acme")
    events = make_run("r1")
    assert store.add_events(org, events) == 6
    assert store.add_events(org, events) == 0
    # A batch repeating an event inside itself stores it once.
    extra = Event("external.signal", "r1", "agent-a", 2, T0 + 6, {"signal_name": "x"})
    assert store.add_events(org, [extra, extra, events[0]]) == 1
    assert store.count_events(org) == 7


def test_the_same_event_id_in_two_orgs_is_two_events(store: Store) -> None:
    a, b = store.create_org("a"), store.create_org("b")
    events = make_run("r1")
    assert store.add_events(a, events) == 6
    assert store.add_events(b, events) == 6
    assert store.get_run(a, "r1") is not None
    assert store.get_run(b, "missing") is None


def test_runs_are_private_to_their_org(store: Store) -> None:
    a, b = store.create_org("a"), store.create_org("b")
    store.add_events(a, make_run("r1"))
    assert store.get_run(b, "r1") is None


def test_payloads_round_trip_including_text_postgres_cannot_hold(store: Store) -> None:
    org = store.create_org("acme")
    payload = {"output": "naïve ✓ \x00 end", "nested": {"list": [1, 2.5, None, True]},
               "backslash": "\\u0000 stays"}
    store.add_events(org, [Event("llm.responded", "r1", "a", 1, T0, payload)])
    run = store.get_run(org, "r1")
    assert run is not None
    got = run.events[0].payload
    assert got["output"] == "naïve ✓ \ufffd end"  # NUL is replaced the same on both databases
    assert got["nested"] == {"list": [1, 2.5, None, True]}
    assert got["backslash"] == "\\u0000 stays"  # an escaped backslash is not a NUL


def test_an_event_too_big_for_the_schema_is_rejected_by_index_before_writing(store: Store) -> None:
    org = store.create_org("acme")
    events = make_run("r1")
    events[2] = Event("llm.responded", "r" * 500, "a", 1, T0)
    with pytest.raises(EventFormatError) as info:
        store.add_events(org, events)
    assert info.value.index == 2
    assert info.value.field == "run_id"
    assert store.count_events(org) == 0


def test_orgs_are_found_by_name_and_keys_are_hashed_at_rest(store: Store) -> None:
    org = store.create_org("acme")
    assert store.create_org("acme") == org
    key = store.create_api_key(org)
    assert key.startswith("sl_")
    assert store.org_for_key(key) == org
    assert store.org_for_key(key[:-1] + ("A" if key[-1] != "A" else "B")) is None
    assert store.org_for_key("not-a-key") is None
    assert store.org_for_key("") is None
    assert store.create_api_key(org) != key
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT key_id, key_hash FROM api_keys")).all()
    assert len(rows) == 2
    assert all(key not in (r.key_id, r.key_hash) for r in rows)
    assert any(key[3:15] == r.key_id for r in rows)


def test_runs_to_process_hands_out_ended_and_stalled_runs_once(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, make_run("done"))
    store.add_events(org, make_run("failed", end="run.errored"))
    store.add_events(org, make_run("open", end=None))
    now = time.time()

    got = {(run.run_id, trigger) for _, run, trigger in store.runs_to_process("detect", now=now)}
    assert got == {("done", "completed"), ("failed", "errored")}

    later = now + 91  # nothing arrived for "open" within the stall timeout
    got = store.runs_to_process("detect", now=later)
    assert [(o, r.run_id, t) for o, r, t in got] == [(org, "open", "stalled")]
    assert len(got[0][1].events) == 5

    for _, run, trigger in [*got]:
        store.mark_processed("detect", org, run.run_id, trigger)
    store.mark_processed("detect", org, "done", "completed")
    store.mark_processed("detect", org, "failed", "errored")
    store.mark_processed("detect", org, "failed", "errored")  # idempotent
    assert store.runs_to_process("detect", now=later + 10_000) == []
    # Another worker keeps its own books.
    assert {r.run_id for _, r, _ in store.runs_to_process("semantic", now=later)} == {
        "done", "failed", "open"}


def test_an_infinite_stall_timeout_hands_out_ended_runs_only(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, make_run("open", end=None))
    store.add_events(org, make_run("done"))
    got = store.runs_to_process("loop", stall_timeout_s=float("inf"), now=time.time() + 1e6)
    assert [(r.run_id, t) for _, r, t in got] == [("done", "completed")]


def test_a_recent_event_keeps_a_run_from_stalling(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, make_run("open", end=None))
    assert store.runs_to_process("detect", stall_timeout_s=90, now=time.time() + 30) == []


def test_a_lease_keeps_a_run_from_a_second_instance_until_it_expires(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, make_run("r1"))
    now = time.time()
    first = store.runs_to_process("detect", now=now, lease_s=60)
    assert [r.run_id for _, r, _ in first] == ["r1"]
    # A second instance of the same worker polls while the first is busy.
    assert store.runs_to_process("detect", now=now + 30, lease_s=60) == []
    # The first instance crashed without marking the run: after the lease it comes back.
    again = store.runs_to_process("detect", now=now + 61, lease_s=60)
    assert [r.run_id for _, r, _ in again] == ["r1"]
    store.mark_processed("detect", org, "r1", "completed")
    assert store.runs_to_process("detect", now=now + 1000) == []


def test_concurrent_instances_of_one_worker_take_disjoint_runs(db_url: str) -> None:
    setup = Store(db_url)
    org = setup.create_org("acme")
    for i in range(60):
        setup.add_events(org, make_run(f"r{i:02d}"))
    stores = [Store(db_url) for _ in range(4)]
    taken: list[list[str]] = [[] for _ in stores]
    barrier = threading.Barrier(len(stores))
    errors: list[BaseException] = []

    def poll(i: int) -> None:
        try:
            barrier.wait()
            while batch := stores[i].runs_to_process("detect", limit=7):
                for org_id, run, trigger in batch:
                    taken[i].append(run.run_id)
                    stores[i].mark_processed("detect", org_id, run.run_id, trigger)
        except BaseException as exc:  # noqa: BLE001 - surfaced below, not lost in the thread
            errors.append(exc)

    threads = [threading.Thread(target=poll, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in [setup, *stores]:
        s.close()
    assert errors == []
    everything = [r for part in taken for r in part]
    assert sorted(everything) == [f"r{i:02d}" for i in range(60)]  # each run exactly once


@pytest.mark.postgres
def test_a_run_finished_while_another_poller_claims_it_is_not_handed_out(
        pg_template: Any) -> None:
    # The race, made to happen: between poller B's query for candidates and its claim,
    # poller A takes the same run, finishes it and releases its claim. B's claim then meets
    # no conflict; B must still not get the finished run.
    with pg_template.database() as url, Store(url) as a, Store(url) as b:
        org = a.create_org("acme")
        a.add_events(org, make_run("r1"))
        finished: list[str] = []

        def finish_first(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
            if statement.lstrip().upper().startswith("INSERT INTO RUN_CLAIMS") and not finished:
                for org_id, run, trigger in a.runs_to_process("detector"):
                    a.mark_processed("detector", org_id, run.run_id, trigger)
                    finished.append(run.run_id)

        sa_event.listen(b.engine, "before_cursor_execute", finish_first)
        assert b.runs_to_process("detector") == []
        assert finished == ["r1"]
        with b.engine.connect() as conn:  # B left no lease behind on the finished run
            assert conn.execute(text("SELECT count(*) FROM run_claims")).scalar() == 0


def test_signals_are_idempotent_per_run_type_and_source(store: Store) -> None:
    org = store.create_org("acme")
    store.add_events(org, make_run("r1"))
    loop = Signal("TOOL_LOOP", "r1", "HIGH", 0.8, {"steps": [2, 3, 4]}, step_index=4,
                  agent_id="agent-a", agent_version="v1")
    semantic = Signal("TOOL_LOOP", "r1", "CRITICAL", 0.9, {"reasoning": "same search"},
                      source="semantic")
    assert store.add_signals(org, [loop, semantic]) == 2
    assert store.add_signals(org, [loop, semantic]) == 0
    assert store.add_signals(org, []) == 0
    got = store.signals_for_run(org, "r1")
    assert got == [loop, semantic]
    assert store.signals_for_run(org, "other") == []


def test_recent_runs_are_the_newest_completed_of_one_agent_version(store: Store) -> None:
    org = store.create_org("acme")
    for i in range(5):
        store.add_events(org, make_run(f"ok{i}", t0=T0 + i * 100))
    store.add_events(org, make_run("err", end="run.errored", t0=T0 + 1000))
    store.add_events(org, make_run("open", end=None, t0=T0 + 1000))
    store.add_events(org, make_run("other-version", version="v2", t0=T0 + 1000))
    runs = store.recent_runs(org, "agent-a", "v1", limit=3)
    assert [r.run_id for r in runs] == ["ok4", "ok3", "ok2"]
    assert all(r.status == "completed" and len(r.events) == 6 for r in runs)
    # Before a time: only runs that completed earlier.
    before = store.recent_runs(org, "agent-a", "v1", limit=3, before=runs[1].ended_at)
    assert [r.run_id for r in before] == ["ok2", "ok1", "ok0"]
    # For a batch: the window before its earliest run plus every run between.
    batch = [r for r in runs if r.run_id in ("ok3", "ok4")]
    history = store.history_for(org, batch, window=2)
    assert [r.run_id for r in history] == ["ok3", "ok2", "ok1"]


def test_database_failures_are_store_errors() -> None:
    with pytest.raises(StoreError, match="could not open the database"):
        Store("postgresql+psycopg://nobody@127.0.0.1:1/nothing")
    with pytest.raises(ConfigError, match="unsupported database"):
        Store("mysql://localhost/x")
    with pytest.raises(ConfigError, match="in-memory"):
        Store("sqlite://")


def test_sqlite_runs_in_wal_with_foreign_keys_and_a_busy_timeout(tmp_path: object) -> None:
    with Store(f"sqlite:///{tmp_path}/semloop.db") as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000


def test_a_bare_path_is_a_sqlite_file(tmp_path: object) -> None:
    with Store(f"{tmp_path}/plain.db") as store:
        assert store.dialect.value == "sqlite"
        assert store.add_events(store.create_org("a"), make_run("r1")) == 6


def test_a_new_sqlite_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "semloop.db"
    with Store(f"sqlite:///{path}") as store:
        org = store.create_org("acme")
        store.add_events(org, [Event("run.started", "r", "a", 0, 1.0, {})])
        created = [p for p in tmp_path.iterdir() if p.name.startswith("semloop.db")]
        assert {p.name for p in created} >= {"semloop.db", "semloop.db-wal"}
        for p in created:
            assert stat.S_IMODE(p.stat().st_mode) == 0o600, p.name
