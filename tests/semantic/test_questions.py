"""Which steps are judged, what state the judge reads, and which questions it is asked."""

from __future__ import annotations

import pytest

from semloop._exceptions import ConfigError
from semloop.benchmark import BenchRow
from semloop.judge.mock import MockBackend
from semloop.semantic import (
    SemanticLoopDetection,
    build_questions,
    build_state,
    build_tool_questions,
    reasoning_steps,
)
from semloop.trace import Span, Trace


def _trace(*children: Span) -> Trace:
    return Trace(goal="g", root=Span(type="agent", name="a", children=list(children)))


def test_reasoning_steps_prefer_llm_spans_then_tool_spans() -> None:
    llm = [Span(type="llm", output=f"o{i}") for i in range(2)]
    tools = [Span(type="tool", name="t", input={"k": i}) for i in range(3)]
    assert reasoning_steps(_trace(llm[0], tools[0], llm[1])) == llm
    assert reasoning_steps(_trace(llm[0], *tools)) == tools
    # Fewer than two of either: the (single) LLM span, which yields no questions.
    assert reasoning_steps(_trace(llm[0], tools[0])) == [llm[0]]
    assert reasoning_steps(_trace(Span(type="retriever"), Span(type="agent"))) == []


def test_build_questions_families_order_and_count() -> None:
    qs = build_questions(range(5), lookahead=2)
    assert list(qs) == [
        "progress_0_1", "progress_1_2", "progress_2_3", "progress_3_4",
        "revisit_0_2", "revisit_1_3", "revisit_2_4",
        "stagnation",
    ]  # (n-1) + (n-2) + 1
    assert all(qs[q]["type"] == "noul" for q in qs if q != "stagnation")
    assert qs["stagnation"]["type"] == "score" and len(qs["stagnation"]["criteria"]) == 4
    assert "step 3" in qs["progress_2_3"]["instructions"]
    assert "step 2" in qs["progress_2_3"]["instructions"]
    deeper = build_questions(range(5), lookahead=3)
    assert [q for q in deeper if q.startswith("revisit")] == [
        "revisit_0_2", "revisit_1_3", "revisit_2_4", "revisit_0_3", "revisit_1_4",
    ]
    assert build_questions(range(1)) == {} and build_questions([]) == {}


def test_build_questions_budget_keeps_nearest_pairs_and_the_score_question() -> None:
    qs = build_questions(range(10), lookahead=2, max_questions=5)
    assert list(qs) == ["progress_0_1", "progress_1_2", "progress_2_3", "progress_3_4", "stagnation"]
    assert list(build_questions(range(10), max_questions=1)) == ["stagnation"]


def test_build_tool_questions_counts_by_name_whatever_the_arguments() -> None:
    tools = [Span(type="tool", name="read_file", input={"path": f"f{i}"}) for i in range(3)]
    tools += [Span(type="tool", name="grep", input={"p": 1}) for _ in range(2)]
    qs, counts = build_tool_questions(tools, repetition_threshold=3)
    assert list(qs) == ["tool_repeat_read_file"]  # the raw name, underscores and all
    assert counts == {"read_file": 3, "grep": 2}
    assert "state.tool_calls.read_file" in qs["tool_repeat_read_file"]["instructions"]
    assert list(build_tool_questions(tools, repetition_threshold=2)[0]) == [
        "tool_repeat_read_file", "tool_repeat_grep",
    ]


def test_state_lists_steps_with_the_tool_calls_that_follow_each() -> None:
    trace = _trace(
        Span(type="tool", name="setup", input="before any step"),
        Span(type="llm", name="plan", output="look", children=[
            Span(type="tool", name="grep", input={"q": "x"}, output="hit"),
        ]),
        Span(type="tool", name="read", input={"path": "a"}, output=["lines"]),
        Span(type="llm", name="plan", output="done"),
    )
    state = build_state(trace, include_tool_calls=True)
    assert state["goal"] == "g"
    assert state["steps"] == [
        {"index": 0, "type": "llm", "name": "plan", "input": "", "output": "look",
         "tools": [{"name": "grep", "input": '{"q": "x"}', "output": "hit"},
                   {"name": "read", "input": '{"path": "a"}', "output": '["lines"]'}]},
        {"index": 1, "type": "llm", "name": "plan", "input": "", "output": "done", "tools": []},
    ]
    assert state["tool_calls"] == {
        "setup": ["before any step"], "grep": ['{"q": "x"}'], "read": ['{"path": "a"}'],
    }
    assert "tool_calls" not in build_state(trace)


def test_state_from_tool_steps_has_empty_tool_lists_and_distinct_inputs() -> None:
    trace = _trace(*(Span(type="tool", name="t", input={"k": k}) for k in (1, 1, 2)))
    state = build_state(trace, include_tool_calls=True)
    assert [s["tools"] for s in state["steps"]] == [[], [], []]
    assert [s["type"] for s in state["steps"]] == ["tool"] * 3
    assert state["tool_calls"] == {"t": ['{"k": 1}', '{"k": 2}']}


def test_state_truncates_long_texts_and_says_by_how_much() -> None:
    trace = _trace(Span(type="llm", output="x" * 1000), Span(type="llm", output="short"))
    state = build_state(trace, max_chars_per_step=800)
    assert state["steps"][0]["output"].startswith("x" * 800 + "… [truncated 200 chars, rest ")
    assert state["steps"][1]["output"] == "short"
    assert build_state(trace, max_chars_per_step=0)["steps"][0]["output"] == "x" * 1000


# Per family of the dataset (lookahead 2, threshold 3): progress, revisit, tool questions.
EXPECTED_QUESTIONS = {
    "paraphrased_loop": (3, 2, ["tool_repeat_grep"]),
    "terse_loop": (3, 2, ["tool_repeat_grep"]),
    "alternating_loop": (5, 4, ["tool_repeat_read_file", "tool_repeat_run_tests"]),
    "cosmetic_args_loop": (5, 4, ["tool_repeat_grep"]),
    "verbatim_loop": (3, 2, ["tool_repeat_grep"]),
    "identical_tool_loop": (5, 4, ["tool_repeat_run_tests"]),
    "progress": (5, 4, []),
    "template_progress": (4, 3, ["tool_repeat_read_file"]),
    "boilerplate_progress": (3, 2, []),
    "retry_then_recover": (3, 2, []),
}


@pytest.mark.parametrize("family", sorted(EXPECTED_QUESTIONS))
def test_one_request_per_trace_with_tool_questions_first(
    rows: dict[str, BenchRow], family: str
) -> None:
    backend = MockBackend(default=0.5)
    SemanticLoopDetection(backend).measure(rows[f"{family}-00"].trace)
    assert len(backend.calls) == 1
    questions = list(backend.calls[0]["questions"])
    progress, revisit, tools = EXPECTED_QUESTIONS[family]
    assert questions[: len(tools)] == tools
    assert sum(q.startswith("progress_") for q in questions) == progress
    assert sum(q.startswith("revisit_") for q in questions) == revisit
    assert questions[-1] == "stagnation"
    assert ("tool_calls" in backend.calls[0]["state"]) == bool(tools)


def test_one_request_per_trace_regardless_of_pair_count() -> None:
    trace = Trace.from_steps("g", [{"output": "word " * 30} for _ in range(40)])
    backend = MockBackend(default=0.5)
    SemanticLoopDetection(backend).measure(trace)
    assert len(backend.calls) == 1
    # 39 + 38 + 1 questions wanted; the default budget of 64 caps them, still in one call.
    assert len(backend.calls[0]["questions"]) == 64


def test_tool_questions_come_out_of_the_same_budget() -> None:
    steps = [{"type": "tool", "name": f"t{k % 3}", "input": {"i": k}} for k in range(9)]
    steps += [{"output": f"step {k}"} for k in range(20)]
    backend = MockBackend(default=0.1)
    SemanticLoopDetection(backend, max_questions=10).measure(Trace.from_steps("g", steps))
    questions = list(backend.calls[0]["questions"])
    assert questions[:3] == ["tool_repeat_t0", "tool_repeat_t1", "tool_repeat_t2"]
    assert len(questions) == 10 and questions[-1] == "stagnation"


def test_no_reasoning_steps_short_circuits_without_a_call() -> None:
    backend = MockBackend()
    result = SemanticLoopDetection(backend).measure(Trace.from_steps("g", []))
    assert backend.calls == []
    assert result.score == 1.0 and not result.flags_loop()
    assert result.reason == "No loop patterns detected."


def test_a_single_step_asks_nothing() -> None:
    backend = MockBackend()
    result = SemanticLoopDetection(backend).measure(Trace.from_steps("g", [{"output": "hi"}]))
    assert backend.calls == [] and result.score == 1.0
    assert result.sub_reasons["reasoning_stagnation"].startswith("Not enough reasoning steps")


def test_disabled_checks_ask_nothing_about_them() -> None:
    trace = Trace.from_steps(
        "g", [{"type": "tool", "name": "t", "input": {"k": k}} for k in range(4)]
    )
    backend = MockBackend(default=0.0)
    SemanticLoopDetection(backend, check_reasoning_stagnation=False).measure(trace)
    assert list(backend.calls[0]["questions"]) == ["tool_repeat_t"]
    backend = MockBackend(default=0.0)
    SemanticLoopDetection(backend, check_semantic_tool_repetition=False).measure(trace)
    assert not any(q.startswith("tool_repeat") for q in backend.calls[0]["questions"])


@pytest.mark.parametrize(
    ("option", "value"),
    [("lookahead", 0), ("max_questions", 0), ("repetition_threshold", 0),
     ("uncertain_band", (0.7, 0.3)), ("mild_stagnation", 0.9)],
)
def test_bad_options_are_value_errors_naming_the_option(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=option):
        SemanticLoopDetection(MockBackend(), **{option: value})  # type: ignore[arg-type]


def test_unknown_weight_key_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="weights.loops"):
        SemanticLoopDetection(MockBackend(), weights={"loops": 1.0})
