"""``semloop prune``: delete runs older than a retention period, and what hangs off them.

Also the hourly prune ``semloop up --retention-days N`` runs in a background thread.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from typing import TYPE_CHECKING, Annotated

import typer

from .._exceptions import SemloopError
from ._options import DatabaseUrl

__all__ = ["RetentionThread", "format_result", "parse_duration", "prune", "register"]

if TYPE_CHECKING:  # the store needs the server extra: imported when a command runs
    from ..store import PruneResult, Store

log = logging.getLogger("semloop.retention")

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


def _when(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(epoch))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def format_result(result: PruneResult, cutoff: float) -> str:
    """One line: what was deleted (or would be), and the cutoff."""
    verb = "would delete" if result.dry_run else "deleted"
    return (f"{verb} {_plural(result.runs, 'run')} ({_plural(result.events, 'event')}, "
            f"{_plural(result.signals, 'signal')}, {_plural(result.alerts, 'alert')}) "
            f"last received before {_when(cutoff)}")


class RetentionThread:
    """Prunes ``store`` of runs older than ``days`` every ``interval`` seconds, in a daemon
    thread, starting at once. A failing prune is logged and tried again next interval:
    nothing it meets stops the thread or the server beside it."""

    def __init__(self, store: Store, days: float, *, interval: float = 3600.0) -> None:
        if days <= 0:
            raise ValueError(f"retention must be a positive number of days, not {days}")
        self.store = store
        self.days = days
        self.interval = interval
        self.failures = 0
        self.last: PruneResult | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> PruneResult | None:
        """One prune; ``None`` (and the error logged) if it failed."""
        cutoff = time.time() - self.days * 86400
        try:
            result = self.store.prune(cutoff)
        except Exception:
            self.failures += 1
            log.exception("retention: prune failed; trying again in %.0f s", self.interval)
            return None
        self.last = result
        if result.runs:
            log.info("retention: %s", format_result(result, cutoff))
        return result

    def _run(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            self._stop.wait(self.interval)

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="semloop-retention",
                                            daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None


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
        typer.echo(format_result(result, cutoff))
