"""Judge backends: the same ``ask(state, questions)`` over different judges.

``JevBackend``, ``LLMJudgeBackend`` and ``MockBackend`` need the standard library alone;
``semloop.judge.local.LocalBackend`` (the embedded judge) needs the ``local`` extra and
``semloop.judge.deepeval.DeepEvalBackend`` the ``deepeval`` extra; both are imported only
when used.
"""

from ._evaluator import RUBRICS, Rubric
from ._http import RetryPolicy
from ._kinds import (
    ALL_KINDS,
    CONVERSATION_KINDS,
    LOOP_KIND,
    RUN_KINDS,
    declared_kinds,
    question_kind,
    require_kinds,
)
from ._types import Answer, Backend, JudgeResponse, Question, State
from .jev import USD_PER_INPUT_MTOK, JevBackend, estimate_cost_usd
from .llm import LLMJudgeBackend
from .mock import MockBackend

__all__ = [
    "ALL_KINDS",
    "CONVERSATION_KINDS",
    "LOOP_KIND",
    "RUBRICS",
    "RUN_KINDS",
    "USD_PER_INPUT_MTOK",
    "Answer",
    "Backend",
    "JevBackend",
    "JudgeResponse",
    "LLMJudgeBackend",
    "MockBackend",
    "Question",
    "RetryPolicy",
    "Rubric",
    "State",
    "declared_kinds",
    "estimate_cost_usd",
    "question_kind",
    "require_kinds",
]
