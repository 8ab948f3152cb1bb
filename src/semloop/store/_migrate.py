"""Alembic, driven from code: the store upgrades on open, ``semloop migrate`` by hand."""

from __future__ import annotations

import functools
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

from . import queries
from ._dialect import Dialect, create_migration_engine, dialect_of
from ._errors import translate_errors

__all__ = ["current_revision", "downgrade", "head_revision", "migrate_database", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")


def _config(connection: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


@functools.lru_cache(maxsize=1)
def head_revision() -> str:
    """The newest migration's revision: read from the scripts once per process (they ship
    with the package and do not change under it)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def _run(engine: Engine, action: str, revision: str) -> None:
    with engine.connect() as conn:
        postgres = dialect_of(conn) is Dialect.POSTGRESQL
        if postgres:
            # Two processes opening a fresh database at once would both create the tables.
            conn.execute(queries.MIGRATION_LOCK)
            conn.commit()
        try:
            if action == "upgrade":
                command.upgrade(_config(conn), revision)
            else:
                command.downgrade(_config(conn), revision)
            conn.commit()
        finally:
            if postgres:
                conn.rollback()
                conn.execute(queries.MIGRATION_UNLOCK)
                conn.commit()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply migrations up to ``revision``; a no-op when the schema is already there."""
    if revision == "head" and current_revision(engine) == head_revision():
        # Already at head, the usual case on open: one read of the version table instead of
        # loading and compiling every migration script again. Anything else (an empty
        # database, an older or unknown revision) takes alembic's path, under the lock.
        return
    _run(engine, "upgrade", revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Undo migrations down to ``revision`` (``base`` drops every table)."""
    _run(engine, "downgrade", revision)


def migrate_database(url: str, *, downgrade_to: str | None = None,
                     show: bool = False) -> tuple[str | None, str | None]:
    """Upgrade the database at ``url`` to head (or down to ``downgrade_to``; with ``show``,
    neither); returns its (before, after) revisions. Errors are :class:`StoreError`."""
    with translate_errors("migrate the database"):
        engine = create_migration_engine(url)
        try:
            before = current_revision(engine)
            if not show:
                if downgrade_to:
                    downgrade(engine, downgrade_to)
                else:
                    upgrade(engine)
            return before, current_revision(engine)
        finally:
            engine.dispose()
