"""One default address: the SDK sends, ``semloop up`` serves and alert links point at it.

Each side is read from what it really does, not from the shared constant, so a site
that stops using :mod:`semloop._defaults` and drifts fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from semloop.alert import AlertsConfig
from semloop.cli import app
from semloop.sdk import Client, HttpEmitter
from semloop.settings import load_settings

DOCS = [Path(__file__).parents[1] / "README.md",
        *sorted((Path(__file__).parents[1] / "docs").glob("*.md"))]


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> str:
    """The base URL a ``semloop up`` with no options and no environment serves on."""
    for name in ("SEMLOOP_HOST", "SEMLOOP_PORT", "SEMLOOP_ENDPOINT", "SEMLOOP_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    return f"http://{settings.host}:{settings.port}"


def test_a_client_with_no_arguments_reaches_semloop_up(served: str) -> None:
    client = Client()
    try:
        assert isinstance(client.emitter, HttpEmitter)
        assert client.emitter.endpoint == served
    finally:
        client.shutdown()


def test_alert_links_point_at_semloop_up(served: str) -> None:
    assert AlertsConfig().link_base_url == served
    assert AlertsConfig.from_dict({}).link_base_url == served


def test_up_help_shows_the_served_defaults(served: str) -> None:
    up = typer.main.get_command(app).commands["up"]  # type: ignore[attr-defined]
    shown = {p.name: getattr(p, "show_default", None) for p in up.params}
    assert f"http://{shown['host']}:{shown['port']}" == served


# What marks a line's local address as semloop's own, not a judge's; a database URL's
# (user@host) never is.
_OURS = ("/v1/ingest", "/v1/traces", "/v1/runs", "/v1/signals", "/v1/agents", "/openapi.json",
         "/docs", "SEMLOOP_", "semloop up", "link", "Client(")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_docs_name_the_served_port_for_a_local_semloop(doc: Path, served: str) -> None:
    port = int(served.rsplit(":", 1)[1])
    wrong = [line for line in doc.read_text().splitlines() if any(m in line for m in _OURS)
             for found in re.findall(r"(?<!@)(?:127\.0\.0\.1|localhost):(\d+)", line)
             if int(found) != port]
    assert wrong == []


def test_the_docs_check_reads_addresses() -> None:
    # A check that matched no line would pass; the README's Client example is one.
    readme = DOCS[0].read_text()
    assert any(m in line and "127.0.0.1:8001" in line for line in readme.splitlines()
               for m in _OURS)
