"""What the held-out dataset tests share: reading rows, running a generator, and the
reference dataset's row and span shapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

#: The keys of a row, in the order of the seed's reference dataset.
ROW_KEYS = ["trace_id", "family", "isolates", "loop", "stagnation", "goal", "root"]


def read_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def generate(generator: Path, out: Path, *extra: str) -> str:
    """Run a dataset generator script writing to ``out``; its stdout."""
    done = subprocess.run([sys.executable, str(generator), "--out", str(out), *extra],
                          capture_output=True, text=True, check=True)
    return done.stdout


def assert_reference_shapes(dataset: list[dict[str, Any]]) -> None:
    """Every root an agent span with the goal as input, its children flat ``llm`` spans
    (name, output) and ``tool`` spans (name, input object, output text)."""
    for row in dataset:
        root = row["root"]
        assert root["type"] == "agent" and root["input"] == row["goal"], row["trace_id"]
        for span in root["children"]:
            assert span["children"] == []
            if span["type"] == "llm":
                assert list(span) == ["type", "name", "output", "children"]
                assert isinstance(span["output"], str) and span["output"].strip()
            else:
                assert span["type"] == "tool"
                assert list(span) == ["type", "name", "input", "output", "children"]
                assert isinstance(span["input"], dict) and isinstance(span["output"], str)
