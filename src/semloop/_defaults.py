"""Where the server listens by default, and so where the SDK and alert links point.

One place, because three used to disagree (the SDK sent to :8000 while ``semloop up``
served :8001). 8001 is Dunetrace's ingest port, so its SDK finds semloop unchanged.
"""

from __future__ import annotations

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "DEFAULT_REQUEST_TIMEOUT_S", "DEFAULT_URL"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8001
#: The base URL of a default ``semloop up``: the SDK's endpoint and the alert links' base.
DEFAULT_URL = f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"
#: How long the server waits for a request to arrive whole before closing the connection.
DEFAULT_REQUEST_TIMEOUT_S = 30.0
