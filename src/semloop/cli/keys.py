"""``semloop keys create|list|revoke``: an organization's API keys.

A key reads ``sl_<key_id>_<secret>``. It is printed once, by ``create``; the store keeps its
sha256 and its public ``key_id``, which ``list`` shows and ``revoke`` takes.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from .._exceptions import SemloopError
from ._options import DatabaseUrl

__all__ = ["create_key", "format_keys", "list_keys", "register", "revoke_key"]

if TYPE_CHECKING:  # the store needs the server extra: imported when a command runs
    from ..store import KeyInfo, Store


def _store(database_url: str | None) -> Store:
    from ..settings import load_settings
    from ..store import Store

    settings = load_settings(**({"database_url": database_url} if database_url else {}))
    return Store(settings.database_url)


def create_key(org: str, database_url: str | None = None) -> str:
    """A new key for ``org`` (created if missing). Only its hash is stored."""
    with _store(database_url) as store:
        return store.create_api_key(store.create_org(org))


def list_keys(org: str, database_url: str | None = None) -> list[KeyInfo]:
    """The keys of ``org``, oldest first; :class:`SemloopError` if there is no such org."""
    with _store(database_url) as store:
        org_id = store.find_org(org)
        if org_id is None:
            raise SemloopError(f"no organization called {org!r}")
        return store.api_keys(org_id)


def revoke_key(key_id: str, database_url: str | None = None) -> KeyInfo:
    """Revoke a key by its id (or its ``sl_ID_`` prefix); :class:`SemloopError` if unknown."""
    with _store(database_url) as store:
        info = store.revoke_api_key(key_id)
    if info is None:
        raise SemloopError(f"no API key with id {key_id!r} (see semloop keys list)")
    return info


def _when(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(epoch))


def format_keys(keys: list[KeyInfo]) -> str:
    """One line per key: id, prefix, created, status; aligned, for people and ``cut``."""
    rows = [("key_id", "prefix", "created", "status")]
    rows += [(k.key_id, f"{k.prefix}…", _when(k.created_at),
              "active" if k.revoked_at is None else f"revoked {_when(k.revoked_at)}")
             for k in keys]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join("  ".join([*(c.ljust(w) for c, w in zip(r, widths, strict=False)), r[3]])
                     for r in rows)


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

    @keys.command("list")
    def list_command(
        org: Annotated[str, typer.Option(help="Organization name.")],
        database_url: DatabaseUrl = None,
    ) -> None:
        """List an organization's keys: id, prefix, created, active or revoked. Never secrets."""
        try:
            found = list_keys(org, database_url)
        except SemloopError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(format_keys(found))

    @keys.command("revoke")
    def revoke_command(
        key_id: Annotated[str, typer.Argument(help="The key's id, as keys list shows it.")],
        database_url: DatabaseUrl = None,
    ) -> None:
        """Revoke a key. Every running server refuses it (401) within a second."""
        try:
            info = revoke_key(key_id, database_url)
        except SemloopError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        when = _when(info.revoked_at or time.time())
        typer.echo(f"revoked key {info.key_id} of organization {info.org_name!r} at {when}")

    app.add_typer(keys, name="keys")
