"""The ``store`` fixture: every store test runs on SQLite (a temporary file) and on
PostgreSQL (a fresh database cloned from a migrated template on the test server)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from semloop.store import Store
from semloop.store.testing import MigratedTemplate


@pytest.fixture(scope="session")
def pg_template(postgres_url: str) -> Iterator[MigratedTemplate]:
    template = MigratedTemplate(postgres_url)
    yield template
    template.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('store') / 'semloop.db'}"
        return
    template: MigratedTemplate = request.getfixturevalue("pg_template")
    with template.database() as url:
        yield url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.close()
