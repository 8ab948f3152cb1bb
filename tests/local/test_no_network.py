"""The local judge never touches the network: load and judge with every socket blocked."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from semloop.judge.local import LocalBackend
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Trace

from .conftest import SEED_DATASET, read_rows


def test_loads_and_judges_with_sockets_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network blocked by test_no_network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)

    backend = LocalBackend()  # a fresh load, inside the block
    rows = {row["family"]: row for row in read_rows(SEED_DATASET)}
    loop = SemanticLoopDetection(backend).measure(Trace.from_dict(rows["paraphrased_loop"]))
    healthy = SemanticLoopDetection(backend).measure(Trace.from_dict(rows["template_progress"]))

    assert attempts == []
    assert loop.flags_loop(0.5)
    assert not healthy.flags_loop(0.5)
    assert loop.cost_usd == 0.0
