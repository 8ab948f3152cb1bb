"""LLMJudgeBackend end to end against an OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from semloop._exceptions import (
    ConfigError,
    JudgeAnswerError,
    JudgeAuthError,
    JudgeConnectionError,
    JudgeStatusError,
)
from semloop.judge._http import RetryPolicy
from semloop.judge._types import Backend
from semloop.judge.llm import SYSTEM_PROMPT, LLMJudgeBackend, parse_reply

from .servers import ChatServer, Delay, Edit, Reply

STATE = {"goal": "book a flight", "steps": [{"index": 0, "output": "search flights"}]}
QUESTIONS: dict[str, Any] = {
    "progress_0_1": {"type": "noul", "instructions": "Did it advance? p=0.9"},
    "revisit_0_2": {"type": "noul", "instructions": "Did it go back? p=0.1"},
    "topic": {"type": "choice", "instructions": "pick=travel",
              "criteria": {"travel": None, "billing": None}},
    "stagnation": {"type": "score", "instructions": "level=3",
                   "criteria": ["none", "some", "lots", "all"]},
}
QUICK = RetryPolicy(max_retries=2, backoff_s=0.01, max_backoff_s=0.05)


def backend(server: ChatServer, **options: Any) -> LLMJudgeBackend:
    options.setdefault("retry", QUICK)
    return LLMJudgeBackend("test-key", base_url=server.base_url, **options)


def values(response: Any) -> dict[str, Any]:
    return {qid: answer.value for qid, answer in response.answers.items()}


def test_happy_path_with_usage_and_cost(chat_server: ChatServer) -> None:
    judge = backend(chat_server, input_usd_per_mtok=0.15, output_usd_per_mtok=0.60)
    assert isinstance(judge, Backend) and judge.name == "llm"
    response = judge.ask(STATE, QUESTIONS)
    assert values(response) == {"progress_0_1": 0.9, "revisit_0_2": 0.1, "topic": "travel",
                                "stagnation": 3.0}
    noul = response.answers["progress_0_1"]
    assert noul.probability == 0.9 and noul.probabilities == {True: 0.9, False: pytest.approx(0.1)}
    assert response.answers["stagnation"].probabilities == {3: 1.0}
    sent = chat_server.requests[0].json
    prompt = (len(sent["messages"][0]["content"]) + len(sent["messages"][1]["content"])) // 4
    completion = len(json.dumps({"answers": {"progress_0_1": 0.9, "revisit_0_2": 0.1,
                                             "topic": "travel", "stagnation": 3}})) // 4
    assert (response.input_tokens, response.output_tokens) == (prompt, completion)
    assert response.cost_usd == pytest.approx((prompt * 0.15 + completion * 0.60) / 1e6)
    assert response.model == "gpt-4o-mini-2026-01-01"
    assert response.latency_ms > 0


def test_request_shape(chat_server: ChatServer) -> None:
    backend(chat_server, model="local-8b", temperature=0.2).ask(STATE, QUESTIONS)
    [request] = chat_server.requests
    assert (request.method, request.path) == ("POST", "/v1/chat/completions")
    assert request.headers["authorization"] == "Bearer test-key"
    assert request.headers["content-type"] == "application/json"
    body = request.json
    assert body["model"] == "local-8b" and body["temperature"] == 0.2
    assert body["response_format"] == {"type": "json_object"}
    system, user = body["messages"]
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    assert user["role"] == "user"
    assert json.loads(user["content"]) == {"state": STATE, "questions": QUESTIONS}


def test_env_base_url_and_named_key_env(chat_server: ChatServer,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", chat_server.base_url)
    monkeypatch.setenv("MY_JUDGE_KEY", "test-key")
    response = LLMJudgeBackend(api_key_env="MY_JUDGE_KEY").ask(STATE, QUESTIONS)
    assert response.answers["topic"].value == "travel"


def _wrap(before: str, answers: Any, after: str) -> str:
    return before + json.dumps({"answers": answers}) + after


@pytest.mark.parametrize(
    "render",
    [
        pytest.param(lambda a: _wrap("```json\n", a, "\n```"), id="json-fence"),
        pytest.param(lambda a: _wrap("```\n", a, "```"), id="bare-fence"),
        pytest.param(lambda a: _wrap("Here is my judgement:\n", a, "\nHope this helps {:"),
                     id="prose-around"),
        pytest.param(lambda a: json.dumps({"answers": [{"id": k, "answer": v}
                                                       for k, v in a.items()]}), id="list"),
        pytest.param(lambda a: json.dumps(a), id="no-wrapper"),
        pytest.param(lambda a: json.dumps({"answers": {
            k: ({0.9: "yes", 0.1: "No"}.get(v, v) if k != "stagnation" else str(v))
            for k, v in a.items()}}), id="yes-no-words"),
        pytest.param(lambda a: json.dumps({"answers": {
            k: {"answer": v, "reason": "because"} for k, v in a.items()}}), id="nested"),
    ],
)
def test_tolerant_parsing_of_real_model_habits(chat_server: ChatServer, render: Any) -> None:
    chat_server.render = render
    response = backend(chat_server).ask(STATE, QUESTIONS)
    got = values(response)
    assert got["topic"] == "travel" and got["stagnation"] == 3.0
    assert got["progress_0_1"] in (0.9, 1.0) and got["revisit_0_2"] in (0.1, 0.0)


@pytest.mark.parametrize(
    "content",
    ['{"answers": {"anything": 0.7}}', '{"answer": 0.7}', '{"answers": 0.7}',
     '{"answers": [0.7]}', '```json\n{"answers": {"q": "0.7"}}\n```'],
)
def test_one_question_tolerates_a_missing_id(chat_server: ChatServer, content: str) -> None:
    chat_server.render = lambda answers: content
    response = backend(chat_server).ask(STATE, {"q": {"type": "noul", "instructions": "x"}})
    assert response.answers["q"].value == 0.7


def test_genuinely_missing_answer_is_an_error(chat_server: ChatServer) -> None:
    chat_server.render = lambda a: json.dumps({"answers": {k: v for k, v in a.items()
                                                           if k != "revisit_0_2"}})
    with pytest.raises(JudgeAnswerError, match="omitted an answer for 'revisit_0_2'"):
        backend(chat_server).ask(STATE, QUESTIONS)


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        ({"topic": "shipping"}, "'shipping' is not one of the labels"),
        ({"stagnation": 4}, "level 4 is outside 0..3"),
        ({"stagnation": 1.5}, "not a whole number"),
        ({"progress_0_1": 1.7}, "outside \\[0, 1\\]"),
        ({"progress_0_1": "maybe"}, "probability or yes/no"),
    ],
)
def test_bad_answers_are_errors(chat_server: ChatServer, edit: dict[str, Any],
                                fragment: str) -> None:
    chat_server.render = lambda a: json.dumps({"answers": {**a, **edit}})
    with pytest.raises(JudgeAnswerError, match=fragment):
        backend(chat_server).ask(STATE, QUESTIONS)


def test_choice_label_case_is_forgiven_when_unambiguous(chat_server: ChatServer) -> None:
    chat_server.render = lambda a: json.dumps({"answers": {**a, "topic": " Travel "}})
    assert backend(chat_server).ask(STATE, QUESTIONS).answers["topic"].value == "travel"


def test_reply_without_json(chat_server: ChatServer) -> None:
    chat_server.render = lambda a: "I think the agent is doing fine."
    with pytest.raises(JudgeAnswerError, match="no JSON object"):
        backend(chat_server).ask(STATE, QUESTIONS)


def test_malformed_http_body(chat_server: ChatServer) -> None:
    chat_server.play(Reply(200, b"<html>Bad gateway</html>"))
    with pytest.raises(JudgeAnswerError, match="not JSON"):
        backend(chat_server).ask(STATE, QUESTIONS)


def test_missing_content(chat_server: ChatServer) -> None:
    def cut(body: dict[str, Any]) -> dict[str, Any]:
        body["choices"][0]["message"]["content"] = None
        body["choices"][0]["finish_reason"] = "length"
        return body

    chat_server.play(Edit(cut))
    with pytest.raises(JudgeAnswerError, match="no message content.*token limit"):
        backend(chat_server).ask(STATE, QUESTIONS)


def test_no_choices(chat_server: ChatServer) -> None:
    chat_server.play(Edit(lambda body: {**body, "choices": []}))
    with pytest.raises(JudgeAnswerError, match="no choices"):
        backend(chat_server).ask(STATE, QUESTIONS)


def test_429_then_success_honours_retry_after_ms(chat_server: ChatServer) -> None:
    chat_server.play(Reply(429, {"error": {"message": "Rate limit reached"}},
                           {"retry-after-ms": "250"}))
    response = backend(chat_server).ask(STATE, QUESTIONS)
    assert response.answers["topic"].value == "travel"
    first, second = chat_server.requests
    assert second.at - first.at >= 0.25


def test_500s_then_success_and_persistent_500(chat_server: ChatServer) -> None:
    chat_server.play(Reply(500, b"oops"), Reply(502, b"bad gateway"))
    assert backend(chat_server).ask(STATE, QUESTIONS).answers["stagnation"].value == 3.0
    assert len(chat_server.requests) == 3
    chat_server.play(*[Reply(500, {"error": {"message": "The server had an error"}})] * 3)
    with pytest.raises(JudgeStatusError, match="The server had an error") as err:
        backend(chat_server).ask(STATE, QUESTIONS)
    assert err.value.status == 500 and len(chat_server.requests) == 6


def test_slow_reply_times_out(chat_server: ChatServer) -> None:
    chat_server.play(Delay(1.0))
    with pytest.raises(JudgeConnectionError, match="timed out"):
        backend(chat_server, timeout=0.2, max_retries=0, retry=None).ask(STATE, QUESTIONS)
    assert len(chat_server.requests) == 1


def test_401_names_the_env_var(chat_server: ChatServer) -> None:
    with pytest.raises(JudgeAuthError) as err:
        LLMJudgeBackend("sk-wrong", base_url=chat_server.base_url,
                        api_key_env="GROQ_API_KEY").ask(STATE, QUESTIONS)
    assert err.value.status == 401
    assert "GROQ_API_KEY" in str(err.value) and "Incorrect API key" in str(err.value)
    assert "sk-wrong" not in str(err.value)


def test_400_quotes_the_error_message(chat_server: ChatServer) -> None:
    chat_server.play(Reply(400, {"error": {"message": "model 'x' does not exist",
                                           "type": "invalid_request_error"}}))
    with pytest.raises(JudgeStatusError, match="model 'x' does not exist"):
        backend(chat_server).ask(STATE, QUESTIONS)
    assert len(chat_server.requests) == 1


def test_empty_questions_make_no_request(chat_server: ChatServer) -> None:
    assert backend(chat_server).ask(STATE, {}).answers == {}
    assert chat_server.requests == []


def test_openai_host_needs_a_key() -> None:
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        LLMJudgeBackend()
    with pytest.raises(ConfigError, match="input_usd_per_mtok"):
        LLMJudgeBackend("k", input_usd_per_mtok=-1.0)


def test_parse_reply_directly() -> None:
    questions = {"a": {"type": "noul"}, "b": {"type": "noul"}}
    reply = 'Sure! {"answers": {"a": true, "b": "0.25"}} Let me know.'
    parsed = parse_reply(reply, questions)
    assert parsed["a"].value == 1.0 and parsed["b"].value == 0.25
    # Two questions: an unnamed answer is ambiguous, so it is an error, not a guess.
    with pytest.raises(JudgeAnswerError, match="omitted an answer for 'a'"):
        parse_reply('{"answers": {"x": 0.5}}', questions)
    slow = time.monotonic()
    with pytest.raises(JudgeAnswerError):
        parse_reply("{" * 5000, questions)  # no quadratic blow-up on junk
    assert time.monotonic() - slow < 2.0


def test_a_bad_base_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="base_url"):
        LLMJudgeBackend("k", base_url="localhost:8000/v1")


@pytest.mark.parametrize("status", [400, 422])
def test_response_format_rejected_then_asked_without_it(
        chat_server: ChatServer, status: int, caplog: pytest.LogCaptureFixture) -> None:
    chat_server.rejects_response_format = status
    judge = backend(chat_server, retry=RetryPolicy(max_retries=0))
    assert judge.json_mode
    chat_server.play(Delay(0.2))  # on the refused request: its time counts in the latency
    with caplog.at_level("WARNING", logger="semloop.judge.llm"):
        first = judge.ask(STATE, QUESTIONS)
        second = judge.ask(STATE, QUESTIONS)
    assert values(first) == values(second) == {"progress_0_1": 0.9, "revisit_0_2": 0.1,
                                               "topic": "travel", "stagnation": 3.0}
    # One refused request, then every request without response_format: remembered.
    sent = [r.json for r in chat_server.requests]
    assert ["response_format" in body for body in sent] == [True, False, False]
    assert sent[0]["messages"] == sent[1]["messages"]
    assert not judge.json_mode
    [record] = [r for r in caplog.records if r.name == "semloop.judge.llm"]
    assert "response_format" in record.getMessage() and str(status) in record.getMessage()
    assert first.latency_ms >= 200 > second.latency_ms


def test_response_format_fallback_is_per_backend(chat_server: ChatServer) -> None:
    chat_server.rejects_response_format = 400
    refused = backend(chat_server)
    refused.ask(STATE, QUESTIONS)
    chat_server.rejects_response_format = None
    fresh = backend(chat_server)
    fresh.ask(STATE, QUESTIONS)
    assert not refused.json_mode and fresh.json_mode
    assert "response_format" in chat_server.requests[-1].json


def test_response_format_fallback_under_threads_logs_once(
        chat_server: ChatServer, caplog: pytest.LogCaptureFixture) -> None:
    chat_server.rejects_response_format = 400
    judge = backend(chat_server)
    with caplog.at_level("WARNING", logger="semloop.judge.llm"):
        threads = [threading.Thread(target=judge.ask, args=(STATE, QUESTIONS))
                   for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len([r for r in caplog.records if r.name == "semloop.judge.llm"]) == 1
    answered = [r for r in chat_server.requests if "response_format" not in r.json]
    assert len(answered) == 6  # every ask answered once without it


@pytest.mark.parametrize("reply", [
    Reply(400, {"error": {"message": "max_tokens is too large", "type": "invalid_request_error"}}),
    Reply(422, {"detail": [{"loc": ["body", "temperature"], "msg": "too high"}]}),
    Reply(404, {"error": {"message": "unknown response_format route"}}),
])
def test_an_unrelated_client_error_stays_an_error(chat_server: ChatServer, reply: Reply) -> None:
    chat_server.play(reply)
    judge = backend(chat_server)
    with pytest.raises(JudgeStatusError) as err:
        judge.ask(STATE, QUESTIONS)
    assert err.value.status == reply.status
    assert len(chat_server.requests) == 1 and judge.json_mode


def test_without_json_mode_a_second_rejection_is_an_error(chat_server: ChatServer) -> None:
    # The host refuses even the request without response_format: no loop, the error shows.
    chat_server.play(Reply(400, {"error": {"message": "bad response_format"}}),
                     Reply(400, {"error": {"message": "bad response_format"}}))
    judge = backend(chat_server)
    with pytest.raises(JudgeStatusError, match="bad response_format"):
        judge.ask(STATE, QUESTIONS)
    assert len(chat_server.requests) == 2 and not judge.json_mode
    assert "response_format" not in chat_server.requests[1].json
