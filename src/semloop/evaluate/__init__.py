"""Evaluators: judged checks that read a finished run or conversation and say whether a
failure happened. The judged loop detector (:mod:`semloop.evaluate.loop`) is the first."""

from .loop import SemanticLoopDetection

__all__ = ["SemanticLoopDetection"]
