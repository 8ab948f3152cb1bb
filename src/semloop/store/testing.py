"""Helpers for tests that need a fresh PostgreSQL database per test.

``MigratedTemplate(admin_url)`` migrates one template database once; each
``template.database()`` is a new empty-but-migrated database cloned from it (tens of
milliseconds), dropped on exit. SQLite needs none of this: use a temporary file.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

from sqlalchemy.engine import make_url

from . import queries
from ._dialect import create_migration_engine, normalize_url
from ._migrate import upgrade

__all__ = ["MigratedTemplate", "postgres_database"]


def _url_for(admin_url: str, name: str) -> str:
    return normalize_url(admin_url).set(database=name).render_as_string(hide_password=False)


@contextlib.contextmanager
def postgres_database(admin_url: str, *, template: str | None = None) -> Iterator[str]:
    """A new database on the server of ``admin_url`` (dropped afterwards); yields its URL."""
    name = f"semloop_test_{uuid.uuid4().hex[:12]}"
    engine = create_migration_engine(admin_url)
    try:
        with engine.connect() as conn:
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            conn.execute(queries.create_database(name, template))
        yield _url_for(admin_url, name)
    finally:
        with engine.connect() as conn:
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            conn.execute(queries.drop_database(name))
        engine.dispose()


class MigratedTemplate:
    """A migrated template database to clone test databases from."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self._stack = contextlib.ExitStack()
        url = self._stack.enter_context(postgres_database(admin_url))
        self.name = str(make_url(url).database)
        engine = create_migration_engine(url)
        try:
            upgrade(engine)
        finally:
            engine.dispose()  # a template must have no open connections

    @contextlib.contextmanager
    def database(self) -> Iterator[str]:
        with postgres_database(self.admin_url, template=self.name) as url:
            yield url

    def close(self) -> None:
        self._stack.close()
