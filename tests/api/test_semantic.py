"""The semantic routes over HTTP: feedback, its switches, usage, issues, a run's sampling
decision; all scoped to the caller's org."""

from __future__ import annotations

import datetime as dt

import pytest

from semloop.api.semantic import project
from semloop.events import Event, Signal

from .conftest import Server


def _signal(server: Server, source: str = "semantic") -> int:
    server.store.add_events(server.org_id, [
        Event("run.started", "r1", "a", 0, 1.0, {"input_text": "hi"}),
        Event("run.completed", "r1", "a", 1, 2.0, {})])
    server.store.add_signals(server.org_id, [Signal(
        failure_type="HALLUCINATION", run_id="r1", severity="HIGH", confidence=0.8,
        source=source, agent_id="a")])
    page = server.store.list_signals(server.org_id, limit=5)
    return page.items[0].id


def test_feedback_is_off_by_default_and_then_recorded(server: Server) -> None:
    signal_id = _signal(server)
    with server.client() as client:
        assert client.get("/v1/orgs/semantic-feedback").json() == {
            "enabled": False, "auto_suppress": False}
        body = {"verdict": "false_positive", "note": "the context says so"}
        assert client.post(f"/v1/signals/{signal_id}/feedback", json=body).status_code == 403
        patched = client.patch("/v1/orgs/semantic-feedback", json={"enabled": True})
        assert patched.json() == {"enabled": True, "auto_suppress": False}
        assert client.post(f"/v1/signals/{signal_id}/feedback", json=body).status_code == 201
        assert client.post("/v1/signals/999999/feedback", json=body).status_code == 404
        bad = client.post(f"/v1/signals/{signal_id}/feedback", json={"verdict": "meh"})
        assert bad.status_code == 400


def test_feedback_on_a_structural_signal_is_refused(server: Server) -> None:
    signal_id = _signal(server, source="structural")
    server.store.update_org_semantics(server.org_id, feedback_enabled=True)
    with server.client() as client:
        answer = client.post(f"/v1/signals/{signal_id}/feedback",
                             json={"verdict": "confirmed"})
    assert answer.status_code == 400


def test_another_orgs_signal_is_not_found(server: Server) -> None:
    signal_id = _signal(server)
    other = server.store.create_org("other")
    server.store.update_org_semantics(other, feedback_enabled=True)
    key = server.store.create_api_key(other)
    with server.client(key) as client:
        answer = client.post(f"/v1/signals/{signal_id}/feedback",
                             json={"verdict": "false_positive"})
        assert answer.status_code == 404
        assert client.get("/v1/issues").json() == []


def test_usage_reports_quota_and_projection(server: Server) -> None:
    server.store.update_org_semantics(server.org_id, evaluation_quota=10)
    with server.client() as client:
        usage = client.get("/v1/orgs/semantic-usage").json()
    assert (usage["quota"], usage["used"], usage["remaining"], usage["overage"]) == (10, 0, 10, 0)
    assert usage["projected_month_end_usage"] == 0 and usage["conversation_quota"] == 200


def test_the_projection_is_linear_in_the_days_gone() -> None:
    mid = dt.datetime(2026, 4, 16, tzinfo=dt.timezone.utc)  # 15 of 30 days gone
    assert project(100, mid) == pytest.approx(200)
    first = dt.datetime(2026, 4, 1, 6, tzinfo=dt.timezone.utc)
    assert project(3, first) == pytest.approx(90)  # less than a day counts as one


def test_a_runs_sampling_decision_is_served(server: Server) -> None:
    from semloop.evaluate.sampling import Sample

    _signal(server)
    with server.client() as client:
        assert client.get("/v1/runs/r1").json()["sampling"] is None
        run = server.store.get_run(server.org_id, "r1")
        assert run is not None
        server.store.record_sample(server.org_id, run, Sample(False, "baseline", 0.05, 0.7))
        sampling = client.get("/v1/runs/r1").json()["sampling"]
    assert sampling == {"sampled": False, "reason": "baseline", "rate": 0.05, "bucket": 0.7}


def _conversation(server: Server, conversation: str, *, agent: str = "a", user: str = "u1",
                  at: float = 100.0, frustrated: bool = False) -> None:
    for i in range(3):
        run_id = f"{conversation}-{i}"
        server.store.add_events(server.org_id, [
            Event("run.started", run_id, agent, 0, at + i, {"input_text": f"q{i}",
                                                           "user_id": user},
                  conversation_id=conversation),
            Event("run.completed", run_id, agent, 1, at + i + 0.5, {},
                  conversation_id=conversation)])
    if frustrated:
        server.store.add_signals(server.org_id, [Signal(
            failure_type="USER_FRUSTRATION", run_id=f"{conversation}-2", severity="HIGH",
            confidence=0.8, source="semantic", agent_id=agent,
            evidence={"conversation_id": conversation})])


def test_conversations_are_listed_filtered_and_paged(server: Server) -> None:
    _conversation(server, "c1", at=100.0, frustrated=True)
    _conversation(server, "c2", at=200.0, user="u2")
    _conversation(server, "c3", agent="b", at=300.0)
    with server.client() as client:
        def ids(**params: object) -> list[str]:
            body = client.get("/v1/conversations", params=params).json()
            return [c["conversation_id"] for c in body["conversations"]]

        assert ids() == ["c3", "c2", "c1"]
        assert ids(agent_id="a") == ["c2", "c1"]
        assert ids(user_id="u2") == ["c2"]
        assert ids(has_finding="true") == ["c1"]
        assert ids(has_finding="false") == ["c3", "c2"]
        assert ids(evaluator="user_frustration") == ["c1"]
        assert ids(since="150", until="250") == ["c2"]
        first = client.get("/v1/conversations", params={"limit": 2}).json()
        assert [c["runs"] for c in first["conversations"]] == [3, 3]
        rest = client.get("/v1/conversations",
                          params={"limit": 2, "cursor": first["next_cursor"]}).json()
        assert [c["conversation_id"] for c in rest["conversations"]] == ["c1"]
        assert rest["conversations"][0]["findings"] == ["USER_FRUSTRATION"]
        assert rest["next_cursor"] is None
        detail = client.get("/v1/conversations/c1").json()
        assert [r["run_id"] for r in detail["runs"]] == ["c1-0", "c1-1", "c1-2"]
        assert [f["failure_type"] for f in detail["findings"]] == ["USER_FRUSTRATION"]
        assert client.get("/v1/conversations/nope").status_code == 404
    other = server.store.create_api_key(server.store.create_org("other"))
    with server.client(other) as client:
        assert client.get("/v1/conversations/c1").status_code == 404
        assert client.get("/v1/conversations").json()["conversations"] == []


def test_external_results_are_matched_by_trace_and_idempotent(server: Server) -> None:
    server.store.add_events(server.org_id, [
        Event("run.started", "traced", "a", 0, 1.0, {"input_text": "hi"}, trace_id="t-1"),
        Event("run.completed", "traced", "a", 1, 2.0, {}, trace_id="t-1")])
    body = {"trace_id": "t-1", "provider": "langfuse", "name": "hallucination",
            "external_id": "score-9", "value": 0.82, "comment": "made up a policy"}
    with server.client() as client:
        first = client.post("/v1/semantic-signals/external", json=body)
        assert first.status_code == 201
        assert first.json()["failure_type"] == "LANGFUSE_HALLUCINATION"
        again = client.post("/v1/semantic-signals/external", json=body)
        assert again.status_code == 200 and again.json()["duplicate"] is True
        assert again.json()["signal_id"] == first.json()["signal_id"]
        unknown = client.post("/v1/semantic-signals/external", json={**body, "trace_id": "t-9"})
        assert unknown.status_code == 404
    [signal] = server.store.signals_for_run(server.org_id, "traced")
    assert (signal.source, signal.confidence, signal.severity) == ("langfuse", 0.82, "HIGH")
    assert signal.evidence["comment"] == "made up a policy"
    other = server.store.create_api_key(server.store.create_org("other"))
    with server.client(other) as client:
        assert client.post("/v1/semantic-signals/external", json=body).status_code == 404
