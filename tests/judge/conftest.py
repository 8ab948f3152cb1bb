"""Fixtures: a System One server and chat-completions servers, each on its own port."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .servers import ChatServer, ScriptedChatServer, SystemOneServer


@pytest.fixture()
def jev_server() -> Iterator[SystemOneServer]:
    with SystemOneServer() as server:
        yield server


@pytest.fixture()
def chat_server() -> Iterator[ChatServer]:
    with ChatServer() as server:
        yield server


@pytest.fixture()
def server() -> Iterator[ScriptedChatServer]:
    """A chat server whose model says what the test scripted (``server.say(...)``)."""
    with ScriptedChatServer() as scripted:
        yield scripted


@pytest.fixture(autouse=True)
def _no_judge_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # The developer's own keys and hosts must not leak into these tests.
    for name in ("TYPESAFE_API_KEY", "TYPESAFE_BASE_URL", "TYPESAFE_DEFAULT_MODEL",
                 "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
