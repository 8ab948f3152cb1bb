"""The runs listing's signal filters on both databases: the runs with a wanted signal are
found first, and the answer is the same whether they are few (walked alone) or many (the
agent's history walked with a probe per run)."""

from __future__ import annotations

import pytest

from semloop.events import Event, Signal
from semloop.store import Store


def _fill(store: Store) -> str:
    org = store.create_org("acme")
    for i in range(40):
        agent, run_id = f"agent-{i % 2}", f"r{i:02d}"
        store.add_events(org, [
            Event("run.started", run_id, agent, 0, 1e9 + i, {}),
            Event("run.errored" if i % 4 == 0 else "run.completed", run_id, agent, 1,
                  1e9 + i + .5, {})])
    # TOOL_LOOP on agent-0's runs only; one signal names no agent (agent-1's r05).
    store.add_signals(org, [Signal("TOOL_LOOP", f"r{i:02d}", "high", .9, agent_id="agent-0")
                            for i in range(0, 40, 2)])
    store.add_signals(org, [Signal("HALLUCINATION", "r05", "high", .9, source="semantic")])
    return org


CASES = [
    ({"agent_id": "agent-1", "failure_type": "TOOL_LOOP"}, []),
    ({"agent_id": "agent-1", "status": "completed", "failure_type": "TOOL_LOOP"}, []),
    ({"agent_id": "agent-0", "status": "errored", "failure_type": "TOOL_LOOP"},
     [f"r{i:02d}" for i in range(36, -1, -4)]),
    ({"failure_type": "TOOL_LOOP", "status": "completed"},
     [f"r{i:02d}" for i in range(38, 0, -4)]),
    ({"agent_id": "agent-1", "failure_type": "HALLUCINATION"}, ["r05"]),
    ({"agent_id": "agent-1", "source": "semantic"}, ["r05"]),
    ({"source": "external"}, []),
    ({"failure_type": "NEVER_SEEN"}, []),
]


@pytest.mark.parametrize("few", [500, 1], ids=["few", "many"])
def test_signal_filters_answer_alike_whether_matches_are_few_or_many(
        store: Store, few: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("semloop.store._listing.FEW_RUNS", few)
    org = _fill(store)
    for filters, expected in CASES:
        page = store.list_runs(org, limit=50, **filters)  # type: ignore[arg-type]
        assert [r.run_id for r in page.items] == expected, filters
    # and paging through a filtered listing serves each run once
    seen, after = [], None
    while True:
        page = store.list_runs(org, limit=3, failure_type="TOOL_LOOP", after=after)
        seen += [r.run_id for r in page.items]
        if page.next is None:
            break
        after = page.next
    assert seen == [f"r{i:02d}" for i in range(38, -1, -2)]
