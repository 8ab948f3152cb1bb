"""How fast the alerts worker decides, and how that holds up as an agent's history grows.

    .venv/bin/python bench/alerts_decide.py [--database-url URL] [--history-runs 20000]

Fills one agent with ``--history-runs`` finished runs (10 events each), then times the
worker's decide phase over 200 new signals of a consecutive-policy failure type (each
decision reads the agent's last 21 runs, their signals and the last alert). No HTTP: the
config has no destinations, so only the decide phase is timed.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from semloop.events import Event, Signal
from semloop.store import Store
from semloop.worker import AlertsWorker


def fill(store: Store, org: str, agent: str, runs: int, start: float) -> float:
    t = start
    batch: list[Event] = []
    for i in range(runs):
        t += 1.0
        run = f"h{i}"
        batch.append(Event("run.started", run, agent, 0, t - 0.9))
        batch.extend(Event("tool.called", run, agent, k, t - 0.8 + k * 0.05, {"tool_name": "s"})
                     for k in range(1, 9))
        batch.append(Event("run.completed", run, agent, 9, t))
        if len(batch) >= 5000:
            store.add_events(org, batch)
            batch = []
    store.add_events(org, batch)
    return t


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url")
    parser.add_argument("--history-runs", type=int, default=20_000)
    parser.add_argument("--signals", type=int, default=200)
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    with Store(url) as store:
        org = store.create_org(f"bench-{time.time_ns()}")
        t0 = time.perf_counter()
        t = fill(store, org, "busy", args.history_runs, 1_700_000_000.0)
        # Other agents' events make the table bigger without being in this agent's history.
        fill(store, org, "other", args.history_runs, 1_700_000_000.0)
        filled = time.perf_counter() - t0
        runs = []
        for i in range(args.signals):
            t += 1.0
            run = f"n{i}"
            store.add_events(org, [Event("run.started", run, "busy", 0, t - 0.5),
                                   Event("run.completed", run, "busy", 1, t)])
            runs.append(Signal("TOOL_LOOP", run, "HIGH", 0.9, {"steps": [1]},
                               agent_id="busy"))
        store.add_signals(org, runs)
        worker = AlertsWorker(store, batch_size=100)
        started = time.perf_counter()
        decided = 0
        while True:
            n = len(worker.decide_batch())
            if n == 0:
                break
            decided += n
        elapsed = time.perf_counter() - started
    print(f"database: {url.split(':')[0]}; agent history: {args.history_runs} runs "
          f"({args.history_runs * 10 * 2} events in the table, filled in {filled:.1f} s)")
    print(f"decided {decided} signals in {elapsed * 1000:.0f} ms: "
          f"{elapsed / max(decided, 1) * 1000:.2f} ms per signal, "
          f"{decided / elapsed:.0f} signals/s; {worker.decisions}")


if __name__ == "__main__":
    main()
