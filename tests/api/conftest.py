"""Fixtures: the real app served by uvicorn on 127.0.0.1 (a free port, in a thread) over the
shared ``store`` fixture (SQLite and PostgreSQL), for wire-level tests with real clients."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from fastapi import FastAPI

from semloop.api import create_app
from semloop.api.testing import serve
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


@contextlib.contextmanager
def _serve_org(store: Store) -> Iterator[Server]:
    org_id = store.create_org("acme")
    key = store.create_api_key(org_id)
    app = create_app(store, Settings(database_url=store.url))
    with serve(app) as url:
        yield Server(url, app, store, org_id, key)


@pytest.fixture
def server(store: Store) -> Iterator[Server]:
    with _serve_org(store) as served:
        yield served


@pytest.fixture(scope="module")
def read_only_server(module_store: Store) -> Iterator[Server]:
    """One server per module and database, for tests whose requests change nothing."""
    with _serve_org(module_store) as served:
        yield served
