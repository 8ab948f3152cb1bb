"""A client whose emitter keeps every event it is sent, for asserting on what a store
would see."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from semloop.events import Event
from semloop.sdk import Client


class RecordingEmitter:
    """Keeps the events, in the order the sender shipped them."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._lock = threading.Lock()

    def send(self, events: Sequence[Event]) -> None:
        with self._lock:
            self.events.extend(events)

    def close(self) -> None:
        pass

    def types(self) -> list[str]:
        return [e.event_type for e in self.events]

    def of_type(self, event_type: str) -> list[Event]:
        return [e for e in self.events if e.event_type == event_type]


class Recorded:
    def __init__(self, client: Client, emitter: RecordingEmitter) -> None:
        self.client = client
        self.emitter = emitter

    @property
    def events(self) -> list[Event]:
        assert self.client.flush(10), "the sender did not drain in time"
        return self.emitter.events

    def types(self) -> list[str]:
        return [e.event_type for e in self.events]

    def of_type(self, event_type: str) -> list[Event]:
        return [e for e in self.events if e.event_type == event_type]


@pytest.fixture
def recorded() -> Iterator[Callable[..., Recorded]]:
    """``recorded(policies=[...], **client_options)`` → a client and what it sent."""
    made: list[Client] = []

    def make(**options: Any) -> Recorded:
        emitter = RecordingEmitter()
        client = Client(emitter=emitter, flush_interval=0.05, **options)
        made.append(client)
        return Recorded(client, emitter)

    yield make
    for client in made:
        client.shutdown(10)
