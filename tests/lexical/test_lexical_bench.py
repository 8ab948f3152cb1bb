"""bench/lexical_speed.py runs and finds both implementations identical (no timing asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "lexical_speed.py"


def load_bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("lexical_speed", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("lexical_speed", module)
    spec.loader.exec_module(module)
    return module


def test_bench_traces_have_the_intended_loops() -> None:
    import random

    from semloop.lexical import LexicalLoopDetection

    bench = load_bench()
    rng = random.Random(1)
    vocab = bench.vocabulary(rng, "english")
    for size in ("medium", "large"):
        clean = LexicalLoopDetection().measure(bench.make_trace(rng, vocab, size, False))
        looped = LexicalLoopDetection().measure(bench.make_trace(rng, vocab, size, True))
        assert clean.score == 1.0
        assert looped.score_breakdown == {
            "tool_repetition": 0.0,
            "reasoning_stagnation": 0.0,
            "call_graph_cycles": 1.0,
        }


def test_bench_runs_and_reports_identical_results(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    status = bench.main(["--traces", "1", "--repeat", "1", "--letters", "uniform"])
    table = capsys.readouterr().out.splitlines()
    rows = [line for line in table if line.startswith("uniform")]
    assert status == 0
    assert len(rows) == 6
    assert all(" yes " in row for row in rows)
