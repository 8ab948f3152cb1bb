"""``semloop keys create --org NAME``: a new API key for an organization, on stdout."""

from __future__ import annotations

from typing import Annotated

import typer

from .._exceptions import SemloopError
from ._options import DatabaseUrl

__all__ = ["create_key", "register"]


def create_key(org: str, database_url: str | None = None) -> str:
    """A new key for ``org`` (created if missing). Only its hash is stored."""
    from ..settings import load_settings
    from ..store import Store

    settings = load_settings(**({"database_url": database_url} if database_url else {}))
    with Store(settings.database_url) as store:
        return store.create_api_key(store.create_org(org))


def register(app: typer.Typer) -> None:
    keys = typer.Typer(help="API keys: each authenticates one organization's requests.",
                       no_args_is_help=True)

    @keys.command("create")
    def create_command(
        org: Annotated[str, typer.Option(help="Organization name (created if missing).")],
        database_url: DatabaseUrl = None,
    ) -> None:
        """Create an API key and print it on stdout. It is shown once: only its sha256 is kept."""
        try:
            key = create_key(org, database_url)
        except SemloopError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(key)
        typer.echo(f"created a key for organization {org!r}; store it now, it is not kept",
                   err=True)

    app.add_typer(keys, name="keys")
