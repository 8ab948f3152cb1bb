"""Acceptance: detector workers in their own processes keep working under faults.

A worker killed mid-batch (SIGKILL: no cleanup, its leases left behind) and a database that
goes away under a running worker must cost nothing but time: every run ends up processed
exactly once and every loop gets exactly one TOOL_LOOP signal, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import contextlib
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from semloop.api.testing import free_port
from semloop.events import Event
from semloop.store import Store
from semloop.store.testing import postgres_database

from ._procs import SEMLOOP, Workers, clean_env
from ._procs import wait_for as _wait_for

RUNS = 300  # every third one loops
WORKER = "detector"
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@dataclass
class Seeded:
    url: str
    org: str
    loops: set[str]
    healthy: set[str]

    @property
    def all(self) -> set[str]:
        return self.loops | self.healthy


def _run_events(run_id: str, *, loops: bool, t: float) -> list[Event]:
    agent = "looper" if loops else "helper"
    events = [Event("run.started", run_id, agent, 0, t, {"input_text": "find the invoice"})]
    calls = 6 if loops else 3
    for i in range(1, calls + 1):
        # A loop asks the same thing and learns nothing; a healthy run moves on.
        args = {"q": "invoice"} if loops else {"q": f"invoice {i}"}
        events.append(Event("tool.called", run_id, agent, i, t + i,
                            {"tool_name": "search", "args": args}))
        events.append(Event("tool.responded", run_id, agent, i, t + i + 0.5,
                            {"tool_name": "search", "success": True,
                             "output": "[]" if loops else f"hit {i}"}))
    events.append(Event("run.completed", run_id, agent, calls, t + calls + 1,
                        {"total_steps": calls, "exit_reason": "completed"}))
    return events


def _seed(url: str) -> Seeded:
    t = time.time() - 1000
    loops: set[str] = set()
    healthy: set[str] = set()
    events: list[Event] = []
    for i in range(RUNS):
        run_id = f"run-{i:04d}"
        looping = i % 3 == 0
        (loops if looping else healthy).add(run_id)
        events += _run_events(run_id, loops=looping, t=t + i)
    with Store(url) as store:  # also migrates, so the workers open a ready database
        org = store.create_org("acme")
        assert store.add_events(org, events) == len(events)
    return Seeded(url, org, loops, healthy)


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database URL: a SQLite file or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'chaos.db'}"
        return
    with postgres_database(request.getfixturevalue("postgres_url")) as url:
        yield url


# -- looking at the database from outside ------------------------------------------------


@contextlib.contextmanager
def _engine(url: str) -> Iterator[sa.Engine]:
    # No pool: a connection per look, so none survives an outage to fail the next look.
    engine = sa.create_engine(url, poolclass=NullPool)
    try:
        yield engine
    finally:
        engine.dispose()


def _processed(engine: sa.Engine) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(sa.text(
            "SELECT run_id FROM processed_runs WHERE worker = :w"), {"w": WORKER}).scalars())


def _leased(engine: sa.Engine) -> set[str]:
    with engine.connect() as conn:
        return set(conn.execute(sa.text(
            "SELECT run_id FROM run_claims WHERE worker = :w AND claimed_until >= :now"),
            {"w": WORKER, "now": time.time()}).scalars())


def _expire_leases(engine: sa.Engine) -> int:
    """What 300 s of waiting would do: every lease left on the table lapses now."""
    with engine.begin() as conn:
        return conn.execute(sa.text(
            "UPDATE run_claims SET claimed_until = 0 WHERE worker = :w"), {"w": WORKER}).rowcount


def _signal_counts(engine: sa.Engine) -> dict[tuple[str, str], int]:
    with engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT run_id, failure_type, COUNT(*) FROM failure_signals "
            "GROUP BY run_id, failure_type"))
        return {(run_id, kind): n for run_id, kind, n in rows}


def _assert_processed_once_with_right_signals(engine: sa.Engine, seeded: Seeded) -> None:
    processed = _processed(engine)
    assert len(processed) == len(seeded.all) and set(processed) == seeded.all
    counts = _signal_counts(engine)
    assert all(n == 1 for n in counts.values()), {k: n for k, n in counts.items() if n != 1}
    assert {run for run, kind in counts if kind == "TOOL_LOOP"} == seeded.loops
    assert {run for run, _ in counts} <= seeded.loops, "a healthy run got a signal"


# -- the worker processes -----------------------------------------------------------------


@pytest.fixture
def workers(database: str, tmp_path: Path) -> Iterator[Workers]:
    pool = Workers(database, tmp_path)
    try:
        yield pool
    finally:
        pool.stop_all()  # before the database is dropped: PostgreSQL refuses while in use


def _wait_idle(engine: sa.Engine, seeded: Seeded, *, timeout: float,
               alive: Callable[[], None]) -> set[str]:
    """Wait until the live workers have nothing left to take: every unprocessed run is
    leased (to a dead or failed holder) and that stays so for 1 s. Returns those runs."""
    deadline = time.monotonic() + timeout
    stable_since, last = time.monotonic(), None
    while True:
        alive()
        left = seeded.all - set(_processed(engine))
        state = left if left <= _leased(engine) else None
        if state is None or state != last:
            stable_since, last = time.monotonic(), state
        elif time.monotonic() - stable_since >= 1.0:
            return state
        assert time.monotonic() < deadline, f"workers never settled; {len(left)} runs left"
        time.sleep(0.05)


# -- the tests ----------------------------------------------------------------------------


def test_a_killed_worker_costs_only_its_leases(workers: Workers) -> None:
    seeded = _seed(workers.url)
    with _engine(workers.url) as engine:
        victim = workers.start()
        # A worker clears a batch in well under a second, so looking and then killing could
        # miss it; frozen (SIGSTOP), what the table shows is what it holds when it dies.
        deadline = time.monotonic() + 30
        while True:
            workers.assert_alive(victim)
            victim.send_signal(signal.SIGSTOP)
            held, done_at_kill = _leased(engine), len(_processed(engine))
            if held:
                break
            victim.send_signal(signal.SIGCONT)
            assert done_at_kill < RUNS, "the worker finished before it was caught; seed more runs"
            assert time.monotonic() < deadline, "timed out waiting for the worker to take leases"
            time.sleep(0.01)
        victim.send_signal(signal.SIGKILL)  # mid-batch: no cleanup, its leases stay
        victim.wait(timeout=10)
        assert done_at_kill < RUNS
        survivor, replacement = workers.start(), workers.start()

        def alive() -> None:
            workers.assert_alive(survivor, replacement)

        # The others finish everything else but leave the dead worker's runs alone while
        # its leases last: they are not stolen from a worker that may only be slow.
        stranded = _wait_idle(engine, seeded, timeout=30, alive=alive)
        assert stranded, "the killed worker held no lease; nothing was tested"
        assert _expire_leases(engine) >= len(stranded)
        _wait_for("the stranded runs", lambda: len(_processed(engine)) == RUNS, timeout=20,
                  alive=alive)
        alive()
        _assert_processed_once_with_right_signals(engine, seeded)


@contextlib.contextmanager
def _postgres_outage(admin_url: str, url: str) -> Iterator[None]:
    """The database refuses connections and every open one is cut, until the block ends."""
    name = make_url(url).database
    admin = sa.create_engine(admin_url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            cut = conn.execute(sa.text(
                "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = :name AND pid <> pg_backend_pid()"), {"name": name}).scalar()
            assert cut, "no worker connection to cut"
        yield
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        admin.dispose()


@contextlib.contextmanager
def _sqlite_outage(url: str) -> Iterator[None]:
    """Another connection's exclusive transaction holds the file: no worker may write."""
    conn = sqlite3.connect(str(make_url(url).database), timeout=10, isolation_level=None)
    try:
        conn.execute("BEGIN EXCLUSIVE")
        yield
        conn.execute("COMMIT")
    finally:
        conn.close()


def test_a_worker_outlives_the_database_going_away(workers: Workers,
                                                   request: pytest.FixtureRequest) -> None:
    seeded = _seed(workers.url)
    postgres = workers.url.startswith("postgresql")
    with _engine(workers.url) as engine:
        worker = workers.start()

        def alive() -> None:
            workers.assert_alive(worker)

        _wait_for("the first processed run", lambda: len(_processed(engine)) > 0, timeout=30,
                  alive=alive)
        if postgres:
            outage = _postgres_outage(request.getfixturevalue("postgres_url"), workers.url)
        else:
            outage = _sqlite_outage(workers.url)
        with outage:
            done_during = len(_processed(engine)) if not postgres else None
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                alive()
                time.sleep(0.05)
            if postgres:
                # Every poll fails while the database is gone; the worker logs and counts it.
                _wait_for("a failed batch", lambda: "batch failed" in workers.log(worker),
                          timeout=10, alive=alive)
            else:
                # SQLite's busy timeout (30 s) outlasts the lock: the worker waits, frozen.
                assert len(_processed(engine)) == done_during
        done_after = len(_processed(engine))
        assert done_after < RUNS - 100, "too little work was left for the outage to matter"
        alive()
        # Back: the worker carries on by itself, with the runs nobody had leased and with
        # the runs it had leased when a write failed (it retries those itself; no lease has
        # to lapse first).
        _wait_for("every run", lambda: len(_processed(engine)) == RUNS, timeout=30, alive=alive)
        alive()
        _assert_processed_once_with_right_signals(engine, seeded)
        if not postgres:
            assert "batch failed" not in workers.log(worker)


def _assert_stopped_cleanly(proc: subprocess.Popen[bytes], engine: sa.Engine,
                            log: Callable[[], str]) -> None:
    """Exit 0 after SIGTERM, with every run it had leased finished, none left hanging."""
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0, log()
    hanging = _leased(engine) - set(_processed(engine))
    assert not hanging, f"{len(hanging)} runs left leased by a stopped worker"


@pytest.mark.parametrize("args", [[], ["--once"]], ids=["polling", "once"])
def test_sigterm_finishes_the_batch_and_exits_0(workers: Workers, args: list[str]) -> None:
    """Polling or ``--once`` (under a cron job's timeout): the backlog the worker has not
    reached waits, leased to nobody, for the next worker."""
    seeded = _seed(workers.url)
    workers.args = args
    with _engine(workers.url) as engine:
        proc = workers.start()
        _wait_for("the worker mid-batch",
                  lambda: len(_leased(engine) - set(_processed(engine))) > 0,
                  timeout=30, alive=lambda: workers.assert_alive(proc))
        _assert_stopped_cleanly(proc, engine, lambda: workers.log(proc))
        assert len(_processed(engine)) < len(seeded.all), "it finished first; seed more runs"


def test_sigterm_to_up_finishes_its_workers_batches(database: str, tmp_path: Path) -> None:
    seeded = _seed(database)
    log = tmp_path / "up.log"
    with _engine(database) as engine, log.open("wb") as out:
        proc = subprocess.Popen(
            [*SEMLOOP, "up", "--workers", WORKER, "--poll-interval", "0.1", "--host",
             "127.0.0.1", "--port", str(free_port()), "--database-url", database],
            env=clean_env(), stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_for("up's worker mid-batch",
                      lambda: len(_leased(engine) - set(_processed(engine))) > 0,
                      timeout=60, alive=lambda: _alive(proc, log))
            _assert_stopped_cleanly(proc, engine, lambda: log.read_text(errors="replace"))
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        assert len(_processed(engine)) <= len(seeded.all)


# ``semloop up`` whose app takes a SIGTERM while it is being built: the moment before
# uvicorn installs its own handlers, hit every time instead of by luck of timing.
_UP_SIGNALLED_WHILE_STARTING = """
import os, signal, sys
import semloop.api
from semloop.cli import main

build = semloop.api.create_app

def create_app(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGTERM)
    return build(*args, **kwargs)

semloop.api.create_app = create_app
sys.argv[0] = "semloop"
main()
"""


def test_sigterm_while_up_is_starting_still_stops_it(tmp_path: Path) -> None:
    """A stop that lands before uvicorn serves must not be lost (it once was: up served on)."""
    database = f"sqlite:///{tmp_path / 'start.db'}"
    _seed(database)
    log = tmp_path / "up.log"
    with _engine(database) as engine, log.open("wb") as out:
        proc = subprocess.Popen(
            [SEMLOOP[0], "-c", _UP_SIGNALLED_WHILE_STARTING, "up", "--workers", WORKER,
             "--poll-interval", "0.1", "--host", "127.0.0.1", "--port", str(free_port()),
             "--database-url", database],
            env=clean_env(), stdout=out, stderr=subprocess.STDOUT)
        try:
            assert proc.wait(timeout=60) == 0, log.read_text(errors="replace")
            hanging = _leased(engine) - set(_processed(engine))
            assert not hanging, f"{len(hanging)} runs left leased by a stopped up"
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)


def _alive(proc: subprocess.Popen[bytes], log: Path) -> None:
    assert proc.poll() is None, f"exited {proc.returncode}:\n{log.read_text(errors='replace')}"
