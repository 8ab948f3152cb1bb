"""The SDK over HTTP into the real ingest API (uvicorn on 127.0.0.1, SQLite store)."""

from __future__ import annotations

import json
import logging
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from semloop.api import create_app
from semloop.api.testing import serve
from semloop.sdk import Client
from semloop.settings import Settings
from semloop.store import Store


class Ingest:
    def __init__(self, url: str, store: Store, org_id: str, key: str) -> None:
        self.url, self.store, self.org_id, self.key = url, store, org_id, key

    def get_run(self, run_id: str) -> dict[str, Any]:
        request = urllib.request.Request(f"{self.url}/v1/runs/{run_id}",
                                         headers={"Authorization": f"Bearer {self.key}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())  # type: ignore[no-any-return]


@pytest.fixture
def ingest_api(tmp_path: Path) -> Iterator[Ingest]:
    store = Store(f"sqlite:///{tmp_path / 'semloop.db'}")
    org_id = store.create_org("acme")
    key = store.create_api_key(org_id)
    try:
        with serve(create_app(store, Settings(database_url=store.url))) as url:
            yield Ingest(url, store, org_id, key)
    finally:
        store.close()


def _sdk_log(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(r.getMessage() for r in caplog.records if r.name == "semloop.sdk")


def test_a_run_sent_through_the_sdk_arrives_complete_in_the_ingest_api(
    ingest_api: Ingest, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="semloop.sdk")
    client = Client(ingest_api.url, ingest_api.key, batch_size=3)
    with client.run("support-bot", user_input="where is order 42?", model="m",
                    tools=["lookup"], conversation_id="conv-9") as run:
        run.llm_called("m", 20, prompt="where is order 42?")
        run.llm_responded(completion_tokens=4, output="calling lookup")
        run.tool_called("lookup", {"order": 42})
        run.tool_responded("lookup", output="shipped")
        run.external_signal("cache_miss", source="redis")
        run.final_answer()
    assert client.flush(10)
    client.shutdown()
    stats = client.stats
    assert (stats.sent, stats.send_failures) == (7, 0), _sdk_log(caplog)

    body = ingest_api.get_run(run.run_id)
    assert body["run_id"] == run.run_id and body["agent_id"] == "support-bot"
    assert body["conversation_id"] == "conv-9" and body["status"] == "completed"
    assert [(e["event_type"], e["step_index"]) for e in body["events"]] == [
        ("run.started", 0), ("llm.called", 1), ("llm.responded", 1), ("tool.called", 2),
        ("tool.responded", 2), ("external.signal", 2), ("run.completed", 2)]
    assert body["events"][-1]["payload"]["exit_reason"] == "final_answer"


def test_a_wrong_key_is_a_counted_failure_not_an_exception_nor_a_retry_storm(
    ingest_api: Ingest, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="semloop.sdk")
    client = Client(ingest_api.url, "sl_wrong", retry_backoff=0.01)
    with client.run("bot") as run:
        run.tool_called("t")
    assert client.flush(10)
    client.shutdown()
    stats = client.stats
    assert (stats.sent, stats.send_failures, stats.retries) == (0, 3, 0), _sdk_log(caplog)
    assert "HTTP 401" in _sdk_log(caplog)
