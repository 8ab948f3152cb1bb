"""The lexical port's documented blind spots, pinned on the seed's reference dataset."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from conftest import REFERENCE_DATASET  # tests/conftest.py, the shared one
from semloop.lexical import LexicalLoopDetection, LoopResult, combine_scores
from semloop.trace import Trace

ROWS: dict[str, dict[str, Any]] = {
    row["trace_id"]: row
    for row in map(json.loads, REFERENCE_DATASET.read_text(encoding="utf-8").splitlines())
}


def measure(trace_id: str) -> LoopResult:
    return LexicalLoopDetection().measure(Trace.from_dict(ROWS[trace_id]))


def breakdown(trace_id: str) -> dict[str, float]:
    result = measure(trace_id)
    assert result.score_breakdown is not None
    return result.score_breakdown


def test_dataset_is_the_seed_s_sixty_traces() -> None:
    assert len(ROWS) == 60
    assert Counter(row["family"] for row in ROWS.values()) == dict.fromkeys(
        [
            "alternating_loop", "boilerplate_progress", "cosmetic_args_loop",
            "identical_tool_loop", "paraphrased_loop", "progress", "retry_then_recover",
            "template_progress", "terse_loop", "verbatim_loop",
        ],
        6,
    )  # fmt: skip


def test_paraphrased_loop_is_invisible_to_stagnation() -> None:
    assert breakdown("paraphrased_loop-00")["reasoning_stagnation"] == 1.0


def test_verbatim_loop_is_caught_as_identical_reasoning() -> None:
    result = measure("verbatim_loop-00")
    assert result.score_breakdown is not None
    assert result.score_breakdown["reasoning_stagnation"] == 0.0
    assert "Identical reasoning outputs at steps" in result.sub_reasons["reasoning_stagnation"]


def test_identical_tool_loop_is_caught_by_repetition() -> None:
    assert breakdown("identical_tool_loop-00")["tool_repetition"] == 0.0


def test_cosmetic_argument_changes_reset_repetition() -> None:
    assert breakdown("cosmetic_args_loop-00")["tool_repetition"] == 1.0


def test_template_progress_is_a_stagnation_false_positive() -> None:
    assert breakdown("template_progress-00")["reasoning_stagnation"] < 1.0
    # ...that the weighting hides: a lone stagnation signal cannot fail the trace.
    assert measure("template_progress-00").success is True


def test_terse_steps_are_skipped_not_compared() -> None:
    assert breakdown("terse_loop-00")["reasoning_stagnation"] == 1.0


def test_alternating_loop_escapes_adjacent_pair_comparison() -> None:
    assert breakdown("alternating_loop-00")["reasoning_stagnation"] == 1.0


def test_weighting_quirk_on_the_combination_step() -> None:
    # Tool repetition at its worst, everything else clean: 0.60, still a pass at 0.5.
    score = combine_scores(
        {"tool_repetition": 0.0, "reasoning_stagnation": 1.0, "call_graph_cycles": 1.0},
        dict.fromkeys(["tool_repetition", "reasoning_stagnation", "call_graph_cycles"], True),
    )
    assert score == pytest.approx(0.60, abs=1e-12)
    assert score >= 0.5


def test_seed_published_lexical_table() -> None:
    """The seed's table: stagnation 24/60 family by family, verdict 36/60."""
    stagnation: Counter[str] = Counter()
    verdict: Counter[str] = Counter()
    for row in ROWS.values():
        result = LexicalLoopDetection().measure(Trace.from_dict(row))
        assert result.score_breakdown is not None
        flagged_stagnation = result.score_breakdown["reasoning_stagnation"] < 1.0
        stagnation[row["family"]] += flagged_stagnation == row["stagnation"]
        verdict[row["family"]] += result.flags_loop(0.5) == row["loop"]
    assert {family: n for family, n in stagnation.items() if n} == {
        "identical_tool_loop": 6,
        "progress": 6,
        "retry_then_recover": 6,
        "verbatim_loop": 6,
    }
    assert sum(stagnation.values()) == 24
    assert sum(verdict.values()) == 36
