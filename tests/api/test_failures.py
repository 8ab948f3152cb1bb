"""When the database goes away, ingest answers 503 with Retry-After, so SDKs keep the batch,
and no response names the database's host, port or name (they go to the log)."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest
import uvicorn
from sqlalchemy import text
from sqlalchemy.engine import make_url

from semloop.api import create_app
from semloop.api._app import STORE_DOWN
from semloop.api.testing import free_port
from semloop.store import Store
from semloop.store._dialect import create_migration_engine
from semloop.store.testing import MigratedTemplate


@pytest.mark.postgres
def test_a_lost_database_is_503_with_retry_after(pg_template: MigratedTemplate) -> None:
    with pg_template.database() as url:
        store = Store(url)
        org = store.create_org("acme")
        key = store.create_api_key(org)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(create_app(store), host="127.0.0.1", port=port,
                                               log_level="critical", lifespan="off"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        event = {"event_type": "run.started", "run_id": "r1", "agent_id": "a",
                 "step_index": 0, "timestamp": time.time(), "event_id": "e0"}
        base = f"http://127.0.0.1:{port}"
        headers = {"Authorization": f"Bearer {key}"}
        try:
            first = httpx.post(f"{base}/v1/ingest", json={"events": [event]}, headers=headers)
            assert first.status_code == 202  # the key is now known to the app
            admin = create_migration_engine(pg_template.admin_url)
            with admin.connect() as conn:
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                name = url.rsplit("/", 1)[1]
                conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            admin.dispose()
            reply = httpx.post(f"{base}/v1/ingest", json={"events": [{**event, "event_id": "e1"}]},
                               headers=headers, timeout=10)
            assert reply.status_code == 503
            assert reply.headers["Retry-After"] == "1"
            health = httpx.get(f"{base}/health", timeout=10)  # unauthenticated
            assert health.status_code == 503
            for body in (reply.text, health.text):
                assert json.loads(body) == {"detail": STORE_DOWN}
                assert name not in body and "127.0.0.1" not in body
                assert str(make_url(url).port) not in body
        finally:
            server.should_exit = True
            thread.join(timeout=10)
            store.close()
