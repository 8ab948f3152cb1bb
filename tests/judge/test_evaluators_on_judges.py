"""Every evaluator on every non-embedded judge: semloop.evaluate's own evaluator objects
asking the LLM, Jev and DeepEval judges, each against its real server on 127.0.0.1.

The judges' own tests cover their parsing; this holds the pieces together: the
evaluator's question reaches the judge in the judge's form, the answer comes back as the
evaluator's confidence and reasoning, and an unreadable answer is undecided, never a pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from semloop.case import ConversationCase, RunCase
from semloop.cli import app
from semloop.evaluate import AGENT_LOOP, EVALUATORS, EvalResult, QuestionEvaluator
from semloop.judge._http import RetryPolicy
from semloop.judge.deepeval import DeepEvalBackend
from semloop.judge.jev import JevBackend
from semloop.judge.llm import EVALUATOR_PROMPTS, LLMJudgeBackend
from semloop.trace import Span, Trace

from .servers import Edit, ScriptedChatServer, SystemOneServer, noul_p
from .test_llm_evaluators import CONVERSATION, RUN

QUICK = RetryPolicy(max_retries=0)
QUESTION_EVALUATORS = sorted(n for n, e in EVALUATORS.items() if isinstance(e, QuestionEvaluator))


def run(name: str, judge: Any) -> EvalResult:
    evaluator = EVALUATORS[name]
    assert isinstance(evaluator, QuestionEvaluator)
    case = (RunCase.from_state(RUN, id="case-1") if evaluator.level == "run"
            else ConversationCase.from_state(CONVERSATION, id="case-1"))
    return evaluator(case, judge)


def deepeval_says(kind: str, score: float) -> list[str]:
    """deepeval's reply shapes for a metric scoring ``score`` (1 is a pass)."""
    if kind == "hallucination":
        contexts = len(RUN["context"]) + len(RUN["tools_called"])
        return [json.dumps({"verdicts": [{"verdict": "yes" if score else "no",
                                          "reason": "context check"}] * contexts})]
    if kind == "task_completion":
        return [json.dumps({"task": "t", "outcome": "o"}),
                json.dumps({"verdict": score, "reason": "step 1 left undone"})]
    return [json.dumps({"score": score * 10, "reason": "turn 3 / sentence 1"})]


def test_the_evaluators_are_the_seven_question_kinds() -> None:
    assert {n.lower() for n in QUESTION_EVALUATORS} == set(EVALUATOR_PROMPTS)


@pytest.mark.parametrize("name", QUESTION_EVALUATORS)
def test_on_the_llm_judge(server: ScriptedChatServer, name: str) -> None:
    server.say(json.dumps({"failure": True, "confidence": 0.8, "reasoning": "It happened.",
                           "evidence": "turn 3 / sentence 1"}),
               *["I'm sorry, I can't help with that."] * 2)  # asked again once
    judge = LLMJudgeBackend("test-key", base_url=server.base_url, retry=QUICK)
    fired = run(name, judge)
    assert (fired.fired, fired.confidence, fired.undecided) == (True, 0.8, False)
    assert fired.reasoning == "It happened. Evidence: turn 3 / sentence 1"
    assert fired.input_tokens > 0 and fired.judge == "llm"
    sent = server.requests[0].json["messages"]
    assert sent[0]["content"] == EVALUATOR_PROMPTS[name.lower()]
    assert "THE EVALUATOR ADDS" in sent[1]["content"]  # the evaluator's own definition
    refused = run(name, judge)
    assert (refused.fired, refused.confidence, refused.undecided) == (False, None, True)
    assert "gave no verdict" in (refused.error or "")


@pytest.mark.parametrize("name", QUESTION_EVALUATORS)
def test_on_jev(jev_server: SystemOneServer, name: str) -> None:
    def broken(body: dict[str, Any]) -> dict[str, Any]:
        body["answers"][name.lower()] = {"type": "noul", "noul": "high"}
        return body

    judge = JevBackend("test-key", base_url=jev_server.url, retry=QUICK)
    result = run(name, judge)
    sent = jev_server.requests[0].json
    noul = sent["questions"][name.lower()]
    assert "kind" not in noul and noul["instructions"].startswith(EVALUATORS[name].definition)
    assert set(noul["criteria"]) == {"true", "false"}
    assert result.confidence == noul_p(sent["state"], noul) and not result.undecided
    assert result.reasoning.startswith(f"Jev: P({name.lower()}) = ")
    assert result.cost_usd > 0
    jev_server.play(Edit(broken))
    assert run(name, judge).undecided


@pytest.mark.parametrize("name", QUESTION_EVALUATORS)
def test_in_the_deepeval_mode(server: ScriptedChatServer, name: str) -> None:
    kind = name.lower()
    server.say(*deepeval_says(kind, 0.0), *deepeval_says(kind, 1.0), "not JSON")
    judge = DeepEvalBackend("test-key", base_url=server.base_url, retry=QUICK)
    failed, healthy = run(name, judge), run(name, judge)
    assert (failed.fired, failed.confidence) == (True, 1.0)
    assert (healthy.fired, healthy.confidence, healthy.undecided) == (False, 0.0, False)
    assert failed.reasoning.startswith("deepeval score 0.00.") and failed.judge == "deepeval"
    if kind == "task_completion":
        server.say(json.dumps({"task": "t", "outcome": "o"}))  # the verdict call gets junk
    assert run(name, judge).undecided


def test_agent_loop_in_the_deepeval_mode(server: ScriptedChatServer) -> None:
    steps = [Span(type="llm", name="think", output=f"searching flights, attempt {k}")
             for k in range(2)]
    trace = Trace(goal="book a flight", root=Span(type="agent", name="agent", children=steps))
    server.say(json.dumps({"answers": {"progress_0_1": 0.05, "stagnation": 3}}))
    judge = DeepEvalBackend("test-key", base_url=server.base_url, retry=QUICK)
    result = AGENT_LOOP(trace, judge)
    assert not result.undecided and result.error is None
    assert 0.0 <= (result.confidence or 0.0) <= 1.0 and len(server.requests) == 1


@pytest.mark.parametrize("judge", ["llm", "deepeval"])
def test_semloop_evaluate_on_a_chat_host(tmp_path: Path, judge: str) -> None:
    # The command line, with the judge chosen by name and pointed at the host by flags.
    cases = tmp_path / "cases.jsonl"
    lines = [{"id": "calm", "label": False, **CONVERSATION},
             {"id": "angry", "label": True, **CONVERSATION}]
    cases.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "out.json"
    replies = {"llm": [json.dumps({"failure": False, "confidence": 0.9}),
                       json.dumps({"failure": True, "confidence": 0.9, "evidence": "turn 3"})],
               "deepeval": [json.dumps({"score": 9, "reason": "calm"}),
                            json.dumps({"score": 1, "reason": "turn 3 shouts"})]}[judge]
    with ScriptedChatServer(key=None) as host:
        host.say(*replies)
        result = CliRunner().invoke(app, [
            "evaluate", str(cases), "--evaluator", "user_frustration", "--judge", judge,
            "--base-url", host.base_url, "--model", "judge-8b", "--json", str(out)])
        assert result.exit_code == 0, result.output
        assert {r.json["model"] for r in host.requests} == {"judge-8b"}
    report = json.loads(out.read_text())
    assert [(r["id"], r["fired"], r["undecided"]) for r in report["results"]] == [
        ("calm", False, False), ("angry", True, False)]
    assert report["results"][1]["confidence"] == pytest.approx(0.9)
