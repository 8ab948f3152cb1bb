"""The calibration figures the evaluator-quality page shows: the headline table of each
committed report (``semloop calibrate`` writes them to docs/calibration/)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CalibrationReport", "default_reports_dir", "read_reports"]

_TITLE = re.compile(r"^# (\S+) calibration(?: \((.+)\))?\s*$")
_ROW = re.compile(r"^\| ([^|]+?) \| ([^|]+?) \|$")


@dataclass(frozen=True)
class CalibrationReport:
    evaluator: str
    judge: str
    held_out: bool
    path: str
    figures: tuple[tuple[str, str], ...]


def default_reports_dir() -> Path:
    """docs/calibration of the checkout semloop runs from (absent in an installed wheel)."""
    return Path(__file__).resolve().parents[4] / "docs" / "calibration"


def read_reports(directory: Path) -> list[CalibrationReport]:
    """Each report's evaluator, judge and its table at the configured threshold."""
    found = []
    for path in sorted(directory.glob("*.md")) + sorted(directory.glob("holdout/*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        title = _TITLE.match(lines[0]) if lines else None
        if title is None:
            continue
        figures, inside = [], False
        for line in lines:
            if line.startswith("## "):
                inside = line.startswith("## At the configured threshold")
            elif inside and (row := _ROW.match(line)) and not set(row.group(1)) <= {"-"} \
                    and row.group(1) != "measure":
                figures.append((row.group(1), row.group(2)))
        found.append(CalibrationReport(title.group(1), title.group(2) or "", 
                                       path.parent.name == "holdout",
                                       str(path.relative_to(directory)), tuple(figures)))
    return found
