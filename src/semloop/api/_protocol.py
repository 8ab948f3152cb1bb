"""uvicorn's HTTP/1.1 protocol with a deadline on receiving each request.

uvicorn closes a connection that idles between requests (its keep-alive timeout) but puts
no limit on a connection that was opened and never sent a request, or that stopped half
way through one: a client that vanished without closing (a half-open connection), or one
that trickles a byte at a time, holds its socket and memory for ever. Here each request
must arrive whole, head and body, within ``request_timeout_s`` of its first byte (or of
the connection opening); otherwise the connection is closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .._defaults import DEFAULT_REQUEST_TIMEOUT_S

__all__ = ["timed_protocol"]


class _TimedH11(H11Protocol):
    request_timeout_s = DEFAULT_REQUEST_TIMEOUT_S

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: float | None = self.loop.time() + self.request_timeout_s
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)  # cancels the keep-alive timer, parses what came
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            if self._deadline is None:
                self._deadline = self.loop.time() + self.request_timeout_s
            self._arm()
        else:
            self._deadline = None  # the request is in: the app has it now

    def _arm(self) -> None:
        if self._deadline is None or self.transport.is_closing():
            return
        if self.timeout_keep_alive_task is not None:
            self.timeout_keep_alive_task.cancel()
        # uvicorn's own timer slot, so its bookkeeping cancels this one too.
        self.timeout_keep_alive_task = self.loop.call_at(self._deadline, self._expire)

    def _expire(self) -> None:
        # Closing the transport is valid in every h11 state (a ConnectionClosed event is
        # not, mid-request); a request in progress then reads as a client disconnect.
        if not self.transport.is_closing():
            self.transport.close()


def timed_protocol(request_timeout_s: float) -> type[Any]:
    """The protocol class to pass to uvicorn as ``http=``."""
    return type("TimedH11Protocol", (_TimedH11,), {"request_timeout_s": request_timeout_s})
