"""Fixtures for the alerts tests (the store is the shared fixture): real HTTP receivers
on 127.0.0.1 that record what they get, and a helper that writes runs with signals."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from semloop.events import Event, Signal
from semloop.store import Store


@dataclass
class Receiver:
    """A webhook receiver: answers each POST with the next scripted status (then 200)."""

    url: str
    statuses: list[int] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def bodies(self) -> list[Any]:
        return [r["json"] for r in self.requests]

    @property
    def accepted(self) -> list[Any]:
        return [r["json"] for r in self.requests if 200 <= r["status"] < 300]


@pytest.fixture
def receiver_factory() -> Iterator[Callable[..., Receiver]]:
    servers: list[ThreadingHTTPServer] = []

    def make(statuses: Sequence[int] = (), *, retry_after: str | None = None) -> Receiver:
        receiver = Receiver(url="")

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.requests.append({
                        "path": self.path, "status": status,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "json": json.loads(body),
                    })
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "/moved")
                if retry_after is not None and status == 429:
                    self.send_header("Retry-After", retry_after)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                         daemon=True).start()
        servers.append(server)
        receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        receiver.statuses = list(statuses)
        return receiver

    yield make
    for server in servers:
        server.shutdown()
        server.server_close()


@dataclass
class Runs:
    """Writes finished runs of one agent, one second apart, with the signals asked for."""

    store: Store
    org_id: str
    agent_id: str = "support-bot"
    clock: float = 1_700_000_000.0

    def add(self, run_id: str, *failure_types: str, source: str = "structural",
            confidence: float = 0.8, shadow: bool = False, severity: str = "HIGH",
            agent_id: str | None = None) -> str:
        agent = agent_id or self.agent_id
        self.clock += 1.0
        self.store.add_events(self.org_id, [
            Event("run.started", run_id, agent, 0, self.clock - 0.5, {"input": "hi"},
                  agent_version="v1"),
            Event("run.completed", run_id, agent, 1, self.clock, {"exit_reason": "done"},
                  agent_version="v1"),
        ])
        self.store.add_signals(self.org_id, [
            Signal(failure_type=ft, run_id=run_id, severity=severity, confidence=confidence,
                   evidence={"steps": [1], "count": 3}, step_index=1, source=source,
                   shadow=shadow, agent_id=agent, agent_version="v1")
            for ft in failure_types
        ])
        return run_id


@pytest.fixture
def runs(store: Store) -> Runs:
    return Runs(store, store.create_org("acme"))
