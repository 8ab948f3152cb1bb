"""The embedded judge's task answers (scaffold: filled in by the evaluator work)."""

from __future__ import annotations

from ...case import RunCase
from .._types import Answer
from ._answerer import Embed

__all__ = ["answer_off_topic_drift", "answer_task_completion", "answer_task_understanding_failure"]


def answer_task_completion(case: RunCase, embed: Embed) -> Answer:
    """P(the agent did not do what was asked)."""
    raise NotImplementedError("TASK_COMPLETION on the embedded judge")


def answer_task_understanding_failure(case: RunCase, embed: Embed) -> Answer:
    """P(the answer addresses a different task than the one asked)."""
    raise NotImplementedError("TASK_UNDERSTANDING_FAILURE on the embedded judge")


def answer_off_topic_drift(case: RunCase, embed: Embed) -> Answer:
    """P(the run wandered away from the user's goal to an unrelated subject)."""
    raise NotImplementedError("OFF_TOPIC_DRIFT on the embedded judge")
