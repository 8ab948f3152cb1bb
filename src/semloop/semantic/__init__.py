"""The judged loop detector's old home, kept for existing imports: it now lives in
:mod:`semloop.evaluate.loop`.

A package rather than ``semantic.py`` on purpose: with the old file path gone, git sees
the move as a rename and carries edits made to ``semantic.py`` on other branches over to
``evaluate/loop.py`` when they are merged.
"""

from ..evaluate.loop import (
    PairFinding,
    SemanticLoopDetection,
    SemanticLoopResult,
    ToolFinding,
    build_questions,
    build_state,
    build_tool_questions,
    reasoning_steps,
)

__all__ = [
    "PairFinding",
    "SemanticLoopDetection",
    "SemanticLoopResult",
    "ToolFinding",
    "build_questions",
    "build_state",
    "build_tool_questions",
    "reasoning_steps",
]
