"""The TASK_UNDERSTANDING_FAILURE head study (calibration/train_understanding_head.py)
reads only opened outside authors' sets: never blind29 nor a set still blind."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "calibration"))

import train_understanding_head as study


def test_study_reads_opened_authors_only() -> None:
    tags = [tag for tag, _ in study.sources()]
    assert "blind29" not in tags
    numbers = {int(re.sub(r"\D", "", t)) for t in tags}
    assert max(numbers) == study.OPENED == 53
    assert {"blind53b", "dev31b", "blind48"} <= set(tags)
    # One author a file, each named once.
    assert len(tags) == len(set(tags))
    for _, path in study.sources():
        assert "blind29" not in path.name
        assert not re.search(r"blind5[4-9]|blind[6-9]\d|b5[4-6]", path.name)


def test_own_sets_are_the_projects() -> None:
    for own in study.OWN:
        assert (ROOT / own).is_file()
        assert "blind29" not in own and not re.search(r"blind5[4-9]", own)
