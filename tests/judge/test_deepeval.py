"""The DeepEval-backed judge: deepeval's real metric objects, judged through our chat
client by a scripted OpenAI-compatible server on 127.0.0.1. The scripted replies have the
shapes deepeval's templates ask for (verdict lists, task/outcome, score/reason)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from deepeval.models import DeepEvalBaseLLM

from semloop._exceptions import (
    ConfigError,
    InputError,
    JudgeAnswerError,
    JudgeStatusError,
    UnsupportedQuestionError,
)
from semloop.judge._evaluator import EVALUATOR_KINDS, RUBRICS
from semloop.judge._http import RetryPolicy
from semloop.judge.deepeval import (
    DeepEvalBackend,
    SemloopJudgeModel,
    failure_probability,
)
from semloop.judge.llm import SYSTEM_PROMPT, LLMJudgeBackend
from semloop.judge.registry import make_backend

from .servers import Said, ScriptedChatServer
from .test_llm_evaluators import CONVERSATION, RUN

QUICK = RetryPolicy(max_retries=0)


def backend(server: ScriptedChatServer, **options: Any) -> DeepEvalBackend:
    options.setdefault("retry", QUICK)
    return DeepEvalBackend("test-key", base_url=server.base_url, **options)


def ask(judge: DeepEvalBackend, kind: str, state: Any = None) -> Any:
    if state is None:
        state = CONVERSATION if RUBRICS[kind].conversation else RUN
    return judge.ask(state, {kind: {"type": "noul", "kind": kind}})


def verdicts(*pairs: tuple[str, str]) -> str:
    return json.dumps({"verdicts": [{"verdict": v, "reason": r} for v, r in pairs]})


def test_the_flip_is_mapped_in_one_place() -> None:
    # deepeval <= 4.1.x: HallucinationMetric's score was the share of contradicted
    # contexts; from 4.2.0 it is the share that agree, like every other metric's "1 is a
    # pass". P(failure) must mean the same under both.
    assert failure_probability("hallucination", 0.25, "4.1.10") == 0.25
    assert failure_probability("hallucination", 0.25, "4.2.0") == 0.75
    assert failure_probability("hallucination", 0.25) == 0.75  # the installed 4.3.1
    assert failure_probability("user_frustration", 0.25, "4.1.10") == 0.75


def test_hallucination_checks_each_context_and_tool_output(server: ScriptedChatServer) -> None:
    server.say(verdicts(("no", "The policy says 30 days, not 60."),
                        ("yes", "The plan lookup agrees.")))
    response = ask(backend(server, input_usd_per_mtok=1.0), "hallucination")
    [request] = server.requests  # include_reason is off: the verdicts are the reasoning
    prompt = request.json["messages"][0]["content"]
    assert "annual plans are refundable within 30 days" in prompt
    assert "[T1] lookup_plan" in prompt  # the tool's output is context too
    assert "Annual plans can be refunded within 60 days" in prompt
    answer = response.answers["hallucination"]
    assert answer.value == 0.5  # one of two contexts contradicted: deepeval's 4.3.1 score 0.5
    assert answer.reasoning == ("deepeval score 0.50. contradicts context 1: The policy says "
                                "30 days, not 60.")
    assert response.input_tokens > 0 and not response.tokens_estimated
    assert response.cost_usd == pytest.approx(response.input_tokens / 1e6)
    assert response.model == "gpt-4o-mini-2026-01-01"


def test_an_answer_that_agrees_is_healthy_not_hallucinated(server: ScriptedChatServer) -> None:
    server.say(verdicts(("yes", "agrees"), ("yes", "agrees")))
    answer = ask(backend(server), "hallucination").answers["hallucination"]
    assert answer.value == 0.0  # score 1.0 (agreement), read the 4.2.0+ way
    assert answer.reasoning.endswith("The answer agrees with every context.")


@pytest.mark.parametrize("reply", [
    verdicts(("no", "contradiction")),  # one verdict for two contexts
    verdicts(("maybe", "?"), ("yes", "ok")),  # deepeval drops "maybe", scores the rest
    verdicts(),  # deepeval would score no verdicts as 1.0, "no hallucination"
])
def test_missing_verdicts_are_errors_not_a_pass(server: ScriptedChatServer, reply: str) -> None:
    server.say(reply)
    with pytest.raises(JudgeAnswerError, match=r"verdict\(s\) for 2 context\(s\)"):
        ask(backend(server), "hallucination")


def test_nothing_to_check_against_is_an_error_without_a_call(
    server: ScriptedChatServer,
) -> None:
    bare = {**RUN, "context": [], "tools_called": []}
    with pytest.raises(JudgeAnswerError, match="no context or tool output"):
        ask(backend(server), "hallucination", bare)
    assert server.requests == []


def test_task_completion_is_deepevals_own_metric(server: ScriptedChatServer) -> None:
    server.say(json.dumps({"task": "give the refund window", "outcome": "said 60 days"}),
               json.dumps({"verdict": 0.25, "reason": "The window given is wrong."}))
    answer = ask(backend(server), "task_completion").answers["task_completion"]
    extract, judged = (r.json["messages"][0]["content"] for r in server.requests)
    assert '"succeeded": true' in extract and "lookup_plan" in extract  # the outcome rides along
    assert "give the refund window" in judged and "said 60 days" in judged
    assert answer.value == 0.75
    assert answer.reasoning == ("deepeval score 0.25. Task: give the refund window "
                                "Outcome: said 60 days The window given is wrong.")


@pytest.mark.parametrize("kind", ["task_understanding_failure", "off_topic_drift"])
def test_geval_kinds_judge_with_our_rubric_as_steps(server: ScriptedChatServer,
                                                    kind: str) -> None:
    server.say(json.dumps({"score": 3, "reason": "Sentence (2) is about monthly plans."}))
    answer = ask(backend(server), kind).answers[kind]
    [request] = server.requests  # the steps are given, so deepeval writes none
    prompt = request.json["messages"][0]["content"]
    assert RUBRICS[kind].failure in prompt and RUBRICS[kind].not_failure[0] in prompt
    assert "What is the refund window for annual plans?" in prompt
    assert answer.value == pytest.approx(0.7)
    assert answer.reasoning == "deepeval score 0.30. Sentence (2) is about monthly plans."


@pytest.mark.parametrize("kind", ["user_frustration", "confusion_loop", "sycophancy_signal"])
def test_conversation_kinds_are_conversational_geval(server: ScriptedChatServer,
                                                     kind: str) -> None:
    server.say(json.dumps({"score": 10, "reason": "Turn 3 is a plain re-ask."}))
    answer = ask(backend(server), kind).answers[kind]
    [request] = server.requests
    prompt = request.json["messages"][0]["content"]
    assert "THIS IS THE THIRD TIME I ASK" in prompt and RUBRICS[kind].failure in prompt
    assert answer.value == 0.0


@pytest.mark.parametrize(("reply", "fragment"), [
    ("I cannot evaluate this conversation.", "invalid JSON"),
    (json.dumps({"reason": "no score given"}), "KeyError"),
    (json.dumps({"score": "eleven", "reason": "?"}), "could not read"),
    (json.dumps({"score": 15, "reason": "too high"}), r"not in \[0, 1\]"),
    (json.dumps({"score": -2, "reason": "too low"}), r"not in \[0, 1\]"),
])
def test_unreadable_scores_are_errors_not_healthy(server: ScriptedChatServer, reply: str,
                                                  fragment: str) -> None:
    server.say(reply)
    with pytest.raises(JudgeAnswerError, match=fragment):
        ask(backend(server), "user_frustration")


def test_a_task_verdict_out_of_range_is_an_error(server: ScriptedChatServer) -> None:
    server.say(json.dumps({"task": "t", "outcome": "o"}), json.dumps({"verdict": 1.7, "reason": "over"}))
    with pytest.raises(JudgeAnswerError, match="1.7"):
        ask(backend(server), "task_completion")


def test_host_errors_stay_host_errors(server: ScriptedChatServer) -> None:
    # Nothing scripted: the server answers 500, which is the host's failure, not the
    # judge's answer.
    with pytest.raises(JudgeStatusError) as info:
        ask(backend(server), "confusion_loop")
    assert info.value.status == 500


def test_usage_is_summed_and_estimated_when_missing(server: ScriptedChatServer) -> None:
    server.say(Said(json.dumps({"task": "t", "outcome": "o"}), usage=False),
               json.dumps({"verdict": 1.0, "reason": "done"}))
    response = ask(backend(server), "task_completion")
    first, second = (r.json["messages"][0]["content"] for r in server.requests)
    assert response.tokens_estimated
    assert response.input_tokens == (len(first) + 3) // 4 + len(second) // 4
    assert response.answers["task_completion"].value == 0.0


def test_loop_questions_go_to_the_same_model_as_the_llm_judge_asks(
    server: ScriptedChatServer,
) -> None:
    # deepeval has no judged loop metric: the loop detector's questions take the LLM
    # judge's own path through the same client, so AGENT_LOOP runs in this mode too.
    server.say(json.dumps({"score": 2, "reason": "Turn 3 repeats turn 1."}),
               json.dumps({"answers": {"progress_0_1": 0.9}}))
    response = backend(server).ask(CONVERSATION, {
        "confusion_loop": {"type": "noul", "kind": "confusion_loop"},
        "progress_0_1": {"type": "noul", "instructions": "advance?"},
    })
    assert {k: a.value for k, a in response.answers.items()} == {
        "confusion_loop": pytest.approx(0.8), "progress_0_1": 0.9}
    assert server.requests[1].json["messages"][0]["content"] == SYSTEM_PROMPT
    assert DeepEvalBackend.kinds == EVALUATOR_KINDS | {"loop"}
    with pytest.raises(UnsupportedQuestionError, match="'toxicity' questions"):
        backend(server).ask(RUN, {"t": {"type": "noul", "kind": "toxicity"}})
    assert len(server.requests) == 2


def test_the_judge_model_is_a_deepeval_model(server: ScriptedChatServer) -> None:
    server.say("plain text")
    model = SemloopJudgeModel(LLMJudgeBackend("test-key", base_url=server.base_url,
                                              model="judge-8b"))
    assert isinstance(model, DeepEvalBaseLLM) and model.get_model_name() == "judge-8b"
    assert model.generate("Say something.") == "plain text"
    assert "response_format" not in server.requests[0].json  # no schema: no JSON mode


def test_registry_builds_it_per_evaluator_model(server: ScriptedChatServer) -> None:
    judge = make_backend("deepeval", api_key="test-key", base_url=server.base_url,
                         model="judge-8b")
    assert isinstance(judge, DeepEvalBackend) and judge.model == "judge-8b"
    with pytest.raises(ConfigError, match="does not take option"):
        make_backend("deepeval", base_url=server.base_url, temprature=0.2)
    with pytest.raises(ConfigError, match="either client= or"):
        DeepEvalBackend(client=judge.client, model="other")


def test_telemetry_is_off_and_nothing_is_written(server: ScriptedChatServer, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    server.say(json.dumps({"score": 8, "reason": "fine"}))
    ask(backend(server), "off_topic_drift")
    assert os.environ["DEEPEVAL_TELEMETRY_OPT_OUT"] == "1"
    assert os.environ["DEEPEVAL_DISABLE_DOTENV"] == "1"
    assert list(tmp_path.iterdir()) == []


def test_threads_share_one_backend(server: ScriptedChatServer) -> None:
    # Each ask builds its own metric and model wrapper; only the connection pool is shared.
    judge = backend(server)
    server.say(*[json.dumps({"score": 7, "reason": "Turn 3 re-asks."})] * 20)
    values: list[float] = []

    def run() -> None:
        for _ in range(5):
            response = ask(judge, "confusion_loop")
            values.append(response.answers["confusion_loop"].value)
            assert response.input_tokens > 0

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert values == [pytest.approx(0.3)] * 20 and len(server.requests) == 20


def test_a_state_that_is_no_case_is_refused(server: ScriptedChatServer) -> None:
    with pytest.raises(InputError, match="needs a case's state"):
        backend(server).ask("just text", {"h": {"type": "noul", "kind": "hallucination"}})
    assert server.requests == []
