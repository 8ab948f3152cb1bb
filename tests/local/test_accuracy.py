"""Accuracy targets of issue 3, measured with the real judged detector on three datasets.

The bench's own dataset and the seed's reference dataset: stagnation >= 58/60 and verdict
60/60, with template_progress 6/6. The wild dataset (bench/wild.jsonl, other domains and
wording, written separately) must hold up too: >= 95% on both counts.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from semloop.judge.local import LocalBackend

from .conftest import BENCH_DATASET, SEED_DATASET, WILD_DATASET, measure, read_rows


def tally(backend: LocalBackend, path: Path) -> tuple[Counter[str], Counter[str], int]:
    stagnation: Counter[str] = Counter()
    verdict: Counter[str] = Counter()
    rows = read_rows(path)
    for row in rows:
        result = measure(backend, row)
        stagnated = result.score_breakdown["reasoning_stagnation"] < 1.0
        stagnation[row["family"]] += stagnated == row["stagnation"]
        verdict[row["family"]] += result.flags_loop(0.5) == row["loop"]
    return stagnation, verdict, len(rows)


@pytest.mark.parametrize("path", [SEED_DATASET, BENCH_DATASET], ids=["seed", "bench"])
def test_bench_targets(backend: LocalBackend, path: Path) -> None:
    stagnation, verdict, total = tally(backend, path)
    assert total == 60
    assert sum(stagnation.values()) >= 58, dict(stagnation)
    assert sum(verdict.values()) == 60, dict(verdict)
    assert stagnation["template_progress"] == 6
    assert verdict["template_progress"] == 6


def test_wild_dataset(backend: LocalBackend) -> None:
    stagnation, verdict, total = tally(backend, WILD_DATASET)
    assert total >= 60
    assert sum(stagnation.values()) >= 0.95 * total, dict(stagnation)
    assert sum(verdict.values()) >= 0.95 * total, dict(verdict)
