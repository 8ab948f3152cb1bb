"""Question kinds: what a judge says it can answer, and the check before asking.

Every question has a kind. An evaluator's question names it in its ``"kind"`` key (the
evaluator's name in lower case, e.g. ``"hallucination"``); a question without one is a
loop detector question (``progress_*``, ``revisit_*``, ``tool_repeat_*``,
``stagnation``), kind ``"loop"``, so the loop detector's wire format is unchanged.

A backend declares the kinds it answers as ``kinds: frozenset[str]``. Asking it a kind
outside that set raises :class:`~semloop.UnsupportedQuestionError` naming the judge and
the kind, before any work or request. A backend with no ``kinds`` attribute (one written
before kinds existed) is taken to answer loop questions only, which is all any backend
was asked until then. Backends check in their own ``ask`` with :func:`require_kinds`;
callers may check first with the same function.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import UnsupportedQuestionError

__all__ = [
    "ALL_KINDS",
    "CONVERSATION_KINDS",
    "LOOP_KIND",
    "RUN_KINDS",
    "declared_kinds",
    "question_kind",
    "require_kinds",
]

LOOP_KIND = "loop"
#: Questions about one run; the state is ``RunCase.to_state()``.
RUN_KINDS = frozenset(
    {"hallucination", "task_completion", "task_understanding_failure", "off_topic_drift"}
)
#: Questions about a conversation; the state is ``ConversationCase.to_state()``.
CONVERSATION_KINDS = frozenset({"user_frustration", "confusion_loop", "sycophancy_signal"})
ALL_KINDS = frozenset({LOOP_KIND}) | RUN_KINDS | CONVERSATION_KINDS


def question_kind(question: Mapping[str, Any]) -> str:
    """The question's ``"kind"``, or ``"loop"`` when it names none."""
    kind = question.get("kind") if isinstance(question, Mapping) else None
    return kind if isinstance(kind, str) and kind else LOOP_KIND


def declared_kinds(backend: object) -> frozenset[str]:
    """The kinds ``backend`` declares; loop only for a backend that declares none."""
    kinds = getattr(backend, "kinds", None)
    if kinds is None:
        return frozenset({LOOP_KIND})
    return frozenset(kinds)


def require_kinds(backend: object, questions: Mapping[str, Mapping[str, Any]]) -> None:
    """Raise :class:`~semloop.UnsupportedQuestionError` for the first question whose kind
    ``backend`` does not declare."""
    kinds = declared_kinds(backend)
    for qid, question in questions.items():
        kind = question_kind(question)
        if kind not in kinds:
            name = getattr(backend, "name", type(backend).__name__)
            raise UnsupportedQuestionError(judge=str(name), kind=kind, kinds=kinds, question=qid)
