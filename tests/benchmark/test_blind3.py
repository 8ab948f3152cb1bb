"""Blind set 3 (bench/make_blind3.py): runs of repositories no other set reads, each with the
file's own reward as its outcome, one run per task and policy in a group."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "bench" / "real_runs"
sys.path.insert(0, str(ROOT / "bench"))

from make_blind3 import task_key
from semloop.ingest.formats import FORMATS


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (RUNS / name).read_text().splitlines() if line.strip()]


def test_blind_set_3_reads_repositories_no_other_set_reads() -> None:
    rows = _rows("evaluator_blind3.jsonl")
    assert 120 <= len(rows) <= 240
    assert all(set(r) == {"id", "source", "commit", "path", "index", "format", "outcome", "split"}
               for r in rows)
    assert {r["split"] for r in rows} == {"evaluator-blind3"}
    assert {r["outcome"] for r in rows} == {"succeeded", "failed"}
    assert len({r["id"] for r in rows}) == len(rows)
    mine = {r["source"] for r in rows}
    runs = {(r["source"], r["path"], r["index"]) for r in rows}
    for other in RUNS.glob("*.jsonl"):
        if other.name != "evaluator_blind3.jsonl":
            named = _rows(other.name)
            # loop round 16 labels other runs of these repositories, never a run of this set
            later = [r for r in named if r.get("split") in ("tune16", "heldout16")]
            assert runs.isdisjoint((r["source"], r["path"], r["index"]) for r in later)
            assert mine.isdisjoint(r.get("source") for r in named if r not in later), other.name


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
