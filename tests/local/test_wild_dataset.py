"""bench/wild.jsonl is what its generator writes, byte for byte, in the bench row schema."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

from semloop.trace import Trace

from .conftest import ROOT, WILD_DATASET, read_rows

KEYS = ["trace_id", "family", "isolates", "loop", "stagnation", "goal", "root"]


def test_generator_reproduces_the_committed_file(tmp_path: Path) -> None:
    out = tmp_path / "wild.jsonl"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "make_wild_dataset.py"), "--out", str(out)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    assert out.read_bytes() == WILD_DATASET.read_bytes()


def test_rows_follow_the_bench_schema_with_both_kinds() -> None:
    rows = read_rows(WILD_DATASET)
    assert len(rows) >= 60
    for row in rows:
        assert list(row) == KEYS
        assert row["loop"] == row["stagnation"]
        assert Trace.from_dict(row).root.type == "agent"
    families = Counter((row["family"], row["loop"]) for row in rows)
    assert sum(1 for _, loop in families if loop) >= 6
    assert sum(1 for _, loop in families if not loop) >= 6
    assert all(count == 6 for count in families.values())
