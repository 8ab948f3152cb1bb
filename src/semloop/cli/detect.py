"""``semloop detect FILE``: run the structural detectors over recorded runs, offline.

The way to try a threshold before deploying it: point ``--config`` at a draft
``detectors.yml`` and read which runs would be flagged.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Annotated, Any

import typer

from .._exceptions import ConfigError, MissingExtraError, TraceFormatError
from ..detect import Baseline, DetectorConfig, load_config, run_detectors
from ..events import Run, Signal
from ..ingest.formats import FORMATS, Result, convert
from ._progress import progress

__all__ = ["detect_file", "register"]

_FORMAT_HELP = (f"Format of FILE: auto (detect from the content), ndjson (lines of "
                f"Event.to_dict(), the default shape) or {', '.join(f for f in FORMATS if f != 'ndjson')}.")


def _read(path: Path, format: str) -> Result:
    try:
        return convert(path, format)
    except TraceFormatError:
        if format != "auto":
            raise
        # An unreadable first line defeats detection; read it as events, so the bad line
        # is reported with its number and the good ones are still used.
        return convert(path, "ndjson")


def _baselines(runs: list[Run]) -> dict[tuple[str, str], Baseline]:
    by_agent: dict[tuple[str, str], list[Run]] = defaultdict(list)
    for run in runs:
        by_agent[(run.agent_id, run.agent_version)].append(run)
    return {key: Baseline.from_runs(group) for key, group in by_agent.items()}


def detect_file(
    path: Path, *, config: DetectorConfig | None = None, format: str = "auto",
    with_baseline: bool = False,
) -> tuple[list[tuple[Run, list[Signal]]], list[TraceFormatError]]:
    """Each run of ``path`` with its signals, and the records that could not be read."""
    result = _read(path, format)
    baselines = _baselines(result.runs) if with_baseline else {}
    found = []
    for run in progress(result.runs, f"detecting in {path.name}"):
        baseline = baselines.get((run.agent_id, run.agent_version))
        found.append((run, run_detectors(run, config, baseline)))
    errors = [e if e.source else e.located(source=str(path)) for e in result.rejected]
    return found, errors


def _summary(signal: Signal) -> str:
    skip = {"steps"}
    parts = []
    for key, value in signal.evidence.items():
        if key in skip:
            continue
        text = json.dumps(value, default=str) if not isinstance(value, str) else value
        parts.append(f"{key}={text[:60]}")
    return ", ".join(parts[:5])


def _print_table(found: list[tuple[Run, list[Signal]]]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=160)
    flagged = sum(1 for _, signals in found if signals)
    for run, signals in found:
        title = f"run {run.run_id}  agent {run.agent_id}  ({run.status}, {len(run.events)} events)"
        if not signals:
            console.print(f"{title}: no signals")
            continue
        table = Table(title=title, title_justify="left")
        for column in ("failure type", "severity", "confidence", "co", "steps", "shadow",
                       "evidence"):
            table.add_column(column)
        for s in signals:
            steps = s.evidence.get("steps", [])
            shown = ", ".join(map(str, steps[:8])) + (" …" if len(steps) > 8 else "")
            table.add_row(s.failure_type, s.severity, f"{s.confidence:.2f}",
                          str(s.co_signal_count), shown, "yes" if s.shadow else "",
                          _summary(s))
        console.print(table)
    console.print(f"{len(found)} runs, {flagged} flagged")


def detect(
    file: Annotated[Path, typer.Argument(help="Events NDJSON file, or any format "
                                              "`semloop import` reads.")],
    config: Annotated[Path | None, typer.Option("--config", "-c",
                                                help="detectors.yml to apply.")] = None,
    format: Annotated[str, typer.Option("--format", "-f", help=_FORMAT_HELP)] = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    baseline: Annotated[bool, typer.Option(
        "--baseline", help="Build each agent+version's baseline from the file's own "
                           "completed runs (needs ≥ 20 of them to take effect).")] = False,
) -> None:
    """Run the structural detectors over the runs in FILE and print their signals.

    Exit code 0 when every record was read, 1 when some were rejected (the others are
    still checked), 2 when the file or the config cannot be used.
    """
    try:
        cfg = load_config(config) if config is not None else None
        found, errors = detect_file(file, config=cfg, format=format, with_baseline=baseline)
    except (ConfigError, TraceFormatError, MissingExtraError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for rejected in errors:
        typer.echo(f"rejected: {rejected}", err=True)
    if as_json:
        doc: dict[str, Any] = {
            "runs": [{"run_id": run.run_id, "agent_id": run.agent_id,
                      "agent_version": run.agent_version, "status": run.status,
                      "signals": [s.to_dict() for s in signals]} for run, signals in found],
            "rejected": [str(e) for e in errors],
        }
        typer.echo(json.dumps(doc, indent=2, default=str))
    else:
        _print_table(found)
    if errors:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("detect")(detect)
