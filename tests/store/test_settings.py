"""Settings: environment with the SEMLOOP_ prefix, defaults, and errors naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from semloop import ConfigError
from semloop.settings import Settings, load_settings


def test_defaults_put_the_database_in_the_working_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SEMLOOP_DATABASE_URL", raising=False)
    settings = load_settings()
    assert settings.database_url == f"sqlite:///{tmp_path / 'semloop.db'}"
    assert settings.max_body_bytes == 5 * 1024 * 1024
    assert (settings.host, settings.port, settings.stall_timeout_s) == ("127.0.0.1", 8001, 90.0)


def test_environment_and_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMLOOP_DATABASE_URL", "postgresql+psycopg://u@h/db")
    monkeypatch.setenv("SEMLOOP_MAX_BODY_BYTES", "1000")
    settings = load_settings(port=9000)
    assert settings.database_url == "postgresql+psycopg://u@h/db"
    assert settings.max_body_bytes == 1000 and settings.port == 9000
    with pytest.raises(ValueError, match="frozen"):
        settings.port = 1  # type: ignore[misc]


def test_bad_values_and_unknown_keys_name_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMLOOP_MAX_BODY_BYTES", "lots")
    with pytest.raises(ConfigError, match="max_body_bytes") as info:
        load_settings()
    assert info.value.key == "max_body_bytes"
    monkeypatch.delenv("SEMLOOP_MAX_BODY_BYTES")
    with pytest.raises(ConfigError) as info:
        load_settings(databse_url="x")
    assert info.value.key == "databse_url"
    with pytest.raises(ConfigError, match="port"):
        load_settings(port=70000)
    assert isinstance(Settings(), Settings)
