"""``semloop keys create`` and ``semloop migrate``, run in-process with typer's runner."""

from __future__ import annotations

from typer.testing import CliRunner

from semloop.cli import app
from semloop.store import Store, head_revision

runner = CliRunner()


def test_keys_create_prints_a_key_that_authenticates_its_org(db_url: str) -> None:
    first = runner.invoke(app, ["keys", "create", "--org", "acme", "--database-url", db_url])
    second = runner.invoke(app, ["keys", "create", "--org", "acme"],
                           env={"SEMLOOP_DATABASE_URL": db_url})
    assert first.exit_code == 0, first.output
    assert second.exit_code == 0, second.output
    key1, key2 = first.stdout.strip(), second.stdout.strip()
    assert key1.startswith("sl_") and key2.startswith("sl_") and key1 != key2
    with Store(db_url) as store:
        org = store.create_org("acme")
        assert store.org_for_key(key1) == org
        assert store.org_for_key(key2) == org


def test_migrate_shows_upgrades_and_downgrades(tmp_path: object) -> None:
    url = f"sqlite:///{tmp_path}/fresh.db"
    head = head_revision()  # each new migration moves it; the steps read the same
    steps = [
        (["--show"], f"current base, head {head}"),
        ([], f"migrated base -> {head}"),
        ([], f"already at {head}"),
        (["--downgrade", "0001"], f"migrated {head} -> 0001"),
        (["--downgrade", "base"], "migrated 0001 -> base"),
    ]
    for args, expected in steps:
        result = runner.invoke(app, ["migrate", "--database-url", url, *args])
        assert result.exit_code == 0, result.output
        assert result.stdout.strip() == expected


def test_cli_errors_are_one_line_and_exit_2() -> None:
    result = runner.invoke(app, ["migrate", "--database-url", "mysql://localhost/x"])
    assert result.exit_code == 2
    assert "unsupported database 'mysql'" in result.stderr
    result = runner.invoke(app, ["keys", "create", "--org", "acme", "--database-url",
                                 "postgresql://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 2
    assert "could not open the database" in result.stderr
