"""End to end: the official ``dunetrace`` SDK, unmodified, against semloop under uvicorn
on 127.0.0.1, using every server feature it has: a signed remote ``stop`` policy it obeys,
``require_approval`` granted and denied by a person through the API, detector config,
packs and deploy markers, and not one warning from the SDK."""

from __future__ import annotations

import logging
import threading
import time
import urllib.error
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import dunetrace
import httpx
import pytest
from dunetrace.detectors import ToolLoopDetector

from semloop.api import create_app
from semloop.api.testing import serve
from semloop.settings import Settings
from semloop.store import Store

from .conftest import Server

SECRET = "shared-policy-secret"


@pytest.fixture
def server(store: Store, tmp_path: Path) -> Iterator[Server]:
    config = tmp_path / "detectors.yml"
    config.write_text("default:\n  TOOL_LOOP: {threshold: 5}\n")
    org_id = store.create_org("acme")
    key = store.create_api_key(org_id)
    app = create_app(store, Settings(database_url=store.url, policy_signing_secret=SECRET,
                                     detectors_config=str(config)))
    with serve(app) as url:
        yield Server(url, app, store, org_id, key)


def _until(check: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _decide_when_asked(http: httpx.Client, decision: str, note: str) -> threading.Thread:
    """A person at the API: waits for the pending request, then decides it."""
    def person() -> None:
        def pending() -> list[dict[str, object]]:
            got: list[dict[str, object]] = http.get(
                "/v1/approvals", params={"status": "pending"}).json()["approvals"]
            return got
        _until(lambda: bool(pending()), "an approval request")
        approval_id = pending()[0]["id"]
        http.post(f"/v1/approvals/{approval_id}/decision",
                  json={"decision": decision, "decided_by": "ana", "note": note})
    thread = threading.Thread(target=person, daemon=True)
    thread.start()
    return thread


def _loaded(dt: dunetrace.Dunetrace, agent_id: str) -> None:
    """One empty run starts the SDK's background fetch; wait until it has loaded."""
    with dt.run(agent_id, user_input="warm up") as run:
        run.final_answer()
    _until(lambda: dt._policy_engine.has_remote_bundle(agent_id)
           and dt._detector_config_store.has_config(agent_id), "the remote config")


def test_the_official_sdk_uses_every_server_feature_without_a_warning(
        server: Server, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="dunetrace")
    http = server.client()
    assert http.post("/v1/policies", json={
        "name": "stop at 2 tools", "agent_id": "stopper", "action": {"type": "stop"},
        "condition": {"trigger": "tool_call_count", "operator": "gt", "value": 1}},
    ).status_code == 201
    assert http.post("/v1/policies", json={
        "name": "a person approves transfers", "agent_id": "payer",
        "condition": {"trigger": "before_tool_call", "operator": "eq", "value": "wire_money"},
        "action": {"type": "require_approval", "params": {"timeout_s": 60}}},
    ).status_code == 201

    dt = dunetrace.Dunetrace(endpoint=server.url, api_url=server.url, api_key=server.key,
                             policy_secret=SECRET)
    try:
        _loaded(dt, "stopper")
        with pytest.raises(dunetrace.PolicyViolation), dt.run("stopper", user_input="go") as run:
            for n in range(5):
                run.tool_called("search", {"q": n})
                run.tool_responded("search", success=True, output="ok")
        assert n == 1  # stopped at the second call, as the signed policy says

        loop = next(d for d in dt._detector_config_store.detectors_for("stopper")
                    if isinstance(d, ToolLoopDetector))
        assert loop.THRESHOLD == 5  # detectors.yml reached the in-path detectors

        _loaded(dt, "payer")
        person = _decide_when_asked(http, "granted", "go ahead")
        with dt.run("payer", user_input="pay the invoice") as run:
            run.tool_called("wire_money", {"amount": 120})  # blocks until granted
            run.tool_responded("wire_money", success=True, output="sent")
            run.final_answer()
        person.join(10)

        person = _decide_when_asked(http, "denied", "wrong account")
        with pytest.raises(dunetrace.ApprovalDenied) as denied, \
                dt.run("payer", user_input="pay again") as run:
            run.tool_called("wire_money", {"amount": 9000})
        person.join(10)
        assert (denied.value.status, denied.value.note, denied.value.decided_by) == (
            "denied", "wrong account", "ana")

        with pytest.raises(urllib.error.HTTPError) as refused:
            dt.enable_pack("voice")  # Dunetrace's, not semloop's: an honest refusal
        assert refused.value.code == 422
        assert dt.enabled_packs() == []
        dt.enable_pack("preview")  # semloop's: the shadow detectors go live for this org
        assert dt.enabled_packs() == ["preview"]
        dt.disable_pack("preview")
        assert dt.enabled_packs() == []

        dt.mark_deploy("payer", version="1.4.2", env="production")
        _until(lambda: bool(http.get("/v1/agents/payer/deploys").json()["deploys"]),
               "the deploy")
    finally:
        dt.shutdown(timeout=10)

    decided = http.get("/v1/approvals").json()["approvals"]
    assert [(a["tool_name"], a["status"]) for a in decided] == [
        ("wire_money", "denied"), ("wire_money", "granted")]
    deploy = http.get("/v1/agents/payer/deploys").json()["deploys"][0]
    assert (deploy["version"], deploy["meta"]) == ("1.4.2", {"env": "production"})
    runs = http.get("/v1/runs", params={"agent_id": "stopper"}).json()["runs"]
    assert "errored" in {r["status"] for r in runs}
    http.close()
    warnings = [r.getMessage() for r in caplog.records
                if r.name.startswith("dunetrace") and r.levelno >= logging.WARNING]
    assert warnings == []


def test_remote_match_expressions_are_obeyed_and_their_evaluations_served(
        server: Server, caplog: pytest.LogCaptureFixture) -> None:
    """A v2-signed policy with a ``match`` block gates only the calls its expression
    selects, and the evaluations the SDK reports come back from the policy's endpoint."""
    caplog.set_level(logging.WARNING, logger="dunetrace")
    http = server.client()
    big = http.post("/v1/policies", json={
        "name": "a person approves big refunds", "agent_id": "refunder",
        "condition": {"trigger": "before_tool_call", "operator": "eq", "value": "refund",
                      "match": {"args.amount": {"gt": 1000},
                                "or": [{"args.currency": {"in": ["EUR", "USD"]}},
                                       {"args.note": {"matches": "^urgent"}}]}},
        "action": {"type": "require_approval", "params": {"timeout_s": 60}}})
    assert big.status_code == 201 and big.json()["sig_version"] == 2
    stop = http.post("/v1/policies", json={
        "name": "no third search", "agent_id": "refunder", "action": {"type": "stop"},
        "condition": {"trigger": "expression", "match": {
            "event.type": {"eq": "tool.called"}, "run.tool_call_count": {"gte": "3"}}}})
    assert stop.status_code == 201

    dt = dunetrace.Dunetrace(endpoint=server.url, api_url=server.url, api_key=server.key,
                             policy_secret=SECRET, policy_evaluation_reporting=True)
    try:
        _loaded(dt, "refunder")
        with dt.run("refunder", user_input="refund two orders") as run:
            run.tool_called("refund", {"amount": 20, "currency": "EUR"})  # small: no one asked
            run.tool_responded("refund", success=True, output="ok")
            run.tool_called("refund", {"amount": 5000, "currency": "GBP", "note": "later"})
            run.tool_responded("refund", success=True, output="ok")  # GBP, not urgent
            run.final_answer()
        person = _decide_when_asked(http, "denied", "too much")
        with pytest.raises(dunetrace.ApprovalDenied), dt.run("refunder", user_input="x") as run:
            run.tool_called("refund", {"amount": 5000, "currency": "USD"})
        person.join(10)
        with pytest.raises(dunetrace.PolicyViolation), dt.run("refunder", user_input="y") as run:
            for n in range(5):
                run.tool_called("search", {"q": n})
                run.tool_responded("search", success=True, output="ok")
        assert n == 2  # the expression policy stopped the third call
    finally:
        dt.shutdown(timeout=10)

    asked = http.get("/v1/approvals").json()["approvals"]
    assert [(a["tool_name"], a["status"]) for a in asked] == [("refund", "denied")]

    def evaluations(policy: dict[str, Any], **params: Any) -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = http.get(
            f"/v1/policies/{policy['id']}/evaluations", params=params).json()["evaluations"]
        return got

    _until(lambda: any(e["fired"] for e in evaluations(stop.json())), "the evaluations")
    fired = evaluations(stop.json(), fired="true")
    assert len(fired) == 1 and fired[0]["agent_id"] == "refunder"
    assert {(c["field_path"], c["result"]) for c in fired[0]["conditions"]} == {
        ("event.type", True), ("run.tool_call_count", True)}
    assert all(not e["fired"] for e in evaluations(stop.json(), fired="false"))
    refunds = evaluations(big.json())
    assert sum(e["fired"] for e in refunds) == 1  # only the USD refund matched
    missed = next(e for e in refunds if not e["fired"] and e["trigger_matched"]
                  and any(c["actual"] == "GBP" for c in e["conditions"]))
    assert missed["reason"].startswith("did not fire")
    assert http.get("/v1/policies/999999/evaluations").status_code == 404
    http.close()
    warnings = [r.getMessage() for r in caplog.records
                if r.name.startswith("dunetrace") and r.levelno >= logging.WARNING]
    assert warnings == []
