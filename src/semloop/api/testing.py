"""Helpers for tests that talk to the real app over HTTP on 127.0.0.1.

    with serve(create_app(store)) as url:
        httpx.get(f"{url}/health")

The app runs under uvicorn in a thread on a free port, and stops when the block ends.
"""

from __future__ import annotations

import asyncio
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


class _Server(uvicorn.Server):
    """uvicorn's server, woken by ``stop()`` instead of noticing ``should_exit`` on its next
    0.1 s poll, and without the 0.1 s grace for in-flight responses when there are none:
    tests start and stop hundreds of these, and the polling was most of each one's cost."""

    _loop: asyncio.AbstractEventLoop | None = None
    _wake: asyncio.Event | None = None

    async def main_loop(self) -> None:
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            # Ticks stay 0.1 s apart (on_tick refreshes the Date header every tenth one).
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), 0.1)
            should_exit = await self.on_tick(counter)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.server_state.connections or self.server_state.tasks:
            await super().shutdown(sockets)  # let in-flight responses finish, as uvicorn does
            return
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for server in self.servers:
            await server.wait_closed()
        # lifespan="off": no application shutdown to send.

    def stop(self) -> None:
        self.should_exit = True
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop has already closed
                loop.call_soon_threadsafe(wake.set)


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
    server = _Server(uvicorn.Config(app, host="127.0.0.1", port=port,
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
        server.stop()
        thread.join(timeout=10)
