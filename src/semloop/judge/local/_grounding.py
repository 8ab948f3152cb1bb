"""The embedded judge's HALLUCINATION answer (scaffold: filled in by the evaluator work)."""

from __future__ import annotations

from ...case import RunCase
from .._types import Answer
from ._answerer import Embed

__all__ = ["answer_hallucination"]


def answer_hallucination(case: RunCase, embed: Embed) -> Answer:
    """P(the final answer states as fact what its own context does not support)."""
    raise NotImplementedError("HALLUCINATION on the embedded judge")
