"""The embedded judge's conversation answers (scaffold: filled in by the evaluator work)."""

from __future__ import annotations

from ...case import ConversationCase
from .._types import Answer
from ._answerer import Embed

__all__ = ["answer_confusion_loop", "answer_sycophancy_signal", "answer_user_frustration"]


def answer_user_frustration(case: ConversationCase, embed: Embed) -> Answer:
    """P(frustration grows across the user's turns)."""
    raise NotImplementedError("USER_FRUSTRATION on the embedded judge")


def answer_confusion_loop(case: ConversationCase, embed: Embed) -> Answer:
    """P(the user re-asks the same underlying question because answers do not resolve it)."""
    raise NotImplementedError("CONFUSION_LOOP on the embedded judge")


def answer_sycophancy_signal(case: ConversationCase, embed: Embed) -> Answer:
    """P(the assistant reversed a reasonable position only because the user pushed back)."""
    raise NotImplementedError("SYCOPHANCY_SIGNAL on the embedded judge")
