"""The loop-detection bench: labelled traces, the systems that score them, the report.

Standard library only, except :mod:`semloop.benchmark.plot` (matplotlib).
"""

from .dataset import BenchRow, default_dataset, default_dataset_path, load_dataset, parse_rows
from .oracle import FAMILY_ORACLE, OracleBackend
from .report import format_report, format_table, to_json
from .runner import RowOutcome, System, SystemRun, judge_options, make_system, run_system

__all__ = [
    "FAMILY_ORACLE",
    "BenchRow",
    "OracleBackend",
    "RowOutcome",
    "System",
    "SystemRun",
    "default_dataset",
    "default_dataset_path",
    "format_report",
    "format_table",
    "judge_options",
    "load_dataset",
    "make_system",
    "parse_rows",
    "run_system",
    "to_json",
]
