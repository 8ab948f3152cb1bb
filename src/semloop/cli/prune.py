"""``semloop prune``: delete runs older than a retention period, and what hangs off them.

``semloop up --retention-days N`` runs the same prune hourly (``semloop.worker.RetentionWorker``).
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Annotated

import typer

from .._exceptions import SemloopError
from ._options import DatabaseUrl

__all__ = ["parse_duration", "prune", "register"]

if TYPE_CHECKING:  # the store needs the server extra: imported when a command runs
    from ..store import PruneResult, Store

_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = re.compile(r"(\d+)([mhdw])")


def parse_duration(text: str) -> float:
    """Seconds in a duration like ``90m``, ``12h``, ``30d`` or ``2w``; ValueError otherwise."""
    found = _DURATION.fullmatch(text.strip().lower())
    if found is None:
        raise ValueError(f"{text!r} is not a duration: a whole number then m, h, d or w "
                         "(minutes, hours, days, weeks), as in 90m, 12h, 30d, 2w")
    seconds = int(found.group(1)) * _UNITS[found.group(2)]
    if seconds <= 0:
        raise ValueError(f"{text!r} is not a duration: it must be longer than zero")
    return float(seconds)


def _store(database_url: str | None) -> Store:
    from ..settings import load_settings
    from ..store import Store

    settings = load_settings(**({"database_url": database_url} if database_url else {}))
    return Store(settings.database_url)


def prune(
    older_than_s: float,
    *,
    org: str | None = None,
    dry_run: bool = False,
    batch: int = 500,
    database_url: str | None = None,
    progress: bool = False,
) -> tuple[PruneResult, float]:
    """Prune runs last received more than ``older_than_s`` seconds ago (of ``org`` only,
    by name); returns the counts and the cutoff. :class:`SemloopError` for an unknown org.
    """
    cutoff = time.time() - older_than_s
    with _store(database_url) as store:
        org_id = None
        if org is not None:
            org_id = store.find_org(org)
            if org_id is None:
                raise SemloopError(f"no organization called {org!r}")
        if not progress:
            return store.prune(cutoff, org_id=org_id, batch=batch, dry_run=dry_run), cutoff
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        verb = "counting" if dry_run else "pruning"
        # The total is unknown until the walk ends (counting first would cost a second
        # walk), so the bar is a spinner with the running count. Stderr: stdout stays clean.
        with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(f"{verb} runs")

            def advance(done: PruneResult) -> None:
                bar.update(task, description=f"{verb} runs: {done.runs} so far")

            result = store.prune(cutoff, org_id=org_id, batch=batch, dry_run=dry_run,
                                 progress=advance)
        return result, cutoff


def _check_duration(value: str) -> str:
    try:
        parse_duration(value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    return value


def register(app: typer.Typer) -> None:
    @app.command("prune")
    def prune_command(
        older_than: Annotated[str, typer.Option(
            "--older-than", metavar="DURATION", callback=_check_duration,
            help="Delete runs whose newest event arrived longer ago than this: 90m, 12h, "
                 "30d, 2w.")],
        org: Annotated[str | None, typer.Option(
            help="Only this organization's runs (by name); default every organization.",
            show_default=False)] = None,
        dry_run: Annotated[bool, typer.Option(
            "--dry-run", help="Count what would be deleted; delete nothing.")] = False,
        batch: Annotated[int, typer.Option(
            min=1, help="Runs per transaction: ingest and workers go on between batches.")
        ] = 500,
        database_url: DatabaseUrl = None,
    ) -> None:
        """Delete old runs with their events, signals, alerts and worker records.

        A run goes whole, once its newest event is older than `--older-than`: a run that
        got an event since is kept entirely. Organizations and API keys are never deleted.
        Safe while `semloop up` and workers run.
        """
        try:
            result, cutoff = prune(parse_duration(older_than), org=org, dry_run=dry_run,
                                   batch=batch, database_url=database_url, progress=True)
        except SemloopError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(result.describe(cutoff))
