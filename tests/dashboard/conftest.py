"""Fixtures: the real app (API and dashboard) on 127.0.0.1 over the ``store`` fixture, an
org with a run the detectors and the loop worker flagged and conversations the semantic
worker found frustrated (one recurring issue), and a way to sign in."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from api._seed import charge_run, finish_task
from semloop.api import create_app
from semloop.api.testing import serve
from semloop.events import Event, Signal
from semloop.settings import Settings
from semloop.store import Store

#: The loop run's stuck stretch, and the steps its structural signal names.
STUCK = (3, 6)
TOOL_STEPS = [2, 4, 6]


#: The conversations with a frustration finding: (id, user), three runs each.
ANGRY = [("conv-angry-1", "u-7"), ("conv-angry-2", "u-7"), ("conv-angry-3", "u-9")]
#: Of their findings (one recurring issue), how many are marked not a real issue.
MARKED = 2
#: Each finding had a second opinion; this many of them agreed.
SECOND_AGREED = 2


@dataclass
class Site:
    url: str
    store: Store
    org_id: str
    key: str
    issue_id: int

    def sign_in(self, client: httpx.Client, key: str | None = None) -> httpx.Response:
        form = client.get("/login")
        token = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert token is not None, form.text
        return client.post("/login", data={"key": key or self.key, "csrf": token.group(1),
                                           "next": "/"})

    @contextlib.contextmanager
    def client(self, *, signed_in: bool = True) -> Iterator[httpx.Client]:
        with httpx.Client(base_url=self.url, timeout=30) as client:
            if signed_in:
                assert self.sign_in(client).status_code == 303
            yield client


def seed_loop_run(store: Store, org: str, run_id: str = "run-loop", *,
                  agent: str = "support", start: float | None = None) -> None:
    """A run that called the same search over and over: a structural TOOL_LOOP on three of
    its steps and a SEMANTIC_LOOP whose stuck stretch is steps 3 to 6."""
    t = time.time() - 600 if start is None else start
    events = [Event("run.started", run_id, agent, 0, t, {"input_text": "find my order"},
                    agent_version="v1", conversation_id="conv-1")]
    events.append(Event("llm.responded", run_id, agent, 1, t + 1,
                        {"model": "gpt-4o-mini", "output": "Let me search for it."}))
    for step in range(2, 8):
        events.append(Event("tool.called", run_id, agent, step, t + step,
                            {"tool_name": "search_orders", "args": {"query": "order 42"}}))
        events.append(Event("tool.responded", run_id, agent, step, t + step + 0.5,
                            {"tool_name": "search_orders", "output": "no results",
                             "latency_ms": 120.0}))
    events.append(Event("tool.responded", run_id, agent, 8, t + 9,
                        {"tool_name": "refund", "error": "timeout after 30 s"}))
    events.append(Event("run.errored", run_id, agent, 9, t + 10, {"exit_reason": "error"}))
    store.add_events(org, events)
    store.add_signals(org, [
        Signal("TOOL_LOOP", run_id, "high", 0.9, {"steps": TOOL_STEPS, "tool": "search_orders"},
               step_index=2, agent_id=agent, agent_version="v1"),
        Signal("SEMANTIC_LOOP", run_id, "medium", 0.55,
               {"reason": "the agent repeated the same search without progress",
                "stuck_stretch": {"first_step": STUCK[0], "last_step": STUCK[1]}},
               source="semantic", agent_id=agent, agent_version="v1"),
    ])


def judge_call(run_id: str, judge: str, fired: bool, *,
               second: bool = False) -> dict[str, object]:
    """One USER_FRUSTRATION judge call as an evaluation-log row."""
    return {"run_id": run_id, "conversation_id": None, "agent_id": "support",
            "evaluator": "USER_FRUSTRATION", "judge": judge, "model": "m", "input_tokens": 10,
            "output_tokens": 2, "estimated": False, "cost_usd": 0.0004, "latency_ms": 5.0,
            "fired": fired, "confidence": 0.8, "undecided": False, "error": None,
            "attempt": 1, "second_opinion": second}


def seed_frustration(store: Store, org: str) -> int:
    """Three conversations whose users grew frustrated: a USER_FRUSTRATION finding on the
    newest run of each with its judge calls (a second opinion each), grouped into one
    recurring issue, ``MARKED`` of them marked not a real issue (the org's feedback still
    off). Returns the issue's id."""
    now = time.time()
    issue: int | tuple[str, list[float]] = ("user repeats the refund request angrily", [])
    for c, (conversation_id, user) in enumerate(ANGRY):
        for i in range(3):
            run_id = f"{conversation_id}-run-{i}"
            t = now - 5000 + c * 100 + i * 10
            store.add_events(org, [
                Event("run.started", run_id, "support", 0, t,
                      {"input_text": f"where is my refund?{'!' * i}", "user_id": user},
                      agent_version="v1", conversation_id=conversation_id),
                Event("run.completed", run_id, "support", 1, t + 2, {},
                      conversation_id=conversation_id)])
        finish_task(store, org, run_id, "USER_FRUSTRATION", attempts=1, group=issue,
                          calls=[judge_call(run_id, "embedded", True),
                                 judge_call(run_id, "llm", c < SECOND_AGREED, second=True)],
                          signal=Signal(
            "USER_FRUSTRATION", run_id, "high", 0.82,
            {"reasoning": f"the user asked for the refund {c + 3} times, each angrier",
             "conversation_id": conversation_id,
             "run_ids_considered": [f"{conversation_id}-run-{i}" for i in range(3)]},
            source="semantic", agent_id="support", agent_version="v1"))
        # the worker spent a unit of the org's quota on the run it evaluated
        run = store.get_run(org, run_id)
        assert run is not None
        charge_run(store, org, run, counted=True)
        issue = store.recurring_issues(org)[0]["issue_id"]
    assert isinstance(issue, int)
    members = store.issue(org, issue)
    assert members is not None
    for s in members[1][:MARKED]:
        store.add_feedback(org, s.id, "false_positive", "seeded")
    return issue


@contextlib.contextmanager
def serve_site(store: Store, **settings: object) -> Iterator[Site]:
    """The app over ``store`` with an org, healthy runs and the loop run, on 127.0.0.1."""
    org_id = store.create_org("acme")
    key = store.create_api_key(org_id)
    now = time.time()
    for i in range(6):
        run_id = f"run-ok-{i}"
        store.add_events(org_id, [
            Event("run.started", run_id, "support", 0, now - 7200 - i * 3600, {},
                  agent_version="v1"),
            Event("run.completed", run_id, "support", 1, now - 7190 - i * 3600, {})])
    seed_loop_run(store, org_id)
    issue_id = seed_frustration(store, org_id)
    app = create_app(store, Settings(database_url=store.url, **settings))  # type: ignore[arg-type]
    with serve(app) as url:
        yield Site(url, store, org_id, key, issue_id)


@pytest.fixture
def site(store: Store) -> Iterator[Site]:
    with serve_site(store) as served:
        yield served


@pytest.fixture(scope="module")
def read_only_site(module_store: Store) -> Iterator[Site]:
    """One seeded site per module and database, for tests that only read it: GETs, and
    sign-ins and sign-outs, which live in the client's cookies and change nothing served."""
    with serve_site(module_store) as served:
        yield served
