"""``semloop import FILE...``: load traces exported by other tools into the event store."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .._exceptions import EventFormatError, SemloopError, TraceFormatError
from ..events import Run
from ..ingest.formats import FORMATS, Result, convert
from ._options import DatabaseUrl
from ._progress import progress

__all__ = ["register"]

#: Events stored per transaction; a big file shows a progress bar over these.
_CHUNK = 2_000

_FORMAT_HELP = f"Format of the files: auto (detect from the content) or {', '.join(FORMATS)}."


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _check(result: Result) -> list[Run]:
    """The runs the store's schema can hold; the others join ``result.rejected``."""
    from ..store import check_event

    good = []
    for run in result.runs:
        try:
            for event in run.events:
                check_event(event)
        except EventFormatError as exc:
            result.rejected.append(TraceFormatError(
                f"run {run.run_id[:40]!r} cannot be stored: {exc.message}",
                source=None, field=exc.field))
            continue
        good.append(run)
    return good


def import_files(
    files: list[Path], *, format: str = "auto", org: str = "default",
    database_url: str | None = None, dry_run: bool = False,
) -> int:
    """Import ``files``; print one line per file and one per rejected record.

    Returns the exit code: 0 when everything was imported, 1 when some records were
    rejected (the good ones are still stored), 2 when nothing could be read at all.
    """
    store = None
    if not dry_run:
        from ..settings import load_settings
        from ..store import Store

        settings = load_settings(**({"database_url": database_url} if database_url else {}))
        store = Store(settings.database_url)
    rejected = 0
    fatal = 0
    try:
        org_id = store.create_org(org) if store is not None else ""
        for path in files:
            try:
                result = convert(path, format)
            except TraceFormatError as exc:
                typer.echo(f"error: {exc}", err=True)
                fatal += 1
                continue
            runs = _check(result) if store is not None else result.runs
            events = [e for run in runs for e in run.events]
            stored = 0
            if store is not None:
                chunks = [events[i:i + _CHUNK] for i in range(0, len(events), _CHUNK)]
                for chunk in progress(chunks, f"storing {path.name}", at_least=5):
                    stored += store.add_events(org_id, chunk)
            where = "" if store is None else f", {stored} new"
            typer.echo(f"{path}: {result.format}: {_n(len(runs), 'run')}, "
                       f"{_n(len(events), 'event')}{where}"
                       + (f", {len(result.rejected)} rejected" if result.rejected else ""))
            for error in result.rejected:
                located = error if error.source else error.located(source=str(path))
                typer.echo(f"  rejected: {located}", err=True)
            rejected += len(result.rejected)
    finally:
        if store is not None:
            store.close()
    if fatal and fatal == len(files):
        return 2
    return 1 if rejected or fatal else 0


def register(app: typer.Typer) -> None:
    @app.command("import")
    def import_command(
        files: Annotated[list[Path], typer.Argument(help="Trace export files to import.")],
        format: Annotated[str, typer.Option("--format", "-f", help=_FORMAT_HELP)] = "auto",
        org: Annotated[str, typer.Option(
            help="Organization to store the runs under (created if missing).")] = "default",
        database_url: DatabaseUrl = None,
        dry_run: Annotated[bool, typer.Option(
            "--dry-run", help="Convert and report, store nothing.")] = False,
    ) -> None:
        """Load traces exported by other tools into the store as runs.

        Reads deepeval, OTLP, OpenInference, LangSmith, Langfuse, OpenAI Agents and semloop
        NDJSON traces; agent trajectories from SWE-agent, mini-swe-agent, tau-bench and ATIF
        (Harbor, Terminus); OpenHands agent-SDK events (an event list, or the event store's
        folder); and the session files of Claude Code, OpenAI Codex CLI (rollouts) and Gemini
        CLI (chat recordings). Good records are stored even when
        others are rejected; each rejected one is named by file, line and field, and the exit
        code is then 1.
        """
        try:
            code = import_files(files, format=format, org=org, database_url=database_url,
                                dry_run=dry_run)
        except SemloopError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        raise typer.Exit(code)
