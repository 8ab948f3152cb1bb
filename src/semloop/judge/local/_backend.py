"""``LocalBackend``: the embedded judge behind the same ``ask`` as every other backend."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path

from .._types import JudgeResponse, Question, State
from ._answerer import answer_questions
from ._model import MODEL_SHA256, Embedder

__all__ = ["LocalBackend"]


class LocalBackend:
    """Answers the loop detector's questions in-process: offline, free and deterministic.

    The model is loaded and verified when the backend is built, so a missing extra or a
    damaged model file fails at once, not on the first trace. ``threads`` is onnxruntime's
    intra-op thread count; ``cache_size`` sentence vectors are kept between traces (agents
    repeat themselves; a vector does not depend on its batch, so answers stay identical).
    """

    name = "local"
    model = "local:all-MiniLM-L6-v2-int8"

    def __init__(
        self,
        *,
        threads: int = 2,
        model_path: str | Path | None = None,
        expected_sha256: str = MODEL_SHA256,
        cache_size: int = 4096,
    ) -> None:
        self.threads = threads
        self._embedder = Embedder(
            threads=threads,
            model_path=model_path,
            expected_sha256=expected_sha256,
            cache_size=cache_size,
        )

    def ask(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse:
        start = time.perf_counter()
        answers = answer_questions(state, questions, self._embedder.embed) if questions else {}
        latency_ms = (time.perf_counter() - start) * 1000.0
        return JudgeResponse(answers=answers, cost_usd=0.0, latency_ms=latency_ms, model=self.model)

    def clear_cache(self) -> None:
        """Forget remembered sentence vectors (for cold-latency measurements)."""
        self._embedder.clear_cache()
