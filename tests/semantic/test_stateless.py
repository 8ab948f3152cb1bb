"""``measure`` returns its verdict and leaves the detector as it was: the loop worker
shares one detector between threads, which must never see each other's results."""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections.abc import Mapping
from typing import Any

from semloop.benchmark import BenchRow
from semloop.evaluate import SemanticLoopDetection
from semloop.judge import Answer, JudgeResponse


class ByGoal:
    """Answers every pair question from the trace's goal, after a barrier, so the two
    threads' asks are in flight at the same time."""

    name = "by-goal"

    def __init__(self, barrier: threading.Barrier) -> None:
        self.barrier = barrier

    def ask(self, state: Any, questions: Mapping[str, Any]) -> JudgeResponse:
        self.barrier.wait(timeout=10)
        stuck = "LOOP" in state["goal"]
        p = 0.02 if stuck else 0.98
        answers = {
            q: Answer(type="noul", value=p if q.startswith("progress_") else 1 - p,
                      probability=0.98)
            for q in questions if q != "stagnation"
        }
        return JudgeResponse(answers=answers, model=state["goal"])


def test_measure_writes_nothing_onto_the_detector(rows: dict[str, BenchRow]) -> None:
    metric = SemanticLoopDetection(ByGoal(threading.Barrier(1)))
    before = copy.copy(vars(metric))
    result = metric.measure(rows["verbatim_loop-00"].trace)
    assert result.findings and result.model == rows["verbatim_loop-00"].trace.goal
    assert vars(metric) == before
    assert not hasattr(metric, "score") and not hasattr(metric, "last_response")


def test_two_threads_sharing_one_detector_get_their_own_results(
    rows: dict[str, BenchRow],
) -> None:
    metric = SemanticLoopDetection(ByGoal(threading.Barrier(2)))
    looping = rows["verbatim_loop-00"].trace
    healthy = rows["progress-00"].trace
    looping = dataclasses.replace(looping, goal="LOOP " + looping.goal)
    results: dict[str, Any] = {}

    def run(name: str, trace: Any) -> None:
        results[name] = metric.measure(trace)

    threads = [threading.Thread(target=run, args=("loop", looping)),
               threading.Thread(target=run, args=("ok", healthy))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert results["loop"].model.startswith("LOOP")
    assert results["loop"].score_breakdown["reasoning_stagnation"] == 0.0
    assert results["ok"].model == healthy.goal
    assert results["ok"].score_breakdown["reasoning_stagnation"] == 1.0
    assert all(f.stagnation >= 0.85 for f in results["loop"].findings)
    assert all(f.stagnation <= 0.15 for f in results["ok"].findings)
