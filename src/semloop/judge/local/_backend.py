"""``LocalBackend``: the embedded judge behind the same ``ask`` as every other backend."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..._exceptions import JudgeAnswerError
from ...case import ConversationCase, RunCase
from .._kinds import ALL_KINDS, LOOP_KIND, question_kind, require_kinds
from .._types import Answer, JudgeResponse, Question, State
from ._answerer import Embed, answer_questions
from ._completion import answer_task_completion
from ._conversation import answer_confusion_loop, answer_sycophancy_signal, answer_user_frustration
from ._drift import answer_off_topic_drift
from ._grounding import answer_hallucination
from ._model import CACHE_SIZE, MODEL_SHA256, Embedder
from ._tone import lexicon
from ._understanding import answer_task_understanding_failure

__all__ = ["LocalBackend"]

_RunRule = Callable[[RunCase, Embed], Answer]
_ConversationRule = Callable[[ConversationCase, Embed], Answer]

# Evaluator kind -> the embedded judge's rule for it; each reads the state as its case.
_RUN_RULES: dict[str, _RunRule] = {
    "hallucination": answer_hallucination,
    "task_completion": answer_task_completion,
    "task_understanding_failure": answer_task_understanding_failure,
    "off_topic_drift": answer_off_topic_drift,
}
_CONVERSATION_RULES: dict[str, _ConversationRule] = {
    "user_frustration": answer_user_frustration,
    "confusion_loop": answer_confusion_loop,
    "sycophancy_signal": answer_sycophancy_signal,
}


class LocalBackend:
    """Answers the loop detector's and the evaluators' questions in-process: offline,
    free and deterministic.

    The model (and the tone lexicon) are loaded and verified when the backend is built, so
    a missing extra or a damaged model file fails at once, not on the first trace. ``threads`` is onnxruntime's
    intra-op thread count; ``cache_size`` sentence vectors are kept between traces (agents
    repeat themselves; a vector does not depend on its batch, so answers stay identical);
    up to ``passes_at_once`` forward passes run at once when several threads ask (the
    semantic worker's two passes of one thread each spend less CPU than one of two).
    """

    name = "local"
    model = "local:all-MiniLM-L6-v2-int8"
    kinds = ALL_KINDS
    #: No question budget: every answer is computed here, at no cost and with no context
    #: window, so the loop detector asks about every step of a long run (see
    #: SemanticLoopDetection's ``max_questions``).
    question_budget: int | None = None

    def __init__(
        self,
        *,
        threads: int = 2,
        model_path: str | Path | None = None,
        expected_sha256: str = MODEL_SHA256,
        cache_size: int = CACHE_SIZE,
        passes_at_once: int = 1,
    ) -> None:
        self.threads = threads
        self._embedder = Embedder(
            threads=threads,
            model_path=model_path,
            expected_sha256=expected_sha256,
            cache_size=cache_size,
            passes_at_once=passes_at_once,
        )
        lexicon()  # read once now: a missing vadersentiment is an error at start-up

    def ask(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse:
        require_kinds(self, questions)
        start = time.perf_counter()
        embed = self._embedder.embed
        loop = {qid: q for qid, q in questions.items() if question_kind(q) == LOOP_KIND}
        answers = answer_questions(state, loop, embed) if loop else {}
        for qid, question in questions.items():
            kind = question_kind(question)
            if kind in _RUN_RULES:
                answers[qid] = _RUN_RULES[kind](RunCase.from_state(_mapping(state)), embed)
            elif kind in _CONVERSATION_RULES:
                case = ConversationCase.from_state(_mapping(state))
                answers[qid] = _CONVERSATION_RULES[kind](case, embed)
        latency_ms = (time.perf_counter() - start) * 1000.0
        return JudgeResponse(answers=answers, cost_usd=0.0, latency_ms=latency_ms, model=self.model)

    @property
    def embedder(self) -> Embedder:
        """The sentence model: its ``passes`` and ``texts`` count the work done."""
        return self._embedder

    def clear_cache(self) -> None:
        """Forget remembered sentence vectors (for cold-latency measurements)."""
        self._embedder.clear_cache()


def _mapping(state: State) -> Mapping[str, Any]:
    # An evaluator's state is a case's to_state() object; judging anything else would
    # judge an empty case, so it is refused.
    if not isinstance(state, Mapping):
        raise JudgeAnswerError(
            f"an evaluator question needs a case object as its state, not {type(state).__name__}"
        )
    return state
