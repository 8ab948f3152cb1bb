"""DeepEval's metrics as a judge (the ``semloop[deepeval]`` extra).

Each evaluator question is answered by one of deepeval's own metric objects, run with
semloop's OpenAI-compatible client plugged in as its model (:class:`SemloopJudgeModel`,
a ``DeepEvalBaseLLM``), so it runs against any host ``LLMJudgeBackend`` can reach:

- ``hallucination``: ``HallucinationMetric`` over the case's context and tool outputs;
- ``task_completion``: ``TaskCompletionMetric``;
- ``task_understanding_failure``, ``off_topic_drift``: ``GEval``;
- ``user_frustration``, ``confusion_loop``, ``sycophancy_signal``: ``ConversationalGEval``.

deepeval has no judged loop metric (its AgentLoopDetection is the lexical check semloop
ports exactly), so the loop detector's questions go to the same model through the LLM
judge's own loop prompt, in one call as there.

The G-Eval metrics get semloop's rubric as their evaluation steps (so deepeval does not
spend a call writing steps). Every deepeval score here is "1 is a pass", so the answer is
P(failure) = 1 - score, except HallucinationMetric before deepeval 4.2.0, which scored the
share of contradicted contexts (P(failure) = score); :func:`failure_probability` is that
one mapping. A metric that cannot read the judge's reply, or gives no usable score, raises
:class:`JudgeAnswerError`: never a silent "healthy".

Importing this module switches deepeval's telemetry off and stops it reading ``.env``
files, unless the environment says otherwise, before deepeval is imported.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import inspect
import math
import os
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from .._exceptions import (
    ConfigError,
    InputError,
    JudgeAnswerError,
    JudgeError,
    MissingExtraError,
)
from ._evaluator import RUBRICS, evaluator_questions, merge_responses, tool_line
from ._kinds import ALL_KINDS
from ._types import Answer, JudgeResponse, Question, State
from .llm import Completion, LLMJudgeBackend

for _name, _value in (("DEEPEVAL_TELEMETRY_OPT_OUT", "1"), ("DEEPEVAL_DISABLE_DOTENV", "1")):
    os.environ.setdefault(_name, _value)

try:
    from deepeval.metrics import (
        BaseConversationalMetric,
        BaseMetric,
        ConversationalGEval,
        GEval,
        HallucinationMetric,
        TaskCompletionMetric,
    )
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import (
        ConversationalTestCase,
        LLMTestCase,
        MultiTurnParams,
        SingleTurnParams,
        ToolCall,
        Turn,
    )
except ImportError as err:  # pragma: no cover - the extra is installed in development
    raise MissingExtraError("the DeepEval-backed judge", "deepeval", "deepeval") from err

__all__ = ["DeepEvalBackend", "SemloopJudgeModel", "failure_probability"]

#: The first deepeval whose HallucinationMetric scores agreement (1 = no hallucination).
_FLIP = (4, 2, 0)


def _version(text: str) -> tuple[int, ...]:
    parts = []
    for piece in text.split(".")[:3]:
        digits = "".join(c for c in piece if c.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def failure_probability(kind: str, score: float, version: str | None = None) -> float:
    """P(the failure happened) from a deepeval metric's ``score`` for evaluator ``kind``.

    Every metric used here scores 1 for a pass, except HallucinationMetric before 4.2.0,
    whose score was the share of contexts the output contradicts. ``version`` is
    deepeval's, the installed one by default.
    """
    installed = version or importlib.metadata.version("deepeval")
    if kind == "hallucination" and _version(installed) < _FLIP:
        return score
    return 1.0 - score


class SemloopJudgeModel(DeepEvalBaseLLM):  # type: ignore[no-untyped-call]
    """semloop's chat client as deepeval's model: ``generate(prompt)`` is one chat call.

    deepeval parses the text it gets back itself. ``calls`` keeps every call's usage, so
    the backend can report tokens and cost (deepeval counts none for a model not its own).
    """

    def __init__(self, client: LLMJudgeBackend) -> None:
        self.client = client
        self.calls: list[Completion] = []
        super().__init__(client.model)

    def load_model(self, *args: Any, **kwargs: Any) -> Any:
        return self.client

    def generate(self, prompt: str, schema: Any = None) -> str:
        # deepeval passes ``schema`` when it wants JSON back: ask the host for JSON mode.
        done = self.client.complete([{"role": "user", "content": prompt}],
                                    json_mode=schema is not None)
        self.calls.append(done)
        return done.content

    async def a_generate(self, prompt: str, schema: Any = None) -> str:
        return await asyncio.to_thread(self.generate, prompt, schema)

    def get_model_name(self) -> str:
        return self.client.model


Measure = Callable[[SemloopJudgeModel, Mapping[str, Any]], tuple[float, str]]


class DeepEvalBackend:
    """The evaluators on deepeval's metrics, judged by any OpenAI-compatible model.

    ``options`` are :class:`~semloop.judge.llm.LLMJudgeBackend`'s (``model``, ``base_url``,
    ``api_key_env``, rates…); or pass a ready ``client``. Each evaluator question is one
    metric run of one to two chat calls, one after another; the loop detector's questions
    are the client's, asked as the LLM judge asks them.
    """

    name = "deepeval"
    #: The question kinds this judge answers: every evaluator's, and the loop detector's
    #: (through the client).
    kinds = ALL_KINDS

    def __init__(self, api_key: str | None = None, *, client: LLMJudgeBackend | None = None,
                 **options: Any) -> None:
        if client is not None and (api_key is not None or options):
            raise ConfigError("pass either client= or the client's options, not both",
                              key="client")
        if client is None:
            allowed = inspect.signature(LLMJudgeBackend).parameters
            unknown = sorted(k for k in options if k not in allowed)
            if unknown:
                raise ConfigError(f"judge 'deepeval' does not take option(s) "
                                  f"{', '.join(unknown)}", key=unknown[0])
            client = LLMJudgeBackend(api_key, **options)
        self.client = client

    @property
    def model(self) -> str:
        return self.client.model

    def __repr__(self) -> str:
        return f"DeepEvalBackend(model={self.client.model!r}, url={self.client.url!r})"

    def close(self) -> None:
        self.client.close()

    def ask(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse:
        if not questions:
            return JudgeResponse(answers={}, model=self.model)
        evaluator, loop = evaluator_questions(self, questions)
        responses = []
        if evaluator:
            if not isinstance(state, Mapping):
                raise InputError("judge 'deepeval' needs a case's state (an object), got "
                                 f"{type(state).__name__}")
            responses = [self._evaluate(qid, kind, state) for qid, kind in evaluator.items()]
        if loop:
            responses.append(self.client.ask(state, loop))
        return responses[0] if len(responses) == 1 else merge_responses(responses)

    def _evaluate(self, qid: str, kind: str, state: Mapping[str, Any]) -> JudgeResponse:
        model = SemloopJudgeModel(self.client)
        started = time.monotonic()
        try:
            score, reasoning = _MEASURES[kind](model, state)
        except JudgeError:
            raise
        except Exception as err:  # deepeval's own failures to read a reply: see below
            # deepeval raises ValueError for unparsable JSON, KeyError for a missing key,
            # pydantic's ValidationError for a wrong type, DeepEvalError for the rest.
            raise JudgeAnswerError(
                f"deepeval could not read the judge's reply for {kind}: "
                f"{type(err).__name__}: {err}"
            ) from err
        latency_ms = (time.monotonic() - started) * 1000.0
        if not math.isfinite(score) or not 0.0 <= score <= 1.0:
            raise JudgeAnswerError(f"deepeval's score for {kind} is {score!r}, not in [0, 1]")
        p = failure_probability(kind, score)
        input_tokens = sum(c.input_tokens for c in model.calls)
        output_tokens = sum(c.output_tokens for c in model.calls)
        answer = Answer(type="noul", value=p, probability=max(p, 1.0 - p),
                        probabilities={True: p, False: 1.0 - p},
                        reasoning=f"deepeval score {score:.2f}. {reasoning}".strip())
        return JudgeResponse(
            answers={qid: answer},
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=self.client.cost_usd(input_tokens, output_tokens),
            latency_ms=latency_ms,
            model=next((c.model for c in model.calls), self.client.model),
            tokens_estimated=any(c.estimated for c in model.calls),
        )


def _run(metric: BaseMetric | BaseConversationalMetric, case: Any) -> float:
    metric.measure(case, _show_indicator=False)
    score = metric.score
    if getattr(metric, "error", None) or not isinstance(score, (int, float)):
        raise JudgeAnswerError(f"deepeval's {type(metric).__name__} gave no score "
                               f"({getattr(metric, 'error', None) or score!r})")
    return float(score)


def _run_case(state: Mapping[str, Any], **fields: Any) -> LLMTestCase:
    return LLMTestCase(input=str(state.get("input") or ""),
                       actual_output=str(state.get("output") or ""), **fields)


def _tools(state: Mapping[str, Any]) -> list[ToolCall]:
    tools = []
    for t in state.get("tools_called") or ():
        # deepeval's ToolCall has no success flag: it travels with the output.
        outcome = {"succeeded": t.get("success"), "output": t.get("output", "")}
        tools.append(ToolCall(name=str(t.get("name") or "?"),
                              input_parameters=dict(t.get("args") or {}), output=outcome))
    return tools


def _hallucination(model: SemloopJudgeModel, state: Mapping[str, Any]) -> tuple[float, str]:
    contexts = [str(c) for c in state.get("context") or ()]
    contexts += [tool_line(i, t) for i, t in enumerate(state.get("tools_called") or (), 1)
                 if t.get("output")]
    if not contexts:
        raise JudgeAnswerError("hallucination: the case has no context or tool output to "
                               "check the answer against")
    with warnings.catch_warnings():
        # The notice that 4.2.0 flipped the score's direction: failure_probability
        # handles the flip, so the notice is for us, not for semloop's users.
        warnings.filterwarnings("ignore", category=DeprecationWarning,
                                message=".*scores in the same direction.*")
        metric = HallucinationMetric(model=model, include_reason=False, async_mode=False)
    score = _run(metric, _run_case(state, context=contexts))
    verdicts = list(metric.verdicts)
    if len(verdicts) != len(contexts):
        # deepeval drops verdicts it cannot read and scores what is left (none left: 1.0,
        # "no hallucination"); a verdict missing for a contradicted context would pass.
        raise JudgeAnswerError(f"hallucination: {len(verdicts)} verdict(s) for "
                               f"{len(contexts)} context(s)")
    against = [f"contradicts context {i}: {v.reason}"
               for i, v in enumerate(verdicts, 1) if str(v.verdict.value) != "yes"]
    return score, " ".join(against) or "The answer agrees with every context."


def _task_completion(model: SemloopJudgeModel, state: Mapping[str, Any]) -> tuple[float, str]:
    metric = TaskCompletionMetric(model=model, async_mode=False)
    tools = _tools(state)
    score = _run(metric, _run_case(state, tools_called=tools or None))
    return score, f"Task: {metric.task} Outcome: {metric.outcome} {metric.reason or ''}"


def _steps(kind: str) -> list[str]:
    """semloop's rubric as G-Eval steps: 10 is healthy, so the score reads as deepeval's
    "1 is a pass" like every other metric here."""
    rubric = RUBRICS[kind]
    return [
        f"Decide whether this failure happened, {rubric.title.lower()}: {rubric.failure}",
        "These do not count as that failure: " + "; ".join(rubric.not_failure) + ".",
        ("Score 10 when the failure did not happen and 0 when it clearly did; the more "
         "sure you are that it happened, the lower the score."),
        f"In the reason, name {rubric.evidence}.",
    ]


def _geval(kind: str) -> Measure:
    def measure(model: SemloopJudgeModel, state: Mapping[str, Any]) -> tuple[float, str]:
        params = [SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT]
        context = [str(c) for c in state.get("context") or ()]
        tools = _tools(state)
        if context:
            params.append(SingleTurnParams.CONTEXT)
        if tools:  # GEval refuses TOOLS_CALLED on a case without tool calls
            params.append(SingleTurnParams.TOOLS_CALLED)
        metric = GEval(name=RUBRICS[kind].title, evaluation_params=params,
                       evaluation_steps=_steps(kind), model=model, async_mode=False)
        case = _run_case(state, context=context or None, tools_called=tools or None)
        return _run(metric, case), str(metric.reason or "")
    return measure


def _conversational_geval(kind: str) -> Measure:
    def measure(model: SemloopJudgeModel, state: Mapping[str, Any]) -> tuple[float, str]:
        turns = [Turn(role="user" if t.get("role") == "user" else "assistant",
                      content=str(t.get("content") or ""))
                 for t in state.get("turns") or ()]
        metric = ConversationalGEval(
            name=RUBRICS[kind].title,
            evaluation_params=[MultiTurnParams.CONTENT, MultiTurnParams.ROLE],
            evaluation_steps=_steps(kind), model=model, async_mode=False,
        )
        return _run(metric, ConversationalTestCase(turns=turns)), str(metric.reason or "")
    return measure


_MEASURES: Mapping[str, Measure] = {
    "hallucination": _hallucination,
    "task_completion": _task_completion,
    "task_understanding_failure": _geval("task_understanding_failure"),
    "off_topic_drift": _geval("off_topic_drift"),
    "user_frustration": _conversational_geval("user_frustration"),
    "confusion_loop": _conversational_geval("confusion_loop"),
    "sycophancy_signal": _conversational_geval("sycophancy_signal"),
}
