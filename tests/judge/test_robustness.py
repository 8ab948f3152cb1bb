"""Whatever a host sends, a backend either answers every question or raises JudgeError.

A worker catches JudgeError and records the trace as errored; any other exception would
crash it. Hypothesis throws arbitrary text, JSON and HTTP replies at the parsers.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semloop._exceptions import JudgeError
from semloop.judge._http import HttpRequest, HttpResponse
from semloop.judge.jev import JevBackend, parse_answers
from semloop.judge.llm import LLMJudgeBackend, parse_reply

QUESTIONS: dict[str, Any] = {
    "a": {"type": "noul", "instructions": "?"},
    "b": {"type": "choice", "criteria": {"x": None, "y": None}},
    "c": {"type": "score", "criteria": ["0", "1", "2"]},
}
ONE = {"a": QUESTIONS["a"]}

scalars = st.none() | st.booleans() | st.integers(-(10**400), 10**400) | st.floats() | st.text(
    max_size=8) | st.sampled_from(["a", "b", "c", "x", "y", "yes", "noul", "choice", "score",
                                   "answers", "id", "answer", "1e999", "0.5"])
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["a", "b", "c", "type", "noul", "choice", "score",
                                       "probabilities", "confidence", "answers", "answer",
                                       "id", "value", "0", "1", "x"]) | st.text(max_size=4),
                      children, max_size=5),
    max_leaves=20,
)
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _complete_or_judge_error(parse: Any, *args: Any, questions: dict[str, Any]) -> None:
    try:
        answers = parse(*args)
    except JudgeError:
        return
    assert set(answers) == set(questions)


@FUZZ
@given(json_values)
def test_system_one_answers_never_escape(answers: Any) -> None:
    _complete_or_judge_error(parse_answers, answers, QUESTIONS, questions=QUESTIONS)


@FUZZ
@given(json_values, st.sampled_from([QUESTIONS, ONE]))
def test_chat_reply_json_never_escapes(reply: Any, questions: dict[str, Any]) -> None:
    text = json.dumps(reply, allow_nan=True)
    _complete_or_judge_error(parse_reply, text, questions, questions=questions)
    _complete_or_judge_error(parse_reply, f"```json\n{text}\n```", questions,
                             questions=questions)


@FUZZ
@given(st.text(max_size=200))
def test_chat_reply_text_never_escapes(text: str) -> None:
    _complete_or_judge_error(parse_reply, text, QUESTIONS, questions=QUESTIONS)


def _replying(status: int, body: bytes) -> Any:
    def send(request: HttpRequest) -> HttpResponse:
        return HttpResponse(status, {"retry-after": "0"}, body)

    return send


@FUZZ
@given(st.sampled_from([200, 200, 200, 201, 400, 401, 404, 422, 429, 500]),
       st.binary(max_size=64) | json_values.map(lambda v: json.dumps(v).encode()))
def test_whole_backends_raise_only_judge_errors(status: int, body: bytes) -> None:
    for backend in (JevBackend("k", send=_replying(status, body), max_retries=1),
                    LLMJudgeBackend("k", send=_replying(status, body), max_retries=1)):
        try:
            response = backend.ask("state", QUESTIONS)
        except JudgeError:
            continue
        assert set(response.answers) == set(QUESTIONS)


def test_deeply_nested_bodies_are_judge_errors() -> None:
    deep = b"[" * 200_000
    for backend in (JevBackend("k", send=_replying(200, deep)),
                    LLMJudgeBackend("k", send=_replying(200, deep))):
        try:
            backend.ask("state", QUESTIONS)
        except JudgeError as err:
            assert "not JSON" in str(err)
        else:
            raise AssertionError("a 200 000-deep array was accepted")
    content = json.dumps({"choices": [{"message": {"content": '{"answers": ' + "[" * 200_000}}]})
    try:
        LLMJudgeBackend("k", send=_replying(200, content.encode())).ask("state", QUESTIONS)
    except JudgeError as err:
        assert "no JSON object" in str(err)
    else:
        raise AssertionError("a 200 000-deep reply was accepted")


EVALUATOR = {"h": {"type": "noul", "kind": "hallucination", "instructions": "?"}}
verdict_values = st.dictionaries(
    st.sampled_from(["failure", "confidence", "reasoning", "evidence", "verdict", "Failure"]),
    json_values, max_size=5)


@FUZZ
@given(json_values | verdict_values, st.sampled_from(["stop", "length", None]))
def test_evaluator_questions_raise_only_judge_errors(content: Any, finish: Any) -> None:
    # Whatever the model writes as its verdict, the answer is a probability or a
    # JudgeError (which the evaluator records as undecided).
    text = content if isinstance(content, str) else json.dumps(content, allow_nan=True)
    chat = json.dumps({"choices": [{"finish_reason": finish,
                                    "message": {"content": text}}]}).encode()
    system_one = json.dumps({"answers": {"h": content, "h_where": content}}).encode()
    state = {"input": "q", "output": "One. Two.", "context": ["c"]}
    for backend in (LLMJudgeBackend("k", send=_replying(200, chat), max_retries=0),
                    JevBackend("k", send=_replying(200, system_one), max_retries=0)):
        try:
            response = backend.ask(state, EVALUATOR)
        except JudgeError:
            continue
        assert 0.0 <= response.answers["h"].value <= 1.0
