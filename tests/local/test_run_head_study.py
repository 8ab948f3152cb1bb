"""The run-level head study (calibration/train_run_head_by_author.py) reads only opened
outside authors' sets, for each evaluator it studies: never blind29 nor a set still blind."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "calibration"))

import train_run_head_by_author as study


@pytest.mark.parametrize("kind", sorted(study.SPECS))
def test_study_reads_opened_authors_only(kind: str) -> None:
    found = study.sources(kind=kind)
    tags = [tag for tag, _ in found]
    assert "blind29" not in tags
    numbers = {int(re.sub(r"\D", "", t)) for t in tags}
    assert max(numbers) == study.OPENED == 71
    assert {"blind71b", "dev31b", "blind48"} <= set(tags)
    # One author a file, each named once, each file the evaluator's own.
    assert len(tags) == len(set(tags))
    for _, path in found:
        assert path.name.startswith(kind + "_")
        assert "blind29" not in path.name
        assert not re.search(r"blind7[2-9]|b7[2-9]", path.name)


def test_default_is_round_r54tus_study() -> None:
    # The understanding study reads as it did before the script took the evaluator.
    assert study.KIND == "task_understanding_failure"
    assert [t for t, _ in study.sources()] == [t for t, _ in study.sources(kind=study.KIND)]
    assert study.SPECS[study.KIND].candidates == ("pair", "pair+named", "pair+near+named")


@pytest.mark.parametrize("kind", sorted(study.SPECS))
def test_own_sets_are_the_projects(kind: str) -> None:
    for own in study.SPECS[kind].own:
        assert (ROOT / own).is_file()
        assert "blind29" not in own and not re.search(r"blind5[4-9]", own)


def test_coverage_reads_the_weakest_part() -> None:
    # Two parts: one met by a sentence (cosine 1), one met by none (cosine 0).
    parts = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    sentences = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    low, mean, share, count = study.coverage(parts, sentences)
    assert low == 0.0 and mean == 0.5 and share == 0.5
    assert count == pytest.approx(np.log(3.0))
