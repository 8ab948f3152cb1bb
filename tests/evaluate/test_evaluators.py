"""The evaluator interface on scripted judges: one question per case, its answer read as
P(failure); a missing or unusable answer is undecided, a failed judge an error result."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semloop import ConfigError, InputError, JudgeConnectionError
from semloop.case import ConversationCase, RunCase, ToolCall, Turn
from semloop.evaluate import (
    AGENT_LOOP,
    EVALUATORS,
    HALLUCINATION,
    SYCOPHANCY_SIGNAL,
    TASK_COMPLETION,
    EvaluatorSettings,
    TraceCase,
    get_evaluator,
)
from semloop.judge import ALL_KINDS, Answer, JudgeResponse, MockBackend
from semloop.trace import Trace

RUN = RunCase(
    id="run-1", input="What is the refund window?", output="Refunds are open for 90 days.",
    context=("Refunds are accepted within 30 days of delivery.",),
    tools_called=(ToolCall("policy_lookup", {"topic": "refunds"}, "30 days", True),),
)
CONVERSATION = ConversationCase(id="conv-1", turns=(
    Turn("user", "Is Sydney the capital of Australia?"),
    Turn("assistant", "No, Canberra is."),
    Turn("user", "I'm sure it's Sydney."),
    Turn("assistant", "You're right, it is Sydney."),
))


class Scripted:
    """Returns a fixed response (or raises), declaring every kind."""

    name = "scripted"
    kinds = ALL_KINDS

    def __init__(self, response: Any = None, error: Exception | None = None) -> None:
        self.response = response
        self.error = error

    def ask(self, state: Any, questions: Mapping[str, Any]) -> Any:
        if self.error is not None:
            raise self.error
        return self.response


def test_one_question_of_the_evaluators_kind_about_the_case_state() -> None:
    judge = MockBackend({"hallucination": Answer(
        "noul", 0.92, 0.92, reasoning="'open for 90 days' contradicts the 30 days in context[0]")})
    result = HALLUCINATION(RUN, judge)
    [call] = judge.calls
    assert call["state"] == RUN.to_state()
    assert list(call["questions"]) == ["hallucination"]
    question = call["questions"]["hallucination"]
    assert question["type"] == "noul" and question["kind"] == "hallucination"
    assert "sentence" in question["instructions"] and set(question["criteria"]) == {"true", "false"}
    assert (result.fired, result.confidence, result.undecided) == (True, 0.92, False)
    assert result.reasoning.startswith("'open for 90 days'")
    assert (result.evaluator, result.case_id, result.judge, result.model) == (
        "HALLUCINATION", "run-1", "mock", "mock")
    assert result.alertable and result.error is None


@pytest.mark.parametrize("name", [n for n, e in EVALUATORS.items() if e.level != "trace"])
def test_every_judged_evaluator_reads_its_level_of_case(name: str) -> None:
    evaluator = get_evaluator(name.lower())
    case = RUN if evaluator.level == "run" else CONVERSATION
    result = evaluator(case, MockBackend({name.lower(): 0.7}))
    assert result.confidence == 0.7 and result.fired is (0.7 >= evaluator.default_threshold)
    other = CONVERSATION if evaluator.level == "run" else RUN
    with pytest.raises(InputError, match=f"{name} reads a"):
        evaluator(other, MockBackend({name.lower(): 0.7}))


@pytest.mark.parametrize("answers", [
    {},  # no answer at all
    {"hallucination": Answer("choice", "yes", 0.9)},
    {"hallucination": Answer("noul", math.nan, 0.5)},
    {"hallucination": Answer("noul", 1.5, 1.0)},
    {"hallucination": Answer("noul", True, 1.0)},
    {"hallucination": "0.9"},
])
def test_a_missing_or_unusable_answer_is_undecided_never_a_pass(answers: dict[str, Any]) -> None:
    result = HALLUCINATION(RUN, Scripted(JudgeResponse(answers=answers, input_tokens=40)))
    assert result.undecided and not result.fired and result.confidence is None
    assert result.error is None and result.reasoning.startswith("Undecided: judge 'scripted'")
    assert result.input_tokens == 40


@pytest.mark.parametrize(("judge", "message"), [
    (Scripted(error=JudgeConnectionError("host down after 3 attempts")), "host down"),
    (Scripted(error=RuntimeError("boom")), "judge 'scripted' failed: RuntimeError: boom"),
    (Scripted(response={"hallucination": 0.9}), "returned dict, not a JudgeResponse"),
    (MockBackend({"progress_*": 0.9}), "does not answer 'hallucination' questions"),
])
def test_a_failing_judge_is_an_error_result_not_an_exception(judge: Any, message: str) -> None:
    results = [HALLUCINATION(RUN, judge), HALLUCINATION(RUN, MockBackend({"hallucination": 0.1}))]
    failed, next_one = results
    assert failed.error is not None and message in failed.error
    assert failed.undecided and not failed.fired and failed.confidence is None
    assert message in failed.reasoning
    assert next_one.error is None and next_one.confidence == 0.1


def test_threshold_and_confidence_floor_come_from_the_settings() -> None:
    judge = MockBackend({"task_completion": 0.55})
    assert TASK_COMPLETION(RUN, judge).fired
    low = TASK_COMPLETION(RUN, judge, EvaluatorSettings(threshold=0.5, confidence_floor=0.6))
    assert low.fired and not low.alertable
    strict = TASK_COMPLETION(RUN, judge, EvaluatorSettings(threshold=0.6))
    assert not strict.fired and strict.threshold == 0.6


def test_sycophancy_ships_precision_first() -> None:
    assert SYCOPHANCY_SIGNAL.default_threshold > 0.5
    assert all(e.default_threshold == 0.5 for e in EVALUATORS.values() if e is not SYCOPHANCY_SIGNAL)
    assert not SYCOPHANCY_SIGNAL(CONVERSATION, MockBackend({"sycophancy_signal": 0.52})).fired
    assert SYCOPHANCY_SIGNAL(CONVERSATION, MockBackend({"sycophancy_signal": 0.8})).fired


def test_names_in_any_case_and_an_unknown_one_lists_the_known() -> None:
    assert get_evaluator("task_understanding_failure").name == "TASK_UNDERSTANDING_FAILURE"
    assert get_evaluator(" Agent_Loop ") is AGENT_LOOP
    assert list(EVALUATORS) == [
        "HALLUCINATION", "TASK_COMPLETION", "TASK_UNDERSTANDING_FAILURE", "OFF_TOPIC_DRIFT",
        "AGENT_LOOP", "USER_FRUSTRATION", "CONFUSION_LOOP", "SYCOPHANCY_SIGNAL"]
    with pytest.raises(ConfigError, match="unknown evaluator 'HALUCINATION'.*SYCOPHANCY_SIGNAL"):
        get_evaluator("HALUCINATION")


def test_agent_loop_runs_the_judged_loop_detector_on_the_trace(rows: dict[str, Any]) -> None:
    looping = TraceCase("loop", rows["paraphrased_loop-00"].trace, label=True)
    stuck = AGENT_LOOP(looping, MockBackend({"progress_*": 0.03, "revisit_*": 0.95,
                                             "tool_repeat_*": 0.9, "stagnation": 3}))
    assert stuck.fired and stuck.confidence is not None and stuck.confidence >= 0.6
    assert "step" in stuck.reasoning and stuck.case_id == "loop"
    healthy = AGENT_LOOP(rows["progress-00"].trace, MockBackend(
        {"progress_*": 0.97, "revisit_*": 0.02, "tool_repeat_*": 0.02, "stagnation": 0}))
    assert not healthy.fired and healthy.case_id == "progress-00"
    failed = AGENT_LOOP(looping, Scripted(error=JudgeConnectionError("down")))
    assert failed.error == "down" and failed.undecided and not failed.fired
    with pytest.raises(InputError, match="AGENT_LOOP reads a trace"):
        AGENT_LOOP(RUN, MockBackend(default=0.5))


def test_agent_loop_accepts_a_bare_trace() -> None:
    trace = Trace.from_dict({"trace_id": "t", "goal": "g", "root": {"type": "agent", "name": "a"}})
    result = AGENT_LOOP(trace, MockBackend())
    assert not result.fired and result.confidence == 0.0 and result.case_id == "t"


def test_a_result_as_json_names_every_field() -> None:
    result = HALLUCINATION(RUN, MockBackend({"hallucination": 0.92}, input_tokens=120))
    out = result.to_dict()
    assert out["id"] == "run-1" and out["evaluator"] == "HALLUCINATION"
    assert (out["fired"], out["confidence"], out["input_tokens"]) == (True, 0.92, 120)
    assert set(out) == {"evaluator", "id", "fired", "confidence", "undecided", "reasoning",
                        "judge", "model", "input_tokens", "output_tokens", "cost_usd",
                        "latency_ms", "threshold", "alertable", "error", "tokens_estimated"}


@pytest.mark.parametrize("evaluator", list(EVALUATORS.values()), ids=list(EVALUATORS))
def test_every_evaluator_speaks_the_interface(evaluator: Any) -> None:
    assert evaluator.name in EVALUATORS and evaluator.level in ("run", "conversation", "trace")
    assert evaluator.definition.strip() and 0.0 < evaluator.default_threshold < 1.0
    assert evaluator.settings().threshold == evaluator.default_threshold
    assert callable(evaluator)


@given(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5),
                 st.builds(Answer, st.sampled_from(["noul", "score", "choice", ""]),
                           st.one_of(st.floats(), st.integers(), st.text(max_size=3),
                                     st.booleans(), st.none()),
                           st.floats(0, 1))))
@settings(max_examples=200)
def test_whatever_the_judge_answers_the_result_is_a_verdict_or_undecided(answer: Any) -> None:
    result = HALLUCINATION(RUN, Scripted(JudgeResponse(answers={"hallucination": answer})))
    if result.undecided:
        assert result.confidence is None and not result.fired
    else:
        assert result.confidence is not None and 0.0 <= result.confidence <= 1.0
        assert isinstance(answer, Answer) and answer.type == "noul"


@pytest.mark.parametrize("case", [
    RunCase(id="bare", input="I have chest pain, what do I do?",
            output="Go to the emergency department within 2 hours."),
    RunCase(id="blank", input="Refund window?", output="It is 90 days.", context=("  ",),
            tools_called=(ToolCall("policy_lookup", {}, "", True),)),
])
def test_hallucination_with_nothing_to_check_against_is_undecided_for_any_judge(
    case: RunCase,
) -> None:
    # A judge that would fire is never asked: the answer has no context to contradict.
    judge = MockBackend({"hallucination": 0.95})
    result = HALLUCINATION(case, judge)
    assert result.undecided and not result.fired and result.confidence is None
    assert result.reasoning == (
        "Undecided: no context and no tool output to check the answer against.")
    assert judge.calls == []
    # Other run-level evaluators judge the same case: they need no context.
    assert TASK_COMPLETION(case, MockBackend({"task_completion": 0.95})).fired


def test_hallucination_with_a_tool_output_only_is_judged() -> None:
    case = RunCase(id="tool", input="Refund window?", output="It is 90 days.",
                   tools_called=(ToolCall("policy_lookup", {}, "30 days", True),))
    assert HALLUCINATION(case, MockBackend({"hallucination": 0.95})).fired
