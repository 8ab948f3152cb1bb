"""The endpoints the Dunetrace SDK uses besides ingest: remote policies, approvals,
detector config, packs and deploys, over HTTP on both databases, org-scoped."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from dunetrace.detector_config import build_detectors
from dunetrace.detectors import ToolLoopDetector
from dunetrace.policies import _verify_policy_signature

from semloop.api import create_app
from semloop.api._detector_config import SDK_KEYS
from semloop.api._policy_rules import PolicyError, check_policy
from semloop.api.testing import serve
from semloop.settings import Settings
from semloop.store import Store

from .conftest import Server

SECRET = "test-signing-secret"
STOP = {"name": "stop after 3 tools", "agent_id": "bot",
        "condition": {"trigger": "tool_call_count", "operator": "gt", "value": 3},
        "action": {"type": "stop"}}
DETECTORS_YML = """
default:
  TOOL_LOOP: {threshold: 4, window: 6, max_cycle: 2}
  COST_SPIKE: {static_tokens: 90000}
agents:
  bot:
    SLOW_STEP: {enabled: false}
"""


@contextlib.contextmanager
def _serve_sdk(store: Store, folder: Path) -> Iterator[Server]:
    config = folder / "detectors.yml"
    config.write_text(DETECTORS_YML)
    org_id = store.create_org("acme")
    key = store.create_api_key(org_id)
    app = create_app(store, Settings(database_url=store.url, policy_signing_secret=SECRET,
                                     detectors_config=str(config)))
    with serve(app) as url:
        yield Server(url, app, store, org_id, key)


@pytest.fixture
def sdk_server(store: Store, tmp_path: Path) -> Iterator[Server]:
    with _serve_sdk(store, tmp_path) as served:
        yield served


@pytest.fixture(scope="module")
def read_only_sdk_server(module_store: Store,
                         tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One per module and database, for the tests whose requests store nothing (a refused
    policy, the detector config and the schema read): they then find the org as new."""
    with _serve_sdk(module_store, tmp_path_factory.mktemp("sdk")) as served:
        yield served


@pytest.fixture
def other(sdk_server: Server) -> Iterator[httpx.Client]:
    """A client of another organization."""
    key = sdk_server.store.create_api_key(sdk_server.store.create_org("other"))
    with sdk_server.client(key) as http:
        yield http


def test_policy_crud_signed_in_the_sdks_format(sdk_server: Server) -> None:
    with sdk_server.client() as http:
        created = http.post("/v1/policies", json=STOP)
        assert created.status_code == 201
        policy = created.json()
        everyone = http.post("/v1/policies", json={**STOP, "name": "log", "agent_id": "*",
                                                   "action": {"type": "log"}}).json()
        http.post("/v1/policies", json={**STOP, "agent_id": "someone-else"})

        served = http.get("/v1/policies", params={"agent_id": "bot"}).json()["policies"]
        assert [p["id"] for p in served] == [policy["id"], everyone["id"]]
        assert all(_verify_policy_signature(p, SECRET) for p in served)
        assert not _verify_policy_signature(served[0], "another secret")
        assert len(http.get("/v1/policies").json()["policies"]) == 3

        replaced = http.put(f"/v1/policies/{policy['id']}", json={**STOP, "priority": 5}).json()
        assert replaced["priority"] == 5 and replaced["signature"] != policy["signature"]
        toggled = http.patch(f"/v1/policies/{policy['id']}/toggle").json()
        assert toggled["enabled"] is False and _verify_policy_signature(toggled, SECRET)
        assert http.get(f"/v1/policies/{policy['id']}").json()["enabled"] is False
        assert http.delete(f"/v1/policies/{policy['id']}").status_code == 204
        assert http.get(f"/v1/policies/{policy['id']}").status_code == 404
        assert http.delete(f"/v1/policies/{policy['id']}").status_code == 404


def test_another_orgs_policies_approvals_and_deploys_are_not_found(
        sdk_server: Server, other: httpx.Client) -> None:
    with sdk_server.client() as http:
        policy = http.post("/v1/policies", json=STOP).json()
        approval = http.post("/v1/approvals", json={
            "run_id": "r1", "agent_id": "bot", "tool_name": "wire", "timeout_seconds": 60}).json()
        http.post("/v1/deploy", json={"agent_id": "bot", "version": "1.0"})
    pid, aid = policy["id"], approval["id"]
    assert other.get(f"/v1/policies/{pid}").status_code == 404
    assert other.put(f"/v1/policies/{pid}", json=STOP).status_code == 404
    assert other.patch(f"/v1/policies/{pid}/toggle").status_code == 404
    assert other.delete(f"/v1/policies/{pid}").status_code == 404
    assert other.get("/v1/policies", params={"agent_id": "bot"}).json() == {"policies": []}
    assert other.get(f"/v1/approvals/{aid}").status_code == 404
    assert other.post(f"/v1/approvals/{aid}/decision",
                      json={"decision": "granted"}).status_code == 404
    assert other.get("/v1/approvals").json() == {"approvals": []}
    assert other.get("/v1/agents/bot/deploys").status_code == 404
    with sdk_server.client() as http:  # untouched by the other org's attempts
        assert http.get(f"/v1/policies/{pid}").json()["enabled"] is True
        assert http.get(f"/v1/approvals/{aid}").json()["status"] == "pending"


@pytest.mark.parametrize(("change", "field"), [
    ({"condition": {"trigger": "tool_calls", "operator": "gt", "value": 1}}, "condition.trigger"),
    ({"condition": {"trigger": "step_count", "operator": ">", "value": 1}}, "condition.operator"),
    ({"condition": {"trigger": "signal", "operator": "eq", "value": "TOOL_LOOP"}},
     "condition.operator"),
    ({"condition": {"trigger": "step_count", "operator": "gt"}}, "condition.value"),
    ({"condition": {"trigger": "step_count", "value": 1, "match": {}}}, "condition.match"),
    ({"action": {"type": "halt"}}, "action.type"),
    ({"action": {"type": "require_approval"}}, "action.type"),
    ({"condition": {"trigger": "before_tool_call", "operator": "eq", "value": "x"},
      "action": {"type": "require_approval", "params": {"timeout_s": 0}}},
     "action.params.timeout_s"),
    ({"name": " "}, "name"),
])
def test_a_policy_the_sdk_would_refuse_is_refused_naming_the_field(
        change: dict[str, Any], field: str) -> None:
    with pytest.raises(PolicyError) as caught:
        check_policy({**STOP, **change})
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_an_invalid_policy_is_a_400_naming_the_field(read_only_sdk_server: Server) -> None:
    with read_only_sdk_server.client() as http:
        bad = http.post("/v1/policies", json={**STOP, "condition": {
            "trigger": "step_count", "operator": "approx", "value": 1}})
        assert bad.status_code == 400
        assert bad.json()["detail"].startswith("condition.operator: unknown operator 'approx'")
        assert http.get("/v1/policies").json() == {"policies": []}


MATCHED: dict[str, Any] = {
    "name": "big refunds", "agent_id": "bot", "action": {"type": "stop"},
    "condition": {"trigger": "tool_call_count", "operator": "gte", "value": 1,
                         "match": {"args.amount": {"gt": 1000},
                                   "or": [{"args.currency": {"in": ["EUR"]}},
                                          {"run.step_count": {"gte": 5}}]}}}


def test_a_match_expression_is_stored_and_signed_in_version_2(sdk_server: Server) -> None:
    with sdk_server.client() as http:
        created = http.post("/v1/policies", json=MATCHED)
        assert created.status_code == 201
        policy = created.json()
        assert policy["condition"] == MATCHED["condition"] and policy["sig_version"] == 2
        assert _verify_policy_signature(policy, SECRET)
        # The version is signed too: the same fields cannot pass as a version-1 policy.
        assert not _verify_policy_signature({**policy, "sig_version": 1}, SECRET)
        pure = http.post("/v1/policies", json={**MATCHED, "condition": {
            "trigger": "expression", "match": {"event.type": {"eq": "tool.called"}}}})
        assert pure.status_code == 201 and _verify_policy_signature(pure.json(), SECRET)
        plain = http.post("/v1/policies", json={**STOP, "condition": {
            "trigger": "tool_call_count", "operator": "gt", "value": 3, "match": None}}).json()
        assert "match" not in plain["condition"] and plain["sig_version"] == 1


@pytest.mark.parametrize(("match", "field"), [
    ({"args.amount": {"gt": 1}, "or": [{"args.x": {"approx": 1}}]},
     "condition.match.or[0].args.x.approx"),
    ({"amount": {"gt": 1}}, "condition.match.amount"),
    ({"args.x": {"matches": "(a+)+"}}, "condition.match.args.x.matches"),
    ({"or": [{"and": [{"or": [{"args.x": {"eq": 1}}]}]}]}, "condition.match.or[0].and[0].or[0]"),
])
def test_a_bad_match_expression_is_refused_naming_where(match: Any, field: str) -> None:
    with pytest.raises(PolicyError) as caught:
        check_policy({**MATCHED, "condition": {**MATCHED["condition"], "match": match}})
    assert caught.value.field == field


def test_trigger_expression_needs_its_match() -> None:
    with pytest.raises(PolicyError) as caught:
        check_policy({**STOP, "condition": {"trigger": "expression"}})
    assert caught.value.field == "condition.match"


def _evaluated(run_id: str, step: int, policy_id: Any, fired: Any) -> dict[str, Any]:
    return {"event_type": "policy.evaluated", "run_id": run_id, "agent_id": "bot",
            "step_index": step, "timestamp": 1_700_000_000 + step,
            "event_id": f"{run_id}-{step}-{policy_id}",
            "payload": {"policy_name": "p", "policy_id": policy_id, "trigger": "expression",
                        "trigger_matched": True, "fired": fired, "reason": "r",
                        "conditions": [{"field_path": "args.a", "result": fired}]}}


def test_evaluations_are_the_policys_reported_records_newest_first(
        sdk_server: Server, other: httpx.Client) -> None:
    with sdk_server.client() as http:
        policy = http.post("/v1/policies", json=MATCHED).json()
        pid = policy["id"]
        events = [_evaluated("r1", 1, pid, False), _evaluated("r1", 2, pid, True),
                  _evaluated("r1", 3, pid + 1, True), _evaluated("r1", 4, str(pid), True),
                  _evaluated("r1", 5, "not an id", True), _evaluated("r1", 6, pid, "yes")]
        for e in events:  # one batch per event, so arrival order is the list's
            assert http.post("/v1/ingest", json={"events": [e]}).status_code == 202
        got = http.get(f"/v1/policies/{pid}/evaluations").json()
        assert got["policy_id"] == pid
        # Newest first; the id as a string matches too (payloads are stored as sent).
        assert [e["record"]["fired"] for e in got["evaluations"]] == ["yes", True, True, False]
        assert got["evaluations"][0]["fired"] is None  # not a boolean: not guessed
        first = got["evaluations"][-1]
        assert (first["run_id"], first["agent_id"], first["trigger_matched"]) == (
            "r1", "bot", True)
        assert first["conditions"] == [{"field_path": "args.a", "result": False}]
        fired = http.get(f"/v1/policies/{pid}/evaluations", params={"fired": "true"}).json()
        assert [e["timestamp"] for e in fired["evaluations"]] == [
            1_700_000_004, 1_700_000_002]
        assert [e["timestamp"] for e in http.get(
            f"/v1/policies/{pid}/evaluations", params={"fired": "false", "limit": 1},
        ).json()["evaluations"]] == [1_700_000_006]
        assert other.get(f"/v1/policies/{pid}/evaluations").status_code == 404


def test_approvals_granted_once_then_409(sdk_server: Server) -> None:
    with sdk_server.client() as http:
        created = http.post("/v1/approvals", json={
            "run_id": "r1", "agent_id": "bot", "tool_name": "wire_money",
            "tool_args": '{"amount": 5}', "timeout_seconds": 300})
        assert created.status_code == 201
        row = created.json()
        assert row["status"] == "pending" and row["expires_at"] == row["created_at"] + 300
        pending = http.get("/v1/approvals", params={"status": "pending"}).json()["approvals"]
        assert [a["id"] for a in pending] == [row["id"]]

        decided = http.post(f"/v1/approvals/{row['id']}/decision", json={
            "decision": "granted", "decided_by": "ana", "note": "fine"})
        assert decided.status_code == 200
        assert decided.json()["status"] == "granted" and decided.json()["note"] == "fine"
        again = http.post(f"/v1/approvals/{row['id']}/decision",
                          json={"decision": "timeout", "decision_channel": "sdk"})
        assert again.status_code == 409 and "already granted" in again.json()["detail"]
        assert http.get(f"/v1/approvals/{row['id']}").json()["decided_by"] == "ana"
        assert http.get("/v1/approvals", params={"status": "pending"}).json()["approvals"] == []
        assert http.get("/v1/approvals", params={"status": "maybe"}).status_code == 422
        assert http.get("/v1/approvals/999999").status_code == 404


def test_a_pending_approval_times_out_at_its_deadline(sdk_server: Server) -> None:
    with sdk_server.client() as http:
        row = http.post("/v1/approvals", json={
            "run_id": "r1", "agent_id": "bot", "tool_name": "wire", "timeout_seconds": 1}).json()
        time.sleep(1.1)
        assert http.get(f"/v1/approvals/{row['id']}").json()["status"] == "timeout"
        late = http.post(f"/v1/approvals/{row['id']}/decision", json={"decision": "granted"})
        assert late.status_code == 409


def test_detector_config_is_the_workers_settings_in_the_sdks_terms(
        read_only_sdk_server: Server, caplog: pytest.LogCaptureFixture) -> None:
    with read_only_sdk_server.client() as http:
        got = http.get("/v1/detector-config",
                       params={"agent_id": "bot", "agent_version": "2"}).json()
        assert http.get("/v1/detector-config").status_code == 422  # agent_id is required
    assert got["schema_version"] == 1 and got["ttl_s"] == 60 and got["packs"] == []
    assert got["agent_id"] == "bot" and got["agent_version"] == "2"
    assert abs(got["generated_at"] - time.time()) < 60
    assert got["detectors"]["tool_loop"] == {"THRESHOLD": 4, "WINDOW": 6}  # no max_cycle
    assert got["detectors"]["cost_spike"]["STATIC_THRESHOLD_TOKENS"] == 90000
    assert "slow_step" not in got["detectors"]  # disabled for bot
    assert got["baselines"] is None  # no history yet
    # The SDK builds its in-path detectors from it without a single warning.
    with caplog.at_level(logging.WARNING, logger="dunetrace"):
        built = build_detectors(got)
    assert not [r for r in caplog.records if r.name.startswith("dunetrace")]
    loop = next(d for d in built if isinstance(d, ToolLoopDetector))
    assert (loop.THRESHOLD, loop.WINDOW) == (4, 6)


def test_every_mapped_kwarg_is_one_the_sdks_detector_has() -> None:
    from dunetrace.detector_config import _tunable_attrs
    from dunetrace.detectors import DETECTOR_KEYS

    for name, (key, kwargs) in SDK_KEYS.items():
        assert key in DETECTOR_KEYS, name
        assert set(kwargs.values()) <= _tunable_attrs(DETECTOR_KEYS[key]), name


def test_packs_are_enabled_listed_and_disabled_per_org(sdk_server: Server) -> None:
    with sdk_server.client() as http:
        catalogue = {p["name"]: p for p in http.get("/v1/packs").json()["packs"]}
        assert catalogue["voice"]["implemented"] is False
        assert catalogue["preview"]["implemented"] is True
        assert "OVERSIZED_TOOL_ARGUMENTS" in catalogue["preview"]["detectors"]
        voice = http.post("/v1/orgs/packs/voice")
        assert voice.status_code == 422 and "does not implement" in voice.json()["detail"]
        assert http.post("/v1/orgs/packs/nope").status_code == 404
        assert http.delete("/v1/orgs/packs/voice").status_code == 422
        assert http.get("/v1/orgs/packs").json() == []

        first = http.post("/v1/orgs/packs/strict-egress")
        assert first.status_code == 201 and first.json()["pack_name"] == "strict-egress"
        again = http.post("/v1/orgs/packs/strict-egress").json()
        assert again["enabled_at"] == first.json()["enabled_at"]  # the first time stays
        http.post("/v1/orgs/packs/preview")
        assert [p["pack_name"] for p in http.get("/v1/orgs/packs").json()] == [
            "strict-egress", "preview"]
        config = http.get("/v1/detector-config", params={"agent_id": "bot"}).json()
        assert config["packs"] == ["strict-egress", "preview"]

        assert http.delete("/v1/orgs/packs/strict-egress").status_code == 204
        assert http.delete("/v1/orgs/packs/strict-egress").status_code == 204  # already off
        assert [p["pack_name"] for p in http.get("/v1/orgs/packs").json()] == ["preview"]
        assert http.get("/v1/orgs/packs", headers={"Authorization": ""}).status_code == 401


def test_an_orgs_packs_are_its_own(sdk_server: Server, other: httpx.Client) -> None:
    with sdk_server.client() as http:
        http.post("/v1/orgs/packs/preview")
    assert other.get("/v1/orgs/packs").json() == []
    assert other.get("/v1/detector-config", params={"agent_id": "bot"}).json()["packs"] == []


def test_deploys_are_recorded_and_listed_newest_first(sdk_server: Server) -> None:
    with sdk_server.client() as http:
        first = http.post("/v1/deploy", json={"api_key": "ignored", "agent_id": "bot",
                                              "version": "1.0", "meta": {"env": "prod"}})
        assert first.status_code == 201
        http.post("/v1/deploy", json={"agent_id": "bot", "version": "1.1"})
        http.post("/v1/deploy", json={"agent_id": "other-bot", "version": "9"})
        listed = http.get("/v1/agents/bot/deploys").json()["deploys"]
        assert [d["version"] for d in listed] == ["1.1", "1.0"]
        assert listed[1]["meta"] == {"env": "prod"}
        assert http.post("/v1/deploy", json={"agent_id": "bot"}).status_code == 400


def test_the_new_endpoints_are_in_the_openapi_schema(read_only_sdk_server: Server) -> None:
    with read_only_sdk_server.client() as http:
        paths = http.get("/openapi.json").json()["paths"]
    for path in ["/v1/policies", "/v1/policies/{policy_id}", "/v1/policies/{policy_id}/toggle",
                 "/v1/approvals", "/v1/approvals/{approval_id}",
                 "/v1/approvals/{approval_id}/decision", "/v1/detector-config", "/v1/packs",
                 "/v1/orgs/packs", "/v1/orgs/packs/{pack_name}", "/v1/deploy",
                 "/v1/agents/{agent_id}/deploys"]:
        assert path in paths, path


def test_detector_config_carries_the_agent_versions_p75_baselines(sdk_server: Server) -> None:
    from semloop.events import Event

    for n in range(20):  # the worker's minimum history
        run, t0 = f"run-{n}", 1_700_000_000.0 + 100 * n
        sdk_server.store.add_events(sdk_server.org_id, [
            Event("run.started", run, "bot", 0, t0, {"input_text": "go"}, agent_version="2"),
            Event("llm.called", run, "bot", 1, t0 + 1, {"model": "m", "prompt_tokens": 10},
                  agent_version="2"),
            Event("llm.responded", run, "bot", 1, t0 + 2,
                  {"output": "done", "completion_tokens": 5, "latency_ms": 400},
                  agent_version="2"),
            Event("run.completed", run, "bot", 2, t0 + 4 + n, {"exit_reason": "completed"},
                  agent_version="2"),
        ])
    with sdk_server.client() as http:
        got = http.get("/v1/detector-config",
                       params={"agent_id": "bot", "agent_version": "2"}).json()["baselines"]
        other_version = http.get("/v1/detector-config",
                                 params={"agent_id": "bot", "agent_version": "3"}).json()
    assert set(got) == {"p75_steps", "p75_latency_tool_ms", "p75_latency_llm_ms",
                        "p75_token_growth", "p75_llm_tool_ratio", "p75_total_tokens",
                        "p75_duration_s"}
    assert got["p75_latency_llm_ms"] == 400 and got["p75_total_tokens"] == 15
    assert got["p75_duration_s"] == pytest.approx(4 + 14.25)  # P75 of 4..23 s
    assert got["p75_latency_tool_ms"] is None  # no tool calls: no figure
    assert other_version["baselines"] is None


@pytest.mark.parametrize("path", ["/v1/approvals/{id}", "/v1/policies/{id}"])
def test_an_id_past_64_bits_is_a_400_naming_the_parameter(read_only_server: Server,
                                                          path: str) -> None:
    with read_only_server.client() as http:
        reply = http.get(path.format(id=2**70))
    assert reply.status_code == 400, reply.text
    assert "_id" in reply.json()["detail"]
