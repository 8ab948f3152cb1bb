"""bench/conversation_accuracy.py reads which evaluator a row is for from its ``evaluator``
field or its id's prefix, however many dashes the id has, and names what it cannot read."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = runpy.run_path(str(ROOT / "bench" / "conversation_accuracy.py"))


def test_the_evaluator_comes_from_the_field_or_the_id_prefix() -> None:
    evaluator_of = BENCH["evaluator_of"]
    assert evaluator_of({"id": "user_frustration-b24-01"}) == "user_frustration"
    assert evaluator_of({"id": "confusion_loop-12"}) == "confusion_loop"
    assert evaluator_of({"id": "case-7", "evaluator": "SYCOPHANCY_SIGNAL"}) == "sycophancy_signal"
    assert evaluator_of({"id": "hallucination-3"}) is None
    assert evaluator_of({"id": "user_frustrationx-1"}) is None
