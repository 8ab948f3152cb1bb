"""What each judged evaluator asks: one ``noul`` question per case, in the System One wire
format, with the evaluator's kind.

The words come from the judges' one rubric per failure (:data:`semloop.judge.RUBRICS`), so
the question Jev receives and the prompts of the LLM and DeepEval judges define each failure
alike. P(yes) always means *the failure happened*. The state is ``RunCase.to_state()``
(``input``, ``output``, ``context``, ``tools_called``, ``steps``) or
``ConversationCase.to_state()`` (``turns``).
"""

from __future__ import annotations

from typing import Any

from ..judge import RUBRICS

__all__ = ["DEFINITIONS", "question_for"]

#: kind -> the evaluator's definition (the question's instructions without the pointer).
DEFINITIONS: dict[str, str] = {kind: rubric.text() for kind, rubric in RUBRICS.items()}


def question_for(kind: str) -> dict[str, Any]:
    """The one question an evaluator of ``kind`` asks about a case."""
    rubric = RUBRICS[kind]
    return {
        "type": "noul",
        "kind": kind,
        "instructions": f"{rubric.text()} When you explain, name {rubric.evidence}.",
        "criteria": {"true": f"{rubric.title}: {rubric.failure}",
                     "false": "It does not count when " + "; or ".join(rubric.not_failure)
                              + "; or when the failure did not happen."},
    }
