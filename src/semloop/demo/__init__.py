"""``semloop demo``: scripted agents through the SDK into the store, then the workers.

Everything runs in this process on the embedded default: a SQLite file, the embedded
judge, no API key, no network. The semantic worker is on: it records why each run was
(not) evaluated, groups findings into recurring issues, and a second act marks a recurring
issue false positive three times to show later findings in it losing confidence.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..evaluate.findings import default_similarity
from ..evaluate.sampling import SamplingConfig
from ..events import Signal
from ..judge import Backend
from ..sdk import Client, RunContext, StoreEmitter
from ..store import Store, Usage, month_of
from ..worker import DetectorWorker, SemanticWorker
from .scenarios import SCENARIOS, Scenario, frustrated_user

__all__ = ["DEMO_SAMPLING", "SCENARIOS", "DemoReport", "RecordingClient", "Scenario",
           "ScenarioResult", "run_demo"]

#: The shipped rates, but no baseline or retrieval sample (so which healthy run is judged
#: does not change from one demo to the next) and every conversation.
DEMO_SAMPLING = SamplingConfig(baseline_rate=0.0, retrieval_rate=0.0,
                               conversation_evaluation_rate=1.0)

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
    #: Runs per sampling reason, with whether they were evaluated: ("baseline", False): 4.
    samples: dict[tuple[str, bool], int] = field(default_factory=dict)
    issues: list[dict[str, Any]] = field(default_factory=list)
    #: The frustrated-user finding before and after three false-positive marks on its issue.
    feedback: tuple[Signal | None, Signal | None] = (None, None)
    usage: Usage | None = None

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
        client.flush(timeout=30)

        runs = sum(len(r.run_ids) for r in results)
        # The demo counts the embedded judge's evaluations, so its usage shows numbers.
        store.update_org_semantics(org_id, count_local_evaluations=True)
        detector = DetectorWorker(store, poll_interval=0.1)
        semantic = SemanticWorker(store, backend, sampling=DEMO_SAMPLING, poll_interval=0.1,
                                  batch_size=10, similarity=default_similarity())
        for worker in (detector, semantic):
            handled = 0
            while (n := worker.run_once()) > 0:
                handled += n
                progress(f"{worker.name} worker", min(handled, runs), runs)
        for result in results:
            for run_id in result.run_ids:
                result.signals.extend(store.signals_for_run(org_id, run_id))
        samples: dict[tuple[str, bool], int] = {}
        for run_id in client.run_ids:
            sample = store.sample_of(org_id, run_id)
            if sample is not None:
                key = (sample.reason, sample.sampled)
                samples[key] = samples.get(key, 0) + 1
        feedback = _feedback_act(store, org_id, client, rng, (detector, semantic))
        client.shutdown(timeout=30)
        events = store.count_events(org_id)
        issues = store.recurring_issues(org_id)
        usage = store.usage(org_id, month_of(time.time()))
    return DemoReport(results=results, database_url=database_url, judge=backend.name,
                      seconds=time.perf_counter() - started, events=events, samples=samples,
                      issues=issues, feedback=feedback, usage=usage)


def _frustration(store: Store, org_id: str, run_ids: Sequence[str]) -> Signal | None:
    found = [s for r in run_ids for s in store.signals_for_run(org_id, r)
             if s.failure_type == "USER_FRUSTRATION"]
    return found[-1] if found else None


def _feedback_act(store: Store, org_id: str, client: RecordingClient, rng: random.Random,
                  workers: Sequence[DetectorWorker | SemanticWorker],
                  ) -> tuple[Signal | None, Signal | None]:
    """Three more frustrated conversations join one recurring issue; someone marks each
    finding false positive; the next one in that issue is less confident (and so below the
    floor: stored, not alerted)."""
    store.update_org_semantics(org_id, feedback_enabled=True)
    marked: list[str] = []
    for _ in range(3):
        before = len(client.run_ids)
        _play(frustrated_user, client, rng, workers)
        marked.extend(client.run_ids[before:])
    first = _frustration(store, org_id, marked)
    page = store.list_signals(org_id, limit=500, failure_type="USER_FRUSTRATION")
    for stored in page.items:
        if stored.signal.run_id in marked:
            store.add_feedback(org_id, stored.id, "false_positive", "the demo's user is fine")
    before = len(client.run_ids)
    _play(frustrated_user, client, rng, workers)
    return first, _frustration(store, org_id, client.run_ids[before:])


def _play(scenario: Callable[[Client, random.Random], None], client: RecordingClient,
          rng: random.Random, workers: Sequence[DetectorWorker | SemanticWorker]) -> None:
    scenario(client, rng)
    client.flush(timeout=30)
    for worker in workers:
        worker.drain()
