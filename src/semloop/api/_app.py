"""The app factory: wires the store and settings into the routers."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from .. import __version__
from .._exceptions import StoreError
from ..detect import DetectorConfig, load_config
from ..settings import Settings
from ..store import Store
from . import agents, approvals, ingest, policies, runs, sdk, semantic, signals
from ._auth import KeyCache
from ._schemas import ErrorBody, Health
from .dashboard import mount_dashboard

__all__ = ["create_app"]

log = logging.getLogger("semloop.api")

#: What a client is told when the database fails: the driver's message names the host,
#: port and database, so it goes to the log, never into a response.
STORE_DOWN = "the database is unavailable; retry later"


def create_app(store: Store, settings: Settings | None = None) -> FastAPI:
    """The semloop HTTP app over ``store``. The caller owns the store (and closes it)."""
    app = FastAPI(
        title="semloop",
        version=__version__,
        description="Ingest agent runs (Dunetrace SDK or OTLP) and read runs and signals.",
        # FastAPI's own /docs and /redoc load their scripts from a CDN: broken offline.
        docs_url=None,
        redoc_url=None,
    )
    _serve_docs(app)
    app.state.store = store
    app.state.settings = settings or Settings(database_url=store.url)
    app.state.key_cache = KeyCache()
    # Read once, as the detector worker does: a bad file fails start-up, not each request.
    path = app.state.settings.detectors_config
    app.state.detector_config = load_config(path) if path else DetectorConfig()

    @app.exception_handler(StoreError)
    async def _store_down(request: Request, exc: StoreError) -> JSONResponse:
        # 503 tells SDKs to retry the batch later rather than drop it.
        log.error("%s %s: %s", request.method, request.url.path, exc)
        return JSONResponse({"detail": STORE_DOWN}, status_code=503,
                            headers={"Retry-After": "1"})

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = tuple(first.get("loc", ()))
        where = ".".join(str(p) for p in loc)
        # A bad query parameter (the listings) is 422 like the ones they check themselves;
        # a body or path that fails validation stays 400, as the ingest clients expect.
        status = 422 if loc[:1] == ("query",) else 400
        return JSONResponse({"detail": f"{where}: {first.get('msg')}"}, status_code=status)

    @app.get("/health", response_model=Health, tags=["health"], summary="Liveness and database",
             responses={503: {"model": ErrorBody, "description": "the database did not answer"}})
    async def health() -> Any:
        await run_in_threadpool(store.count_events, "")  # a round trip to the database
        return {"status": "ok", "database": store.dialect.value}

    app.add_middleware(_RefuseNul)
    app.include_router(ingest.router)
    app.include_router(runs.router)
    app.include_router(signals.router)
    app.include_router(agents.router)
    app.include_router(policies.router)
    app.include_router(approvals.router)
    app.include_router(sdk.router)
    app.include_router(semantic.router)
    mount_dashboard(app, app.state.settings)
    _declare_real_errors_only(app)
    return app


#: Where the Swagger UI files from the ``swagger-ui-bundle`` wheel are served.
DOCS_ASSETS = "/docs-assets"


def _serve_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from files shipped in a wheel, so it works with no network."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.staticfiles import StaticFiles
    from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

    app.mount(DOCS_ASSETS, StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Any:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json", title="semloop API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png",
            # Swagger UI would otherwise send the schema to an online validator.
            swagger_ui_parameters={"validatorUrl": None})


def _declare_real_errors_only(app: FastAPI) -> None:
    """Drop the 422 ``HTTPValidationError`` FastAPI declares on every route with parameters.

    Our handler answers a failed validation with 400 and an ``ErrorBody``, so that 422 body
    never happens; a schema promising it misleads clients and schema-driven tests.
    """
    generate = app.openapi  # builds the schema once, then returns the cached one

    def openapi() -> dict[str, Any]:
        first = app.openapi_schema is None
        schema = generate()
        if first:
            _drop_validation_422(schema)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _drop_validation_422(schema: dict[str, Any]) -> None:
    phantom = {"$ref": "#/components/schemas/HTTPValidationError"}
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.get("responses", {})
            body = responses.get("422", {}).get("content", {}).get("application/json", {})
            if body.get("schema") == phantom:
                del responses["422"]
    if "HTTPValidationError" not in json.dumps(schema.get("paths", {})):
        components = schema.get("components", {}).get("schemas", {})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)


class _RefuseNul:
    """404 for a path holding a NUL character, on every route and database alike.

    No id may contain NUL (ingest refuses them), so no such path names anything; sent on to
    PostgreSQL it would fail as a retryable 503 and make clients loop. (Query filters with
    a NUL already match nothing: see the listings.)
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and "\x00" in scope["path"]:
            response = JSONResponse({"detail": "no such resource: the path holds a NUL character"},
                                    status_code=404)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
