"""The real-run sets drawn by script (bench/make_tune5.py, bench/make_blind3.py): runs of
repositories no other set reads, each with the file's own reward as its outcome; and the
draw-and-write the scripts share."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "bench" / "real_runs"
sys.path.insert(0, str(ROOT / "bench"))

from make_blind3 import task_key
from make_tune3 import draw, write_set
from semloop.ingest.formats import FORMATS


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (RUNS / name).read_text().splitlines() if line.strip()]


@pytest.mark.parametrize(("name", "split", "sizes", "later"), [
    ("evaluator_tune5.jsonl", "evaluator-tune5", (100, 200), ()),
    # loop round 16 labels other runs of blind set 3's repositories, never a run of the set
    ("evaluator_blind3.jsonl", "evaluator-blind3", (120, 240), ("tune16", "heldout16")),
])
def test_a_drawn_set_reads_repositories_no_other_set_reads(
        name: str, split: str, sizes: tuple[int, int], later: tuple[str, ...]) -> None:
    rows = _rows(name)
    assert sizes[0] <= len(rows) <= sizes[1]
    assert all(set(r) == {"id", "source", "commit", "path", "index", "format", "outcome", "split"}
               for r in rows)
    assert {r["split"] for r in rows} == {split}
    assert {r["outcome"] for r in rows} == {"succeeded", "failed"}
    assert len({r["id"] for r in rows}) == len(rows)
    mine = {r["source"] for r in rows}
    runs = {(r["source"], r["path"], r["index"]) for r in rows}
    for other in RUNS.glob("*.jsonl"):
        if other.name != name:
            named = _rows(other.name)
            after = [r for r in named if r.get("split") in later]
            assert runs.isdisjoint((r["source"], r["path"], r["index"]) for r in after)
            assert mine.isdisjoint(r.get("source") for r in named if r not in after), other.name


def test_trials_of_one_task_under_one_policy_share_a_key() -> None:
    def result(task: int, trial: int, policy: str) -> dict[str, Any]:
        return {"task_id": task, "trial": trial, "reward": 1.0, "info": {},
                "traj": [{"role": "system", "content": policy},
                         {"role": "user", "content": f"Hello, trial {trial}."},
                         {"role": "assistant", "content": "How can I help?"}]}
    data = json.dumps([result(3, 0, "Policy A"), result(3, 1, "Policy A"),
                       result(3, 2, "Policy B"), result(13, 0, "Policy A")]).encode()
    keys = [task_key(r) for r in FORMATS["tau-bench"](data, source="x.json", clock=0.0).runs]
    assert keys[0] == keys[1]
    assert len(set(keys)) == 3


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
