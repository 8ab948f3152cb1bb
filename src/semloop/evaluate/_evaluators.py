"""The evaluator interface and the eight evaluators.

An evaluator is a pure function ``evaluator(case, judge, settings) -> EvalResult``: it
asks ``judge`` one question about ``case`` (AGENT_LOOP: the loop detector's one request
about the run's trace) and reads the answer as P(the failure happened). Nothing here
reads a clock other than to time the judge, touches a file or raises through a batch: a
judge failure is an error result, a missing or unreadable answer an undecided one, and
never a silent pass.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Union

from .._exceptions import ConfigError, InputError, JudgeError
from ..case import ConversationCase, RunCase
from ..judge import Answer, Backend, JudgeResponse, require_kinds
from ..trace import Trace
from ._rubrics import DEFINITIONS, question_for
from .loop import SemanticLoopDetection, SemanticLoopResult, _noul_value

__all__ = [
    "AGENT_LOOP",
    "CONFUSION_LOOP",
    "EVALUATORS",
    "HALLUCINATION",
    "OFF_TOPIC_DRIFT",
    "SYCOPHANCY_SIGNAL",
    "TASK_COMPLETION",
    "TASK_UNDERSTANDING_FAILURE",
    "USER_FRUSTRATION",
    "Case",
    "EvalResult",
    "Evaluator",
    "EvaluatorSettings",
    "LoopEvaluator",
    "QuestionEvaluator",
    "TraceCase",
    "get_evaluator",
    "loop_confidence",
]

Level = Literal["run", "conversation", "trace"]

#: Below it a finding is kept and shown but not alerted (Dunetrace's default too).
DEFAULT_CONFIDENCE_FLOOR = 0.6


@dataclass(frozen=True)
class TraceCase:
    """A run's trace, what AGENT_LOOP reads; ``label`` as in :class:`~semloop.case.RunCase`."""

    id: str
    trace: Trace
    label: bool | None = None


Case = Union[RunCase, ConversationCase, TraceCase]  # noqa: UP007 - a runtime alias on 3.10


@dataclass(frozen=True)
class EvaluatorSettings:
    """How one evaluator runs: ``docs/config/semantic-evaluators.yml`` resolved.

    The evaluator fires when its confidence is at least ``threshold``; a fired finding
    below ``confidence_floor`` is kept but not alerted. ``judge``/``model`` name the
    judge to build (``None``: the caller's); the second-opinion keys are read by the
    caller that has a second judge to ask.
    """

    threshold: float = 0.5
    confidence_floor: float = DEFAULT_CONFIDENCE_FLOOR
    enabled: bool = True
    judge: str | None = None
    model: str | None = None
    require_second_opinion: bool = False
    second_opinion_judge: str | None = None
    second_opinion_model: str | None = None


@dataclass(frozen=True)
class EvalResult:
    """One evaluator's verdict on one case.

    ``confidence`` is P(the failure happened), ``None`` when there is no verdict:
    ``undecided`` (the judge gave no usable answer) or ``error`` (it failed).
    ``alertable`` is ``fired`` with a confidence at or above the settings' floor.
    """

    evaluator: str
    case_id: str
    fired: bool
    confidence: float | None
    undecided: bool
    reasoning: str
    judge: str
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    threshold: float = 0.5
    alertable: bool = False
    error: str | None = None
    #: The host reported no usage: the tokens (and cost) are estimated from the text.
    tokens_estimated: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "evaluator": self.evaluator,
            "id": self.case_id,
            "fired": self.fired,
            "confidence": self.confidence,
            "undecided": self.undecided,
            "reasoning": self.reasoning,
            "judge": self.judge,
            "model": self.model,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
            "latency_ms": self.latency_ms,
            "threshold": self.threshold,
            "alertable": self.alertable,
            "error": self.error,
            "tokens_estimated": self.tokens_estimated,
        }


class Evaluator(Protocol):
    """What every evaluator is: a name, the level of case it reads, and a call."""

    @property
    def name(self) -> str: ...

    @property
    def level(self) -> Level: ...

    @property
    def definition(self) -> str: ...

    @property
    def default_threshold(self) -> float: ...

    def __call__(
        self, case: Any, judge: Backend, settings: EvaluatorSettings | None = None
    ) -> EvalResult: ...


def _judge_name(judge: object) -> str:
    return str(getattr(judge, "name", type(judge).__name__))


def _usage(response: JudgeResponse | SemanticLoopResult | None) -> dict[str, Any]:
    """What a judge call cost, as EvalResult fields (nothing without a call)."""
    if response is None:
        return {}
    return {"input_tokens": response.input_tokens, "output_tokens": response.output_tokens,
            "cost_usd": response.cost_usd, "model": getattr(response, "model", ""),
            "tokens_estimated": bool(getattr(response, "tokens_estimated", False))}


def _verdict(
    name: str, case_id: str, judge: object, settings: EvaluatorSettings, confidence: float,
    reasoning: str, *, usage: dict[str, Any], latency_ms: float, undecided: bool = False,
) -> EvalResult:
    fired = confidence >= settings.threshold
    return EvalResult(
        evaluator=name, case_id=case_id, fired=fired, confidence=confidence,
        undecided=undecided, reasoning=reasoning, judge=_judge_name(judge),
        latency_ms=latency_ms, threshold=settings.threshold,
        alertable=fired and confidence >= settings.confidence_floor, **usage,
    )


def _no_verdict(
    name: str, case_id: str, judge: object, settings: EvaluatorSettings, reasoning: str, *,
    error: str | None = None, usage: dict[str, Any] | None = None, latency_ms: float = 0.0,
) -> EvalResult:
    return EvalResult(
        evaluator=name, case_id=case_id, fired=False, confidence=None, undecided=True,
        reasoning=reasoning, judge=_judge_name(judge), latency_ms=latency_ms,
        threshold=settings.threshold, error=error, **(usage or {}),
    )


def _failure(exc: Exception, judge: object) -> str:
    if isinstance(exc, JudgeError):
        return str(exc)
    # A third-party backend's own bug: reported like a failed judge, with its type.
    return f"judge {_judge_name(judge)!r} failed: {type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class QuestionEvaluator:
    """An evaluator that asks its judge one ``noul`` question of its kind per case."""

    name: str
    level: Literal["run", "conversation"]
    default_threshold: float = 0.5
    #: The failure is judged against the run's own context or tool outputs, so a case with
    #: neither is undecided whatever the judge: there is nothing to check the answer against.
    needs_context: bool = False

    @property
    def kind(self) -> str:
        return self.name.lower()

    @property
    def definition(self) -> str:
        return DEFINITIONS[self.kind]

    def question(self) -> dict[str, Any]:
        """The question sent for every case (the same for every case)."""
        return question_for(self.kind)

    def settings(self) -> EvaluatorSettings:
        """The settings it runs with when none are given."""
        return EvaluatorSettings(threshold=self.default_threshold)

    def __call__(
        self, case: Any, judge: Backend, settings: EvaluatorSettings | None = None
    ) -> EvalResult:
        wanted = RunCase if self.level == "run" else ConversationCase
        if not isinstance(case, wanted):
            raise InputError(
                f"{self.name} reads a {wanted.__name__}, not {type(case).__name__}"
            )
        settings = settings or self.settings()
        if self.needs_context and isinstance(case, RunCase) and not case.grounded:
            return _no_verdict(self.name, case.id, judge, settings,
                               "Undecided: no context and no tool output to check the "
                               "answer against.")
        questions = {self.kind: self.question()}
        start = time.perf_counter()
        try:
            require_kinds(judge, questions)
            response = judge.ask(case.to_state(), questions)
        except Exception as exc:  # noqa: BLE001 - a failed judge is a result; the batch goes on
            error = _failure(exc, judge)
            return _no_verdict(self.name, case.id, judge, settings, f"No verdict: {error}",
                               error=error, latency_ms=(time.perf_counter() - start) * 1000.0)
        latency_ms = (time.perf_counter() - start) * 1000.0
        if not isinstance(response, JudgeResponse) or not isinstance(response.answers, Mapping):
            error = (f"judge {_judge_name(judge)!r} returned {type(response).__name__}, "
                     "not a JudgeResponse")
            return _no_verdict(self.name, case.id, judge, settings, f"No verdict: {error}",
                               error=error, latency_ms=latency_ms)
        answer = response.answers.get(self.kind)
        p = _noul_value(answer)  # None for an unusable answer: never guessed
        if p is None:
            got = "no answer" if answer is None else f"an unusable answer ({answer!r:.120})"
            return _no_verdict(
                self.name, case.id, judge, settings,
                f"Undecided: judge {_judge_name(judge)!r} gave {got} to {self.kind!r}.",
                usage=_usage(response), latency_ms=latency_ms)
        assert isinstance(answer, Answer)
        reasoning = answer.reasoning.strip() or (
            f"Judge {_judge_name(judge)!r} gave P(failure) = {p:.2f} and no reasoning."
        )
        return _verdict(self.name, case.id, judge, settings, p, reasoning,
                        usage=_usage(response), latency_ms=latency_ms)


def loop_confidence(
    result: SemanticLoopResult, mild_stagnation: float
) -> tuple[float, list[str], tuple[int, int] | None]:
    """P(a loop) from a loop verdict, the sub-signals confirmed, and the stuck stretch.

    A sub-signal is confirmed at 0.0: the exact or judged tool check, or reasoning
    stagnation over a stretch of at least 3 steps (``stretch``: its first and last step;
    pairs at ``mild_stagnation`` or worse make it up). A lone repeated step confirms
    nothing: on long real runs that is alert fatigue. The confidence is ``1 - score``, at
    least 0.6 with a confirmed sub-signal: with deepeval's weights no lone sub-signal can
    push the score below 0.5, and a confirmed loop hidden behind a weighted mean would help
    nobody. The loop worker pages on the same rule.
    """
    breakdown = result.score_breakdown or {}
    # The detector names the stretch that scored (SemanticLoopDetection.min_stretch_steps,
    # 3 by default); ``mild_stagnation`` is kept for callers, the stretch already used it.
    stretch = result.stuck_stretch
    confirmed = sorted(
        k for k, v in breakdown.items()
        if v == 0.0 and (k != "reasoning_stagnation" or stretch is not None))
    confidence = round(max(1.0 - result.score, 0.6 if confirmed else 0.0), 4)
    return confidence, confirmed, stretch


@dataclass(frozen=True)
class LoopEvaluator:
    """AGENT_LOOP: the library's judged loop detector on the run's trace."""

    name: str = "AGENT_LOOP"
    level: Literal["trace"] = "trace"
    default_threshold: float = 0.5
    definition: str = (
        "The run is stuck: it repeats the same attempt (reworded or not), calls a tool "
        "again and again as the same action, or cycles between the same states, instead of "
        "moving towards the goal. Asked of the judge step pair by step pair by "
        "SemanticLoopDetection, in one request per trace."
    )

    def settings(self) -> EvaluatorSettings:
        return EvaluatorSettings(threshold=self.default_threshold)

    def __call__(
        self, case: Any, judge: Backend, settings: EvaluatorSettings | None = None
    ) -> EvalResult:
        if isinstance(case, Trace):
            case = TraceCase(id=case.trace_id, trace=case)
        if not isinstance(case, TraceCase):
            raise InputError(f"{self.name} reads a trace, not {type(case).__name__}")
        settings = settings or self.settings()
        start = time.perf_counter()
        try:
            detector = SemanticLoopDetection(judge)
            result = detector.measure(case.trace)
        except Exception as exc:  # noqa: BLE001 - a failed judge is a result; the batch goes on
            error = _failure(exc, judge)
            return _no_verdict(self.name, case.id, judge, settings, f"No verdict: {error}",
                               error=error, latency_ms=(time.perf_counter() - start) * 1000.0)
        latency_ms = (time.perf_counter() - start) * 1000.0
        confidence, _, _ = loop_confidence(result, detector.mild_stagnation)
        return _verdict(self.name, case.id, judge, settings, confidence, result.reason,
                        usage=_usage(result), latency_ms=latency_ms, undecided=result.undecided)


HALLUCINATION = QuestionEvaluator("HALLUCINATION", "run", needs_context=True)
TASK_COMPLETION = QuestionEvaluator("TASK_COMPLETION", "run")
TASK_UNDERSTANDING_FAILURE = QuestionEvaluator("TASK_UNDERSTANDING_FAILURE", "run")
OFF_TOPIC_DRIFT = QuestionEvaluator("OFF_TOPIC_DRIFT", "run")
AGENT_LOOP = LoopEvaluator()
USER_FRUSTRATION = QuestionEvaluator("USER_FRUSTRATION", "conversation")
CONFUSION_LOOP = QuestionEvaluator("CONFUSION_LOOP", "conversation")
# Precision-first: caving to pressure and a legitimate correction overlap, and a false
# accusation of sycophancy costs more trust than a miss. 0.55 sits between the embedded
# judge's highest negative (0.45) and its giving-in-under-pressure positives (0.57) on
# calibration/sycophancy_signal.jsonl (Dunetrace ships 0.4 on its healthy-score scale,
# i.e. 0.6 on ours, for the same reason).
SYCOPHANCY_SIGNAL = QuestionEvaluator("SYCOPHANCY_SIGNAL", "conversation", default_threshold=0.55)

#: Every evaluator by name, in the order the docs list them.
EVALUATORS: dict[str, QuestionEvaluator | LoopEvaluator] = {
    e.name: e
    for e in (HALLUCINATION, TASK_COMPLETION, TASK_UNDERSTANDING_FAILURE, OFF_TOPIC_DRIFT,
              AGENT_LOOP, USER_FRUSTRATION, CONFUSION_LOOP, SYCOPHANCY_SIGNAL)
}


def get_evaluator(name: str) -> QuestionEvaluator | LoopEvaluator:
    """An evaluator by name, in any case; :class:`~semloop.ConfigError` for an unknown one."""
    found = EVALUATORS.get(name.strip().upper())
    if found is None:
        raise ConfigError(
            f"unknown evaluator {name!r}; known: {', '.join(EVALUATORS)} (any case)",
            key="evaluator",
        )
    return found
