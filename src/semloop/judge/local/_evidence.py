"""The run-level rules' evidence, by evaluator kind: what the learned heads weigh, and what
calibration/train_heads.py fits them on."""

from __future__ import annotations

from collections.abc import Callable

from ...case import RunCase
from ._answerer import Embed
from ._completion import task_completion_evidence
from ._drift import off_topic_evidence
from ._grounding import hallucination_evidence
from ._head import Evidence
from ._understanding import task_understanding_evidence

__all__ = ["RUN_EVIDENCE"]

RUN_EVIDENCE: dict[str, Callable[[RunCase, Embed], Evidence]] = {
    "hallucination": hallucination_evidence,
    "task_completion": task_completion_evidence,
    "task_understanding_failure": task_understanding_evidence,
    "off_topic_drift": off_topic_evidence,
}
