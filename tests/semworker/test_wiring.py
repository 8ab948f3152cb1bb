"""How the semantic worker is switched on and built."""

from __future__ import annotations

import pytest

from semloop.evaluate.findings import EmbeddingSimilarity
from semloop.store import Store
from semloop.worker import SemanticWorker, build_worker, semantic_enabled


@pytest.mark.parametrize("value, on", [("true", True), ("TRUE", True), ("1", True),
                                       ("", False), ("false", False), ("no", False)])
def test_it_is_off_unless_enabled(value: str, on: bool) -> None:
    assert semantic_enabled({"SEMANTIC_WORKER_ENABLED": value}) is on
    assert semantic_enabled({}) is False


def test_build_worker_makes_it_with_the_embedded_judge_and_a_second_opinion(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMANTIC_POLL_INTERVAL", "2.5")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    worker = build_worker("semantic", store, judge="mock")
    assert isinstance(worker, SemanticWorker)
    assert worker.poll_interval == 2.5 and worker.after == "detector"
    # After a non-embedded judge, the embedded one gives second opinions.
    assert worker.second_judge is not None and worker.second_judge.name == "local"
    assert isinstance(worker.similarity, EmbeddingSimilarity)
    local = build_worker("semantic", store, judge="local")
    assert isinstance(local, SemanticWorker) and local.second_judge is None
