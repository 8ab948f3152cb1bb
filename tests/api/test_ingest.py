"""``POST /v1/ingest`` over real HTTP: de-duplication, partial batches, limits, errors, auth."""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Iterator
from typing import Any

from semloop.events import Signal
from semloop.settings import Settings

from .conftest import Server

T0 = time.time()


def event(run_id: str, step: int, event_type: str = "llm.called", **extra: Any) -> dict[str, Any]:
    return {"event_type": event_type, "run_id": run_id, "agent_id": "agent-a",
            "agent_version": "v1", "step_index": step, "timestamp": T0 + step,
            "payload": {"model": "m"}, "event_id": f"{run_id}-{step}-{event_type}", **extra}


def a_run(run_id: str) -> list[dict[str, Any]]:
    return [event(run_id, 0, "run.started"), event(run_id, 1), event(run_id, 1, "llm.responded"),
            event(run_id, 1, "run.completed")]


def test_a_replayed_batch_adds_nothing(server: Server) -> None:
    batch = {"events": a_run("r1")}
    with server.client() as http:
        first = http.post("/v1/ingest", json=batch)
        again = http.post("/v1/ingest", json=batch)
    assert first.status_code == 202
    assert first.json() == {"accepted": 4, "stored": 4, "duplicates": 0, "rejected": []}
    assert again.status_code == 202
    assert again.json() == {"accepted": 4, "stored": 0, "duplicates": 4, "rejected": []}
    assert server.store.count_events(server.org_id) == 4


def test_invalid_events_are_reported_by_index_and_the_valid_ones_kept(server: Server) -> None:
    events: list[Any] = a_run("r1")
    events.insert(1, {**event("r1", 5), "event_type": "llm.exploded"})
    events.insert(3, {**event("r1", 6), "timestamp": "yesterday"})
    events.append("not an object")
    events.append({**event("r1", 7), "run_id": "x" * 1000})  # does not fit the schema
    with server.client() as http:
        reply = http.post("/v1/ingest", json={"events": events})
        run = http.get("/v1/runs/r1").json()
    assert reply.status_code == 202
    body = reply.json()
    assert body["accepted"] == 4 and body["stored"] == 4
    assert [(r["index"], r["field"]) for r in body["rejected"]] == [
        (1, "event_type"), (3, "timestamp"), (6, None), (7, "run_id")]
    assert "llm.exploded" in body["rejected"][0]["reason"]
    assert "JSON object" in body["rejected"][2]["reason"]
    assert [e["event_id"] for e in run["events"]] == [e["event_id"] for e in a_run("r1")]


def test_a_batch_with_only_invalid_events_is_422(read_only_server: Server) -> None:
    with read_only_server.client() as http:
        reply = http.post("/v1/ingest", json={"events": [{"event_type": "run.started"}]})
    assert reply.status_code == 422
    assert reply.json()["rejected"][0]["field"] == "timestamp"
    assert reply.json()["stored"] == 0


def test_an_empty_batch_is_fine(read_only_server: Server) -> None:
    with read_only_server.client() as http:
        reply = http.post("/v1/ingest", json={"events": []})
    assert reply.status_code == 202
    assert reply.json() == {"accepted": 0, "stored": 0, "duplicates": 0, "rejected": []}


def test_bodies_over_the_limit_are_413_declared_or_streamed_or_gzipped(server: Server) -> None:
    server.limit_body(2_000)
    big = json.dumps({"events": [event("r1", i) for i in range(100)]}).encode()

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit must hold mid-stream
        for start in range(0, len(big), 500):
            yield big[start:start + 500]

    bomb = gzip.compress(b'{"events": [' + b" " * 1_000_000 + b"]}")
    assert len(bomb) < 2_000
    with server.client() as http:
        declared = http.post("/v1/ingest", content=big,
                             headers={"Content-Type": "application/json"})
        streamed = http.post("/v1/ingest", content=chunks())
        inflated = http.post("/v1/ingest", content=bomb, headers={"Content-Encoding": "gzip"})
        small = http.post("/v1/ingest", content=gzip.compress(json.dumps(
            {"events": a_run("r2")}).encode()), headers={"Content-Encoding": "gzip"})
    for reply in (declared, streamed, inflated):
        assert reply.status_code == 413, reply.text
        assert "2000-byte limit" in reply.json()["detail"]
    assert small.status_code == 202 and small.json()["stored"] == 4
    assert server.store.count_events(server.org_id) == 4


def test_malformed_bodies_are_400_with_a_clear_message(read_only_server: Server) -> None:
    with read_only_server.client() as http:
        broken = http.post("/v1/ingest", content=b'{"events": [}')
        not_object = http.post("/v1/ingest", json=[1, 2])
        no_events = http.post("/v1/ingest", json={"events": {"a": 1}})
        not_utf8 = http.post("/v1/ingest", content=b'{"events": ["\xff"]}')
        bad_gzip = http.post("/v1/ingest", content=b"nope", headers={"Content-Encoding": "gzip"})
        brotli = http.post("/v1/ingest", content=b"{}", headers={"Content-Encoding": "br"})
    assert broken.status_code == 400
    assert broken.json()["detail"].startswith("request body is not valid JSON: ")
    assert "line 1 column" in broken.json()["detail"]
    assert not_object.status_code == 400 and "JSON object" in not_object.json()["detail"]
    assert no_events.status_code == 400 and '"events"' in no_events.json()["detail"]
    assert not_utf8.status_code == 400 and "UTF-8" in not_utf8.json()["detail"]
    assert bad_gzip.status_code == 400 and "gzip" in bad_gzip.json()["detail"]
    assert brotli.status_code == 415


def test_keys_by_header_or_envelope_and_401_otherwise(server: Server) -> None:
    batch = {"events": a_run("r1")}
    with server.client(key=None) as anonymous:
        missing = anonymous.post("/v1/ingest", json=batch)
        in_envelope = anonymous.post("/v1/ingest", json={**batch, "api_key": server.key})
        wrong_envelope = anonymous.post("/v1/ingest", json={**batch, "api_key": "sl_nope"})
        read_anonymous = anonymous.get("/v1/runs/r1")
    with server.client(key="sl_000000000000_wrong") as wrong:
        # A wrong header key is not rescued by a right envelope key.
        wrong_header = wrong.post("/v1/ingest", json={**batch, "api_key": server.key})
        read_wrong = wrong.get("/v1/runs/r1")
    assert in_envelope.status_code == 202 and in_envelope.json()["stored"] == 4
    for reply in (missing, wrong_envelope, wrong_header, read_anonymous, read_wrong):
        assert reply.status_code == 401
        assert reply.headers["WWW-Authenticate"] == "Bearer"
        assert "API key" in reply.json()["detail"]


def test_runs_are_served_per_org_with_their_signals(server: Server) -> None:
    other_org = server.store.create_org("globex")
    other_key = server.store.create_api_key(other_org)
    with server.client() as http:
        http.post("/v1/ingest", json={"events": a_run("r1")})
    server.store.add_signals(server.org_id, [
        Signal("TOOL_LOOP", "r1", "HIGH", 0.75, {"steps": [1]}, agent_id="agent-a")])
    with server.client() as http:
        run = http.get("/v1/runs/r1")
        missing = http.get("/v1/runs/nope")
    with server.client(key=other_key) as other:
        hidden = other.get("/v1/runs/r1")
    assert run.status_code == 200
    body = run.json()
    assert body["run_id"] == "r1" and body["agent_id"] == "agent-a"
    assert body["status"] == "completed"
    assert [s["failure_type"] for s in body["signals"]] == ["TOOL_LOOP"]
    assert body["signals"][0]["evidence"] == {"steps": [1]}
    assert missing.status_code == 404 and "nope" in missing.json()["detail"]
    assert hidden.status_code == 404


def test_health_openapi_and_the_sdk_policy_fetch(read_only_server: Server) -> None:
    with read_only_server.client(key=None) as anonymous:
        health = anonymous.get("/health")
        schema = anonymous.get("/openapi.json").json()
    with read_only_server.client() as http:
        policies = http.get("/v1/policies", params={"agent_id": "agent-a"})
    assert health.json() == {"status": "ok", "database": read_only_server.store.dialect.value}
    assert {"/health", "/v1/ingest", "/v1/traces", "/v1/runs/{run_id}"} <= set(schema["paths"])
    assert schema["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    ingest = schema["paths"]["/v1/ingest"]["post"]
    assert "events" in ingest["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert {"202", "400", "401", "413"} <= set(ingest["responses"])
    assert policies.json() == {"policies": []}


def test_a_nul_in_an_id_is_rejected_by_index_and_the_rest_kept(server: Server) -> None:
    events: list[Any] = a_run("r1")
    events.append({**event("a\x00b", 0, "run.started"), "event_id": "nul-run"})
    events.append({**event("r1", 8), "conversation_id": "c\x00"})
    with server.client() as http:
        reply = http.post("/v1/ingest", json={"events": events})
    assert reply.status_code == 202
    body = reply.json()
    assert body["stored"] == 4
    assert [(r["index"], r["field"]) for r in body["rejected"]] == [(4, "run_id"),
                                                                   (5, "conversation_id")]
    assert "NUL" in body["rejected"][0]["reason"]


def test_a_nul_in_a_run_id_path_is_404_not_a_retryable_503(server: Server) -> None:
    with server.client() as http:
        http.post("/v1/ingest", json={"events": a_run("a")})
        reply = http.get("/v1/runs/a%00b")
        assert reply.status_code == 404, reply.text
        assert "NUL" in reply.json()["detail"]
        assert http.get("/v1/runs/a").status_code == 200  # the same route still answers


def test_out_of_range_numbers_are_rejected_by_field_and_the_rest_kept(server: Server) -> None:
    huge = "1" + "0" * 399  # a 400-digit integer: float() and math.isfinite overflow on it
    good = a_run("r1")
    bad = [
        {**event("r2", 1), "timestamp": "@"},
        {**event("r2", 2), "timestamp": 1e308},
        {**event("r2", 3), "timestamp": T0 + 86_400},  # a day ahead: past the allowed skew
        {**event("r2", 4), "payload": {"prompt_tokens": 1.7e308}},
        {**event("r2", 5, "llm.responded"), "payload": {"completion_tokens": "@"}},
        {**event("r2", 6, "run.completed"), "payload": {"total_steps": -1}},
    ]
    body = json.dumps({"events": [*good, *bad]}).replace('"@"', huge)
    with server.client() as http:
        reply = http.post("/v1/ingest", content=body,
                          headers={"Content-Type": "application/json"})
    assert reply.status_code == 202
    result = reply.json()
    assert result["stored"] == 4
    assert [(r["index"], r["field"]) for r in result["rejected"]] == [
        (4, "timestamp"), (5, "timestamp"), (6, "timestamp"), (7, "payload.prompt_tokens"),
        (8, "payload.completion_tokens"), (9, "payload.total_steps")]
    assert "max_future_skew_s" in result["rejected"][2]["reason"]


def test_the_future_skew_is_a_setting(server: Server) -> None:
    server.app.state.settings = Settings(database_url=server.store.url,
                                         max_future_skew_s=2 * 86_400)
    with server.client() as http:
        reply = http.post("/v1/ingest", json={"events": [
            {**event("r1", 1), "timestamp": T0 + 86_400}]})
    assert reply.status_code == 202 and reply.json()["stored"] == 1
