"""The four loop shapes the judge used to miss, and the healthy runs that look like them
(traces in tests/local/patterns.py, written for these tests in domains of their own)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from semloop.judge.local import LocalBackend
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Trace

from .patterns import HEALTHY_LOOKALIKES, LOOPS, Expected

Make = Callable[[], tuple[Trace, Expected]]


def _check(backend: LocalBackend, make: Make) -> None:
    trace, expected = make()
    result = SemanticLoopDetection(backend).measure(trace)
    breakdown = result.score_breakdown
    assert (breakdown["reasoning_stagnation"] < 1.0) is expected.stagnation, result.reason
    if expected.verdict is not None:
        assert result.flags_loop(0.5) is expected.verdict, (result.score, result.reason)
    if expected.tool_repeat is not None:
        assert (breakdown["tool_repetition"] < 1.0) is expected.tool_repeat, result.reason
    if expected.stagnation:
        assert not result.undecided, result.reason  # caught by the judge, not the fallback


@pytest.mark.parametrize("make", LOOPS, ids=[m.__name__ for m in LOOPS])
def test_loop_is_caught(backend: LocalBackend, make: Make) -> None:
    _check(backend, make)


@pytest.mark.parametrize("make", HEALTHY_LOOKALIKES, ids=[m.__name__ for m in HEALTHY_LOOKALIKES])
def test_lookalike_stays_healthy(backend: LocalBackend, make: Make) -> None:
    _check(backend, make)


def _tool_answer(backend: LocalBackend, make: Make) -> float:
    trace, _ = make()
    result = SemanticLoopDetection(backend).measure(trace)
    (answer,) = [a.value for q, a in result.answers.items() if q.startswith("tool_repeat_")]
    return answer


TOOL_LOOPS = [m for m in LOOPS if m()[1].tool_repeat]


@pytest.mark.parametrize("make", TOOL_LOOPS, ids=[m.__name__ for m in TOOL_LOOPS])
def test_repeated_tool_is_one_action(backend: LocalBackend, make: Make) -> None:
    # The judged question itself, not only the exact-match fallback: p >= 0.5.
    assert _tool_answer(backend, make) >= 0.5


LOOKALIKE_TOOLS = [
    "pagination_cursor",
    "polling_job",
    "batch_not_found",
    "batch_same_ok",
    "refined_search_finds",
    "refined_search_reworded_then_found",
    "different_questions_escalated",
    "batch_ids_from_goal",
]


@pytest.mark.parametrize("name", LOOKALIKE_TOOLS)
def test_lookalike_tool_calls_are_different_actions(backend: LocalBackend, name: str) -> None:
    make = next(m for m in HEALTHY_LOOKALIKES if m.__name__ == name)
    assert _tool_answer(backend, make) < 0.5
