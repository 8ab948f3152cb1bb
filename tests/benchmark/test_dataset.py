"""bench/dataset.jsonl: reproducible, in the seed's schema and shapes, with its own text,
and every family isolating the blind spot it claims to."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from difflib import SequenceMatcher
from pathlib import Path

import pytest

from semloop._exceptions import TraceFormatError
from semloop.benchmark import default_dataset, default_dataset_path, load_dataset
from semloop.benchmark.families import FAMILIES, PARAPHRASES, TERSE_LOOP, dump_rows, make_rows
from semloop.lexical import STOP_WORDS

from .conftest import BENCH_DATASET, REFERENCE_DATASET, ROOT


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_make_dataset_regenerates_the_committed_file_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "dataset.jsonl"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "make_dataset.py"), "--out", str(out)],
        capture_output=True, text=True, check=True,
    )
    assert "wrote 60 traces across 10 families" in done.stdout
    assert out.read_bytes() == BENCH_DATASET.read_bytes()


def test_seed_and_per_change_the_rows() -> None:
    assert dump_rows(make_rows(seed=1)) == dump_rows(make_rows(seed=1))
    assert dump_rows(make_rows(seed=1)) != dump_rows(make_rows(seed=2))
    small = make_rows(per=2)
    assert len(small) == 20 and small[1]["trace_id"] == "paraphrased_loop-01"
    with pytest.raises(ValueError):
        make_rows(per=0)


def test_schema_keys_order_labels_and_step_shapes_match_the_seed() -> None:
    ours, ref = _lines(BENCH_DATASET), _lines(REFERENCE_DATASET)
    assert [r["trace_id"] for r in ours] == [r["trace_id"] for r in ref]
    for mine, theirs in zip(ours, ref):
        assert list(mine) == list(theirs)
        assert list(mine["root"]) == list(theirs["root"])
        assert (mine["family"], mine["loop"], mine["stagnation"]) == (
            theirs["family"], theirs["loop"], theirs["stagnation"])
        assert mine["root"]["input"] == mine["goal"]
        shape = [(s["type"], s["name"], list(s)) for s in mine["root"]["children"]]
        assert shape == [(s["type"], s["name"], list(s)) for s in theirs["root"]["children"]]


def test_no_text_is_copied_from_the_seed() -> None:
    def texts(rows: list[dict]) -> set[str]:
        out = set()
        for row in rows:
            out.add(row["goal"])
            out.add(row["isolates"])
            out.update(str(s["output"]) for s in row["root"]["children"] if s["type"] == "llm")
        return out

    assert texts(_lines(BENCH_DATASET)).isdisjoint(texts(_lines(REFERENCE_DATASET)))


def _clean(text: str) -> list[str]:
    return [w for w in text.lower().split() if len(w) > 2 and w not in STOP_WORDS]


def test_paraphrases_are_long_and_lexically_far_apart() -> None:
    filled = [p.format(subject="the password reset mailer") for p in PARAPHRASES]
    assert len(filled) == 10
    assert min(len(_clean(p)) for p in filled) >= 20
    worst = 0.0
    for a, b in itertools.combinations(filled, 2):
        wa, wb = _clean(a), _clean(b)
        ba, bb = set(itertools.pairwise(wa)), set(itertools.pairwise(wb))
        jaccard = len(ba & bb) / len(ba | bb)
        ratio = SequenceMatcher(None, " ".join(wa), " ".join(wb)).ratio()
        worst = max(worst, jaccard, ratio)
    assert worst < 0.5  # far below the 0.85 line, with room to spare


def test_terse_steps_are_below_the_lexical_word_floor() -> None:
    assert all(len(_clean(t)) < 20 for t in TERSE_LOOP)


def test_families_are_the_seeds_ten() -> None:
    assert [f.name for f in FAMILIES] == [
        "paraphrased_loop", "terse_loop", "alternating_loop", "cosmetic_args_loop",
        "verbatim_loop", "identical_tool_loop", "progress", "template_progress",
        "boilerplate_progress", "retry_then_recover",
    ]


def test_default_dataset_is_the_checkouts_file() -> None:
    assert default_dataset_path() == BENCH_DATASET
    rows, source = default_dataset()
    assert source == str(BENCH_DATASET) and len(rows) == 60


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("{not json", "not valid JSON"),
        ('{"trace_id": "x", "loop": true, "stagnation": true, "root": {}}', "'family'"),
        ('{"trace_id": "x", "family": "f", "stagnation": true, "root": {}}', "'loop'"),
        ('{"trace_id": "x", "family": "f", "loop": "yes", "stagnation": true, "root": {}}', "'loop'"),
        ('{"trace_id": "x", "family": "f", "loop": true, "root": {}}', "'stagnation'"),
        ('{"trace_id": "x", "family": "f", "loop": true, "stagnation": false}', "'root'"),
        (('{"trace_id": "x", "family": "f", "loop": true, "stagnation": false,'
         ' "root": {"children": [{"type": "llm"}, 3]}}'), "root.children[1]"),
        ('[1, 2]', "JSON object"),
    ],
)
def test_a_bad_row_names_file_line_and_field(tmp_path: Path, line: str, where: str) -> None:
    good = BENCH_DATASET.read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "bad.jsonl"
    path.write_text(good + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(TraceFormatError) as info:
        load_dataset(path)
    message = str(info.value)
    assert f"{path}:2" in message and where in message
    assert info.value.line == 2


def test_duplicate_ids_missing_files_and_empty_files_are_errors(tmp_path: Path) -> None:
    good = BENCH_DATASET.read_text(encoding="utf-8").splitlines()[0]
    dup = tmp_path / "dup.jsonl"
    dup.write_text(f"{good}\n\n{good}\n", encoding="utf-8")
    with pytest.raises(TraceFormatError, match="dup.jsonl:3.*duplicate trace_id"):
        load_dataset(dup)
    with pytest.raises(TraceFormatError, match="no such dataset file"):
        load_dataset(tmp_path / "missing.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(TraceFormatError, match="no rows"):
        load_dataset(empty)
