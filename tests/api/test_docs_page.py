"""``/docs`` works offline: Swagger UI's page loads only files this server serves."""

from __future__ import annotations

import re

from .conftest import Server


def test_the_docs_page_loads_nothing_from_another_host(server: Server) -> None:
    with server.client(key=None) as http:
        page = http.get("/docs")
        assert page.status_code == 200
        assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
        assert assets and all(a.startswith("/") for a in assets), assets
        assert "url: '/openapi.json'" in page.text
        assert '"validatorUrl": null' in page.text  # no trip to an online validator
        for asset in assets:
            reply = http.get(asset)
            assert reply.status_code == 200 and reply.content, asset
        assert http.get("/redoc").status_code == 404  # its page would load from a CDN
