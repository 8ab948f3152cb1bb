"""Key management: ``semloop keys list`` shows ids and prefixes, never a secret;
``semloop keys revoke`` takes effect on the running server within a second; keys issued
before migration 0003 stay valid. SQLite and PostgreSQL."""

from __future__ import annotations

import time

import httpx
from typer.testing import CliRunner

from semloop.cli import app
from semloop.store import Store
from semloop.store._dialect import create_migration_engine
from semloop.store._migrate import downgrade, upgrade

from .conftest import Server

runner = CliRunner()
EVENT = {"event_type": "run.started", "run_id": "r1", "agent_id": "a", "step_index": 0,
         "timestamp": 1_764_500_000.0, "event_id": "e1"}


def _cli(*args: str, url: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["keys", *args, "--database-url", url])
    return result.exit_code, result.stdout, result.stderr


def _key_id(key: str) -> str:
    return key.split("_")[1]


def test_list_shows_ids_and_prefixes_never_secrets(db_url: str) -> None:
    code, first, _ = _cli("create", "--org", "acme", url=db_url)
    assert code == 0
    _, second, _ = _cli("create", "--org", "acme", url=db_url)
    _, theirs, _ = _cli("create", "--org", "globex", url=db_url)
    first, second, theirs = first.strip(), second.strip(), theirs.strip()

    code, listing, _ = _cli("list", "--org", "acme", url=db_url)
    assert code == 0
    lines = listing.strip().splitlines()
    assert lines[0].split() == ["key_id", "prefix", "created", "status"]
    rows = [line.split() for line in lines[1:]]
    assert [r[0] for r in rows] == [_key_id(first), _key_id(second)]
    assert [r[1] for r in rows] == [f"sl_{_key_id(first)}_…", f"sl_{_key_id(second)}_…"]
    assert all(r[-1] == "active" for r in rows)
    for key in (first, second, theirs):
        assert key.split("_", 2)[2] not in listing  # the secret (which may hold "_") never shown
    assert _key_id(theirs) not in listing  # another org's keys are not listed

    code, _, err = _cli("list", "--org", "nobody", url=db_url)
    assert code == 2 and "no organization called 'nobody'" in err


def test_revoke_by_id_or_prefix_and_unknown_ids(db_url: str) -> None:
    keys = [_cli("create", "--org", "acme", url=db_url)[1].strip() for _ in range(2)]
    code, out, _ = _cli("revoke", _key_id(keys[0]), url=db_url)
    assert code == 0 and f"revoked key {_key_id(keys[0])} of organization 'acme'" in out
    code, _, _ = _cli("revoke", f"sl_{_key_id(keys[1])}_", url=db_url)  # as list prints it
    assert code == 0
    listing = _cli("list", "--org", "acme", url=db_url)[1]
    assert [line.split()[4] for line in listing.strip().splitlines()[1:]] == [
        "revoked", "revoked"]
    with Store(db_url) as store:
        assert store.org_for_key(keys[0]) is None and store.org_for_key(keys[1]) is None
        first_time = store.api_keys(store.create_org("acme"))[0].revoked_at
        time.sleep(0.01)
        again = store.revoke_api_key(_key_id(keys[0]))  # twice: the first time stays
        assert again is not None and again.revoked_at == first_time
    code, _, err = _cli("revoke", "0123456789ab", url=db_url)
    assert code == 2 and "no API key with id '0123456789ab'" in err


def test_a_revoked_key_is_refused_within_a_second(server: Server) -> None:
    other = server.store.create_api_key(server.org_id)
    with server.client() as http, server.client(other) as still_good:
        # Used first, so any per-process memory of the key would be warm.
        assert http.get("/v1/runs").status_code == 200
        assert http.post("/v1/ingest", json={"events": [EVENT]}).status_code == 202
        # Revoked from another process's point of view: the CLI opens its own store.
        code, _, _ = _cli("revoke", _key_id(server.key), url=server.store.url)
        revoked = time.monotonic()
        assert code == 0
        # The server takes a key the database accepted under a second ago without asking
        # again; after that it asks, and hears the key is revoked.
        while http.get("/v1/runs").status_code == 200:
            assert time.monotonic() - revoked < 10, "the revoked key is still accepted"
            time.sleep(0.05)
        for reply in (http.get("/v1/runs"), http.get("/v1/signals"), http.get("/v1/agents"),
                      http.get("/v1/runs/r1"),
                      http.post("/v1/ingest", json={"events": [{**EVENT, "event_id": "e2"}]}),
                      httpx.post(f"{server.url}/v1/ingest",
                                 json={"api_key": server.key, "events": [EVENT]})):
            assert reply.status_code == 401, reply.text
            assert reply.headers["WWW-Authenticate"] == "Bearer"
        # The org's other key is untouched, and nothing was stored with the revoked one.
        assert [r["run_id"] for r in still_good.get("/v1/runs").json()["runs"]] == ["r1"]
        assert server.store.count_events(server.org_id) == 1


def test_with_no_fresh_window_the_next_request_is_refused(server: Server) -> None:
    server.app.state.key_cache.fresh_s = 0.0  # ask the database on every request
    with server.client() as http:
        assert http.get("/v1/agents").status_code == 200
        assert _cli("revoke", _key_id(server.key), url=server.store.url)[0] == 0
        assert http.get("/v1/agents").status_code == 401


def test_keys_issued_before_the_listing_migration_stay_valid(db_url: str) -> None:
    with Store(db_url) as store:
        org = store.create_org("acme")
        key = store.create_api_key(org)
    engine = create_migration_engine(db_url)
    try:
        downgrade(engine, "0002")  # the schema as it was when the key was issued
        upgrade(engine)
    finally:
        engine.dispose()
    with Store(db_url) as store:
        assert store.org_for_key(key) == org
        assert [k.key_id for k in store.api_keys(org)] == [_key_id(key)]
        assert store.revoke_api_key(_key_id(key)) is not None
        assert store.org_for_key(key) is None
