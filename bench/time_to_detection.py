"""Seconds from an agent's run ending to semloop having judged it, under load, in one run.

For each database (a SQLite file; PostgreSQL from --postgres-url, or a throwaway cluster as
bench/ingest_throughput.py starts one, in a scratch database made and dropped here), the
real thing runs as subprocesses: ``semloop up --workers ""`` (ingest and read API),
``--detectors`` × ``semloop worker detector`` and one ``semloop worker loop`` (the
embedded judge), all on the same database. ``--agents`` threads, each its own
``semloop.Client`` over HTTP (its own agent process, as it were), start runs at ``--rate``
runs/s for ``--duration`` s: the demo's scripted agents (src/semloop/demo/scenarios.py),
``--failing`` of them failing ones, so signals are expected.

Per run, from the moment the SDK sends its terminal event (the batch holding it goes out):

- **readable**: the agent's thread polls ``GET /v1/runs/{id}`` (every 10 ms) until the
  terminal event is there;
- **structural verdict**: the detector worker's ``processed_runs.processed_at`` (its
  signals are written just before; a healthy run's verdict is "nothing"), read from the
  store after the drive, so no poll of ours adds to it;
- **loop verdict**: the same for the loop worker (one embedded-judge call per run).

Detection waits for a worker's poll: an idle worker sleeps ``--poll-interval`` s, so a run
that ends at a random moment waits P/2 s on average. More workers do not shorten that: the
ones that found nothing all go to sleep as a batch ends, so they wake in step (measured:
two detector workers give a median near P/2, not P/3). Beside each verdict row the table
shows the poll's wait alone (uniform on 0..P: P/2, 0.95 P, P); run with a short
``--poll-interval`` to see what is left without it. Then it checks every
run was read back, processed exactly once by each worker, with no duplicate signal and
with its scenario's expected structural signals. The peer figure is Dunetrace's
documented detector poll (5 s); nothing of Dunetrace is measured here.

About 40 s per database with the defaults:

    .venv/bin/python bench/time_to_detection.py [--postgres-url URL] [--rate 10]
        [--duration 20] [--agents 16] [--detectors 2] [--poll-interval 1]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from ingest_throughput import free_port, throwaway_postgres
from semloop.demo import RecordingClient
from semloop.demo.scenarios import SCENARIOS, Scenario
from semloop.detect import DETECTORS
from semloop.evaluate import EVALUATORS
from semloop.events import Event
from semloop.sdk import HttpEmitter
from semloop.store import Store
from semloop.store.testing import postgres_database

SEMLOOP = [sys.executable, "-m", "semloop.cli"]
TERMINAL = ("run.completed", "run.errored")
DUNETRACE_POLL_S = 5.0  # detector worker poll, ../shared/spec/dunetrace-reference.md

HEALTHY = [s for s in SCENARIOS if not s.expected]
# The semantic worker's evaluators (AGENT_LOOP, USER_FRUSTRATION, …) do not run here: a
# scenario that only they catch is not a failing run for this bench.
NOT_STRUCTURAL = {"SEMANTIC_LOOP", *EVALUATORS}
FAILING = [s for s in SCENARIOS if s.expected - NOT_STRUCTURAL]
# Found by the detector worker whatever the load. Baselined detectors judge a run against
# the agent's runs already stored, so their verdict moves with the traffic (a token burn
# is no longer unusual once most of that agent's runs burn tokens): not expected here.
BASELINED = {name for name, d in DETECTORS.items() if d.uses_baseline}


def expected_structural(scenario: Scenario) -> frozenset[str]:
    return scenario.expected - NOT_STRUCTURAL - BASELINED


@dataclass
class Played:
    run_id: str
    scenario: Scenario
    readable: float | None = None  # wall clock, when GET first showed the terminal event


@dataclass
class Drive:
    played: list[Played] = field(default_factory=list)
    ended: dict[str, float] = field(default_factory=dict)  # the terminal event's timestamp
    sent: dict[str, float] = field(default_factory=dict)  # when the batch holding it went out
    lock: threading.Lock = field(default_factory=threading.Lock)
    lateness: list[float] = field(default_factory=list)  # run starts behind schedule, s


class _TimedEmitter:
    """The SDK's HTTP emitter, noting when each run's terminal event is delivered."""

    def __init__(self, inner: HttpEmitter, drive: Drive) -> None:
        self.inner = inner
        self.drive = drive

    def send(self, events: Sequence[Event]) -> None:
        start = time.time()
        self.inner.send(events)  # raises on failure: the SDK retries, we note the success
        with self.drive.lock:
            for e in events:
                if e.event_type in TERMINAL:
                    self.drive.sent.setdefault(e.run_id, start)
                    self.drive.ended.setdefault(e.run_id, e.timestamp)

    def close(self) -> None:
        self.inner.close()




# -- the processes ----------------------------------------------------------------------


def _env() -> dict[str, str]:
    # Only the flags count; no key, so the loop worker uses the embedded judge.
    return {k: v for k, v in os.environ.items()
            if not k.startswith("SEMLOOP_") and k != "TYPESAFE_API_KEY"}


@contextlib.contextmanager
def processes(url: str, logs: Path, detectors: int, loop: bool,
              poll: float) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """The API and the workers on ``url``; yields the API's base URL and every process."""
    port = free_port()
    commands = [[*SEMLOOP, "up", "--workers", "", "--port", str(port), "--database-url", url]]
    names = ["detector"] * detectors + (["loop"] if loop else [])
    commands += [[*SEMLOOP, "worker", name, "--database-url", url, "--poll-interval", str(poll)]
                 for name in names]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for i, command in enumerate(commands):
            with (logs / f"proc-{i}.log").open("wb") as out:
                procs.append(subprocess.Popen(command, env=_env(), stdout=out,
                                              stderr=subprocess.STDOUT))
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/health", timeout=1).close()
                break
            except OSError:
                check_alive(procs, logs)
                if time.monotonic() > deadline:
                    raise SystemExit("semloop up did not start") from None
                time.sleep(0.1)
        yield base, procs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def check_alive(procs: list[subprocess.Popen[bytes]], logs: Path) -> None:
    for i, proc in enumerate(procs):
        if proc.poll() is not None:
            tail = (logs / f"proc-{i}.log").read_text(errors="replace")[-2000:]
            raise SystemExit(f"{proc.args!r} exited {proc.returncode}:\n{tail}")


# -- the agents --------------------------------------------------------------------------


def drive(base: str, key: str, *, rate: float, duration: float, agents: int,
          failing: float, flush: float, seed: int) -> Drive:
    """Start ``rate × duration`` runs on schedule from ``agents`` threads."""
    total = max(1, round(rate * duration))
    rng = random.Random(seed)
    plan = [rng.choice(FAILING if rng.random() < failing else HEALTHY) for _ in range(total)]
    out = Drive()
    next_play = iter(range(total))
    errors: list[BaseException] = []
    start = time.monotonic() + 0.5  # every thread ready before the first run is due

    def agent() -> None:
        client = RecordingClient(emitter=_TimedEmitter(HttpEmitter(base, key), out),
                                  flush_interval=flush)
        conn = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=10)
        try:
            while True:
                with out.lock:
                    i = next(next_play, None)
                if i is None:
                    return
                late = time.monotonic() - (start + i / rate)
                if late < 0:
                    time.sleep(-late)
                before = len(client.run_ids)
                plan[i].play(client, random.Random(seed + i))
                runs = [Played(r, plan[i]) for r in client.run_ids[before:]]
                for run in runs:
                    run.readable = wait_readable(conn, key, run.run_id)
                with out.lock:
                    out.lateness.append(max(0.0, late))
                    out.played.extend(runs)
        except BaseException as exc:  # noqa: BLE001 - reported after the run
            errors.append(exc)
        finally:
            conn.close()
            if not client.shutdown(timeout=30):
                errors.append(RuntimeError(f"the SDK did not deliver everything: {client.stats}"))

    threads = [threading.Thread(target=agent) for _ in range(agents)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return out


def wait_readable(conn: http.client.HTTPConnection, key: str, run_id: str,
                  timeout: float = 30.0) -> float | None:
    """Poll the read API until the run's terminal event is there; the wall-clock time then."""
    deadline = time.monotonic() + timeout
    headers = {"Authorization": f"Bearer {key}"}
    while time.monotonic() < deadline:
        conn.request("GET", f"/v1/runs/{run_id}", headers=headers)
        reply = conn.getresponse()
        body = reply.read()
        now = time.time()
        if reply.status == 200 and any(e["event_type"] in TERMINAL
                                       for e in json.loads(body)["events"]):
            return now
        if reply.status not in (200, 404):
            raise RuntimeError(f"GET /v1/runs answered {reply.status}: {body[:200]!r}")
        time.sleep(0.01)
    return None


# -- reading the verdicts back ----------------------------------------------------------


@dataclass
class Verdicts:
    processed: dict[str, dict[str, float]]  # worker -> run -> processed_at
    duplicates: int  # rows beyond one per (worker, run) or per (run, failure type, source)
    signals: dict[str, set[str]]  # run -> structural failure types


def verdicts(engine: sa.Engine) -> Verdicts:
    processed: dict[str, dict[str, float]] = {}
    duplicates = 0
    with engine.connect() as conn:
        for worker, run, at in conn.execute(sa.text(
                "SELECT worker, run_id, processed_at FROM processed_runs")):
            seen = processed.setdefault(worker, {})
            duplicates += run in seen
            seen[run] = at
        signals: dict[str, set[str]] = {}
        for run, kind, source, n in conn.execute(sa.text(
                "SELECT run_id, failure_type, source, COUNT(*) FROM failure_signals "
                "GROUP BY run_id, failure_type, source")):
            duplicates += n - 1
            if source == "structural":
                signals.setdefault(run, set()).add(kind)
    return Verdicts(processed, duplicates, signals)


def wait_processed(engine: sa.Engine, runs: int, workers: Sequence[str], timeout: float,
                   procs: list[subprocess.Popen[bytes]], logs: Path) -> Verdicts:
    deadline = time.monotonic() + timeout
    while True:
        found = verdicts(engine)
        if all(len(found.processed.get(w, {})) >= runs for w in workers):
            return found
        check_alive(procs, logs)
        if time.monotonic() > deadline:
            return found  # reported as missing below
        time.sleep(0.2)


# -- one database -----------------------------------------------------------------------


@dataclass
class Result:
    name: str
    runs: int
    failing: int
    offered: float
    played_rate: float
    late_p95: float
    rows: list[tuple[str, tuple[float, float, float]]]
    detected_rate: dict[str, float]
    checks: list[str]
    ok: bool


def measure(name: str, url: str, args: argparse.Namespace) -> Result:
    with Store(url) as store:  # also migrates, so the workers open a ready database
        org = store.create_org("bench")
        key = store.create_api_key(org)
    workers = ["detector"] + (["loop"] if not args.no_loop else [])
    engine = sa.create_engine(url, poolclass=NullPool)
    with tempfile.TemporaryDirectory() as tmp, \
            processes(url, Path(tmp), args.detectors, not args.no_loop,
                      args.poll_interval) as (base, procs):
        time.sleep(args.poll_interval)  # the workers' first (empty) polls are behind them
        out = drive(base, key, rate=args.rate, duration=args.duration, agents=args.agents,
                    failing=args.failing, flush=args.flush, seed=args.seed)
        check_alive(procs, Path(tmp))
        found = wait_processed(engine, len(out.played), workers, args.drain_timeout, procs,
                               Path(tmp))
    engine.dispose()

    played = out.played
    ids = {p.run_id for p in played}
    ok = True
    checks: list[str] = []

    def check(what: str, good: int, of: int) -> None:
        nonlocal ok
        ok &= good == of
        checks.append(f"{what} {good}/{of}")

    def since_sent(at: dict[str, float] | None) -> list[float]:
        at = at or {}
        return [at[p.run_id] - out.sent[p.run_id] for p in played
                if p.run_id in at and p.run_id in out.sent]

    check("terminal events sent", sum(p.run_id in out.sent for p in played), len(played))
    readable: dict[str, float] = {p.run_id: p.readable for p in played
                                  if p.readable is not None}
    check("readable via GET", len(readable), len(played))
    for worker in workers:
        done = found.processed.get(worker, {})
        check(f"processed by {worker}", len(ids & done.keys()), len(played))
        if done.keys() - ids:
            ok = False
            checks.append(f"{worker} processed {len(done.keys() - ids)} unknown runs")
    checks.append(f"duplicate rows {found.duplicates}")
    ok &= found.duplicates == 0
    bad = [p for p in played if p.scenario in FAILING]
    caught = sum(expected_structural(p.scenario) <= found.signals.get(p.run_id, set())
                 for p in bad)
    check("failing runs with their expected structural signals", caught, len(bad))
    noisy = [found.signals[p.run_id] for p in played
             if p.scenario in HEALTHY and found.signals.get(p.run_id)]
    kinds = sorted(set().union(*noisy)) if noisy else []
    checks.append(f"healthy runs with a structural signal {len(noisy)}/"
                  f"{len(played) - len(bad)}" + (f" ({', '.join(kinds)})" if kinds else ""))

    p = args.poll_interval
    poll_wait = ("  the poll's wait alone, U(0, P)", (p / 2, 0.95 * p, p))
    rows = [
        ("run ends -> terminal event sent",
         figures([out.sent[r] - out.ended[r] for r in out.sent if r in ids])),
        ("sent -> readable (GET /v1/runs/{id})", figures(since_sent(readable))),
        ("sent -> structural verdict", figures(since_sent(found.processed.get("detector")))),
        poll_wait,
    ]
    if not args.no_loop:
        rows += [("sent -> loop verdict (embedded judge)",
                  figures(since_sent(found.processed.get("loop")))), poll_wait]
    ends = sorted(out.ended[r] for r in ids if r in out.ended)
    detected_rate = {}
    for worker in workers:
        times = sorted(found.processed.get(worker, {}).values())
        if len(times) > 1 and ends:
            detected_rate[worker] = len(times) / (times[-1] - ends[0])
    played_rate = len(played) / (ends[-1] - ends[0]) if len(ends) > 1 else 0.0
    lateness = sorted(out.lateness)
    return Result(name, len(played), len(bad), args.rate, played_rate,
                  lateness[int(0.95 * (len(lateness) - 1))], rows, detected_rate, checks, ok)


def figures(values: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max (nan when there is nothing to measure)."""
    if not values:
        return float("nan"), float("nan"), float("nan")
    if len(values) == 1:
        return values[0], values[0], values[0]
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49], cuts[94], max(values)


def report(result: Result, args: argparse.Namespace) -> None:
    loop = "" if args.no_loop else " + 1 loop worker"
    print(f"\n{result.name}: 1 API process, {args.detectors} detector workers{loop}; "
          f"poll interval {args.poll_interval:g} s; SDK flush {args.flush:g} s")
    print(f"{result.runs} runs ({result.failing} failing) offered at {result.offered:g} runs/s "
          f"for {args.duration:g} s from {args.agents} agent threads; played "
          f"{result.played_rate:.1f} runs/s (p95 start {result.late_p95 * 1000:.0f} ms late)")
    print(f"  {'seconds':<40}{'p50':>8}{'p95':>8}{'max':>8}")
    for label, (p50, p95, top) in result.rows:
        print(f"  {label:<40}{p50:>8.3f}{p95:>8.3f}{top:>8.3f}")
    rates = ", ".join(f"{w} {r:.1f}" for w, r in result.detected_rate.items())
    print(f"  judged runs/s (first run end to last verdict): {rates}")
    print("  " + "; ".join(result.checks) + ("" if result.ok else "   <-- FAILED"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres-url", help="admin URL of a server (a scratch DB is made)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    parser.add_argument("--rate", type=float, default=10.0, help="runs started per second")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of traffic")
    parser.add_argument("--agents", type=int, default=16, help="concurrent agent threads")
    parser.add_argument("--failing", type=float, default=0.5, help="share of failing runs")
    parser.add_argument("--detectors", type=int, default=2, help="detector worker processes")
    parser.add_argument("--no-loop", action="store_true", help="no loop worker")
    parser.add_argument("--poll-interval", type=float, default=1.0,
                        help="workers' poll interval, s (semloop's default is 5)")
    parser.add_argument("--flush", type=float, default=0.2,
                        help="SDK flush interval, s (its default)")
    parser.add_argument("--drain-timeout", type=float, default=120.0,
                        help="s to wait for the workers after the traffic")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    results: list[Result] = []
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            results.append(measure("sqlite", f"sqlite:///{tmp}/bench.db", args))
    if not args.no_postgres:
        with contextlib.ExitStack() as stack:
            admin = args.postgres_url or stack.enter_context(throwaway_postgres())
            url = stack.enter_context(postgres_database(admin))
            results.append(measure("postgresql", url, args))

    print(f"\n{os.cpu_count()} CPUs; latencies from the SDK sending a run's terminal event")
    for result in results:
        report(result, args)
    print(f"\npeer: Dunetrace's detector worker polls every {DUNETRACE_POLL_S:g} s (documented): "
          f"a run that ends at a\nrandom moment waits {DUNETRACE_POLL_S / 2:g} s on average, up "
          f"to {DUNETRACE_POLL_S:g} s, before a detector looks at it, on top of\ningest and "
          "detection (not measured here). semloop's workers also default to 5 s; run with\n"
          "--poll-interval 5 for the same wait, or a short one to see semloop without it.")
    if not all(r.ok for r in results):
        raise SystemExit("a run was lost, duplicated or missed its signals")


if __name__ == "__main__":
    main()
