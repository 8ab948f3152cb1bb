"""Whatever the trace holds, the local judge answers in [0, 1] or raises JudgeAnswerError."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semloop.judge.local import LocalBackend
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Span, Trace

texts = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["", "no matches", "[]", "error: timeout", "ok", "Reading a.py now."]),
)
values = st.one_of(
    texts,
    st.integers(-5, 5),
    st.none(),
    st.booleans(),
    st.dictionaries(
        st.sampled_from(["q", "path", "page", "id"]),
        st.one_of(texts, st.integers(0, 3)),
        max_size=3,
    ),
    st.lists(st.integers(0, 3), max_size=3),
)


@st.composite
def traces(draw: Any) -> Trace:
    spans = []
    for _ in range(draw(st.integers(0, 7))):
        kind = draw(st.sampled_from(["llm", "tool", "retriever"]))
        children = [
            Span(
                type="tool",
                name=draw(st.sampled_from(["grep", "get", "a b"])),
                input=draw(values),
                output=draw(values),
            )
            for _ in range(draw(st.integers(0, 2)))
        ]
        spans.append(
            Span(
                type=kind,
                name=draw(st.sampled_from(["grep", "get", "reason"])),
                input=draw(values),
                output=draw(values),
                children=children,
            )
        )
    return Trace(goal=draw(texts), root=Span(type="agent", name="agent", children=spans))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(trace=traces())
def test_any_trace_gets_answers_in_range(backend: LocalBackend, trace: Trace) -> None:
    detector = SemanticLoopDetection(backend, repetition_threshold=2)
    state, questions, _ = detector.questions_for(trace)
    json.dumps(state)  # the state is what a remote judge would be sent, too
    answers = backend.ask(state, questions).answers if questions else {}
    assert set(answers) == set(questions)
    for qid, answer in answers.items():
        if answer.type == "noul":
            assert 0.0 <= answer.value <= 1.0, qid
        else:
            assert 0.0 <= answer.value <= 3.0, qid
    result = detector.measure(trace)
    assert 0.0 <= result.score <= 1.0
