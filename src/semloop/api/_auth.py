"""Bearer authentication: every request names its organization with an API key."""

from __future__ import annotations

from fastapi import Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..store import Store

__all__ = ["bearer", "org_for_key", "require_org", "unauthorized"]

#: Declared once so the OpenAPI schema shows the scheme; errors are raised by us, not it.
bearer = HTTPBearer(auto_error=False, description="An org API key from `semloop keys create`.")


def unauthorized(detail: str) -> HTTPException:
    return HTTPException(401, detail, headers={"WWW-Authenticate": "Bearer"})


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def org_for_key(store: Store, key: str) -> str:
    """The org of ``key``; 401 when it is unknown."""
    org_id = await run_in_threadpool(store.org_for_key, key)
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
    return await org_for_key(store_of(request), credentials.credentials)
