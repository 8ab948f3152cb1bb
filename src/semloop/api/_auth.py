"""Bearer authentication: every request names its organization with an API key."""

from __future__ import annotations

import time

from fastapi import Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .._exceptions import StoreError
from ..store import Store, hash_key

__all__ = ["KeyCache", "bearer", "org_for_key", "require_org", "store_of", "unauthorized"]

#: Declared once so the OpenAPI schema shows the scheme; errors are raised by us, not it.
bearer = HTTPBearer(auto_error=False, description="An org API key from `semloop keys create`.")


def unauthorized(detail: str) -> HTTPException:
    return HTTPException(401, detail, headers={"WWW-Authenticate": "Bearer"})


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


class KeyCache:
    """What the database said of each key lately, by its sha256.

    ``semloop keys revoke`` runs in another process, so only the database knows a key was
    revoked. A key it accepted less than ``fresh_s`` ago is taken without asking again:
    a client sending many batches a second costs one lookup a second, and a revoked key is
    refused within ``fresh_s``. Up to ``ttl_s``, the answer serves only when the database
    cannot answer (stale-if-error): the request then reaches its operation, which reports
    what failed (a 503 either way).
    """

    def __init__(self, fresh_s: float = 1.0, ttl_s: float = 60.0,
                 max_keys: int = 10_000) -> None:
        self.fresh_s = fresh_s
        self.ttl_s = ttl_s
        self.max_keys = max_keys
        self._orgs: dict[str, tuple[str, float]] = {}  # key hash -> (org id, checked at)

    def get(self, key: str, *, within: float) -> str | None:
        """The org of ``key`` if the database accepted it less than ``within`` s ago."""
        hit = self._orgs.get(hash_key(key))
        if hit is None or time.monotonic() - hit[1] >= within:
            return None
        return hit[0]

    def put(self, key: str, org_id: str | None) -> None:
        """Remember ``key`` as valid for ``org_id``, or forget it (``None``: refused)."""
        if org_id is None:
            self._orgs.pop(hash_key(key), None)
            return
        if len(self._orgs) >= self.max_keys:
            self._orgs.clear()  # crude, but bounded; refills from the database
        self._orgs[hash_key(key)] = (org_id, time.monotonic())


async def org_for_key(request: Request, key: str) -> str:
    """The org of ``key``; 401 when it is unknown or revoked (within ``fresh_s``)."""
    cache: KeyCache = request.app.state.key_cache
    fresh = cache.get(key, within=cache.fresh_s)
    if fresh is not None:
        return fresh
    try:
        org_id = await run_in_threadpool(store_of(request).org_for_key, key)
    except StoreError:
        known = cache.get(key, within=cache.ttl_s)
        if known is None:
            raise
        return known
    cache.put(key, org_id)
    if org_id is None:
        raise unauthorized("the API key is not valid")
    return org_id


async def require_org(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),  # noqa: B008
) -> str:
    """Dependency: the org of the request's ``Authorization: Bearer`` key, else 401."""
    if credentials is None or not credentials.credentials:
        raise unauthorized("missing API key: send Authorization: Bearer <key>")
    return await org_for_key(request, credentials.credentials)
