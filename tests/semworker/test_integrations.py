"""The integrations worker against local servers speaking each provider's API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from semloop._exceptions import ConfigError
from semloop.cli import app
from semloop.events import Event
from semloop.integrations import Integration, integrations_from_dict, load_integrations
from semloop.store import INTEGRATION_DOWN, Store
from semloop.worker import IntegrationsWorker, build_worker

from .providers import PROJECT, SECRETS, ProviderServer, Score

PROVIDERS = ("langfuse", "langsmith", "braintrust")


def traced_run(store: Store, org: str, run_id: str, trace_id: str) -> None:
    store.add_events(org, [
        Event("run.started", run_id, "support", 0, 1.0, {"input_text": "hi"}, trace_id=trace_id),
        Event("run.completed", run_id, "support", 1, 2.0, {}, trace_id=trace_id)])


def integration(org: str, server: ProviderServer, page_size: int = 2) -> Integration:
    entry: dict[str, object] = {"org_id": org, "provider": server.provider,
                                "base_url": server.base_url, "page_size": page_size}
    if server.provider == "langfuse":
        entry.update(public_key=SECRETS["public_key"], secret_key=SECRETS["secret_key"])
    else:
        entry.update(api_key_env="PROVIDER_KEY", project_id=PROJECT)
    return integrations_from_dict({"integrations": [entry]},
                                  environ={"PROVIDER_KEY": SECRETS["api_key"]})[0]


@pytest.fixture(params=PROVIDERS)
def server(request: pytest.FixtureRequest) -> Iterator[ProviderServer]:
    running = ProviderServer(request.param)
    yield running
    running.close()


def external(store: Store, org: str, provider: str) -> list[tuple[str, str, float]]:
    page = store.list_signals(org, limit=100, source="external")
    return sorted((s.signal.run_id, s.signal.failure_type, s.signal.confidence)
                  for s in page.items if s.signal.failure_type != INTEGRATION_DOWN
                  and s.signal.source == provider)


def test_scores_become_findings_on_the_runs_of_their_traces_once(
        store: Store, server: ProviderServer) -> None:
    org = store.create_org("acme")
    for i in range(3):
        traced_run(store, org, f"r{i}", f"t-{i}")
    server.scores = [
        Score("s1", "t-0", "hallucination", 0.9, "2026-12-01T10:00:01Z", "made up a date"),
        Score("s2", "t-1", "hallucination", 0.2, "2026-12-01T10:00:02Z"),
        Score("s3", "t-1", "relevance", 7.0, "2026-12-01T10:00:03Z"),
        Score("s4", "t-9", "hallucination", 0.8, "2026-12-01T10:00:04Z"),  # no such trace
        Score("s5", "t-2", "toxicity", 0.75, "2026-12-01T10:00:05Z"),
    ]
    worker = IntegrationsWorker(store, [integration(org, server)])
    assert worker.drain() == 4
    kind = server.provider.upper()
    assert external(store, org, server.provider) == [
        ("r0", f"{kind}_HALLUCINATION", 0.9), ("r1", f"{kind}_HALLUCINATION", 0.2),
        ("r1", f"{kind}_RELEVANCE", 0.5),  # not a probability: 0.5
        ("r2", f"{kind}_TOXICITY", 0.75)]
    assert worker.unmatched == 1
    assert len(server.requests) >= 3  # page size 2: more than one page was read
    status = store.integration_status(org, server.provider)
    assert status is not None and status.failing_since is None
    assert status.cursor is not None and "05" in status.cursor  # the newest score's mark

    server.requests.clear()
    assert worker.drain() == 0  # read again from the cursor: nothing new
    server.scores.append(Score("s6", "t-0", "toxicity", 0.95, "2026-12-01T10:00:06Z"))
    assert worker.drain() == 1
    assert ("r0", f"{kind}_TOXICITY", 0.95) in external(store, org, server.provider)
    assert len(external(store, org, server.provider)) == 5


def test_a_provider_down_past_30_minutes_writes_one_signal_then_recovers(
        store: Store, server: ProviderServer) -> None:
    org = store.create_org("acme")
    traced_run(store, org, "r0", "t-0")
    server.scores = [Score("s1", "t-0", "hallucination", 0.9, "2026-12-01T10:00:01Z")]
    now = [1_000_000.0]
    worker = IntegrationsWorker(store, [integration(org, server)], clock=lambda: now[0])
    server.down = True
    for minute in range(0, 61, 5):  # an hour of failed polls
        now[0] = 1_000_000.0 + minute * 60
        assert worker.run_once() == 0
    down = [s for s in store.list_signals(org, limit=50).items
            if s.signal.failure_type == INTEGRATION_DOWN]
    assert len(down) == 1
    assert down[0].signal.shadow and down[0].signal.source == server.provider
    assert down[0].signal.evidence["failing_since"] == 1_000_000.0
    assert "503" in down[0].signal.evidence["last_error"]
    status = store.integration_status(org, server.provider)
    assert status is not None and status.failures == 13 and status.down_signalled

    server.down = False  # recovers: the backlog is read, the outage is over
    now[0] += 60
    assert worker.run_once() == 1
    status = store.integration_status(org, server.provider)
    assert status is not None and status.failing_since is None and not status.down_signalled
    assert len(external(store, org, server.provider)) == 1

    server.down = True  # a short outage writes nothing; a second long one, one more
    for step in (1, 10, 10):  # failing for 20 minutes
        now[0] += step * 60
        worker.run_once()
    assert sum(s.signal.failure_type == INTEGRATION_DOWN
               for s in store.list_signals(org, limit=50).items) == 1
    now[0] += 11 * 60  # 31 minutes
    worker.run_once()
    assert sum(s.signal.failure_type == INTEGRATION_DOWN
               for s in store.list_signals(org, limit=50).items) == 2


def test_an_unreachable_host_and_wrong_credentials_are_failures(store: Store) -> None:
    org = store.create_org("acme")
    gone = ProviderServer("langfuse")
    unreachable = integration(org, gone)
    gone.close()  # nothing listens on its port any more
    worker = IntegrationsWorker(store, [unreachable], down_after_s=0.0)
    assert worker.run_once() == 0
    status = store.integration_status(org, "langfuse")
    assert status is not None and status.failures == 1 and status.down_signalled
    assert "ConnectError" in (status.last_error or "")

    paged = ProviderServer("langsmith")  # more pages than the worker reads in one pull
    paged.scores = [Score(f"f{i}", "t-0", "x", 0.5, f"2026-12-01T10:00:{i:02d}Z")
                    for i in range(7)]
    try:
        capped = IntegrationsWorker(store, [integration(org, paged)], max_pages=3)
        capped.run_once()
        status = store.integration_status(org, "langsmith")
        assert status is not None and status.cursor is None  # the cursor did not move
        assert "more than 3 pages" in (status.last_error or "")
    finally:
        paged.close()

    server = ProviderServer("braintrust")
    try:
        entry = {"org_id": org, "provider": "braintrust", "base_url": server.base_url,
                 "api_key": "wrong", "project_id": PROJECT, "name": "bt"}
        wrong = integrations_from_dict({"integrations": [entry]})[0]
        IntegrationsWorker(store, [wrong]).run_once()
        failed = store.integration_status(org, "bt")
        assert failed is not None and "401" in (failed.last_error or "")
    finally:
        server.close()


@pytest.mark.parametrize(("entry", "key", "message"), [
    ({"provider": "braintrust", "api_key": "k"}, "integrations[0].project_id", "required"),
    ({"provider": "phoenix"}, "integrations[0].provider", "must be one of"),
    ({"provider": "langfuse", "public_key": "p", "secret_key": "s", "colour": "red"},
     "integrations[0].colour", "unknown key"),
    ({"provider": "langsmith", "api_key_env": "NOT_SET_ANYWHERE"},
     "integrations[0].api_key_env", "not set"),
    ({"provider": "langsmith", "api_key": "k", "page_size": 500},
     "integrations[0].page_size", "1 to 100"),
    ({"provider": "langsmith", "api_key": "k", "base_url": "ftp://x"},
     "integrations[0].base_url", "http"),
])
def test_a_bad_config_names_its_key(entry: dict[str, object], key: str, message: str) -> None:
    full = {"org_id": "org-1", "base_url": "https://example.invalid", **entry}
    with pytest.raises(ConfigError) as raised:
        integrations_from_dict({"integrations": [full]}, source="integrations.yml",
                               environ={})
    assert raised.value.key == key and message in raised.value.message
    assert str(raised.value).startswith("integrations.yml")


def test_semloop_worker_integrations_once(store: Store, db_url: str, tmp_path: Path) -> None:
    org = store.create_org("acme")
    traced_run(store, org, "r0", "t-0")
    with_scores = ProviderServer("langsmith")
    with_scores.scores = [Score("f1", "t-0", "correctness", 0.1, "2026-12-01T10:00:01Z")]
    try:
        path = tmp_path / "integrations.yml"
        path.write_text(f"integrations:\n  - org_id: {org}\n    provider: langsmith\n"
                        f"    base_url: {with_scores.base_url}\n    api_key: {SECRETS['api_key']}\n",
                        encoding="utf-8")
        result = CliRunner().invoke(app, ["worker", "integrations", "--database-url", db_url,
                                          "--config", str(path), "--once"])
    finally:
        with_scores.close()
    assert result.exit_code == 0, result.output
    assert "1 signals" in result.output
    assert external(store, org, "langsmith") == [("r0", "LANGSMITH_CORRECTNESS", 0.1)]


def test_the_cli_worker_reads_its_yaml(store: Store, tmp_path: Path) -> None:
    org = store.create_org("acme")
    path = tmp_path / "integrations.yml"
    path.write_text(f"integrations:\n  - org_id: {org}\n    provider: langsmith\n"
                    "    base_url: http://127.0.0.1:9\n    api_key: k\n", encoding="utf-8")
    assert [i.provider for i in load_integrations(path)] == ["langsmith"]
    built = build_worker("integrations", store, integrations_config=str(path))
    assert isinstance(built, IntegrationsWorker) and built.poll_interval == 60.0
    with pytest.raises(ConfigError, match="integrations.yml"):
        build_worker("integrations", store)
