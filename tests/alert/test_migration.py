"""Revision 0002 on a database that already holds signals: they are not alerted afterwards."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import text

from semloop.alert import AlertsConfig
from semloop.store import Store
from semloop.store._dialect import create_migration_engine
from semloop.store._migrate import current_revision, downgrade, upgrade
from semloop.store.testing import postgres_database
from semloop.worker import AlertsWorker

from .conftest import Receiver, Runs


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('migrate') / 'semloop.db'}"
        return
    with postgres_database(request.getfixturevalue("postgres_url")) as url:
        yield url


def test_signals_stored_before_0002_are_marked_preexisting(
        empty_url: str, receiver_factory: Callable[..., Receiver]) -> None:
    engine = create_migration_engine(empty_url)
    try:
        upgrade(engine, "0001")
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO organizations (id, name, created_at) "
                              "VALUES ('o1', 'acme', 0)"))
            conn.execute(text(
                "INSERT INTO failure_signals (org_id, run_id, failure_type, source, severity, "
                "confidence, evidence, step_index, agent_id, agent_version, shadow, alerted, "
                "co_signal_count, detected_at) VALUES ('o1', 'old-run', 'COST_SPIKE', "
                "'structural', 'HIGH', 0.9, '{}', 1, 'bot', 'v1', FALSE, FALSE, 1, 0)"))
        upgrade(engine)
    finally:
        engine.dispose()
    hook = receiver_factory()
    with Store(empty_url) as store:
        worker = AlertsWorker(store, AlertsConfig.from_dict(
            {"destinations": {"ops": {"type": "webhook", "url": hook.url}}}))
        assert store.alert_decisions("o1", "old-run") == {
            ("COST_SPIKE", "structural"): "preexisting"}
        runs = Runs(store, "o1", agent_id="bot")
        runs.add("new-run", "COST_SPIKE")
        worker.drain()
        assert [b["run_id"] for b in hook.bodies] == ["new-run"]
    engine = create_migration_engine(empty_url)
    try:
        downgrade(engine, "0001")
        assert current_revision(engine) == "0001"
        upgrade(engine)
    finally:
        engine.dispose()
