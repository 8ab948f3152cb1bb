"""A second judge is asked only about HIGH or CRITICAL findings of evaluators configured
for it, and agrees only by firing."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.evaluate import (
    HALLUCINATION,
    EvaluatorSettings,
    needs_second_opinion,
    second_opinion,
)
from semloop.judge import MockBackend

CASE = RunCase(id="r", input="How long is the warranty?", output="Five years.",
               context=("The warranty lasts two years.",))
WANTS = EvaluatorSettings(require_second_opinion=True)


def test_asked_only_for_high_or_critical_findings_when_configured() -> None:
    for p, expected in ((0.6, False), (0.7, True), (0.95, True), (0.3, False)):
        first = HALLUCINATION(CASE, MockBackend({"hallucination": p}), WANTS)
        assert needs_second_opinion(first, WANTS) is expected, p
    first = HALLUCINATION(CASE, MockBackend({"hallucination": 0.9}))
    assert not needs_second_opinion(first, EvaluatorSettings())


def test_the_second_judge_agrees_by_firing_and_an_undecided_one_does_not() -> None:
    first = HALLUCINATION(CASE, MockBackend({"hallucination": 0.8}), WANTS)
    agree = second_opinion(HALLUCINATION, CASE, first, MockBackend({"hallucination": 0.75}), WANTS)
    assert agree.ran and agree.agreed and agree.result is not None
    assert agree.result.confidence == 0.75
    disagree = second_opinion(HALLUCINATION, CASE, first, MockBackend({"hallucination": 0.2}),
                              WANTS)
    assert disagree.ran and disagree.agreed is False
    silent = second_opinion(HALLUCINATION, CASE, first, MockBackend({"progress_*": 0.5}), WANTS)
    assert silent.agreed is False and silent.result is not None and silent.result.error
    skipped = second_opinion(HALLUCINATION, CASE, first, MockBackend({"hallucination": 0.9}),
                             EvaluatorSettings())
    assert not skipped.ran and skipped.agreed is None and skipped.result is None
