"""What retention costs, in one run, on a SQLite file and on PostgreSQL (--postgres-url):

- **prune**: runs/s and events/s deleted by ``Store.prune`` over ``--runs`` old runs of
  ``--steps`` events each (a signal on every tenth run), in batches of 500, and the longest
  single batch (how long ingest waits behind one).
- **ingest**: events/s through ``Store.add_events`` (batches of 100) with migration 0004's
  events index and, in the same run, with it dropped: what the index costs every insert.

    .venv/bin/python bench/retention.py --postgres-url postgresql+psycopg://USER@HOST/DB
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import text, update

from semloop.events import Event, Signal
from semloop.store import PruneResult, Store
from semloop.store import queries as q
from semloop.store.testing import postgres_database


def _fill(store: Store, org: str, runs: int, steps: int, tag: str = "") -> None:
    for start in range(0, runs, 100):
        ids = [f"{tag}r{i}" for i in range(start, min(start + 100, runs))]
        store.add_events(org, [Event("tool.called", r, "a", s, 1e9 + s, {"tool_name": "t"},
                                     event_id=f"{r}-{s}") for r in ids for s in range(steps)])
        store.add_signals(org, [Signal("TOOL_LOOP", r, "high", .9)
                                for r in ids if int(r.rsplit("r", 1)[1]) % 10 == 0])


def _prune(url: str, runs: int, steps: int) -> tuple[float, float, float]:
    with Store(url) as store:
        org = store.create_org("bench")
        _fill(store, org, runs, steps)
        with store.engine.begin() as conn:
            conn.execute(update(q.events).values(received_at=1e9 + q.events.c.id))
        marks: list[float] = [time.perf_counter()]

        def tick(_done: PruneResult) -> None:
            marks.append(time.perf_counter())

        result = store.prune(2e9, progress=tick)
        took = marks[-1] - marks[0]
        assert result.runs == runs and result.events == runs * steps, result
        longest = max(b - a for a, b in itertools.pairwise(marks))
        return runs / took, runs * steps / took, longest


def _ingest(url: str, events: int, index: bool) -> float:
    with Store(url) as store:
        if not index:
            with store.engine.begin() as conn:
                conn.execute(text("DROP INDEX ix_events_org_id_received_at_id"))
        org = store.create_org("bench")
        runs = events // 10
        start = time.perf_counter()
        _fill(store, org, runs, 10, tag="i")
        return runs * 10 / (time.perf_counter() - start)


@contextlib.contextmanager
def _databases(postgres_url: str | None) -> Iterator[list[tuple[str, Iterator[str]]]]:
    with tempfile.TemporaryDirectory() as tmp:
        counter = iter(range(100))

        def sqlite() -> Iterator[str]:
            while True:
                yield f"sqlite:///{Path(tmp) / f'bench{next(counter)}.db'}"

        found: list[tuple[str, Iterator[str]]] = [("sqlite", sqlite())]
        if postgres_url:
            def postgres() -> Iterator[str]:
                while True:
                    with postgres_database(postgres_url) as url:
                        yield url
            found.append(("postgresql", postgres()))
        yield found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres-url")
    parser.add_argument("--runs", type=int, default=5000)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--events", type=int, default=50_000)
    args = parser.parse_args()
    print(f"{'database':<11} {'prune runs/s':>12} {'events/s':>9} {'max batch':>9} "
          f"{'ingest ev/s':>11} {'no index':>9} {'ratio':>6}")
    with _databases(args.postgres_url) as databases:
        for name, urls in databases:
            runs_s, events_s, longest = _prune(next(urls), args.runs, args.steps)
            with_index = _ingest(next(urls), args.events, True)
            without = _ingest(next(urls), args.events, False)
            print(f"{name:<11} {runs_s:>12.0f} {events_s:>9.0f} {longest * 1000:>7.0f}ms "
                  f"{with_index:>11.0f} {without:>9.0f} {with_index / without:>6.2f}")


if __name__ == "__main__":
    main()
