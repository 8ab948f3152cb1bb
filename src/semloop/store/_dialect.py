"""Everything that differs between SQLite and PostgreSQL, in one place.

Each difference is one function branching on :class:`Dialect`; the rest of the store is
dialect-neutral SQLAlchemy Core.
"""

from __future__ import annotations

import contextlib
import enum
import os
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.engine import create_engine as _sa_create_engine
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import NullPool
from sqlalchemy.sql.dml import Insert

from .._exceptions import ConfigError

__all__ = ["WRITE", "Dialect", "create_engine", "insert_ignore", "insert_or_take_over", "normalize_url",
           "upsert"]

#: Execution option asking for a write transaction (SQLite: ``BEGIN IMMEDIATE``).
WRITE = {"semloop_write": True}

# Long enough that concurrent writers queue instead of failing; short enough to surface a
# wedged database within one worker poll.
SQLITE_BUSY_TIMEOUT_MS = 30_000


class Dialect(enum.Enum):
    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


def normalize_url(url: str) -> URL:
    """Parse a database URL; a bare path is a SQLite file, ``postgresql://`` means psycopg 3."""
    if "://" not in url:
        url = f"sqlite:///{url}"
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ConfigError(f"not a database URL: {exc}", key="database_url") from None
    if parsed.get_backend_name() == "postgresql":
        # Only psycopg 3 is a dependency; psycopg2 (SQLAlchemy's default) is not installed.
        return parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "sqlite":
        return parsed
    raise ConfigError(
        f"unsupported database {parsed.get_backend_name()!r}: use sqlite:///FILE or "
        "postgresql+psycopg://USER@HOST/DB",
        key="database_url",
    )


def dialect_of(engine: Engine | Connection) -> Dialect:
    return Dialect(engine.dialect.name)


def create_engine(url: str, **options: Any) -> Engine:
    """An engine for ``url`` with this project's connection settings applied on connect."""
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            # Each connection would get its own empty database; the store needs one file.
            raise ConfigError("an in-memory SQLite database cannot be shared: give a file",
                              key="database_url")
        _create_private(parsed.database)
        engine = _sa_create_engine(parsed, pool_size=8, max_overflow=8, **options)
        _configure_sqlite(engine)
        return engine
    # Batched inserts go to psycopg's executemany (pipelined, one small prepared statement)
    # rather than SQLAlchemy's multi-VALUES rewrite, which psycopg re-parses per batch; its
    # rowcount is then the number of rows stored.
    # No pool_pre_ping: it costs a round trip per transaction. After a server restart the
    # first statement on a dead connection fails (StoreError, 503: SDKs retry) and
    # SQLAlchemy then drops the whole pool.
    return _sa_create_engine(parsed, pool_size=8, max_overflow=8,
                             use_insertmanyvalues=False, **options)


def create_migration_engine(url: str) -> Engine:
    """A single-use engine for migrations (no pool left behind)."""
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        _create_private(parsed.database)
    engine = _sa_create_engine(parsed, poolclass=NullPool)
    if parsed.get_backend_name() == "sqlite":
        _configure_sqlite(engine)
    return engine


def _create_private(path: str | None) -> None:
    """Create a new SQLite file readable by its owner only: it holds every org's prompts.

    SQLite gives its -wal and -shm files the database file's mode. An existing file keeps
    the mode its owner chose.
    """
    if not path or path.startswith("file:"):
        return
    # An existing file, a missing folder, no right to write: SQLite then opens the file,
    # or reports the problem in its own words.
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy (below) issue BEGIN itself: pysqlite's own implicit BEGIN is
        # deferred, and a deferred transaction that reads then writes can fail with
        # SQLITE_BUSY at once, ignoring busy_timeout.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints; safe with WAL
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("semloop_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def insert_ignore(dialect: Dialect, table: Table, conflict: Sequence[str]) -> Insert:
    """``INSERT … ON CONFLICT (conflict) DO NOTHING`` for ``table``."""
    if dialect is Dialect.POSTGRESQL:
        return postgresql.insert(table).on_conflict_do_nothing(index_elements=list(conflict))
    if dialect is Dialect.SQLITE:
        return sqlite.insert(table).on_conflict_do_nothing(index_elements=list(conflict))
    raise AssertionError(dialect)  # pragma: no cover


def insert_or_take_over(
    dialect: Dialect, table: Table, conflict: Sequence[str], column: str, now: float
) -> Insert:
    """Insert rows; where one exists, overwrite ``column`` only if its value is below ``now``.

    Used to claim leases: the statement's ``RETURNING`` yields exactly the rows this call took.
    Under concurrency PostgreSQL re-checks the ``WHERE`` against the committed row, so two
    callers never both take the same lease.
    """
    stmt: Any
    if dialect is Dialect.POSTGRESQL:
        stmt = postgresql.insert(table)
    elif dialect is Dialect.SQLITE:
        stmt = sqlite.insert(table)
    else:  # pragma: no cover
        raise AssertionError(dialect)
    return stmt.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=list(conflict),
        set_={column: getattr(stmt.excluded, column)},
        where=table.c[column] < now,
    )


def upsert(dialect: Dialect, table: Table, conflict: Sequence[str],
           columns: Sequence[str]) -> Insert:
    """``INSERT … ON CONFLICT (conflict) DO UPDATE`` setting ``columns`` to the new row's."""
    stmt: Any
    if dialect is Dialect.POSTGRESQL:
        stmt = postgresql.insert(table)
    elif dialect is Dialect.SQLITE:
        stmt = sqlite.insert(table)
    else:  # pragma: no cover
        raise AssertionError(dialect)
    return stmt.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=list(conflict), set_={c: getattr(stmt.excluded, c) for c in columns})
