"""The HTTP server: ingest and the read API in one FastAPI app. Needs the ``server`` extra.

``create_app(store, settings)`` builds it; ``semloop up`` serves it with uvicorn.
See ``docs/api.md``.
"""

from __future__ import annotations

from .._exceptions import MissingExtraError

try:
    import fastapi  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("the semloop server", "server", exc.name or "fastapi") from exc

from ._app import create_app
from ._protocol import timed_protocol

__all__ = ["create_app", "timed_protocol"]
