"""Fixtures: the bench rows of our dataset and of the seed's published one, by trace id,
and the judge protocol servers from tests/judge."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REFERENCE_DATASET, ROOT  # tests/conftest.py, the shared one
from judge.conftest import chat_server, jev_server  # the protocol servers, for test_wire.py
from semloop.benchmark import BenchRow, load_dataset

BENCH_DATASET = ROOT / "bench" / "dataset.jsonl"
DATASETS = {"bench": BENCH_DATASET, "reference": REFERENCE_DATASET}

__all__ = ["BENCH_DATASET", "DATASETS", "chat_server", "jev_server", "rows", "rows_by_id"]


def rows_by_id(path: Path) -> dict[str, BenchRow]:
    return {row.trace_id: row for row in load_dataset(path)}


@pytest.fixture(scope="session", params=sorted(DATASETS))
def rows(request: pytest.FixtureRequest) -> dict[str, BenchRow]:
    """Each test using this runs once on bench/dataset.jsonl and once on the seed's file."""
    return rows_by_id(DATASETS[request.param])
