"""Over HTTP, on SQLite and PostgreSQL: withdrawing a false-positive mark and what marks do
to a recurring issue; an issue's members; an agent's semantic config (read, replace,
change, validation naming the field); the agents listing paged by cursor."""

from __future__ import annotations

from semloop.events import Event, Signal
from semloop.store import Store

from ._seed import finish_task
from .conftest import Server


def _issue(store: Store, org: str, runs: int, agent: str = "support") -> tuple[int, list[int]]:
    """One recurring issue of ``runs`` USER_FRUSTRATION findings; its id and the signals'."""
    for i in range(runs):
        run_id = f"{agent}-run-{i}"
        store.add_events(org, [
            Event("run.started", run_id, agent, 0, 1_764_500_000.0 + i, {}),
            Event("run.completed", run_id, agent, 1, 1_764_500_001.0 + i, {})])
        issue = store.recurring_issues(org, agent)
        finish_task(store, org, run_id, "USER_FRUSTRATION", attempts=1,
            signal=Signal("USER_FRUSTRATION", run_id, "high", 0.9,
                          {"reasoning": "the user repeats the refund request angrily"},
                          source="semantic", agent_id=agent),
            group=issue[0]["issue_id"] if issue else ("user repeats refund request", []))
    issue_id = store.recurring_issues(org, agent)[0]["issue_id"]
    return issue_id, [s.id for s in store.list_signals(org, source="semantic").items]


def test_marks_change_the_issue_state_and_withdrawing_them_undoes_it(server: Server) -> None:
    issue_id, signals = _issue(server.store, server.org_id, 4)
    server.store.update_org_semantics(server.org_id, feedback_enabled=True)
    with server.client() as client:
        def issue() -> dict[str, object]:
            found = client.get(f"/v1/issues/{issue_id}")
            assert found.status_code == 200, found.text
            body: dict[str, object] = found.json()
            return body

        assert issue()["state"] == "active" and issue()["run_count"] == 4
        members = issue()["members"]
        assert isinstance(members, list)
        assert sorted(m["signal_id"] for m in members) == sorted(signals)
        for signal_id in signals[:3]:
            assert client.post(f"/v1/signals/{signal_id}/feedback",
                               json={"verdict": "false_positive"}).status_code == 201
        assert issue()["false_positives"] == 3 and issue()["state"] == "lowered"
        client.patch("/v1/orgs/semantic-feedback", json={"auto_suppress": True})
        assert issue()["state"] == "suppressed"
        assert client.get("/v1/issues").json()[0]["state"] == "suppressed"

        undone = client.delete(f"/v1/signals/{signals[0]}/feedback")
        assert undone.status_code == 200 and undone.json() == {
            "signal_id": signals[0], "withdrawn": 1}
        assert issue()["false_positives"] == 2 and issue()["state"] == "active"
        # the worker reads the same count: a new finding of the issue is not suppressed
        assert server.store.groups_for(server.org_id, "support", "USER_FRUSTRATION")[0] \
            .false_positives == 2
        again = client.delete(f"/v1/signals/{signals[0]}/feedback")
        assert again.json()["withdrawn"] == 0
        assert client.delete("/v1/signals/999999/feedback").status_code == 404
        assert client.get("/v1/issues/999999").status_code == 404


def test_a_confirmed_verdict_is_withdrawn_without_touching_the_count(server: Server) -> None:
    issue_id, signals = _issue(server.store, server.org_id, 2)
    server.store.update_org_semantics(server.org_id, feedback_enabled=True)
    with server.client() as client:
        client.post(f"/v1/signals/{signals[0]}/feedback", json={"verdict": "false_positive"})
        client.post(f"/v1/signals/{signals[1]}/feedback", json={"verdict": "confirmed"})
        assert client.delete(f"/v1/signals/{signals[1]}/feedback").json()["withdrawn"] == 1
        assert client.get(f"/v1/issues/{issue_id}").json()["false_positives"] == 1


def test_semantic_config_is_read_replaced_and_changed(server: Server) -> None:
    _issue(server.store, server.org_id, 1)
    path = "/v1/agents/support/semantic-config"
    with server.client() as client:
        assert client.get(path).json() == {
            "agent_id": "support", "sample_rate": None, "budget_monthly": None,
            "evaluators": [], "semantic_critical": False, "configured": False,
            "updated_at": None}
        put = client.put(path, json={"sample_rate": 0.25, "budget_monthly": 300,
                                     "evaluators": ["user_frustration", "HALLUCINATION"]})
        assert put.status_code == 200, put.text
        assert put.json()["evaluators"] == ["USER_FRUSTRATION", "HALLUCINATION"]
        assert put.json()["configured"] is True
        patched = client.patch(path, json={"semantic_critical": True}).json()
        assert (patched["sample_rate"], patched["budget_monthly"],
                patched["semantic_critical"]) == (0.25, 300, True)
        cleared = client.patch(path, json={"sample_rate": None}).json()
        assert cleared["sample_rate"] is None and cleared["budget_monthly"] == 300
        # PUT replaces: what it leaves out goes back to its default
        replaced = client.put(path, json={"semantic_critical": False}).json()
        assert replaced["budget_monthly"] is None and replaced["evaluators"] == []
        assert client.get("/v1/agents/nobody/semantic-config").status_code == 404
        assert client.put("/v1/agents/nobody/semantic-config", json={}).status_code == 404
    # the worker reads what the API stored
    stored = server.store.agent_semantic_config(server.org_id, "support")
    assert stored is not None and not stored.config.semantic_critical


def test_semantic_config_errors_name_the_field(server: Server) -> None:
    _issue(server.store, server.org_id, 1)
    path = "/v1/agents/support/semantic-config"
    with server.client() as client:
        for body, field in [({"sample_rate": 1.5}, "body.sample_rate"),
                            ({"budget_monthly": -1}, "body.budget_monthly"),
                            ({"evaluators": ["NOT_ONE"]}, "body.evaluators"),
                            ({"semantic_critical": "maybe"}, "body.semantic_critical"),
                            ({"sample_rte": 0.1}, "body.sample_rte")]:
            for method in ("PUT", "PATCH"):
                answer = client.request(method, path, json=body)
                assert answer.status_code == 400, (body, answer.text)
                assert answer.json()["detail"].startswith(field), answer.json()
        unknown = client.put(path, json={"evaluators": ["NOT_ONE"]}).json()["detail"]
        assert "'NOT_ONE'" in unknown and "USER_FRUSTRATION" in unknown


def test_agents_are_paged_by_cursor(server: Server) -> None:
    for i in range(7):
        server.store.add_events(server.org_id, [
            Event("run.started", f"r{i}", f"agent-{i}", 0, 1.0 + i, {})])
    seen: list[str] = []
    with server.client() as client:
        cursor = None
        while True:
            params = {"limit": 3, **({"cursor": cursor} if cursor else {})}
            page = client.get("/v1/agents", params=params).json()
            seen += [a["agent_id"] for a in page["agents"]]
            assert len(page["agents"]) <= 3
            cursor = page["next_cursor"]
            if cursor is None:
                break
        assert seen == [f"agent-{i}" for i in range(7)]
        assert client.get("/v1/agents").json()["next_cursor"] is None
        bad = client.get("/v1/agents", params={"cursor": "bm9wZQ"})
        assert bad.status_code == 422 and bad.json()["detail"].startswith("query.cursor")
