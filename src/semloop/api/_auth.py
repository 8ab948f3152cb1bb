"""Bearer authentication: every request names its organization with an API key."""

from __future__ import annotations

import time

from fastapi import Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..store import Store
from ..store._store import hash_key

__all__ = ["KeyCache", "bearer", "org_for_key", "require_org", "store_of", "unauthorized"]

#: Declared once so the OpenAPI schema shows the scheme; errors are raised by us, not it.
bearer = HTTPBearer(auto_error=False, description="An org API key from `semloop keys create`.")


def unauthorized(detail: str) -> HTTPException:
    return HTTPException(401, detail, headers={"WWW-Authenticate": "Bearer"})


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


class KeyCache:
    """Keys recently found valid, by their sha256, for ``ttl_s`` seconds.

    Saves a database round trip on every ingest batch from the same SDK. Unknown keys are
    never cached, so a new key works at once; a deleted key keeps working for at most
    ``ttl_s`` seconds.
    """

    def __init__(self, ttl_s: float = 60.0, max_keys: int = 10_000) -> None:
        self.ttl_s = ttl_s
        self.max_keys = max_keys
        self._orgs: dict[str, tuple[str, float]] = {}

    def get(self, key: str) -> str | None:
        hit = self._orgs.get(hash_key(key))
        if hit is None or hit[1] < time.monotonic():
            return None
        return hit[0]

    def put(self, key: str, org_id: str) -> None:
        if len(self._orgs) >= self.max_keys:
            self._orgs.clear()  # crude, but bounded; refills from the database
        self._orgs[hash_key(key)] = (org_id, time.monotonic() + self.ttl_s)


async def org_for_key(request: Request, key: str) -> str:
    """The org of ``key``; 401 when it is unknown."""
    cache: KeyCache = request.app.state.key_cache
    org_id = cache.get(key)
    if org_id is None:
        org_id = await run_in_threadpool(store_of(request).org_for_key, key)
        if org_id is None:
            raise unauthorized("the API key is not valid")
        cache.put(key, org_id)
    return org_id


async def require_org(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),  # noqa: B008
) -> str:
    """Dependency: the org of the request's ``Authorization: Bearer`` key, else 401."""
    if credentials is None or not credentials.credentials:
        raise unauthorized("missing API key: send Authorization: Bearer <key>")
    return await org_for_key(request, credentials.credentials)
