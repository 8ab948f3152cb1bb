"""``semloop demo``: scripted agents through the SDK into the store, then the workers.

Everything runs in this process on the embedded default: a SQLite file, the embedded
judge, no API key, no network.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..events import Signal
from ..judge import Backend
from ..sdk import Client, RunContext, StoreEmitter
from ..store import Store
from ..worker import DetectorWorker, LoopWorker
from .scenarios import SCENARIOS, Scenario

__all__ = ["SCENARIOS", "DemoReport", "RecordingClient", "Scenario", "ScenarioResult", "run_demo"]

#: progress(stage, done, total)
Progress = Callable[[str, int, int], None]


@dataclass
class ScenarioResult:
    scenario: Scenario
    run_ids: list[str] = field(default_factory=list)
    signals: list[Signal] = field(default_factory=list)

    @property
    def found(self) -> set[str]:
        return {s.failure_type for s in self.signals if not s.shadow}

    @property
    def caught(self) -> set[str]:
        return self.found & self.scenario.expected

    @property
    def missed(self) -> set[str]:
        return set(self.scenario.expected) - self.found

    @property
    def unexpected(self) -> set[str]:
        return self.found - self.scenario.expected


@dataclass
class DemoReport:
    results: list[ScenarioResult]
    database_url: str
    judge: str
    seconds: float
    events: int

    @property
    def runs(self) -> int:
        return sum(len(r.run_ids) for r in self.results)


class RecordingClient(Client):
    """A client that remembers the run ids it hands out, to map runs back to scenarios."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.run_ids: list[str] = []

    def run(self, agent_id: str, **kwargs: Any) -> RunContext:
        ctx = super().run(agent_id, **kwargs)
        self.run_ids.append(ctx.run_id)
        return ctx


def _noop(stage: str, done: int, total: int) -> None:
    return None


def run_demo(
    database_url: str,
    backend: Backend,
    *,
    repeat: int = 1,
    seed: int = 7,
    scenarios: Sequence[Scenario] = SCENARIOS,
    progress: Progress = _noop,
) -> DemoReport:
    """Play every scenario ``repeat`` times, process the runs, and report what was found."""
    started = time.perf_counter()
    rng = random.Random(seed)
    with Store(database_url) as store:
        org_id = store.create_org("demo")
        client = RecordingClient(emitter=StoreEmitter(store, org_id), flush_interval=0.05)
        results = [ScenarioResult(s) for s in scenarios]
        total = len(scenarios) * repeat
        done = 0
        for _ in range(repeat):
            for result in results:
                before = len(client.run_ids)
                result.scenario.play(client, rng)
                result.run_ids.extend(client.run_ids[before:])
                done += 1
                progress("agents", done, total)
        client.shutdown(timeout=30)

        runs = sum(len(r.run_ids) for r in results)
        detector = DetectorWorker(store, poll_interval=0.1)
        loop = LoopWorker(store, backend, poll_interval=0.1, batch_size=10)
        handled = 0
        for worker in (detector, loop):
            handled = 0
            while (n := worker.run_once()) > 0:
                handled += n
                progress(f"{worker.name} worker", min(handled, runs), runs)
        for result in results:
            for run_id in result.run_ids:
                result.signals.extend(store.signals_for_run(org_id, run_id))
        events = store.count_events(org_id)
    return DemoReport(results=results, database_url=database_url, judge=backend.name,
                      seconds=time.perf_counter() - started, events=events)
