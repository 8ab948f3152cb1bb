"""Second opinions: a HIGH finding from an evaluator configured for one is asked again of
another judge, which must agree for the finding to stay HIGH.

Pure, like the evaluators: the caller passes the second judge and applies the outcome
(Dunetrace downgrades a disagreed finding to MEDIUM). Unlike Dunetrace, which asks only
at exactly HIGH (0.70–0.85) so that its most confident findings are never checked, a
CRITICAL finding is asked again too: it pages the hardest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..events import Severity, severity_for
from ..judge import Backend
from ._evaluators import EvalResult, EvaluatorSettings, LoopEvaluator, QuestionEvaluator

__all__ = ["SecondOpinion", "needs_second_opinion", "second_opinion"]

_CHECKED = frozenset({Severity.HIGH, Severity.CRITICAL})


@dataclass(frozen=True)
class SecondOpinion:
    """Whether a second judge was asked and whether it agreed; an undecided or failed
    second judge has not agreed (``agreed`` is ``False``, ``result`` says why)."""

    ran: bool
    agreed: bool | None = None
    result: EvalResult | None = None


def needs_second_opinion(result: EvalResult, settings: EvaluatorSettings) -> bool:
    """A fired finding at HIGH or CRITICAL from an evaluator with
    ``require_second_opinion``."""
    return (settings.require_second_opinion and result.fired and result.confidence is not None
            and severity_for(result.confidence) in _CHECKED)


def second_opinion(
    evaluator: QuestionEvaluator | LoopEvaluator, case: Any, first: EvalResult,
    judge: Backend, settings: EvaluatorSettings,
) -> SecondOpinion:
    """Ask ``judge`` about ``case`` again when ``first`` needs it; it agrees when it fires."""
    if not needs_second_opinion(first, settings):
        return SecondOpinion(ran=False)
    again = evaluator(case, judge, settings)
    return SecondOpinion(ran=True, agreed=again.fired, result=again)
