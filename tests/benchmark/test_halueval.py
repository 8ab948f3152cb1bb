"""bench/halueval.py: each HaluEval task's item becomes a right and a hallucinated run case
built from the task's own fields, and the script scores a file of that shape end to end."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = runpy.run_path(str(ROOT / "bench" / "halueval.py"))

# Items in each task's field names, written here (nothing of HaluEval is stored).
ITEMS: dict[str, dict[str, str]] = {
    "qa": {"knowledge": "The Tarn Bridge opened in 1911 and spans the river Tarn.",
           "question": "When did the Tarn Bridge open?",
           "right_answer": "1911", "hallucinated_answer": "The Tarn Bridge opened in 1957."},
    "dialogue": {"knowledge": "The Quiet Orchard is a novel by Mara Lind.",
                 "dialogue_history": "[Human]: Do you know The Quiet Orchard?",
                 "right_response": "Yes, it is a novel by Mara Lind.",
                 "hallucinated_response": "Yes, it is a novel by Tomas Berg, published in 1988."},
    "summarization": {"document": "The council of Eastholm voted on Monday to close the old "
                                  "library in March. The vote was 7 to 2.",
                      "right_summary": "Eastholm's council voted 7 to 2 to close the old library.",
                      "hallucinated_summary": "Eastholm's council voted 9 to 0 to open a new library."},
}


@pytest.mark.parametrize("task", sorted(ITEMS))
def test_each_item_gives_a_right_and_a_hallucinated_case_from_its_fields(task: str) -> None:
    item = ITEMS[task]
    right, wrong = BENCH["cases"]([item], task)
    source, request, right_field, wrong_field = BENCH["FIELDS"][task]
    assert (right.label, wrong.label) == (False, True)
    assert right.output == item[right_field] and wrong.output == item[wrong_field]
    assert right.context == wrong.context == (item[source],)
    assert right.input == (item[request] if request else BENCH["SUMMARY_REQUEST"])


@pytest.mark.parametrize("task", sorted(ITEMS))
def test_a_file_of_the_tasks_shape_is_scored(task: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    dataset = tmp_path / f"{task}.jsonl"
    items: list[dict[str, Any]] = [ITEMS[task], ITEMS[task]]
    dataset.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    assert BENCH["main"](["--dataset", str(dataset), "--task", task]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"HaluEval {task}, 2 pairs (4 cases")
    counts = dict(zip(("tp", "fp", "fn", "tn"),
                      (int(n) for n in out.split("tp ")[1].split(";")[0].split()[::2])))
    assert sum(counts.values()) == 4
