"""Runs and a scripted judge for the semantic worker's tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from semloop.evaluate import EvaluatorsConfig
from semloop.evaluate.sampling import SamplingConfig
from semloop.events import Event
from semloop.judge import ALL_KINDS, Answer, JudgeResponse
from semloop.store import Store
from semloop.worker import SemanticWorker

#: Every run sampled in, so each test chooses what it exercises.
ALL_RUNS = SamplingConfig(baseline_rate=1.0, retrieval_rate=1.0, conversation_evaluation_rate=1.0)
#: AGENT_LOOP asks loop questions of its own; these tests script evaluator questions only.
NO_LOOP = EvaluatorsConfig.from_dict({"AGENT_LOOP": {"enabled": False}})
ONE = EvaluatorsConfig.from_dict({name: {"enabled": name == "TASK_COMPLETION"} for name in (
    "HALLUCINATION", "TASK_COMPLETION", "TASK_UNDERSTANDING_FAILURE", "OFF_TOPIC_DRIFT",
    "AGENT_LOOP", "USER_FRUSTRATION", "CONFUSION_LOOP", "SYCOPHANCY_SIGNAL")})

Verdict = Callable[[Mapping[str, Any], str], "tuple[float, str] | Exception"]


class Judge:
    """Answers each evaluator question with ``verdict(state, kind)``: (P, reasoning), or an
    exception to raise. Costs a tenth of a cent a call and counts its calls."""

    kinds = ALL_KINDS

    def __init__(self, verdict: Verdict, name: str = "scripted") -> None:
        self.verdict = verdict
        self.name = name
        self.calls = 0
        self._counting = threading.Lock()  # a run's evaluators ask from two threads

    def ask(self, state: Mapping[str, Any], questions: Mapping[str, Any]) -> JudgeResponse:
        with self._counting:
            self.calls += 1
        answers = {}
        for qid in questions:
            said = self.verdict(state, qid)
            if isinstance(said, BaseException):
                raise said
            p, why = said
            answers[qid] = Answer(type="noul", value=p, probability=max(p, 1 - p),
                                  probabilities={True: p, False: 1 - p}, reasoning=why)
        return JudgeResponse(answers=answers, input_tokens=100, output_tokens=20,
                             cost_usd=0.001, model="m-1")


def fixed(p: float, why: str = "The agent did not do what was asked.") -> Judge:
    return Judge(lambda _state, _kind: (p, why))


def add_run(store: Store, org: str, run_id: str, *, question: str = "Refund order 42",
            answer: str = "I cannot help with that.", agent: str = "support",
            conversation: str | None = None, at: float | None = None) -> None:
    t = (time.time() - 100) if at is None else at
    events = [
        Event("run.started", run_id, agent, 0, t, {"input_text": question},
              conversation_id=conversation),
        # A tool output, so that HALLUCINATION has context to judge the answer against.
        Event("tool.called", run_id, agent, 1, t + 0.05, {"tool_name": "lookup_order"},
              conversation_id=conversation),
        Event("tool.responded", run_id, agent, 1, t + 0.08,
              {"tool_name": "lookup_order", "success": True, "output": "order 42: delivered"},
              conversation_id=conversation),
        Event("llm.called", run_id, agent, 2, t + 0.1, {"model": "m"},
              conversation_id=conversation),
        Event("llm.responded", run_id, agent, 2, t + 0.2, {"output": answer},
              conversation_id=conversation),
        Event("run.completed", run_id, agent, 3, t + 0.3, {"exit_reason": "completed"},
              conversation_id=conversation),
    ]
    store.add_events(org, events)


def worker(store: Store, judge: Any, **options: Any) -> SemanticWorker:
    options.setdefault("sampling", ALL_RUNS)
    options.setdefault("evaluators", ONE)
    options.setdefault("after", None)
    options.setdefault("backoff_s", 0.0)
    return SemanticWorker(store, judge, **options)


def semantic_signals(store: Store, org: str, run_id: str) -> list[Any]:
    return [s for s in store.signals_for_run(org, run_id) if s.source == "semantic"]
