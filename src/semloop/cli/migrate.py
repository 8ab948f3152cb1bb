"""``semloop migrate``: bring the database schema to the current revision (or another one).

The store also upgrades on open; this command is for doing it ahead of a deploy, checking
where a database stands, or stepping back down.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .._exceptions import SemloopError
from ._options import DatabaseUrl

__all__ = ["migrate", "register"]


def migrate(database_url: str | None = None, *, downgrade_to: str | None = None,
            show: bool = False) -> tuple[str | None, str | None]:
    """Upgrade to head (or downgrade to ``downgrade_to``); returns (before, after) revisions."""
    from ..settings import load_settings
    from ..store import migrate_database

    settings = load_settings(**({"database_url": database_url} if database_url else {}))
    return migrate_database(settings.database_url, downgrade_to=downgrade_to, show=show)


def register(app: typer.Typer) -> None:
    @app.command("migrate")
    def migrate_command(
        database_url: DatabaseUrl = None,
        downgrade: Annotated[str | None, typer.Option(
            help="Step down to this revision instead ('base' drops every table).",
            show_default=False)] = None,
        show: Annotated[bool, typer.Option(
            "--show", help="Print the current and head revisions; change nothing.")] = False,
    ) -> None:
        """Apply the schema migrations (Alembic) to the database."""
        from ..store import head_revision

        try:
            before, after = migrate(database_url, downgrade_to=downgrade, show=show)
        except SemloopError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if show:
            typer.echo(f"current {after or 'base'}, head {head_revision()}")
        elif before == after:
            typer.echo(f"already at {after or 'base'}")
        else:
            typer.echo(f"migrated {before or 'base'} -> {after or 'base'}")
