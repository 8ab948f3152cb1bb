"""``semloop prune`` reaches the semantic worker's tables: a pruned run's sampling
decision, tasks, evaluation log, findings' feedback and issue places, pulled results and a
conversation left with no run go with it; what belongs to kept runs stays."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import func, select, update

from semloop.events import Signal
from semloop.store import Store
from semloop.store import queries as q

from .helpers import ALL_RUNS, Judge, add_run, worker

DAY = 86400.0


def _counts(store: Store) -> dict[str, int]:
    tables: dict[str, Any] = {
        "samples": q.semantic_samples, "tasks": q.semantic_tasks, "evaluations": q.semantic_evaluations,
        "groups": q.semantic_groups, "members": q.semantic_members, "feedback": q.semantic_feedback,
        "conversations": q.semantic_conversations, "externals": q.external_evaluations}
    with store.engine.connect() as conn:
        return {name: int(conn.execute(select(func.count()).select_from(t)).scalar_one())
                for name, t in tables.items()}


def _age(store: Store, run_ids: list[str]) -> None:
    with store.engine.begin() as conn:
        conn.execute(update(q.events).where(q.events.c.run_id.in_(run_ids))
                     .values(received_at=time.time() - 60 * DAY))


def test_prune_takes_a_runs_semantic_records_and_keeps_the_rest(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, feedback_enabled=True)
    # "old" is a one-run conversation of its own; "a1".."a3" share a conversation of which
    # only a1 is pruned.
    add_run(store, org, "old", answer="I cannot help.", conversation="c-old")
    for i in (1, 2, 3):
        add_run(store, org, f"a{i}", conversation="c-kept", at=time.time() - 100 + i,
                question="Cancel my plan")
    # Two faults, two recurring issues: "old"'s is left with no finding by the prune.
    judge = Judge(lambda state, _kind: (0.9, "The plan was never cancelled as the user asked."
                                        if "Cancel my plan" in str(state) else
                                        "Refund request ignored; replied with a refusal."))
    assert worker(store, judge, sampling=ALL_RUNS).drain() == 4
    store.add_external(org, "langfuse", "score-1", Signal(
        "LANGFUSE_HALLUCINATION", "old", "high", 0.9, source="langfuse", agent_id="support"))
    old_finding = next(s for s in store.signals_for_run(org, "old") if s.source == "semantic")
    signal_id = store.list_signals(org, run_id="old", source="semantic").items[0].id
    assert store.add_feedback(org, signal_id, "false_positive") is True
    before = _counts(store)
    assert before["samples"] == 4 and before["externals"] == 1 and before["feedback"] == 1
    assert before["conversations"] == 2 and before["members"] == 4 and before["groups"] == 2
    assert old_finding.failure_type == "TASK_COMPLETION"

    _age(store, ["old", "a1"])
    assert store.prune(time.time() - 30 * DAY).runs == 2

    after = _counts(store)
    assert after["samples"] == 2 and after["externals"] == 0 and after["feedback"] == 0
    assert after["tasks"] == before["tasks"] - 2  # one TASK_COMPLETION task per pruned run
    with store.engine.connect() as conn:
        pruned = conn.execute(select(func.count()).select_from(q.semantic_evaluations).where(
            q.semantic_evaluations.c.run_id.in_(["old", "a1"]))).scalar_one()
        conversations = set(conn.execute(select(q.semantic_conversations.c.conversation_id)).scalars())
        members = set(conn.execute(select(q.semantic_members.c.run_id)).scalars())
        group_sizes = list(conn.execute(select(func.count()).select_from(q.semantic_members)
                                        .group_by(q.semantic_members.c.group_id)).scalars())
    assert pruned == 0 and after["evaluations"] > 0
    assert conversations == {"c-kept"}  # c-old lost its only run; c-kept has two left
    assert not members & {"old", "a1"} and members
    assert after["groups"] == 1 and group_sizes == [2]  # no issue is left without a finding
    assert store.signals_for_run(org, "a2")  # kept runs keep their findings
