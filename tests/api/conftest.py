"""Fixtures: the real app served by uvicorn on 127.0.0.1 (a free port, in a thread) over the
shared ``store`` fixture (SQLite and PostgreSQL), for wire-level tests with real clients."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from semloop.api import create_app
from semloop.settings import Settings
from semloop.store import Store


@dataclass
class Server:
    url: str
    app: FastAPI
    store: Store
    org_id: str
    key: str

    def limit_body(self, max_body_bytes: int) -> None:
        """Serve on with a smaller body limit (settings are frozen: swap them)."""
        self.app.state.settings = Settings(database_url=self.store.url,
                                           max_body_bytes=max_body_bytes)

    def client(self, key: str | None = "") -> httpx.Client:
        """An HTTP client; with the org's key as a bearer token unless ``key`` says otherwise."""
        token = self.key if key == "" else key
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(store: Store) -> Iterator[Server]:
    org_id = store.create_org("acme")
    key = store.create_api_key(org_id)
    app = create_app(store, Settings(database_url=store.url))
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port,
                            log_level="warning", lifespan="off")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not uv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.02)
    yield Server(f"http://127.0.0.1:{port}", app, store, org_id, key)
    uv.should_exit = True
    thread.join(timeout=10)
