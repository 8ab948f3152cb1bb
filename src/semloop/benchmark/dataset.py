"""Bench rows: a trace plus the two labels it is scored against.

A row is one JSON object per line (see ``docs/bench.md``)::

    {"trace_id", "family", "isolates", "loop", "stagnation", "goal", "root"}

A bad row raises :class:`~semloop.TraceFormatError` naming the file, the line and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._exceptions import TraceFormatError
from ..trace import Trace, parse_jsonl
from .families import DEFAULT_PER, DEFAULT_SEED, make_rows

__all__ = ["BenchRow", "default_dataset", "default_dataset_path", "load_dataset", "parse_rows"]

EMBEDDED = "<embedded bench dataset>"


@dataclass(frozen=True)
class BenchRow:
    """One labelled trace: ``loop`` is the expected verdict, ``stagnation`` the expected
    reasoning-stagnation sub-signal."""

    trace_id: str
    family: str
    isolates: str
    loop: bool
    stagnation: bool
    trace: Trace


def _row(raw: Any) -> BenchRow:
    if not isinstance(raw, Mapping):
        raise TraceFormatError(f"a bench row must be a JSON object, not {type(raw).__name__}")
    family = raw.get("family")
    if not isinstance(family, str) or not family:
        raise TraceFormatError("missing or not a non-empty string", field="family")
    for key in ("loop", "stagnation"):
        if not isinstance(raw.get(key), bool):
            raise TraceFormatError(
                f"missing or not true/false (got {raw.get(key)!r})", field=key
            )
    trace_id = raw.get("trace_id")
    if not isinstance(trace_id, str) or not trace_id:
        raise TraceFormatError("missing or not a non-empty string", field="trace_id")
    isolates = raw.get("isolates", "")
    if not isinstance(isolates, str):
        raise TraceFormatError("must be a string", field="isolates")
    return BenchRow(
        trace_id=trace_id,
        family=family,
        isolates=isolates,
        loop=raw["loop"],
        stagnation=raw["stagnation"],
        trace=Trace.from_dict(raw),
    )


def parse_rows(lines: Iterable[str], source: str) -> list[BenchRow]:
    """Rows from JSONL text lines; ``source`` names the file in errors."""
    rows: list[BenchRow] = []
    seen: dict[str, int] = {}
    for lineno, _, row in parse_jsonl(lines, source, _row):
        if row.trace_id in seen:
            raise TraceFormatError(
                f"duplicate trace_id {row.trace_id!r} (first on line {seen[row.trace_id]})",
                source=source, line=lineno, field="trace_id",
            )
        seen[row.trace_id] = lineno
        rows.append(row)
    if not rows:
        raise TraceFormatError("the dataset has no rows", source=source)
    return rows


def load_dataset(path: str | Path) -> list[BenchRow]:
    """Every row of a JSONL bench dataset."""
    source = str(path)
    try:
        with open(path, encoding="utf-8") as fh:
            return parse_rows(fh, source)
    except FileNotFoundError:
        raise TraceFormatError(
            "no such dataset file; write one with `python bench/make_dataset.py`, "
            "or leave out --dataset to use the default", source=source
        ) from None
    except UnicodeDecodeError as exc:
        raise TraceFormatError(f"not UTF-8 text ({exc.reason})", source=source) from None
    except IsADirectoryError:
        raise TraceFormatError("is a directory, not a dataset file", source=source) from None


def default_dataset_path() -> Path | None:
    """``bench/dataset.jsonl`` of the repository checkout this package runs from, or of the
    current directory; None when neither exists."""
    here = Path(__file__).resolve()
    candidates = [here.parents[3] / "bench" / "dataset.jsonl", Path.cwd() / "bench" / "dataset.jsonl"]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None


def default_dataset() -> tuple[list[BenchRow], str]:
    """The default rows and where they came from: the checkout's ``bench/dataset.jsonl``,
    else the same rows rebuilt in memory by :mod:`semloop.benchmark.families`."""
    path = default_dataset_path()
    if path is not None:
        return load_dataset(path), str(path)
    rows = make_rows(per=DEFAULT_PER, seed=DEFAULT_SEED)
    lines = [json.dumps(row, ensure_ascii=False) for row in rows]
    return parse_rows(lines, EMBEDDED), EMBEDDED
