"""The dashboard: server-rendered pages at ``/`` of the API's app, behind a sign-in with an
org API key. Jinja2 templates and the static files sit beside this module and ship in the
wheel; nothing is fetched from the internet. See ``docs/dashboard.md``.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from urllib.parse import urlencode

from ..._exceptions import MissingExtraError

try:
    import jinja2  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("the dashboard", "server", exc.name or "jinja2") from exc

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse

from ...settings import Settings
from ._calibration import default_reports_dir
from ._pages import SignInRequired, router
from ._session import Sessions

__all__ = ["mount_dashboard"]


def mount_dashboard(app: FastAPI, settings: Settings) -> None:
    """Serve the dashboard's pages on ``app``.

    Without ``session_secret`` a random one is drawn: sessions then end when the server
    restarts, which is safe, merely inconvenient. The agent pages show
    ``app.state.detector_config``, which ``create_app`` reads from ``detectors_config``.
    """
    secret = (settings.session_secret.encode() if settings.session_secret
              else secrets.token_bytes(32))
    app.state.sessions = Sessions(secret, settings.session_max_age_s)
    app.state.calibration_dir = (Path(settings.calibration_dir) if settings.calibration_dir
                                 else default_reports_dir())

    @app.exception_handler(SignInRequired)
    async def _sign_in(_request: Request, exc: SignInRequired) -> RedirectResponse:
        return RedirectResponse("/login?" + urlencode({"next": exc.path}), status_code=303)

    app.include_router(router)
