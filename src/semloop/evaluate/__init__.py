"""Evaluators: judged checks that read a finished run or conversation and say whether a
failure happened, with a confidence, a reasoning and what the judge cost.

Each evaluator is a pure function ``evaluator(case, judge, settings) -> EvalResult``
(docs/evaluators.md). Run level: HALLUCINATION, TASK_COMPLETION (fires on failure),
TASK_UNDERSTANDING_FAILURE, OFF_TOPIC_DRIFT, AGENT_LOOP (the judged loop detector,
:mod:`semloop.evaluate.loop`, on the run's trace). Conversation level: USER_FRUSTRATION,
CONFUSION_LOOP, SYCOPHANCY_SIGNAL. Standard library only; reading the YAML config needs
pyyaml and the histogram matplotlib, each imported when used.
"""

from ._evaluators import (
    AGENT_LOOP,
    CONFUSION_LOOP,
    EVALUATORS,
    HALLUCINATION,
    OFF_TOPIC_DRIFT,
    SYCOPHANCY_SIGNAL,
    TASK_COMPLETION,
    TASK_UNDERSTANDING_FAILURE,
    USER_FRUSTRATION,
    Case,
    EvalResult,
    Evaluator,
    EvaluatorSettings,
    LoopEvaluator,
    QuestionEvaluator,
    TraceCase,
    get_evaluator,
    loop_confidence,
)
from ._second import SecondOpinion, needs_second_opinion, second_opinion
from .calibration import Calibration, Summary, calibrate, render_report, summarize
from .cases import (
    CONVERSATION_RUNS,
    cases_from_runs,
    conversation_case,
    parse_case,
    parse_case_lines,
    run_case,
    run_case_from_trace,
    trace_case,
)
from .config import EvaluatorsConfig, load_evaluators_config
from .loop import SemanticLoopDetection, SemanticLoopResult

__all__ = [
    "AGENT_LOOP",
    "CONFUSION_LOOP",
    "CONVERSATION_RUNS",
    "EVALUATORS",
    "HALLUCINATION",
    "OFF_TOPIC_DRIFT",
    "SYCOPHANCY_SIGNAL",
    "TASK_COMPLETION",
    "TASK_UNDERSTANDING_FAILURE",
    "USER_FRUSTRATION",
    "Calibration",
    "Case",
    "EvalResult",
    "Evaluator",
    "EvaluatorSettings",
    "EvaluatorsConfig",
    "LoopEvaluator",
    "QuestionEvaluator",
    "SecondOpinion",
    "SemanticLoopDetection",
    "SemanticLoopResult",
    "Summary",
    "TraceCase",
    "calibrate",
    "cases_from_runs",
    "conversation_case",
    "get_evaluator",
    "load_evaluators_config",
    "loop_confidence",
    "needs_second_opinion",
    "parse_case",
    "parse_case_lines",
    "render_report",
    "run_case",
    "run_case_from_trace",
    "second_opinion",
    "summarize",
    "trace_case",
]
