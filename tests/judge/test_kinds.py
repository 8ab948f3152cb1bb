"""Judges declare the kinds of question they answer; anything else is a clear error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from semloop import JudgeError, UnsupportedQuestionError
from semloop.evaluate import SemanticLoopDetection
from semloop.judge import (
    ALL_KINDS,
    LOOP_KIND,
    JudgeResponse,
    MockBackend,
    declared_kinds,
    question_kind,
    require_kinds,
)
from semloop.trace import Span, Trace

HALLUCINATION_Q = {"hallucination": {"type": "noul", "kind": "hallucination", "instructions": "?"}}


def _two_step_trace() -> Trace:
    steps = [Span(type="llm", name="think", output=f"step {k}") for k in range(2)]
    return Trace(goal="g", root=Span(type="agent", name="agent", children=steps))


class HallucinationOnly:
    name = "grounded"
    kinds = frozenset({"hallucination"})

    def __init__(self) -> None:
        self.asked = 0

    def ask(self, state: Any, questions: Mapping[str, Any]) -> JudgeResponse:
        self.asked += 1
        return JudgeResponse(answers={})


class Legacy:
    name = "legacy"

    def ask(self, state: Any, questions: Mapping[str, Any]) -> JudgeResponse:
        return JudgeResponse(answers={})


def test_a_question_without_a_kind_is_a_loop_question() -> None:
    assert question_kind({"type": "noul", "instructions": "?"}) == LOOP_KIND
    assert question_kind(HALLUCINATION_Q["hallucination"]) == "hallucination"


def test_a_backend_declaring_no_kinds_answers_loop_questions_only() -> None:
    assert declared_kinds(Legacy()) == {LOOP_KIND}
    with pytest.raises(UnsupportedQuestionError) as info:
        require_kinds(Legacy(), HALLUCINATION_Q)
    assert (info.value.judge, info.value.kind) == ("legacy", "hallucination")


def test_the_error_names_the_judge_the_kind_and_what_it_answers() -> None:
    mock = MockBackend({"progress_*": 0.9})
    with pytest.raises(UnsupportedQuestionError) as info:
        mock.ask({"input": "q", "output": "a"}, HALLUCINATION_Q)
    error = info.value
    assert isinstance(error, JudgeError)
    assert str(error) == (
        "judge 'mock' does not answer 'hallucination' questions (question 'hallucination'); "
        "it answers: loop"
    )
    assert mock.calls == []


def test_mock_declares_what_it_was_scripted_for() -> None:
    assert MockBackend({"progress_*": 0.9}).kinds == {LOOP_KIND}
    assert MockBackend({"hallucination": 0.8}).kinds == {LOOP_KIND, "hallucination"}
    assert MockBackend(default=0.5).kinds == ALL_KINDS
    only = MockBackend({"x": 0.1}, kinds={"confusion_loop"})
    assert only.kinds == {"confusion_loop"}
    answer = MockBackend({"hallucination": 0.8}).ask({}, HALLUCINATION_Q).answers["hallucination"]
    assert answer.value == 0.8


def test_the_loop_detector_refuses_a_judge_without_loop_questions_before_asking() -> None:
    judge = HallucinationOnly()
    with pytest.raises(UnsupportedQuestionError, match="judge 'grounded' does not answer 'loop'"):
        SemanticLoopDetection(judge).measure(_two_step_trace())
    assert judge.asked == 0
