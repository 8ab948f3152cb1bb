"""Events/s through HTTP ingest next to a raw bulk insert of the same rows, in one run.

For each database (a SQLite file; PostgreSQL from --postgres-url, or a throwaway cluster
started the way scripts/_postgres.sh does):

- **ingest**: the real app under uvicorn in a subprocess; ``--clients`` threads POST
  pre-encoded batches of ``--batch`` events in the SDK's envelope to ``/v1/ingest``
  (JSON parsing, validation, auth, de-duplication and the insert all count).
- **raw**: the same number of threads insert the same kind of rows with the bare driver
  (sqlite3 / psycopg ``executemany`` of ``INSERT … ON CONFLICT DO NOTHING``), one
  transaction per batch, into the same migrated table — what ingest costs at the least.

Prints a table and ingest/raw. Target: ingest ≥ 0.5× raw. About 30 s in all.

    .venv/bin/python bench/ingest_throughput.py [--postgres-url URL] [--events 20000]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from semloop.store import Store
from semloop.store._dialect import normalize_url
from semloop.store.testing import postgres_database

SERVER = """
import sys, uvicorn
from semloop.api import create_app
from semloop.store import Store
store = Store(sys.argv[1])
uvicorn.run(create_app(store), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning",
            access_log=False)
"""

INSERT = (
    "INSERT INTO events (org_id, event_id, event_type, run_id, agent_id, agent_version, "
    "step_index, timestamp, payload, parent_run_id, trace_id, conversation_id, received_at) "
    "VALUES ({p}) ON CONFLICT (org_id, event_id) DO NOTHING"
)
KINDS = ["run.started", "llm.called", "llm.responded", "tool.called", "tool.responded",
         "llm.called", "llm.responded", "tool.called", "tool.responded", "run.completed"]


def make_events(n: int) -> list[dict[str, Any]]:
    """``n`` events shaped like the dunetrace SDK's, runs of ten events each."""
    now = time.time()
    out = []
    for i in range(n):
        run = f"run-{uuid.uuid4().hex[:16]}" if i % 10 == 0 else out[-1]["run_id"]
        kind = KINDS[i % 10]
        payload: dict[str, Any] = {"model": "gpt-4o-mini", "prompt_tokens": 812}
        if kind.endswith("responded"):
            payload = {"output": "The order was refunded on the 3rd. " * 4, "latency_ms": 420,
                       "completion_tokens": 64, "finish_reason": "stop", "success": True}
        elif kind == "tool.called":
            payload = {"tool_name": "lookup_order", "args": "{'order_id': 'A-1042'}"}
        out.append({"event_type": kind, "run_id": run, "agent_id": "support-agent",
                    "agent_version": "a1b2c3d4", "step_index": (i % 10 + 1) // 2,
                    "timestamp": now + i * 0.001, "payload": payload, "parent_run_id": None,
                    "trace_id": None, "conversation_id": "conv-1",
                    "event_id": str(uuid.uuid4())})
    return out


def batches(events: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    return [events[i:i + size] for i in range(0, len(events), size)]


def run_threads(clients: int, work: list[Any], do: Callable[[Any, Any], None],
                setup: Callable[[], Any], teardown: Callable[[Any], None]) -> float:
    """Split ``work`` over ``clients`` threads; seconds from the first item to the last."""
    lock = threading.Lock()
    items = iter(work)
    errors: list[BaseException] = []
    barrier = threading.Barrier(clients + 1)

    def worker() -> None:
        ctx = setup()
        try:
            barrier.wait()
            while True:
                with lock:
                    item = next(items, None)
                if item is None:
                    return
                do(ctx, item)
        except BaseException as exc:  # noqa: BLE001 - reported after the run
            errors.append(exc)
        finally:
            teardown(ctx)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise errors[0]
    return elapsed


# -- raw ------------------------------------------------------------------------------


def raw_insert(url: str, org_id: str, events: list[dict[str, Any]], size: int,
               clients: int) -> float:
    parsed = normalize_url(url)
    received = time.time()
    rows = [[(org_id, e["event_id"], e["event_type"], e["run_id"], e["agent_id"],
              e["agent_version"], e["step_index"], e["timestamp"], e["payload"],
              e["parent_run_id"], e["trace_id"], e["conversation_id"], received)
             for e in batch] for batch in batches(events, size)]
    if parsed.get_backend_name() == "sqlite":
        import sqlite3

        sql = INSERT.format(p=", ".join("?" * 13))
        # One writer at a time, queued on a lock, as the store does: SQLite's busy handler
        # would otherwise sleep between retries and understate the raw figure.
        writer = threading.Lock()

        def connect() -> Any:
            conn = sqlite3.connect(parsed.database, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA synchronous=NORMAL")
            return conn

        def insert(conn: Any, batch: list[tuple[Any, ...]]) -> None:
            params = [(*r[:8], json.dumps(r[8]), *r[9:]) for r in batch]
            with writer:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany(sql, params)
                conn.execute("COMMIT")
    else:
        import psycopg

        sql = INSERT.format(p=", ".join(["%s"] * 13))
        dsn = parsed.set(drivername="postgresql").render_as_string(hide_password=False)

        def connect() -> Any:
            return psycopg.connect(dsn)

        def insert(conn: Any, batch: list[tuple[Any, ...]]) -> None:
            with conn.cursor() as cur:
                cur.executemany(sql, [(*r[:8], json.dumps(r[8]), *r[9:]) for r in batch])
            conn.commit()

    return run_threads(clients, rows, insert, connect, lambda c: c.close())


# -- ingest over HTTP -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def served(url: str) -> Iterator[tuple[int, int]]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port)])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/health")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("the ingest server did not start")
            time.sleep(0.1)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def http_ingest(port: int, key: str, events: list[dict[str, Any]], size: int,
                clients: int) -> float:
    # Bodies are encoded up front: the figure is the server's cost, not the client's.
    bodies = [json.dumps({"api_key": key, "agent_id": "support-agent", "events": b}).encode()
              for b in batches(events, size)]
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}

    def post(conn: http.client.HTTPConnection, body: bytes) -> None:
        conn.request("POST", "/v1/ingest", body=body, headers=headers)
        reply = conn.getresponse()
        data = reply.read()
        if reply.status != 202 or json.loads(data)["stored"] != size:
            raise RuntimeError(f"ingest answered {reply.status}: {data[:200]!r}")

    return run_threads(clients, bodies, post,
                       lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=30),
                       lambda c: c.close())


# -- PostgreSQL -----------------------------------------------------------------------


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A scratch cluster, as scripts/_postgres.sh starts one (initdb refuses root)."""
    bindirs = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    if not bindirs:
        raise SystemExit("no PostgreSQL binaries under /usr/lib/postgresql: pass --postgres-url")
    bindir = bindirs[-1]
    root = Path(tempfile.mkdtemp(prefix="semloop-bench-pg."))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(root / "data"), "-A", "trust",
                    "-U", "postgres"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(root / "data"), "-l",
                    str(root / "log"), "-w", "-o",
                    f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off",
                    "start"], check=True, stdout=subprocess.DEVNULL)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(root / "data"), "-m",
                        "fast", "stop"], stdout=subprocess.DEVNULL, check=False)
        shutil.rmtree(root, ignore_errors=True)


# -- main -----------------------------------------------------------------------------


def measure(url: str, n: int, size: int, clients: int, rounds: int) -> tuple[float, float, float]:
    """(ingest ev/s, raw ev/s, server CPU µs per ingested event) over ``n`` events each.

    The two paths alternate in ``rounds`` so a change in the machine's load (it is shared)
    falls on both alike.
    """
    with Store(url) as store:
        org_id = store.create_org("bench")
        key = store.create_api_key(org_id)
    per_round = max(size, n // rounds // size * size)
    ingest_s = raw_s = cpu = 0.0
    with served(url) as (port, pid):
        # Warm both paths (connections, prepared statements, the table's first pages).
        http_ingest(port, key, make_events(size * clients), size, clients)
        raw_insert(url, org_id, make_events(size * clients), size, clients)
        for _ in range(rounds):
            before = cpu_seconds(pid)
            ingest_s += http_ingest(port, key, make_events(per_round), size, clients)
            cpu += cpu_seconds(pid) - before
            raw_s += raw_insert(url, org_id, make_events(per_round), size, clients)
    total = per_round * rounds
    with Store(url) as store:
        expected = 2 * total + 2 * size * clients
        stored = store.count_events(org_id)
        if stored != expected:
            raise SystemExit(f"stored {stored} events, expected {expected}")
    return total / ingest_s, total / raw_s, cpu / total * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres-url", help="admin URL of a server (a scratch DB is made)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--events", type=int, default=20_000, help="events per measurement")
    parser.add_argument("--batch", type=int, default=100, help="events per request")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of the two paths")
    args = parser.parse_args()

    results: list[tuple[str, float, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        results.append(("sqlite", *measure(url, args.events, args.batch, args.clients, args.rounds)))
    if not args.no_postgres:
        with contextlib.ExitStack() as stack:
            admin = args.postgres_url or stack.enter_context(throwaway_postgres())
            url = stack.enter_context(postgres_database(admin))
            results.append(("postgresql", *measure(url, args.events, args.batch, args.clients, args.rounds)))

    print(f"\n{args.events} events per path in {args.rounds} alternating rounds, batches of "
          f"{args.batch}, {args.clients} clients, {os.cpu_count()} CPUs\n")
    print(f"{'database':<12}{'HTTP ingest ev/s':>18}{'raw insert ev/s':>18}{'ingest/raw':>12}"
          f"{'server CPU/event':>18}")
    for name, ingest, raw, cpu_us in results:
        print(f"{name:<12}{ingest:>18,.0f}{raw:>18,.0f}{ingest / raw:>11.2f}x"
              f"{cpu_us:>15.0f} µs")
    print("\ntarget: ingest/raw >= 0.50x")


if __name__ == "__main__":
    main()
