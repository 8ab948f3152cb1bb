"""Migrations: base → head → base on both databases, and head equals the models."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from semloop.store._dialect import create_migration_engine
from semloop.store._migrate import current_revision, downgrade, head_revision, upgrade
from semloop.store._models import Base
from semloop.store.testing import postgres_database

TABLES = {"organizations", "api_keys", "events", "processed_runs", "run_claims",
          "failure_signals"}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('migrate') / 'semloop.db'}"
        return
    with postgres_database(request.getfixturevalue("postgres_url")) as url:
        yield url


def _diff(engine: object) -> list[object]:
    with engine.connect() as conn:  # type: ignore[attr-defined]
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))


def test_base_head_base_and_head_matches_the_models(empty_url: str) -> None:
    engine = create_migration_engine(empty_url)
    try:
        assert current_revision(engine) is None
        upgrade(engine)
        assert current_revision(engine) == head_revision()
        assert TABLES <= set(inspect(engine).get_table_names())
        assert _diff(engine) == []
        upgrade(engine)  # a second upgrade is a no-op
        downgrade(engine, "base")
        assert current_revision(engine) is None
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        upgrade(engine)
        assert _diff(engine) == []
    finally:
        engine.dispose()


def test_naming_convention_gives_the_same_constraint_names_on_both(empty_url: str) -> None:
    engine = create_migration_engine(empty_url)
    try:
        upgrade(engine)
        insp = inspect(engine)
        uniques = {u["name"] for u in insp.get_unique_constraints("events")}
        assert uniques == {"uq_events_org_id_event_id"}
        indexes = {i["name"] for i in insp.get_indexes("events")}
        assert indexes >= {"ix_events_org_id_run_id", "ix_events_event_type_received_at",
                           "ix_events_org_id_received_at_id"}
        fks = {f["name"] for f in insp.get_foreign_keys("failure_signals")}
        assert fks == {"fk_failure_signals_org_id_organizations"}
    finally:
        engine.dispose()
