"""Options several commands share, declared once so their help reads the same everywhere."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["DatabaseUrl"]

#: ``--database-url``: where runs live; None means the settings' default.
DatabaseUrl = Annotated[str | None, typer.Option(
    help="SQLite or PostgreSQL URL; default $SEMLOOP_DATABASE_URL or ./semloop.db.",
    show_default=False)]
