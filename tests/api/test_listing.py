"""``GET /v1/runs``, ``/v1/signals`` and ``/v1/agents`` over real HTTP, on SQLite and
PostgreSQL: summaries, every filter, cursor paging while runs keep arriving, org isolation,
and 422 naming the parameter for bad input."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from semloop.events import Event, Signal
from semloop.store import Store

from .conftest import Server

T0 = 1_764_500_000.0  # 2025-11-30T10:53:20Z


def _run(store: Store, org: str, run_id: str, *, agent: str = "support", start: float,
         end: str | None = "run.completed", conversation: str | None = None,
         tools: int = 1) -> None:
    events = [Event("run.started", run_id, agent, 0, start, {}, agent_version="v1",
                    conversation_id=conversation, event_id=f"{run_id}-start")]
    events += [Event("tool.called", run_id, agent, 1 + i, start + 1 + i, {"tool_name": "t"},
                     event_id=f"{run_id}-tool-{i}") for i in range(tools)]
    if end:
        events.append(Event(end, run_id, agent, 1 + tools, start + 1 + tools, {},
                            event_id=f"{run_id}-end"))
    store.add_events(org, events)


def _signal(store: Store, org: str, run_id: str, failure_type: str, *, agent: str = "support",
            severity: str = "high", source: str = "structural") -> None:
    store.add_signals(org, [Signal(failure_type, run_id, severity, 0.9, {"steps": [1]},
                                   source=source, agent_id=agent, agent_version="v1")])


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


@pytest.fixture
def read_only_http(read_only_server: Server) -> Iterator[httpx.Client]:
    with read_only_server.client() as client:
        yield client


def _get(http: httpx.Client, path: str, **params: Any) -> dict[str, Any]:
    reply = http.get(path, params=params)
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def _ids(body: dict[str, Any], key: str = "runs") -> list[str]:
    return [item["run_id"] for item in body[key]]


# --- GET /v1/runs -------------------------------------------------------------------------

def test_runs_are_summarised_newest_first(server: Server, http: httpx.Client) -> None:
    store, org = server.store, server.org_id
    _run(store, org, "done", start=T0, tools=3, conversation="c1")
    _run(store, org, "failed", start=T0 + 10, end="run.errored")
    _run(store, org, "open", start=T0 + 20, end=None)
    _signal(store, org, "done", "TOOL_LOOP")
    _signal(store, org, "done", "TOOL_LOOP", source="semantic")  # same type, twice
    _signal(store, org, "done", "RETRY_STORM")

    body = _get(http, "/v1/runs")
    assert body["next_cursor"] is None
    assert _ids(body) == ["open", "failed", "done"]
    done = body["runs"][2]
    assert done == {"run_id": "done", "agent_id": "support", "agent_version": "v1",
                    "conversation_id": "c1", "status": "completed", "started_at": T0,
                    "ended_at": T0 + 4, "event_count": 5,
                    "failure_types": ["RETRY_STORM", "TOOL_LOOP"]}
    assert body["runs"][1]["status"] == "errored"
    assert body["runs"][0]["status"] == "running" and body["runs"][0]["ended_at"] is None
    assert body["runs"][0]["failure_types"] == []


def test_runs_filters(server: Server, http: httpx.Client) -> None:
    store, org = server.store, server.org_id
    _run(store, org, "a1", agent="alpha", start=T0, conversation="c1")
    _run(store, org, "a2", agent="alpha", start=T0 + 100, end="run.errored", conversation="c1")
    _run(store, org, "b1", agent="beta", start=T0 + 200, end=None, conversation="c2")
    _run(store, org, "b2", agent="beta", start=T0 + 300)
    _signal(store, org, "a2", "TOOL_LOOP", agent="alpha")
    _signal(store, org, "b2", "RETRY_STORM", agent="beta")

    assert _ids(_get(http, "/v1/runs", agent_id="alpha")) == ["a2", "a1"]
    assert _ids(_get(http, "/v1/runs", status="completed")) == ["b2", "a1"]
    assert _ids(_get(http, "/v1/runs", status="errored")) == ["a2"]
    assert _ids(_get(http, "/v1/runs", status="running")) == ["b1"]
    assert _ids(_get(http, "/v1/runs", conversation_id="c1")) == ["a2", "a1"]
    assert _ids(_get(http, "/v1/runs", failure_type="TOOL_LOOP")) == ["a2"]
    assert _ids(_get(http, "/v1/runs", failure_type="NOPE")) == []
    # since inclusive, until exclusive; epoch seconds or ISO-8601 (UTC unless it says).
    assert _ids(_get(http, "/v1/runs", since=T0 + 100, until=T0 + 300)) == ["b1", "a2"]
    iso = datetime.fromtimestamp(T0 + 100, tz=timezone.utc).isoformat().replace("+00:00", "Z")
    assert _ids(_get(http, "/v1/runs", since=iso)) == ["b2", "b1", "a2"]
    naive = datetime.fromtimestamp(T0 + 200, tz=timezone.utc).replace(tzinfo=None).isoformat()
    assert _ids(_get(http, "/v1/runs", until=naive)) == ["a2", "a1"]
    paris = timezone(timedelta(hours=2))
    offset = datetime.fromtimestamp(T0 + 200, tz=paris).isoformat()
    assert offset.endswith("+02:00")
    assert _ids(_get(http, "/v1/runs", until=offset)) == ["a2", "a1"]
    # Filters combine.
    assert _ids(_get(http, "/v1/runs", agent_id="beta", status="completed",
                     failure_type="RETRY_STORM")) == ["b2"]
    assert _ids(_get(http, "/v1/runs", agent_id="beta", conversation_id="c1")) == []


def _all_pages(http: httpx.Client, path: str, key: str, between: Any = None,
               **params: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    for page_number in range(1000):
        body = _get(http, path, **params, **({"cursor": cursor} if cursor else {}))
        assert len(body[key]) <= params["limit"]
        items += body[key]
        cursor = body["next_cursor"]
        if cursor is None:
            return items
        if between:
            between(page_number)
    raise AssertionError("paging did not end")


def test_paging_while_runs_arrive_has_no_duplicates_or_gaps(server: Server,
                                                            http: httpx.Client) -> None:
    store, org = server.store, server.org_id
    # Ties on the start time too: the row id breaks them, so none is skipped or repeated.
    for i in range(23):
        _run(store, org, f"old-{i:02d}", start=T0 + (i // 3))
    before = {f"old-{i:02d}" for i in range(23)}

    def arrive(page_number: int) -> None:
        _run(store, org, f"new-{page_number}", start=T0 + 1_000 + page_number)
        _run(store, org, f"tie-{page_number}", start=T0 + 3)  # lands among those not read yet

    runs = _all_pages(http, "/v1/runs", "runs", between=arrive, limit=5)
    ids = [r["run_id"] for r in runs]
    assert len(ids) == len(set(ids)), "a run was served twice"
    assert before <= set(ids), f"runs missed: {before - set(ids)}"
    assert not any(i.startswith("new-") for i in ids)  # newer than the first page: not in it
    keys = [(r["started_at"]) for r in runs]
    assert keys == sorted(keys, reverse=True)


def test_the_last_page_is_exactly_full(server: Server, http: httpx.Client) -> None:
    for i in range(6):
        _run(server.store, server.org_id, f"r{i}", start=T0 + i)
    first = _get(http, "/v1/runs", limit=3)
    assert _ids(first) == ["r5", "r4", "r3"] and first["next_cursor"]
    second = _get(http, "/v1/runs", limit=3, cursor=first["next_cursor"])
    assert _ids(second) == ["r2", "r1", "r0"] and second["next_cursor"] is None
    assert len(_get(http, "/v1/runs", limit=500)["runs"]) == 6


# --- GET /v1/signals -----------------------------------------------------------------------

def test_signals_listing_filters_and_pages(server: Server, http: httpx.Client) -> None:
    store, org = server.store, server.org_id
    for i in range(12):
        _run(store, org, f"r{i}", agent="alpha" if i % 2 else "beta", start=T0 + i)
        _signal(store, org, f"r{i}", "TOOL_LOOP" if i % 3 else "RETRY_STORM",
                agent="alpha" if i % 2 else "beta", severity="high" if i < 6 else "low")

    body = _get(http, "/v1/signals")
    assert [s["run_id"] for s in body["signals"]] == [f"r{i}" for i in reversed(range(12))]
    first = body["signals"][0]
    assert first["failure_type"] == "TOOL_LOOP" and first["severity"] == "low"
    assert first["evidence"] == {"steps": [1]} and first["source"] == "structural"
    assert isinstance(first["signal_id"], int) and first["detected_at"] > 0

    def runs_of(**params: Any) -> list[str]:
        return sorted(s["run_id"] for s in _get(http, "/v1/signals", **params)["signals"])

    assert runs_of(agent_id="alpha") == sorted(f"r{i}" for i in range(1, 12, 2))
    assert runs_of(failure_type="RETRY_STORM") == sorted(["r0", "r3", "r6", "r9"])
    assert runs_of(severity="high") == sorted(f"r{i}" for i in range(6))
    assert runs_of(run_id="r7") == ["r7"]
    assert runs_of(agent_id="beta", failure_type="RETRY_STORM", severity="low") == ["r6"]
    middle = body["signals"][5]["detected_at"]
    assert runs_of(until=0) == [] and runs_of(since=middle - 3600) == runs_of()
    assert runs_of(since=middle + 3600) == []

    def arrive(page_number: int) -> None:
        _run(store, org, f"late-{page_number}", start=T0)
        _signal(store, org, f"late-{page_number}", "TOOL_LOOP")  # newer: above the cursor

    paged = _all_pages(http, "/v1/signals", "signals", between=arrive, limit=5)
    assert [s["run_id"] for s in paged] == [f"r{i}" for i in reversed(range(12))]


def test_a_cursor_of_one_listing_is_refused_by_the_other(server: Server,
                                                         http: httpx.Client) -> None:
    for i in range(3):
        _run(server.store, server.org_id, f"r{i}", start=T0 + i)
        _signal(server.store, server.org_id, f"r{i}", "TOOL_LOOP")
    runs_cursor = _get(http, "/v1/runs", limit=1)["next_cursor"]
    signals_cursor = _get(http, "/v1/signals", limit=1)["next_cursor"]
    assert http.get("/v1/signals", params={"cursor": runs_cursor}).status_code == 422
    assert http.get("/v1/runs", params={"cursor": signals_cursor}).status_code == 422


# --- GET /v1/agents ------------------------------------------------------------------------

def test_agents_summary(server: Server, http: httpx.Client) -> None:
    store, org = server.store, server.org_id
    _run(store, org, "a1", agent="alpha", start=T0)
    _run(store, org, "a2", agent="alpha", start=T0 + 50)
    _run(store, org, "a3", agent="alpha", start=T0 + 20)
    _run(store, org, "b1", agent="beta", start=T0 + 5)
    _signal(store, org, "a1", "TOOL_LOOP", agent="alpha")
    _signal(store, org, "a1", "RETRY_STORM", agent="alpha")
    _signal(store, org, "a2", "TOOL_LOOP", agent="alpha")
    assert _get(http, "/v1/agents") == {"agents": [
        {"agent_id": "alpha", "runs": 3, "runs_with_signals": 2,
         "signals_by_type": {"RETRY_STORM": 1, "TOOL_LOOP": 2}, "last_run_at": T0 + 50},
        {"agent_id": "beta", "runs": 1, "runs_with_signals": 0, "signals_by_type": {},
         "last_run_at": T0 + 5},
    ], "next_cursor": None}


# --- isolation and bad input -----------------------------------------------------------------

def test_one_org_never_sees_another(server: Server, http: httpx.Client) -> None:
    store = server.store
    other = store.create_org("globex")
    other_key = store.create_api_key(other)
    _run(store, server.org_id, "mine", agent="shared-name", start=T0)
    _signal(store, server.org_id, "mine", "TOOL_LOOP", agent="shared-name")
    for i in range(3):  # the same run ids and agent in the other org
        _run(store, other, "mine" if i == 0 else f"theirs-{i}", agent="shared-name",
             start=T0 + 10 + i)
        _signal(store, other, "mine" if i == 0 else f"theirs-{i}", "RETRY_STORM",
                agent="shared-name")

    runs = _get(http, "/v1/runs")["runs"]
    assert [(r["run_id"], r["failure_types"], r["event_count"]) for r in runs] == [
        ("mine", ["TOOL_LOOP"], 3)]
    assert _ids(_get(http, "/v1/runs", failure_type="RETRY_STORM")) == []
    assert [s["failure_type"] for s in _get(http, "/v1/signals")["signals"]] == ["TOOL_LOOP"]
    assert _get(http, "/v1/signals", run_id="theirs-1")["signals"] == []
    assert _get(http, "/v1/agents")["agents"][0]["runs"] == 1
    with server.client(other_key) as theirs:
        assert {r["run_id"] for r in _get(theirs, "/v1/runs")["runs"]} == {
            "mine", "theirs-1", "theirs-2"}
        # A cursor carries a position, not a permission: A's cursor in B's hands pages B's.
        _run(store, server.org_id, "mine-newest", agent="shared-name", start=T0 + 100)
        cursor = _get(http, "/v1/runs", limit=1)["next_cursor"]
        rest = _get(theirs, "/v1/runs", cursor=cursor)["runs"]
        assert {r["run_id"] for r in rest} == {"mine", "theirs-1", "theirs-2"}
        assert all(r["failure_types"] == ["RETRY_STORM"] for r in rest)
        assert _get(theirs, "/v1/agents")["agents"][0]["signals_by_type"] == {"RETRY_STORM": 3}


BAD = [
    ("/v1/runs", {"since": "yesterday"}, "since"),
    ("/v1/runs", {"until": "2026-13-01"}, "until"),
    ("/v1/runs", {"since": "nan"}, "since"),
    ("/v1/runs", {"until": "1e999"}, "until"),
    ("/v1/runs", {"cursor": "not a cursor"}, "cursor"),
    ("/v1/runs", {"cursor": "cnVuc3wxLjV8OTk5OTk5OTk5OTk5OTk5OTk5OTk5"}, "cursor"),  # id > bigint
    ("/v1/runs", {"cursor": ""}, "cursor"),
    ("/v1/runs", {"limit": "0"}, "limit"),
    ("/v1/runs", {"limit": "501"}, "limit"),
    ("/v1/runs", {"limit": "ten"}, "limit"),
    ("/v1/runs", {"status": "exploded"}, "status"),
    ("/v1/signals", {"since": "last week"}, "since"),
    ("/v1/signals", {"until": "--"}, "until"),
    ("/v1/signals", {"cursor": "!!!"}, "cursor"),
    ("/v1/signals", {"limit": "-1"}, "limit"),
]


@pytest.mark.parametrize(("path", "params", "name"), BAD,
                         ids=[f"{p}-{n}-{next(iter(q.values()))}" for p, q, n in BAD])
def test_a_bad_parameter_is_a_422_naming_it(read_only_http: httpx.Client, path: str,
                                            params: dict[str, str], name: str) -> None:
    reply = read_only_http.get(path, params=params)
    assert reply.status_code == 422, reply.text
    assert reply.json()["detail"].startswith(f"query.{name}:"), reply.text


def test_text_no_database_holds_matches_nothing(server: Server, http: httpx.Client) -> None:
    _run(server.store, server.org_id, "r", start=T0)
    for path in ("/v1/runs", "/v1/signals"):
        assert _get(http, path, agent_id="a\x00b")[path.rsplit("/", 1)[1]] == []


@pytest.mark.parametrize("path", ["/v1/runs", "/v1/signals", "/v1/agents"])
def test_listings_need_a_key(read_only_server: Server, path: str) -> None:
    with read_only_server.client(key=None) as anonymous:
        assert anonymous.get(path).status_code == 401
    with read_only_server.client(key="sl_000000000000_nope") as stranger:
        assert stranger.get(path).status_code == 401


def test_the_schema_documents_the_listings(read_only_http: httpx.Client) -> None:
    paths = _get(read_only_http, "/openapi.json")["paths"]
    runs = paths["/v1/runs"]["get"]
    assert {p["name"] for p in runs["parameters"]} == {
        "agent_id", "status", "conversation_id", "failure_type", "source", "since", "until",
        "limit", "cursor"}
    assert set(runs["responses"]) == {"200", "401", "422", "503"}
    assert runs["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RunPage"}
    assert "/v1/signals" in paths and "/v1/agents" in paths
