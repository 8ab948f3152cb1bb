"""LLMJudgeBackend on evaluator questions, against a real chat-completions server on
127.0.0.1 whose model says what each test scripted, malformed replies included."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semloop._exceptions import ConfigError, JudgeAnswerError, UnsupportedQuestionError
from semloop.case import ConversationCase, RunCase, ToolCall, Turn
from semloop.judge._evaluator import EVALUATOR_KINDS, RUBRICS
from semloop.judge._http import RetryPolicy
from semloop.judge.llm import EVALUATOR_PROMPTS, LLMJudgeBackend, parse_verdict

from .servers import Reply, Said, ScriptedChatServer

QUICK = RetryPolicy(max_retries=0)
RUN = RunCase(
    id="r1", input="What is the refund window for annual plans?",
    output="Annual plans can be refunded within 60 days. Monthly plans cannot be refunded.",
    context=("Refund policy: annual plans are refundable within 30 days of purchase.",),
    tools_called=(ToolCall("lookup_plan", {"plan": "annual"}, "plan=annual, price=$120", True),),
    steps=("I will look up the plan first.",),
).to_state()
CONVERSATION = ConversationCase(id="c1", turns=(
    Turn("user", "How do I export my data?"),
    Turn("assistant", "Go to Settings > Export."),
    Turn("user", "There is no Export in Settings. THIS IS THE THIRD TIME I ASK."),
    Turn("assistant", "Sorry! It moved: Account > Data > Download."),
)).to_state()


def question(kind: str, **extra: Any) -> dict[str, Any]:
    return {"type": "noul", "kind": kind, **extra}


def verdict(failure: Any = True, confidence: Any = 0.9, **extra: Any) -> str:
    return json.dumps({"failure": failure, "confidence": confidence,
                       "reasoning": "The answer says 60 days.", "evidence": "(1) 60 days",
                       **extra})


def judge(server: ScriptedChatServer, **options: Any) -> LLMJudgeBackend:
    options.setdefault("retry", QUICK)
    return LLMJudgeBackend("test-key", base_url=server.base_url, **options)


@pytest.mark.parametrize("kind", sorted(EVALUATOR_KINDS))
def test_each_kind_is_one_call_with_its_own_prompt(server: ScriptedChatServer, kind: str) -> None:
    state = CONVERSATION if RUBRICS[kind].conversation else RUN
    server.say(verdict(True, 0.8))
    response = judge(server, model="judge-8b").ask(state, {"q": question(kind)})
    [request] = server.requests
    body = request.json
    system, user = body["messages"]
    assert system == {"role": "system", "content": EVALUATOR_PROMPTS[kind]}
    assert RUBRICS[kind].failure in system["content"]
    assert body["response_format"] == {"type": "json_object"} and body["model"] == "judge-8b"
    if RUBRICS[kind].conversation:
        assert "[turn 3] USER: There is no Export" in user["content"]
    else:
        assert "[C1] Refund policy" in user["content"]
        assert '[T1] lookup_plan({"plan": "annual"}) succeeded' in user["content"]
        assert "(1) Annual plans can be refunded within 60 days." in user["content"]
    answer = response.answers["q"]
    assert (answer.type, answer.value, answer.confidence) == ("noul", 0.8, 0.8)
    assert answer.reasoning == "The answer says 60 days. Evidence: (1) 60 days"
    assert not response.tokens_estimated and response.input_tokens > 0


def test_each_prompt_says_what_does_not_count() -> None:
    assert set(EVALUATOR_PROMPTS) == EVALUATOR_KINDS
    for kind, prompt in EVALUATOR_PROMPTS.items():
        assert all(item in prompt for item in RUBRICS[kind].not_failure)
        assert '"failure"' in prompt and '"confidence"' in prompt and '"evidence"' in prompt
    assert "hedges" in EVALUATOR_PROMPTS["hallucination"]
    assert "partial" in EVALUATOR_PROMPTS["task_understanding_failure"]
    assert "politely asks again" in EVALUATOR_PROMPTS["user_frustration"]
    assert "real new fact" in EVALUATOR_PROMPTS["sycophancy_signal"]


def test_the_evaluators_own_instructions_ride_along(server: ScriptedChatServer) -> None:
    server.say(verdict(False, 0.7))
    q = question("hallucination", instructions="Numbers matter most.",
                 criteria={"true": "unsupported", "false": "supported"})
    response = judge(server).ask(RUN, {"h": q})
    user = server.requests[0].json["messages"][1]["content"]
    assert "THE EVALUATOR ADDS (its \"state\" is the material above: " in user
    assert "state.turns[0] is [turn 1]" in user
    assert user.endswith('):\nNumbers matter most.\n'
                         '{"true": "unsupported", "false": "supported"}')
    assert response.answers["h"].value == pytest.approx(0.3)


def test_evaluator_and_loop_questions_in_one_ask(server: ScriptedChatServer) -> None:
    server.say(verdict(True, 1.0), json.dumps({"answers": {"progress_0_1": 0.25}}))
    backend = judge(server, input_usd_per_mtok=1.0, output_usd_per_mtok=2.0)
    response = backend.ask(RUN, {"h": question("hallucination"),
                                 "progress_0_1": {"type": "noul", "instructions": "advance?"}})
    assert {k: a.value for k, a in response.answers.items()} == {"h": 1.0, "progress_0_1": 0.25}
    first, second = (r.json for r in server.requests)
    assert first["messages"][0]["content"] == EVALUATOR_PROMPTS["hallucination"]
    assert json.loads(second["messages"][1]["content"])["questions"] == {
        "progress_0_1": {"type": "noul", "instructions": "advance?"}}
    assert response.cost_usd == pytest.approx(
        (response.input_tokens * 1.0 + response.output_tokens * 2.0) / 1e6)


def test_an_undeclared_kind_is_refused_before_any_request(server: ScriptedChatServer) -> None:
    with pytest.raises(UnsupportedQuestionError, match="does not answer 'toxicity' questions"):
        judge(server).ask(RUN, {"t": question("toxicity")})
    assert server.requests == []
    assert "hallucination" in LLMJudgeBackend.kinds and "loop" in LLMJudgeBackend.kinds


def test_no_usage_is_estimated_and_flagged(server: ScriptedChatServer) -> None:
    reply = verdict(True, 0.9)
    server.say(Said(reply, usage=False))
    response = judge(server, input_usd_per_mtok=1.0).ask(RUN, {"h": question("hallucination")})
    sent = server.requests[0].json["messages"]
    assert response.tokens_estimated
    assert response.input_tokens == sum((len(m["content"]) + 3) // 4 for m in sent)
    assert response.output_tokens == (len(reply) + 3) // 4
    assert response.cost_usd == pytest.approx(response.input_tokens / 1e6)
    assert response.latency_ms > 0


def test_a_host_refusing_json_mode_still_gets_evaluator_questions(
    server: ScriptedChatServer,
) -> None:
    server.rejects_response_format = 400
    server.say(verdict(False, 0.95))
    backend = judge(server)
    response = backend.ask(RUN, {"h": question("hallucination")})
    assert response.answers["h"].value == pytest.approx(0.05)
    assert backend.json_mode is False and len(server.requests) == 2


FENCED = "```json\n" + verdict(True, 0.9) + "\n```"
PROSE = "Sure! Here is my verdict:\n" + verdict(False, 0.8) + "\nLet me know if you need more."


@pytest.mark.parametrize(("content", "expected"), [
    (FENCED, 0.9),
    (PROSE, pytest.approx(0.2)),
    (verdict("yes", "85%"), 0.85),
    (verdict("false", "0.75"), 0.25),
    (verdict(True, 95), 0.95),  # a percent without its sign
    (verdict(1, 0.6), 0.6),
    (verdict(True, 0.3), 0.5),  # a confidence below 0.5 contradicts the verdict: a toss-up
    (json.dumps({"failure": True, "reasoning": "x"}), 1.0),  # no confidence: unhedged
    (json.dumps({"Failure": False, "CONFIDENCE": 0.9}), pytest.approx(0.1)),
    (json.dumps({"verdict": {"failure": True, "confidence": 0.7}}), 0.7),  # wrapped
    (json.dumps({"answers": {"h": {"failure": True, "confidence": 0.6}}}), 0.6),
    (json.dumps({"hallucination": True, "confidence": 0.7}), 0.7),  # under the kind's name
    (json.dumps({"failed": "no", "confidence": 0.8}), pytest.approx(0.2)),
    ('{"failure": true, "confidence": 0.9, "reasoning": "Sentence (2) claims', 0.9),  # cut
])
def test_malformed_but_readable_replies(server: ScriptedChatServer, content: str,
                                        expected: Any) -> None:
    server.say(content)
    answer = judge(server).ask(RUN, {"h": question("hallucination")}).answers["h"]
    assert answer.value == expected
    assert 0.0 <= answer.value <= 1.0


@pytest.mark.parametrize(("content", "message"), [
    ("I'm sorry, but I can't help with evaluating this content.", "gave no verdict"),
    ("not json at all {", "gave no verdict"),
    (json.dumps({"confidence": 0.9, "reasoning": "looks fine"}), "gave no verdict"),
    (verdict("maybe"), "should be true or false"),
    (verdict(None), "should be true or false"),
    (verdict(0.7), "should be true or false"),  # a number is no verdict
    (verdict(True, "high"), "should be a number"),
    (verdict(True, 1.5), "outside"),
    (verdict(True, -0.2), "outside"),
    (verdict(True, 250), "outside"),
    (verdict(True, True), "should be a number"),
    ('{"reasoning": "The answer invents a 60-day window and', "gave no verdict"),  # cut early
])
def test_unreadable_replies_are_errors_not_healthy(server: ScriptedChatServer, content: str,
                                                   message: str) -> None:
    server.say(content, content)  # asked again once, it writes the same
    with pytest.raises(JudgeAnswerError, match=message) as info:
        judge(server).ask(RUN, {"h": question("hallucination")})
    assert str(info.value).endswith("(asked 2 time(s))")
    first, again = (r.json["messages"] for r in server.requests)
    assert again[:2] == first and again[2] == {"role": "assistant", "content": content}
    assert again[3]["role"] == "user" and "could not be read" in again[3]["content"]


def test_an_unreadable_verdict_is_asked_for_again(server: ScriptedChatServer) -> None:
    server.say("Verdict: it is a hallucination, I am fairly sure.", verdict(True, 0.9))
    response = judge(server, input_usd_per_mtok=1.0).ask(RUN, {"h": question("hallucination")})
    assert response.answers["h"].value == 0.9 and len(server.requests) == 2
    prompts = [r.json["messages"] for r in server.requests]
    assert response.input_tokens == sum(sum(len(m["content"]) for m in p) // 4 for p in prompts)
    assert response.cost_usd == pytest.approx(response.input_tokens / 1e6)


def test_reask_zero_asks_once(server: ScriptedChatServer) -> None:
    server.say("no verdict here")
    with pytest.raises(JudgeAnswerError, match=r"asked 1 time\(s\)"):
        judge(server, reask=0).ask(RUN, {"h": question("hallucination")})
    assert len(server.requests) == 1
    for bad in (-1, 1.5, True):
        with pytest.raises(ConfigError, match="reask"):
            judge(server, reask=bad)


def test_empty_content_and_refusal_field_are_errors(server: ScriptedChatServer) -> None:
    refusal = {"id": "x", "object": "chat.completion", "model": "m", "choices": [
        {"index": 0, "finish_reason": "stop",
         "message": {"role": "assistant", "content": None, "refusal": "I can't assist."}}]}
    server.say(Said("   "))
    backend = judge(server)
    with pytest.raises(JudgeAnswerError, match="no message content"):
        backend.ask(RUN, {"h": question("hallucination")})
    server.play(Reply(200, refusal))
    with pytest.raises(JudgeAnswerError, match="refusal: I can't assist"):
        backend.ask(RUN, {"h": question("hallucination")})


def test_a_reply_cut_at_the_token_limit_says_so(server: ScriptedChatServer) -> None:
    server.say(Said(verdict(True, 0.9), finish_reason="length"))
    answer = judge(server).ask(RUN, {"h": question("hallucination")}).answers["h"]
    assert answer.value == 0.9 and answer.reasoning.endswith("[the judge's reply was cut off]")


def test_salvaged_fields_from_a_truncated_reply() -> None:
    answer = parse_verdict('{"failure": false, "confidence": "80%", "reasoning": "Turn 3 '
                           'is a \\"polite\\" re-ask and')
    assert answer.value == pytest.approx(0.2) and answer.confidence == 0.8
    assert answer.reasoning == ('Turn 3 is a "polite" re-ask and '
                                "[the judge's reply was cut off]")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_text_without_a_verdict_is_never_an_answer(text: str) -> None:
    # The promise behind "never a silent healthy": arbitrary text either fails to parse,
    # or it named a verdict field ("failure" or "failed") and the value is a probability.
    try:
        answer = parse_verdict(text)
    except JudgeAnswerError:
        return
    assert "fail" in text.lower()
    assert 0.0 <= answer.value <= 1.0


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["failure", "confidence", "reasoning", "evidence"]),
                       st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                                 st.text(max_size=8), st.lists(st.text(max_size=4)))))
def test_any_verdict_object_parses_to_a_probability_or_an_error(obj: dict[str, Any]) -> None:
    try:
        answer = parse_verdict(json.dumps(obj))
    except JudgeAnswerError:
        return
    assert 0.0 <= answer.value <= 1.0
    assert answer.value in (0.0, 1.0) or answer.confidence is not None
