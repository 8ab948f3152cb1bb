"""A connection that never finishes its request is closed; a prompt one is served.

Half-open connections (the peer vanished without closing) and trickling clients would
otherwise hold a socket for ever: uvicorn only times out idle keep-alive connections.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from semloop.api import create_app
from semloop.api.testing import serve
from semloop.settings import Settings
from semloop.store import Store

TIMEOUT = 0.5


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    store = Store(f"sqlite:///{tmp_path}/t.db")
    with serve(create_app(store, Settings(database_url=store.url)),
               request_timeout_s=TIMEOUT) as url:
        yield url.rsplit(":", 1)[1]
    store.close()


def _closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closed ``sock`` (it sent EOF), failing after ``seconds``."""
    start = time.monotonic()
    sock.settimeout(seconds)
    while True:
        data = sock.recv(4096)
        if not data:
            return time.monotonic() - start


HALF_SENT_BODY = (b"POST /v1/ingest HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"
                  b'{"events": [')


@pytest.mark.parametrize("sent", [b"", b"GET /health HTTP/1.1\r\nHost: x\r\n", HALF_SENT_BODY],
                         ids=["nothing", "half a head", "half a body"])
def test_an_unfinished_request_is_cut_off(base: str, sent: bytes) -> None:
    with socket.create_connection(("127.0.0.1", int(base))) as sock:
        sock.sendall(sent)
        assert _closed_within(sock, TIMEOUT * 10) < TIMEOUT * 6


def test_a_trickle_does_not_keep_the_connection(base: str) -> None:
    with socket.create_connection(("127.0.0.1", int(base))) as sock:
        start = time.monotonic()
        with pytest.raises(OSError):
            for byte in b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
                sock.sendall(bytes([byte]))
                time.sleep(TIMEOUT / 5)
            raise AssertionError("the server read a trickling request to its end")
        assert time.monotonic() - start < TIMEOUT * 6


def test_a_prompt_request_is_served_and_kept_alive(base: str) -> None:
    with socket.create_connection(("127.0.0.1", int(base))) as sock:
        for _ in range(2):  # the deadline starts again with each request
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(TIMEOUT * 0.6)
            sock.settimeout(5)
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
