"""The port's edge cases, one by one, as the spec states them (and checked against deepeval)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from semloop._exceptions import TraceFormatError
from semloop.lexical import (
    WEIGHTS,
    LexicalLoopDetection,
    combine_scores,
    flatten,
    lexical_loop_score,
    score_call_graph_cycles,
    score_reasoning_stagnation,
    score_tool_repetition,
)
from semloop.trace import Trace

from ._lexical_peer import assert_same

ALL_ON = dict.fromkeys(WEIGHTS, True)
# fmt: off
WORDS = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
    "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
    "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee",
]
# fmt: on


def tool(name: str, value: Any = None, *, children: list[Any] | None = None) -> dict[str, Any]:
    span: dict[str, Any] = {"type": "tool", "name": name, "children": children or []}
    if value is not None:
        span["input"] = value
    return span


def llm(output: Any) -> dict[str, Any]:
    return {"type": "llm", "name": "think", "output": output, "children": []}


def agent(*children: Any, **fields: Any) -> dict[str, Any]:
    return {"type": "agent", "name": "agent", **fields, "children": list(children)}


def test_weights_are_deepeval_s() -> None:
    assert WEIGHTS == {
        "tool_repetition": 0.40,
        "reasoning_stagnation": 0.35,
        "call_graph_cycles": 0.25,
    }
    assert list(WEIGHTS) == ["tool_repetition", "reasoning_stagnation", "call_graph_cycles"]


# The spec's table 3.5: every combination of sub-scores with all checks on.
COMBINATIONS = {
    (1.0, 1.0, 1.0): 1.0, (1.0, 1.0, 0.0): 0.75, (1.0, 0.5, 1.0): 0.825,
    (1.0, 0.5, 0.0): 0.575, (1.0, 0.0, 1.0): 0.65, (1.0, 0.0, 0.0): 0.4,
    (0.5, 1.0, 1.0): 0.8, (0.5, 1.0, 0.0): 0.55, (0.5, 0.5, 1.0): 0.625,
    (0.5, 0.5, 0.0): 0.375, (0.5, 0.0, 1.0): 0.45, (0.5, 0.0, 0.0): 0.2,
    (0.0, 1.0, 1.0): 0.6, (0.0, 1.0, 0.0): 0.35, (0.0, 0.5, 1.0): 0.425,
    (0.0, 0.5, 0.0): 0.175, (0.0, 0.0, 1.0): 0.25, (0.0, 0.0, 0.0): 0.0,
}  # fmt: skip


@pytest.mark.parametrize(("scores", "expected"), COMBINATIONS.items())
def test_combination_table(scores: tuple[float, float, float], expected: float) -> None:
    assert combine_scores(dict(zip(WEIGHTS, scores)), ALL_ON) == pytest.approx(expected, abs=1e-12)


def test_single_severe_signal_cannot_flip_the_default_verdict() -> None:
    worst_single = min(
        combine_scores({k: 0.0 if k == key else 1.0 for k in WEIGHTS}, ALL_ON) for key in WEIGHTS
    )
    assert worst_single == pytest.approx(0.60, abs=1e-12)
    assert worst_single >= 0.5


def test_combination_uses_only_enabled_checks() -> None:
    breakdown = {"tool_repetition": 0.0, "reasoning_stagnation": 1.0, "call_graph_cycles": 0.5}
    assert combine_scores(breakdown, dict.fromkeys(WEIGHTS, False)) == 1.0
    only_rep = {"tool_repetition": True}
    assert combine_scores(breakdown, only_rep) == 0.0
    assert combine_scores(
        breakdown, {"reasoning_stagnation": True, "call_graph_cycles": True}
    ) == pytest.approx((0.35 + 0.125) / 0.6, abs=1e-12)
    assert combine_scores(breakdown, ALL_ON, {"tool_repetition": 1.0}) == 0.0


def test_flatten_is_pre_order_and_skips_falsy_nodes() -> None:
    leaf_a, leaf_b = tool("a"), tool("b")
    root = agent(agent(leaf_a, None, {}), leaf_b)
    names = [span["name"] for span in flatten(root)]
    assert names == ["agent", "agent", "a", "b"]
    assert flatten(None) == [] and flatten({}) == []


def test_non_span_children_are_a_trace_format_error() -> None:
    with pytest.raises(TraceFormatError):
        flatten(agent("not a span"))
    with pytest.raises(TraceFormatError):
        flatten({"type": "agent", "children": "abc"})
    with pytest.raises(TraceFormatError):
        LexicalLoopDetection().measure(42)  # type: ignore[arg-type]


def test_one_and_string_one_collide_and_key_order_is_ignored() -> None:
    spans = [
        tool("s", {"q": 1, "p": 2}),
        tool("s", {"p": "2", "q": "1"}),
        tool("s", '{"q": 1, "p": 2}'),
    ]
    assert score_tool_repetition(spans) == (
        0.5,
        "Tool 's' called 3 times with identical arguments.",
    )


def test_invalid_json_and_non_dict_inputs_are_stringified() -> None:
    assert score_tool_repetition([tool("s", "{bad")] * 3)[0] == 0.5
    # [1, 2] and "[1, 2]" both become ("[1, 2]",); 7 and "7" both ("7",).
    assert (
        score_tool_repetition([tool("s", [1, 2]), tool("s", "[1, 2]"), tool("s", [1, 2])])[0] == 0.5
    )
    assert score_tool_repetition([tool("s", 7), tool("s", "7"), tool("s", 7.0)])[0] == 1.0
    # A missing input is {} (no arguments), the same as "{}".
    assert score_tool_repetition([tool("s"), tool("s", "{}"), tool("s", {})])[0] == 0.5


def test_repetition_counts_tree_wide_and_ties_go_to_the_first_call() -> None:
    first, second = tool("first", {"x": 1}), tool("second", {"x": 1})
    spans = [second, first, second, first, second, first]
    assert score_tool_repetition(spans) == (
        0.5,
        "Tool 'second' called 3 times with identical arguments.",
    )
    assert score_tool_repetition([first] * 6) == (
        0.0,
        "Tool 'first' called 6 times with identical arguments.",
    )
    assert score_tool_repetition([first] * 2) == (
        1.0,
        "Tool calls are within acceptable repetition limits.",
    )
    assert score_tool_repetition([]) == (1.0, "No tool spans found.")
    assert score_tool_repetition([first], repetition_threshold=1)[0] == 0.5


def text(words: list[str]) -> str:
    return " ".join(words)


def test_stagnation_needs_two_spans_and_twenty_meaningful_words() -> None:
    assert score_reasoning_stagnation([llm(text(WORDS))]) == (
        1.0,
        "Not enough LLM spans to check for reasoning stagnation.",
    )
    nineteen = text(WORDS[:19] + ["the", "and", "is", "ab"] * 5)
    assert score_reasoning_stagnation([llm(nineteen), llm(nineteen)]) == (
        1.0,
        "No reasoning stagnation.",
    )
    twenty = text(WORDS[:20])
    assert score_reasoning_stagnation([llm(twenty), llm(twenty)]) == (
        0.0,
        "Identical reasoning outputs at steps 0 and 1.",
    )


def test_non_string_outputs_skip_only_their_pairs() -> None:
    same = text(WORDS)
    spans = [llm(same), llm({"text": same}), llm(same), llm(same)]
    assert score_reasoning_stagnation(spans) == (
        0.0,
        "Identical reasoning outputs at steps 2 and 3.",
    )


def test_punctuation_stays_attached_so_stop_words_survive() -> None:
    # "the," is the twentieth meaningful word; the bare stop word "the" is not.
    with_comma = text([*WORDS[:19], "the,"])
    bare = text([*WORDS[:19], "the"])
    assert score_reasoning_stagnation([llm(with_comma), llm(with_comma)])[0] == 0.0
    assert score_reasoning_stagnation([llm(bare), llm(bare)])[0] == 1.0
    assert_same(agent(llm(with_comma), llm(with_comma)))


def test_first_pair_wins_ties_and_indices_count_llm_spans_only() -> None:
    same = text(WORDS)
    root = agent(tool("t"), llm(text(WORDS[::-1])), tool("t"), llm(same), llm(same), llm(same))
    result = LexicalLoopDetection().measure(root)
    assert (
        result.sub_reasons["reasoning_stagnation"]
        == "Identical reasoning outputs at steps 1 and 2."
    )
    assert_same(root)


def test_high_overlap_band_and_threshold_above_095() -> None:
    a = WORDS[:24]
    b = list(a)
    b[5:7] = ["qqqqqqq", "qqqqqqq"]
    spans = [llm(text(a)), llm(text(b))]
    score, reason = score_reasoning_stagnation(spans)
    assert (score, reason) == (0.5, "High reasoning overlap (0.92) at steps 0 and 1.")
    assert score_reasoning_stagnation(spans, similarity_threshold=0.96)[0] == 1.0
    assert score_reasoning_stagnation(spans, similarity_threshold=0.93)[0] == 1.0
    assert_same(agent(*spans))


def test_autojunk_depresses_long_near_duplicates() -> None:
    # 200+ characters: difflib ignores popular characters, so one changed word costs a lot.
    words = [w + w for w in WORDS] * 2
    changed = list(words)
    changed[25] = "zzzzzzzz"
    assert len(text(words)) >= 200
    root = agent(llm(text(words)), llm(text(changed)))
    assert_same(root)
    assert_same(root, similarity_threshold=0.5)


def test_siblings_never_cycle() -> None:
    assert score_call_graph_cycles(agent(tool("t", {"q": 1}), tool("t", {"q": 1}))) == (
        1.0,
        "No execution cycles detected.",
    )
    assert score_call_graph_cycles(None) == (1.0, "No call graph cycles detected.")
    assert score_call_graph_cycles({}) == (1.0, "No call graph cycles detected.")


def test_nested_identical_span_is_a_cycle_shown_without_input() -> None:
    inner = tool("t", {"q": 1})
    root = agent(agent(tool("t", {"q": 1}, children=[tool("x"), inner]), input="sub"))
    assert score_call_graph_cycles(root) == (
        0.0,
        "Cycle detected in execution path: tool:t -> tool:t.",
    )
    # The path runs from the repeated ancestor down: a -> x -> b -> a (the second branch).
    deep = agent(
        agent(agent(input="c"), input="b"),
        agent(agent(agent(input="a"), input="b"), input="x"),
        input="a",
    )
    assert score_call_graph_cycles(deep) == (
        0.0,
        "Cycle detected in execution path: " + " -> ".join(["agent:agent"] * 4) + ".",
    )
    assert_same(deep)


def test_inputs_differing_after_64_characters_collide() -> None:
    stem = "x" * 64
    assert score_call_graph_cycles(agent(agent(input=stem + "a"), input=stem + "b"))[0] == 0.0
    assert (
        score_call_graph_cycles(agent(agent(input=stem[1:] + "a"), input=stem[1:] + "b"))[0] == 1.0
    )


def test_cycle_label_defaults_and_colons_in_names() -> None:
    root = {"children": [{"children": []}]}
    assert score_call_graph_cycles(root) == (
        0.0,
        "Cycle detected in execution path: unknown:unnamed -> unknown:unnamed.",
    )
    colon = {"type": "agent", "name": "a:b", "children": [{"type": "agent", "name": "a:b"}]}
    assert (
        score_call_graph_cycles(colon)[1] == "Cycle detected in execution path: agent:a -> agent:a."
    )
    assert_same(root)
    assert_same(colon)


def test_leaf_labels_are_compared_whenever_an_ancestor_could_match() -> None:
    # Leaves are only compared when an ancestor's label starts with their "type:name:";
    # that must still catch equal dict inputs, labels equal across the type/name colon,
    # and leaves that are not lists of children at all.
    cases = [
        agent(tool("t", {"q": 1}, children=[tool("t", {"q": 1})])),
        agent(tool("t", {"q": 1}, children=[tool("t", {"q": 2}), tool("u", {"q": 1})])),
        {"type": "a:b", "name": "c", "children": [{"type": "a", "name": "b:c"}]},
        {
            "type": "a",
            "name": "b",
            "input": "c:d",
            "children": [{"type": "a", "name": "b:c", "input": "d"}],
        },
        {"type": "a", "name": "b", "children": [{"type": "a", "name": "b", "children": ()}]},
        agent(agent(children=[{"type": "agent", "name": "agent", "input": "", "children": []}])),
    ]
    scores = [score_call_graph_cycles(root)[0] for root in cases]
    assert scores == [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    for root in cases:
        assert_same(root)
    with pytest.raises(TraceFormatError):
        score_call_graph_cycles(agent(tool("t", children=[{"type": "tool", "children": None}])))


def test_deep_trees_do_not_hit_the_recursion_limit() -> None:
    root: dict[str, Any] = {"type": "agent", "name": "leaf", "children": []}
    for depth in range(5000):
        root = {"type": "agent", "name": f"n{depth}", "children": [root]}
    assert len(flatten(root)) == 5001
    assert score_call_graph_cycles(root)[0] == 1.0


def test_none_versus_empty_trace() -> None:
    none = LexicalLoopDetection().measure(None)
    assert (none.score, none.success, none.score_breakdown) == (0.0, False, None)
    assert none.reason == "No trace data found. This metric requires trace data from @observe."
    empty = LexicalLoopDetection(threshold=None).measure({})
    assert (empty.score, empty.success, empty.reason) == (1.0, None, "No loop patterns detected.")


def test_strict_mode_is_binary_and_overrides_threshold() -> None:
    root = agent(*[tool("t", {"q": 1})] * 3)
    strict = LexicalLoopDetection(threshold=0.1, strict_mode=True)
    assert strict.threshold == 1
    result = strict.measure(root)
    assert (result.score, result.success) == (0.0, False)
    assert result.reason == "Tool 't' called 3 times with identical arguments."
    assert LexicalLoopDetection(strict_mode=True).measure(agent()).score == 1.0
    assert_same(root, strict_mode=True, threshold=0.1)


def test_threshold_none_scores_only() -> None:
    result = LexicalLoopDetection(threshold=None).measure(agent(*[tool("t")] * 6))
    assert result.success is None and result.score == pytest.approx(0.6, abs=1e-12)
    assert not result.flags_loop() and result.flags_loop(0.7)


def test_disabled_checks_report_skipped_and_one() -> None:
    root = agent(*[tool("t")] * 6)
    result = LexicalLoopDetection(check_tool_repetition=False).measure(root)
    assert result.score_breakdown == dict.fromkeys(WEIGHTS, 1.0)
    assert result.sub_reasons["tool_repetition"] == "Tool repetition check skipped."
    assert result.reason == "No loop patterns detected."
    off = dict.fromkeys(
        ["check_tool_repetition", "check_reasoning_stagnation", "check_call_graph_cycles"], False
    )
    assert LexicalLoopDetection(**off).measure(root).sub_reasons == {
        "tool_repetition": "Tool repetition check skipped.",
        "reasoning_stagnation": "Reasoning stagnation check skipped.",
        "call_graph_cycles": "Call graph cycles check skipped.",
    }


def test_reason_joins_failing_signals_in_order() -> None:
    same = text(WORDS)
    looped = tool("t", children=[tool("t")])
    root = agent(looped, *[tool("t")] * 5, llm(same), llm(same))
    result = LexicalLoopDetection().measure(root)
    assert result.reason == (
        "Tool 't' called 7 times with identical arguments. "
        "Identical reasoning outputs at steps 0 and 1. "
        "Cycle detected in execution path: tool:t -> tool:t."
    )
    assert result.flags_loop()
    assert_same(root)


def test_trace_objects_score_as_their_root_dict() -> None:
    root = agent(*[tool("t", {"q": i % 2}) for i in range(7)], llm(text(WORDS)), llm(text(WORDS)))
    trace = Trace.from_deepeval_trace_dict(root, goal="g")
    assert lexical_loop_score(trace) == lexical_loop_score(trace.root.to_dict())
    assert lexical_loop_score(trace).score_breakdown == {
        "tool_repetition": 0.5,
        "reasoning_stagnation": 0.0,
        "call_graph_cycles": 1.0,
    }


@pytest.mark.parametrize(
    "options",
    [
        dict(
            zip(
                ["check_tool_repetition", "check_reasoning_stagnation", "check_call_graph_cycles"],
                flags,
            )
        )
        for flags in itertools.product([True, False], repeat=3)
    ],
)
def test_every_check_combination_matches_deepeval(options: dict[str, bool]) -> None:
    same = text(WORDS)
    root = agent(tool("t", children=[tool("t")]), *[tool("t")] * 5, llm(same), llm(same))
    assert_same(root, **options)
    assert_same(root, strict_mode=True, **options)
    assert_same(root, threshold=None, **options)
