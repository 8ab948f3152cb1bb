"""Invariants of the judged detector over generated traces and judge answers."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semloop.evaluate.loop import (
    SemanticLoopDetection,
    _shallow,
    _unchanged_repeats,
    reasoning_steps,
)
from semloop.judge.mock import MockBackend
from semloop.lexical import WEIGHTS, combine_scores, lexical_loop_score, score_tool_repetition
from semloop.trace import Trace

WORDS = ["search", "again", "file", "orders", "tests", "fix", "guard", "read", "the", "now"]

step = st.one_of(
    st.fixed_dictionaries({
        "type": st.just("llm"),
        "output": st.lists(st.sampled_from(WORDS), min_size=0, max_size=30).map(" ".join),
    }),
    st.fixed_dictionaries({
        "type": st.just("tool"),
        "name": st.sampled_from(["grep", "read_file", "run_tests"]),
        "input": st.dictionaries(st.sampled_from(["path", "q", "limit"]),
                                 st.integers(0, 2), max_size=2),
        "output": st.sampled_from(["ok", "0 results", "1 failed"]),
    }),
)


@settings(max_examples=150, deadline=None)
@given(steps=st.lists(step, max_size=14), p=st.floats(0.0, 1.0),
       fallback=st.booleans(), lookahead=st.integers(1, 4))
def test_invariants(steps: list[dict[str, Any]], p: float, fallback: bool, lookahead: int) -> None:
    trace = Trace.from_steps("goal", steps)
    backend = MockBackend(default=p)
    result = SemanticLoopDetection(
        backend, lookahead=lookahead, fallback_to_lexical_when_uncertain=fallback
    ).measure(trace)
    lexical = lexical_loop_score(trace)
    n_steps = len(reasoning_steps(trace))
    tool_counts: dict[str, int] = {}
    for s in trace.tool_spans:
        tool_counts[s.name] = tool_counts.get(s.name, 0) + 1
    expect_call = n_steps >= 2 or any(c >= 3 for c in tool_counts.values())
    assert len(backend.calls) == (1 if expect_call else 0)

    breakdown = result.score_breakdown
    assert breakdown is not None and set(breakdown) == set(WEIGHTS)
    assert lexical.score_breakdown is not None
    # A judge can only add tool detections, never hide an exact-match one. The exact
    # count skips identical calls whose output changed or that follow a write
    # (semantic._unchanged_repeats): those are new attempts, not repeats.
    exact, _ = score_tool_repetition(
        _unchanged_repeats([_shallow(s) for s in trace.tool_spans]), 3)
    assert breakdown["tool_repetition"] <= exact
    assert breakdown["call_graph_cycles"] == lexical.score_breakdown["call_graph_cycles"]
    if result.undecided and fallback:
        assert breakdown["reasoning_stagnation"] <= lexical.score_breakdown["reasoning_stagnation"]
    combined = combine_scores(breakdown, dict.fromkeys(WEIGHTS, True))
    if "a loop by itself" in result.reason:
        # A severe stuck stretch of 3+ steps, or a mild one of 6+, holds the score just
        # below the threshold.
        assert breakdown["reasoning_stagnation"] < 1.0 and combined >= 0.5
        assert result.stuck_stretch is not None and result.score == pytest.approx(0.45)
    else:
        assert result.score == pytest.approx(combined)
    assert 0.0 <= result.score <= 1.0
    assert result.success == (result.score >= 0.5)
    assert all(v in (0.0, 0.5, 1.0) for v in breakdown.values())
