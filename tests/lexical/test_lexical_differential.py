"""Our port against deepeval's own AgentLoopDetectionMetric, example by example."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ._lexical_peer import (
    OPTIONS,
    assert_same,
    random_vocabulary,
    stagnation_traces,
    trace_dicts,
)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(trace=trace_dicts(), options=OPTIONS)
def test_same_result_as_deepeval(trace: dict[str, Any], options: dict[str, Any]) -> None:
    assert_same(trace, **options)


def test_same_result_as_deepeval_with_defaults() -> None:
    seen: Counter[tuple[str, float]] = Counter()

    # A fixed seed: which levels a random draw reaches varies run to run, and a rare miss
    # would fail CI for a property of the generator rather than of the port.
    @settings(SETTINGS, derandomize=True)
    @given(trace=trace_dicts())
    def check(trace: dict[str, Any]) -> None:
        got = assert_same(trace)
        assert got.score_breakdown is not None
        seen.update(got.score_breakdown.items())

    check()
    # The comparison only means something if every sub-score level really occurred.
    for key in ("tool_repetition", "reasoning_stagnation"):
        for level in (0.0, 0.5, 1.0):
            assert seen[key, level] > 0, (key, level, seen)
    assert seen["call_graph_cycles", 0.0] > 0 and seen["call_graph_cycles", 1.0] > 0


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"strict_mode": True},
        {"threshold": None},
        {"threshold": None, "strict_mode": True},
        {
            "check_tool_repetition": False,
            "check_reasoning_stagnation": False,
            "check_call_graph_cycles": False,
        },
    ],
)
@pytest.mark.parametrize("trace", [None, {}])
def test_none_and_empty(trace: Any, options: dict[str, Any]) -> None:
    got = assert_same(trace, **options)
    if trace is None:
        assert got.score == 0.0 and got.success is False and got.score_breakdown is None
    else:
        assert got.score == 1.0 and got.reason == "No loop patterns detected."


def test_same_stagnation_as_deepeval_on_adversarial_outputs() -> None:
    # Random vocabularies from 3 to 3,000 words, long outputs whose popular characters
    # change which ones seed difflib's matches, unicode, odd whitespace, stop words only
    # after the opening words, repeated and near-repeated outputs.
    seen: Counter[float] = Counter()

    @settings(SETTINGS, max_examples=200, derandomize=True)
    @given(
        trace=stagnation_traces(),
        threshold=st.sampled_from([0.85, 0.85, 0.5, 0.7, 0.95, 0.3, 1.0]),
    )
    def check(trace: dict[str, Any], threshold: float) -> None:
        got = assert_same(trace, similarity_threshold=threshold)
        assert got.score_breakdown is not None
        seen[got.score_breakdown["reasoning_stagnation"]] += 1

    check()
    assert seen[0.0] >= 10 and seen[1.0] >= 10, seen


@pytest.mark.parametrize("kind", ["uniform", "english", "zipf", "unicode", "short"])
def test_same_high_overlap_as_deepeval_on_random_vocabularies(kind: str) -> None:
    # The 0.5 band (similarity in [0.85, 0.95]) is narrow, so it gets seeded draws of its
    # own: two words changed in 40, near autojunk's 200 characters, or 12 in 300.
    rnd = random.Random(kind)
    vocabulary = random_vocabulary(rnd, kind, size=300)
    levels: Counter[float] = Counter()
    for length in [40] * 30 + [300] * 10:
        words = rnd.choices(vocabulary, k=length)
        edited = list(words)
        for _ in range(2 if length == 40 else 12):
            edited[rnd.randrange(length)] = rnd.choice(vocabulary)
        outputs = [" ".join(words), " ".join(edited), " ".join(rnd.choices(vocabulary, k=40))]
        trace = {
            "type": "agent",
            "name": "agent",
            "children": [{"type": "llm", "name": "reason", "output": text} for text in outputs],
        }
        got = assert_same(trace)
        assert got.score_breakdown is not None
        levels[got.score_breakdown["reasoning_stagnation"]] += 1
    assert levels[0.5] >= 3, levels
