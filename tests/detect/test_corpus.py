"""Every labelled run in the corpus: the detectors that must fire do, the ones that must
stay quiet do, and healthy runs produce no signal at all."""

from __future__ import annotations

import pytest

from semloop.detect import DETECTORS, SINGLE_RUN, DetectorConfig, run_detectors

from .corpus import Case, build

CASES = build()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_labelled_run(case: Case) -> None:
    config = DetectorConfig(default=case.params) if case.params else None
    signals = run_detectors(case.run, config, baseline=case.baseline)
    fired = {s.failure_type for s in signals}
    assert case.fires <= fired, f"missing {case.fires - fired}; fired {fired}"
    assert not (case.quiet & fired), f"false positive {case.quiet & fired}"
    if not case.fires and not case.quiet:
        assert fired == set(), f"healthy run flagged: {fired}"
    assert len(signals) == len(fired), "at most one signal per detector per run"
    for s in signals:
        assert s.run_id == case.run.run_id
        assert s.evidence["steps"], f"{s.failure_type} names no step"
        assert 0.0 <= s.confidence <= 1.0


def test_corpus_covers_every_single_run_detector_both_ways() -> None:
    positives = set().union(*(c.fires for c in CASES))
    negatives = set().union(*(c.quiet for c in CASES))
    assert set(SINGLE_RUN) <= positives, set(SINGLE_RUN) - positives
    assert set(SINGLE_RUN) <= negatives, set(SINGLE_RUN) - negatives
    assert set(DETECTORS) - set(SINGLE_RUN) == {"HANDOFF_CONTEXT_LOSS", "DELEGATION_LOOP"}
