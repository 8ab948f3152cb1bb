"""A real ingest-shaped HTTP server on 127.0.0.1 that records every batch it is sent."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


class Recorder:
    """What the server saw. ``statuses`` scripts the answers (then 202 for ever);
    ``status_for`` (body → status or None) can decide per request instead."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.statuses: list[int] = []
        self.status_for: Callable[[dict[str, Any]], int | None] | None = None
        self.lock = threading.Lock()
        self.url = ""
        self.reply = b'{"accepted": true}'

    def answer(self, body: dict[str, Any]) -> int:
        with self.lock:
            if self.status_for is not None:
                status = self.status_for(body)
                if status is not None:
                    return status
            return self.statuses.pop(0) if self.statuses else 202

    @property
    def accepted_events(self) -> list[dict[str, Any]]:
        """Events of the requests answered 2xx, in arrival order."""
        return [e for r in self.requests if 200 <= r["status"] < 300 for e in r["body"]["events"]]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers["Content-Length"]))
        body = json.loads(raw)
        recorder = self.server.recorder
        status = recorder.answer(body)
        with recorder.lock:
            recorder.requests.append({"path": self.path, "headers": dict(self.headers),
                                      "body": body, "status": status})
        reply = recorder.reply
        self.send_response(status)
        if status in (429, 503):
            self.send_header("Retry-After", "0")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    recorder: Recorder


@pytest.fixture
def ingest() -> Iterator[Recorder]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.recorder = Recorder()
    server.recorder.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.recorder
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
