"""Helpers for tests that talk to the real app over HTTP on 127.0.0.1.

    with serve(create_app(store)) as url:
        httpx.get(f"{url}/health")

The app runs under uvicorn in a thread on a free port, and stops when the block ends.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import uvicorn
from fastapi import FastAPI

from .._defaults import DEFAULT_REQUEST_TIMEOUT_S
from ._protocol import timed_protocol

__all__ = ["free_port", "serve"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serve(app: FastAPI, *, start_timeout: float = 10.0,
          request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S) -> Iterator[str]:
    """Serve ``app`` on a free port for the duration of the block, with the protocol
    ``semloop up`` uses; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off",
                                           http=timed_protocol(request_timeout_s)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
