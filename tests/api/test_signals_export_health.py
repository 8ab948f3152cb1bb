"""The API under the dashboard, on SQLite and PostgreSQL: ``source`` and ``include_shadow``
on the signals, the streamed CSV and NDJSON export, and ``GET /v1/agents/{id}/health``."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import time
from collections.abc import Iterator

import httpx
import pytest

from semloop.detect.baseline import MIN_RUNS, WINDOW, Baseline
from semloop.events import Event, Signal
from semloop.store import Store

from .conftest import Server


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


@pytest.fixture(scope="module")
def read_only_http(read_only_server: Server) -> Iterator[httpx.Client]:
    with read_only_server.client() as client:
        yield client


def _run(store: Store, org: str, run_id: str, start: float, *, agent: str = "support",
         version: str = "v1", end: str = "run.completed", tools: int = 2) -> None:
    events = [Event("run.started", run_id, agent, 0, start, {}, agent_version=version)]
    events += [Event("tool.responded", run_id, agent, 1 + i, start + 1 + i,
                     {"tool_name": "t", "latency_ms": 100.0 * (i + 1)}, agent_version=version)
               for i in range(tools)]
    events.append(Event(end, run_id, agent, 1 + tools, start + 1 + tools, {},
                        agent_version=version))
    store.add_events(org, events)


def _signal(failure_type: str, run_id: str, *, source: str = "structural",
            shadow: bool = False, agent: str = "support") -> Signal:
    return Signal(failure_type, run_id, "high", 0.9, {"steps": [1], "note": 'a "quoted", text'},
                  source=source, shadow=shadow, agent_id=agent, agent_version="v1")


def _types(http: httpx.Client, **params: object) -> list[str]:
    reply = http.get("/v1/signals", params=params)
    assert reply.status_code == 200, reply.text
    return sorted(s["failure_type"] for s in reply.json()["signals"])


def test_signals_filter_by_source_and_hide_shadow_unless_asked(server: Server,
                                                               http: httpx.Client) -> None:
    server.store.add_signals(server.org_id, [
        _signal("TOOL_LOOP", "r1"), _signal("SEMANTIC_LOOP", "r1", source="semantic"),
        _signal("HALLUCINATION", "r2", source="langfuse"),
        _signal("COST_SPIKE", "r2", shadow=True)])
    assert _types(http) == ["HALLUCINATION", "SEMANTIC_LOOP", "TOOL_LOOP"]
    assert _types(http, include_shadow="true") == [
        "COST_SPIKE", "HALLUCINATION", "SEMANTIC_LOOP", "TOOL_LOOP"]
    assert _types(http, source="structural") == ["TOOL_LOOP"]
    assert _types(http, source="structural", include_shadow="true") == ["COST_SPIKE", "TOOL_LOOP"]
    assert _types(http, source="semantic") == ["SEMANTIC_LOOP"]
    assert _types(http, source="external") == ["HALLUCINATION"]


def test_runs_filter_by_the_source_of_their_signals(server: Server, http: httpx.Client) -> None:
    now = time.time()
    for i, run_id in enumerate(("r1", "r2", "r3")):
        _run(server.store, server.org_id, run_id, now - 100 + i)
    server.store.add_signals(server.org_id, [
        _signal("TOOL_LOOP", "r1"), _signal("SEMANTIC_LOOP", "r2", source="semantic")])
    reply = http.get("/v1/runs", params={"source": "semantic"})
    assert [r["run_id"] for r in reply.json()["runs"]] == ["r2"]
    reply = http.get("/v1/runs", params={"source": "structural"})
    assert [r["run_id"] for r in reply.json()["runs"]] == ["r1"]


@pytest.mark.parametrize(("path", "params", "field"), [
    ("/v1/signals", {"source": "llm"}, "source"),
    ("/v1/signals", {"include_shadow": "maybe"}, "include_shadow"),
    ("/v1/runs", {"source": "llm"}, "source"),
    ("/v1/signals/export", {"format": "xml"}, "format"),
    ("/v1/signals/export", {"since": "yesterday"}, "since"),
    ("/v1/agents/support/health", {"since": "soon"}, "since"),
])
def test_a_bad_parameter_is_named(read_only_http: httpx.Client, path: str,
                                  params: dict[str, str], field: str) -> None:
    reply = read_only_http.get(path, params=params)
    assert reply.status_code == 422, reply.text
    assert reply.json()["detail"].startswith(f"query.{field}:"), reply.text


def test_export_streams_every_matching_signal_as_ndjson_and_csv(
        server: Server, http: httpx.Client) -> None:
    # More than one export page (500), so the stream walks the keyset cursor.
    server.store.add_signals(server.org_id, [_signal("TOOL_LOOP", f"r{i}") for i in range(1203)])
    server.store.add_signals(server.org_id, [_signal("SEMANTIC_LOOP", "r0", source="semantic"),
                                             _signal("COST_SPIKE", "r0", shadow=True)])
    with http.stream("GET", "/v1/signals/export", params={"source": "structural"}) as reply:
        assert reply.status_code == 200
        assert reply.headers["content-type"] == "application/x-ndjson"
        rows = [json.loads(line) for line in reply.iter_lines() if line]
    assert len(rows) == 1203 and {r["failure_type"] for r in rows} == {"TOOL_LOOP"}
    assert len({r["signal_id"] for r in rows}) == 1203
    ids = [r["signal_id"] for r in rows]
    assert ids == sorted(ids, reverse=True)  # newest first, as the listing

    reply = http.get("/v1/signals/export", params={"format": "csv", "include_shadow": "true"})
    assert reply.headers["content-type"].startswith("text/csv")
    assert 'filename="signals.csv"' in reply.headers["content-disposition"]
    table = list(csv.DictReader(io.StringIO(reply.text)))
    assert len(table) == 1205
    assert {r["failure_type"] for r in table} == {"TOOL_LOOP", "SEMANTIC_LOOP", "COST_SPIKE"}
    assert json.loads(table[0]["evidence"]) == {"steps": [1], "note": 'a "quoted", text'}


def test_export_of_nothing_is_a_header_or_empty(http: httpx.Client) -> None:
    assert http.get("/v1/signals/export").text == ""
    assert http.get("/v1/signals/export", params={"format": "csv"}).text.strip() == (
        "signal_id,detected_at,run_id,agent_id,agent_version,failure_type,source,severity,"
        "confidence,step_index,shadow,co_signal_count,evidence")


def test_agent_health_reads_failure_rate_types_and_the_detectors_baseline(
        server: Server, http: httpx.Client) -> None:
    now = time.time()
    for i in range(MIN_RUNS + 2):
        _run(server.store, server.org_id, f"ok{i}", now - 3000 + i * 10)
    _run(server.store, server.org_id, "bad", now - 100, end="run.errored")
    _run(server.store, server.org_id, "old", now - 30 * 86_400)  # outside the 7-day window
    _run(server.store, server.org_id, "v2run", now - 50, version="v2")
    server.store.add_signals(server.org_id, [
        _signal("TOOL_LOOP", "bad"), _signal("RETRY_STORM", "bad"), _signal("TOOL_LOOP", "ok0"),
        _signal("COST_SPIKE", "ok1", shadow=True)])
    reply = http.get("/v1/agents/support/health")
    assert reply.status_code == 200, reply.text
    body = reply.json()
    runs = MIN_RUNS + 2 + 1 + 1
    assert (body["runs"], body["flagged_runs"]) == (runs, 2)
    assert body["failure_rate"] == pytest.approx(2 / runs)
    assert body["top_failure_types"][0] == {"failure_type": "TOOL_LOOP", "signals": 2, "runs": 2}
    assert {t["failure_type"] for t in body["top_failure_types"]} == {"TOOL_LOOP", "RETRY_STORM"}
    v2, v1 = body["versions"]  # newest run first
    assert (v2["agent_version"], v2["runs"], v2["baseline"]["ready"]) == ("v2", 1, False)
    base = v1["baseline"]
    assert v1["runs"] == MIN_RUNS + 4  # every run, the old one too
    # The errored run is no part of a baseline, nor ok0 with its live TOOL_LOOP (ok1's
    # shadow COST_SPIKE does not disqualify it): the other completed ones are, up to WINDOW.
    assert base["run_count"] == MIN_RUNS + 2 and base["ready"] is True
    assert (base["window"], base["min_runs"]) == (WINDOW, MIN_RUNS)
    assert base["tool_latency_ms"] == pytest.approx(200.0)  # P75 of as many 100s as 200s
    # The same figures the detector worker draws for a run of this version.
    drawn = Baseline.from_runs(server.store.recent_runs(server.org_id, "support", "v1", WINDOW))
    assert {k: base[k] for k in dataclasses.asdict(drawn)} == dataclasses.asdict(drawn)

    since = http.get("/v1/agents/support/health", params={"since": now - 200}).json()
    assert (since["runs"], since["flagged_runs"]) == (2, 1)


def test_agent_health_of_an_unknown_agent_is_404(server: Server, http: httpx.Client) -> None:
    _run(server.store, server.org_id, "r", time.time())
    reply = http.get("/v1/agents/nobody/health")
    assert reply.status_code == 404
    assert "nobody" in reply.json()["detail"]
