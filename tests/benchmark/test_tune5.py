"""Tuning set 5 (bench/make_tune5.py): runs of repositories no other set reads, each with the
file's own reward as its outcome; and the draw-and-write the tuning-set scripts share."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "bench" / "real_runs"
sys.path.insert(0, str(ROOT / "bench"))

from make_tune3 import draw, write_set


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (RUNS / name).read_text().splitlines() if line.strip()]


def test_tuning_set_5_reads_repositories_no_other_set_reads() -> None:
    rows = _rows("evaluator_tune5.jsonl")
    assert 100 <= len(rows) <= 200
    assert all(set(r) == {"id", "source", "commit", "path", "index", "format", "outcome", "split"}
               for r in rows)
    assert {r["split"] for r in rows} == {"evaluator-tune5"}
    assert {r["outcome"] for r in rows} == {"succeeded", "failed"}
    assert len({r["id"] for r in rows}) == len(rows)
    mine = {r["source"] for r in rows}
    for other in RUNS.glob("*.jsonl"):
        if other.name != "evaluator_tune5.jsonl":
            assert mine.isdisjoint(r.get("source") for r in _rows(other.name)), other.name


def test_a_draw_takes_each_groups_count_in_order_and_writes_ids(tmp_path: Path) -> None:
    def row(path: str, index: int) -> dict[str, Any]:
        return {"source": "someone/tau-bench", "commit": "c" * 40, "path": path, "index": index}
    pools = {"a": [row("x/a.json", i) for i in range(5)], "b": [row("x/b.json", i) for i in range(3)]}
    picked = draw({k: list(v) for k, v in pools.items()}, {"a": 2, "b": 1}, seed=1)
    assert picked == draw({k: list(v) for k, v in pools.items()}, {"a": 2, "b": 1}, seed=1)
    assert [r["path"] for r in picked] == ["x/a.json", "x/a.json", "x/b.json"]
    assert picked[0]["index"] < picked[1]["index"]
    out = tmp_path / "set.jsonl"
    write_set(picked, out, "some-split")
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [w["id"] for w in written] == [f"someone:{Path(r['path']).stem}#{r['index']}" for r in picked]
    assert {w["split"] for w in written} == {"some-split"}
