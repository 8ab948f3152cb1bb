"""The store's connector: the engine, its dialect and transactions, shared by every area.

As procrastinate splits its ``JobManager`` from its connector, each area of the store
(``_orgs``, ``_events``, ``_claims``, ``_listing``, ``_prune``, ``_signals``,
``_alerts``) is a class over one :class:`Connector`, and only the connector opens
transactions. :class:`~semloop.store.Store` composes the areas.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from sqlalchemy.engine import Connection, Engine

from ._dialect import WRITE, Dialect, create_engine, dialect_of
from ._errors import translate_errors
from ._migrate import upgrade
from ._rows import dumps

__all__ = ["Area", "Connector"]


class Connector:
    """One engine on ``url``, migrated to head on open unless ``migrate`` is false."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = url
        with translate_errors("open the database"):
            self.engine: Engine = create_engine(url, json_serializer=dumps)
            self.dialect: Dialect = dialect_of(self.engine)
            self._write_lock: contextlib.AbstractContextManager[object] = (
                threading.Lock() if self.dialect is Dialect.SQLITE else contextlib.nullcontext()
            )
            if migrate:
                upgrade(self.engine)

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction (SQLite: ``BEGIN IMMEDIATE``)."""
        # SQLite has one writer: threads of this process queue on a lock (woken at once)
        # rather than in SQLite's busy handler, which sleeps and polls.
        with self._write_lock, self.engine.connect() as conn:
            conn = conn.execution_options(**WRITE)
            with conn.begin():
                yield conn

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def close(self) -> None:
        self.engine.dispose()


class Area:
    """One area of the store's methods, over the connector all areas share."""

    def __init__(self, db: Connector) -> None:
        self._db = db
