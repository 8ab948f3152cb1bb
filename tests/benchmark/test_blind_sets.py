"""bench/blind_sets.py finds every outside author's set by its file names, reads each
evaluator's cases from where that evaluator's sets live, and prints totals only."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

from semloop.judge.local._model import Embedder

ROOT = Path(__file__).resolve().parents[2]
BENCH = runpy.run_path(str(ROOT / "bench" / "blind_sets.py"))


def write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def run_case(id: str, label: bool, output: str) -> dict[str, Any]:
    return {"id": id, "label": label, "input": "What is the total of invoice INV-2231?",
            "output": output, "context": ["Invoice INV-2231: total due EUR 95.00, due 3 March."],
            "tools_called": []}


def test_sets_are_found_by_tag_newest_first_and_other_files_are_not_sets(tmp_path: Path) -> None:
    for name in ("tests/local/hallucination_blind9.jsonl", "tests/local/conversation_blind10b.jsonl",
                 "calibration/holdout/task_completion_blind10.jsonl",
                 "tests/local/conversation_blind.jsonl", "tests/local/hallucination_gen41.jsonl"):
        write(tmp_path / name, [])
    assert BENCH["tags_in"](tmp_path) == ["blind10b", "blind10", "blind9"]
    assert sorted(BENCH["files_of"]("blind10", tmp_path)) == ["task_completion"]


def test_a_set_is_tallied_per_evaluator_and_the_table_sums_the_sets(tmp_path: Path) -> None:
    write(tmp_path / "tests/local/hallucination_blind7.jsonl", [
        run_case("h-1", True, "The total due on INV-2231 is EUR 180.00."),
        run_case("h-2", False, "INV-2231 comes to EUR 95.00, due on 3 March."),
    ])
    write(tmp_path / "tests/local/conversation_blind7.jsonl", [
        {"id": "confusion_loop-b7-01", "label": False, "turns": [
            {"role": "user", "content": "How do I reset my password?"},
            {"role": "assistant", "content": "Open Settings, then Security, then Reset."},
            {"role": "user", "content": "Done, thanks. That worked."},
            {"role": "assistant", "content": "Glad it worked."}]},
    ])
    tallies = BENCH["tally_set"]("blind7", Embedder().embed, tmp_path)
    assert tallies == {"hallucination": (0, 1, 1, 1), "confusion_loop": (0, 1, 0, 0)}
    table = BENCH["table"]({"blind7": tallies, "blind6": tallies})
    rows = {line.split(" | ")[0]: line for line in table.splitlines()}
    assert "| blind7 | 0/1 · 1/1 | — |" in rows["| blind7"]
    assert rows["| all"].startswith("| all | 0/2 · 2/2 | — | — | — | — | 0/2 · 0/0 | — |")
    assert "h-1" not in table and "confusion_loop-b7-01" not in table
