"""The embedded judge declares every kind and sends each question to its own rule."""

from __future__ import annotations

import pytest

from semloop import JudgeAnswerError
from semloop.case import ConversationCase, RunCase
from semloop.judge import ALL_KINDS, Answer
from semloop.judge.local import LocalBackend
from semloop.judge.local import _backend as local_backend


def test_declares_loop_and_every_evaluator_kind(backend: LocalBackend) -> None:
    assert backend.kinds == ALL_KINDS
    rules = {*local_backend._RUN_RULES, *local_backend._CONVERSATION_RULES}
    assert rules | {"loop"} == ALL_KINDS


def test_dispatches_each_kind_to_its_rule_with_the_case(
    backend: LocalBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[object] = []

    def run_rule(case: RunCase, embed: object) -> Answer:
        seen.append(case)
        assert len(embed(["a sentence"])) == 1  # type: ignore[operator]
        return Answer(type="noul", value=0.7, probability=0.7, reasoning="sentence 1")

    def conversation_rule(case: ConversationCase, embed: object) -> Answer:
        seen.append(case)
        return Answer(type="noul", value=0.2, probability=0.8, reasoning="turn 2")

    monkeypatch.setitem(local_backend._RUN_RULES, "off_topic_drift", run_rule)
    monkeypatch.setitem(local_backend._CONVERSATION_RULES, "confusion_loop", conversation_rule)
    run = RunCase(id="r", input="Book a table", output="Booked for 7pm", context=("7pm free",))
    answers = backend.ask(
        run.to_state(), {"off_topic_drift": {"type": "noul", "kind": "off_topic_drift"}}
    ).answers
    assert answers["off_topic_drift"].reasoning == "sentence 1"
    assert seen[-1] == RunCase.from_state(run.to_state())
    conv = ConversationCase.from_state({"turns": [{"role": "user", "content": "hi"}]})
    answers = backend.ask(
        conv.to_state(), {"confusion_loop": {"type": "noul", "kind": "confusion_loop"}}
    ).answers
    assert answers["confusion_loop"].value == 0.2
    assert seen[-1] == conv


def test_an_evaluator_question_about_a_string_is_refused(backend: LocalBackend) -> None:
    with pytest.raises(JudgeAnswerError, match="needs a case object"):
        backend.ask("just text", {"hallucination": {"type": "noul", "kind": "hallucination"}})
