"""Reasoning-only loops: a plan restated without any tool call reads as no progress from
its third version on, and healthy reasoning-only traces keep reading as progress
(traces in tests/local/reasoning_loops.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from semloop._features import adds_to_plan, announces_plan, reports_outcome
from semloop.judge.local import LocalBackend
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Trace

from .reasoning_loops import HEALTHY, LOOPS, Expected

Make = Callable[[], tuple[Trace, Expected]]


def _progress(backend: LocalBackend, make: Make) -> tuple[dict[int, float], float, Expected]:
    trace, expected = make()
    result = SemanticLoopDetection(backend).measure(trace)
    progress = {
        int(q.split("_")[2]): float(a.value)
        for q, a in result.answers.items()
        if q.startswith("progress_")
    }
    return progress, result.score_breakdown["reasoning_stagnation"], expected


@pytest.mark.parametrize("make", LOOPS, ids=[m.__name__ for m in LOOPS])
def test_restated_plan_reads_as_no_progress(backend: LocalBackend, make: Make) -> None:
    progress, stagnation, expected = _progress(backend, make)
    assert expected.restated
    for j in expected.restated:
        assert progress[j] < 0.15, (j, progress)
    assert stagnation < 1.0


@pytest.mark.parametrize("make", HEALTHY, ids=[m.__name__ for m in HEALTHY])
def test_healthy_reasoning_reads_as_progress(backend: LocalBackend, make: Make) -> None:
    progress, stagnation, _ = _progress(backend, make)
    # No step leans towards "no progress"; a pair may be undecided (the first one always
    # may: too little evidence), and the lexical check then decides.
    assert all(p > 0.4 for p in progress.values()), progress
    assert stagnation == 1.0


def test_first_two_steps_of_a_restated_plan_stay_undecided(backend: LocalBackend) -> None:
    # Two versions of a plan are not yet evidence: at most undecided, never "no progress".
    for make in LOOPS:
        progress, _, _ = _progress(backend, make)
        assert progress[1] >= 0.4, (make.__name__, progress)


@pytest.mark.parametrize(
    ("text", "plan", "outcome"),
    [
        ("I’ll pull up the record and decide.", True, False),
        ("The plan is to fetch the record and check the result.", True, False),
        ("Next, examine the scan history.", True, False),
        ("Found the record: the renewal failed in May.", False, True),
        ("Traffic was flat, which suggests a conversion problem.", False, True),
        ("So I recommend rolling back the release.", False, True),
        ("Shopping list: rice, stock and parmesan.", False, False),
        ("No luck with the index; I\u2019ll try the archive next.", True, True),
    ],
)
def test_plan_and_outcome_wording(text: str, plan: bool, outcome: bool) -> None:
    assert announces_plan(text) is plan
    assert reports_outcome(text) is outcome


@pytest.mark.parametrize(
    ("text", "adds"),
    [
        ("Let me also consider caching the lookups.", True),
        ("Finally I will document the API.", True),
        ("Plan: look up the order. Finally, refund it.", True),
        ("First a venue, then rooms, and finally catering.", False),
        ("I will look for another flight to Lisbon.", False),
    ],
)
def test_adding_an_item_to_a_plan(text: str, adds: bool) -> None:
    assert adds_to_plan(text) is adds
