"""Server settings: one validated, frozen object built once at start-up and passed down.

Every field reads from the environment with the ``SEMLOOP_`` prefix (``database_url`` ←
``SEMLOOP_DATABASE_URL``). Needs the ``server`` extra (pydantic-settings).
"""

from __future__ import annotations

from pathlib import Path

from ._defaults import DEFAULT_HOST, DEFAULT_PORT, DEFAULT_REQUEST_TIMEOUT_S
from ._exceptions import ConfigError, MissingExtraError

try:
    from pydantic import Field, ValidationError
    from pydantic_settings import BaseSettings, SettingsConfigDict
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("semloop settings", "server", exc.name or "pydantic-settings") from exc

__all__ = ["Settings", "default_database_url", "load_settings"]


def default_database_url() -> str:
    """The embedded default: a SQLite file named ``semloop.db`` in the working directory."""
    return f"sqlite:///{Path.cwd() / 'semloop.db'}"


class Settings(BaseSettings):
    """Settings of the ingest/API server and the workers that share its database."""

    model_config = SettingsConfigDict(env_prefix="SEMLOOP_", extra="forbid", frozen=True)

    database_url: str = Field(
        default_factory=default_database_url,
        description="SQLite file (sqlite:///path) or PostgreSQL (postgresql+psycopg://...) URL.",
    )
    host: str = Field(default=DEFAULT_HOST, description="Address the server listens on.")
    port: int = Field(default=DEFAULT_PORT, ge=0, le=65535, description="Port the server listens on.")
    max_body_bytes: int = Field(
        default=5 * 1024 * 1024,
        gt=0,
        description="Largest request body ingest accepts; larger bodies get 413.",
    )
    max_future_skew_s: float = Field(
        default=3600.0,
        ge=0,
        description="Ingest refuses an event timestamped further than this ahead of its clock.",
    )
    request_timeout_s: float = Field(
        default=DEFAULT_REQUEST_TIMEOUT_S,
        gt=0,
        description="A request must arrive whole within this many seconds of its first byte "
                    "(or of the connection opening); slower or half-open connections are closed.",
    )
    detectors_config: str | None = Field(
        default=None,
        description="detectors.yml of the detector worker; GET /v1/detector-config serves it "
                    "to the Dunetrace SDK. Default: every detector at its defaults.",
    )
    policy_signing_secret: str = Field(
        default="",
        repr=False,
        description="Secret remote policies are signed with (HMAC-SHA256); SDKs given the "
                    "same secret (DUNETRACE_POLICY_SECRET) obey enforcing policies.",
    )
    stall_timeout_s: float = Field(
        default=90.0,
        gt=0,
        description="A run with no terminal event and no new event for this long is stalled.",
    )
    session_secret: str | None = Field(
        default=None, min_length=32,
        description="Signs dashboard sessions (32+ characters); unset, a random one is drawn "
                    "at start-up and sessions end when the server restarts.",
    )
    session_max_age_s: float = Field(
        default=12 * 3600.0, gt=0,
        description="A dashboard session ends this many seconds after sign-in.",
    )
    dashboard_refresh_s: float = Field(
        default=15.0, gt=0,
        description="Seconds between a dashboard page's own refreshes.",
    )
    calibration_dir: str | None = Field(
        default=None,
        description="Where the evaluator-quality page reads calibration reports; default "
                    "docs/calibration of the checkout semloop runs from.",
    )


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with explicit ``overrides`` (e.g. CLI options) on top.

    Raises :class:`ConfigError` naming the first bad key instead of pydantic's report.
    """
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or None
        raise ConfigError(first["msg"], key=key, source="settings") from None
