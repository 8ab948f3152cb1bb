"""Every route of the OpenAPI document, asked by another org's key about this org's data,
answers 404 or shows nothing of it; and every route but /health needs a key.

The routes are read from the served schema, so a new route is covered the day it lands;
a path parameter this test cannot fill with the first org's id fails it, asking for one.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from semloop.api import create_app
from semloop.api.testing import serve
from semloop.events import Event, Signal
from semloop.settings import Settings
from semloop.store import Store

from ._seed import finish_task

#: Text of the first org's data that must never appear in a 200 answered to the other org.
RUN, AGENT, CONVERSATION = "run-of-org-a", "agent-of-org-a", "conv-of-org-a"
PUBLIC = {"/health"}


def _seed(store: Store, org: str) -> dict[str, str]:
    """The first org's data: one run of each kind of id, with a signal; a path parameter
    by its name -> an id of it."""
    store.add_events(org, [
        Event("run.started", RUN, AGENT, 0, 1_764_500_000.0, {"input_text": "secret-a"},
              agent_version="v1", conversation_id=CONVERSATION),
        Event("tool.called", RUN, AGENT, 1, 1_764_500_001.0, {"tool_name": "t"},
              conversation_id=CONVERSATION),
        Event("run.completed", RUN, AGENT, 2, 1_764_500_002.0, {},
              conversation_id=CONVERSATION)])
    store.add_signals(org, [Signal("TOOL_LOOP", RUN, "high", 0.9, {"steps": [1]},
                                   agent_id=AGENT, agent_version="v1")])
    finish_task(store, org, RUN, "USER_FRUSTRATION", attempts=1, group=("the user is upset", []),
                      signal=Signal("USER_FRUSTRATION", RUN, "high", 0.9, {"reasoning": "x"},
                                    source="semantic", agent_id=AGENT, agent_version="v1"))
    issue_id = str(store.recurring_issues(org)[0]["issue_id"])
    signal_id = str(store.list_signals(org, source="semantic").items[0].id)  # in the issue
    policy = store.add_policy(org, agent_id=AGENT, name="p", enabled=True, priority=1,
                              condition={"trigger": "step_count", "value": 3},
                              action={"type": "log"})
    approval = store.add_approval(org, run_id=RUN, agent_id=AGENT, tool_name="t",
                                  tool_args=None, timeout_seconds=600)
    store.add_deploy(org, AGENT, "v1", {"by": "secret-a"})
    return {"run_id": RUN, "agent_id": AGENT, "conversation_id": CONVERSATION,
            "signal_id": signal_id, "id": signal_id, "policy_id": str(policy.id),
            "approval_id": str(approval.id), "pack_name": "voice", "issue_id": issue_id}


#: Bodies valid for a route, so that its answer to another org is its scoping (404) and
#: not a refused body; other routes get ``{"events": []}``.
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("POST", "/v1/signals/{signal_id}/feedback"): {"verdict": "false_positive"},
    ("PUT", "/v1/agents/{agent_id}/semantic-config"): {"sample_rate": 0.5},
    ("PATCH", "/v1/agents/{agent_id}/semantic-config"): {"semantic_critical": True},
}


@pytest.fixture
def two_orgs(store: Store) -> Any:
    org_a, org_b = store.create_org("a"), store.create_org("b")
    ids = _seed(store, org_a)
    key_b = store.create_api_key(org_b)
    # with org b's feedback on, its marks on org a's signals reach the scoping check
    store.update_org_semantics(org_b, feedback_enabled=True)
    # org b has data of its own, so an unscoped query would have something to mix in
    store.add_events(org_b, [Event("run.started", "run-of-org-b", "agent-b", 0, 1.0, {})])
    with serve(create_app(store, Settings(database_url=store.url))) as url:
        schema = httpx.get(f"{url}/openapi.json").json()
        yield url, key_b, ids, schema
    # and nothing org b sent changed org a's data
    assert store.agent_semantic_config(org_a, AGENT) is None
    signal_id = int(ids["signal_id"])
    assert store.reviews(org_a, [signal_id])[signal_id].false_positive_marks == 0


def _fill(path: str, ids: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        assert name in ids, f"{path}: add an id of org a's {name!r} to _seed"
        return ids[name]
    return re.sub(r"\{([^}]+)\}", one, path)


def test_every_route_is_scoped_to_the_callers_org(two_orgs: Any) -> None:
    url, key_b, ids, schema = two_orgs
    operations = [(method.upper(), path, op) for path, item in schema["paths"].items()
                  for method, op in item.items()
                  if method in {"get", "post", "put", "patch", "delete"}]
    assert len(operations) >= 8  # the schema really was read
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key_b}"},
                      timeout=30) as as_b, httpx.Client(base_url=url, timeout=30) as anonymous:
        for method, path, op in operations:
            target = _fill(path, ids)
            body: dict[str, Any] = {} if method == "GET" else {
                "json": BODIES.get((method, path), {"events": []})}
            # A required query parameter (GET /v1/detector-config's agent_id) names org a's.
            query = {p["name"]: ids[p["name"]] for p in op.get("parameters", [])
                     if p["in"] == "query" and p.get("required")}
            if query:
                body["params"] = query
            if path not in PUBLIC:
                reply = anonymous.request(method, target, **body)
                assert reply.status_code == 401, (method, path, reply.text)
            if method != "GET" and "{" not in path:
                continue  # acts on the caller's own org only: the 401 above is its check
            reply = as_b.request(method, target, **body)
            where = f"{method} {path} as org b"
            if "{" in path:
                allowed = (404,) if (method, path) in BODIES else (404, 400, 422)
                assert reply.status_code in allowed, (where, reply.status_code, reply.text)
                continue
            assert reply.status_code == 200, (where, reply.text)
            for secret in (RUN, AGENT, CONVERSATION, "secret-a"):
                if secret in query.values():
                    continue  # the caller's own words echoed back, not org a's data
                assert secret not in reply.text, (where, secret)
