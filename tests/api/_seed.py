"""Seeding the semantic worker's tables the way the worker writes them, for tests of the
pages and routes that read them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from semloop.evaluate.sampling import Sample
from semloop.events import Signal
from semloop.store import Store, TaskOutcome


def finish_task(store: Store, org_id: str, run_id: str, evaluator: str, *, attempts: int = 1,
                signal: Signal | None = None,
                group: int | tuple[str, Sequence[float]] | None = None,
                calls: Sequence[Mapping[str, Any]] = ()) -> None:
    """One evaluator done on a run, recorded as the worker's ``finish_run`` does."""
    store.finish_run("semantic", org_id, run_id, "completed", [TaskOutcome(
        evaluator, "done", attempts, signal=signal, group=group, calls=calls)])


def charge_run(store: Store, org_id: str, run: Any, *, counted: bool = True) -> None:
    """A run sampled and its quota unit spent, as the worker's batch records it."""
    store.record_samples([(org_id, run, Sample(True, "structural", 1.0, 0.0), counted)])
