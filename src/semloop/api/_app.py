"""The app factory: wires the store and settings into the routers."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from .. import __version__
from .._exceptions import StoreError
from ..settings import Settings
from ..store import Store
from . import runs
from ._auth import KeyCache, require_org
from ._schemas import Health

__all__ = ["create_app"]


def create_app(store: Store, settings: Settings | None = None) -> FastAPI:
    """The semloop HTTP app over ``store``. The caller owns the store (and closes it)."""
    from ..ingest import router as ingest  # the ingest package imports this one's helpers

    app = FastAPI(
        title="semloop",
        version=__version__,
        description="Ingest agent runs (Dunetrace SDK or OTLP) and read runs and signals.",
    )
    app.state.store = store
    app.state.settings = settings or Settings(database_url=store.url)
    app.state.key_cache = KeyCache()

    @app.exception_handler(StoreError)
    async def _store_down(_request: Request, exc: StoreError) -> JSONResponse:
        # 503 tells SDKs to retry the batch later rather than drop it.
        return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "1"})

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"detail": f"{where}: {first.get('msg')}"}, status_code=400)

    @app.get("/health", response_model=Health, tags=["health"], summary="Liveness and database")
    async def health() -> Any:
        await run_in_threadpool(store.count_events, "")  # a round trip to the database
        return {"status": "ok", "database": store.dialect.value}

    @app.get("/v1/policies", tags=["sdk"], include_in_schema=False)
    async def policies(_org: str = Depends(require_org)) -> Any:
        # The Dunetrace SDK fetches remote policies at run start; semloop has none to serve.
        return {"policies": []}

    app.include_router(ingest.router)
    app.include_router(runs.router)
    return app
