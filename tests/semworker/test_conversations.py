"""Conversation-level evaluation: eligible from three runs, re-evaluated (and charged) only
when new runs arrive, grouped like run findings."""

from __future__ import annotations

import time

from semloop.evaluate import EvaluatorsConfig
from semloop.evaluate.sampling import SamplingConfig
from semloop.store import Store
from semloop.store._semantic import month_of

from .helpers import Judge, add_run, semantic_signals, worker

FRUSTRATION = EvaluatorsConfig.from_dict({n: {"enabled": n == "USER_FRUSTRATION"} for n in (
    "HALLUCINATION", "TASK_COMPLETION", "TASK_UNDERSTANDING_FAILURE", "OFF_TOPIC_DRIFT",
    "AGENT_LOOP", "USER_FRUSTRATION", "CONFUSION_LOOP", "SYCOPHANCY_SIGNAL")})


def _turns(judge_calls: list[int]) -> Judge:
    def verdict(state: dict[str, list[object]], _kind: str) -> tuple[float, str]:
        judge_calls.append(len(state["turns"]))
        return 0.9, "The user repeats the refund request with growing anger."

    return Judge(verdict)  # type: ignore[arg-type]


def test_a_conversation_is_judged_from_three_runs_and_again_on_new_ones(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, count_local_evaluations=True)
    turns: list[int] = []
    semantic = worker(store, _turns(turns), evaluators=FRUSTRATION)
    t = time.time() - 500
    for i in range(2):
        add_run(store, org, f"r{i}", conversation="c1", at=t + i * 10)
    semantic.drain()
    assert turns == []  # two runs: too few
    add_run(store, org, "r2", conversation="c1", at=t + 20)
    semantic.drain()
    assert turns == [6]  # three runs, a user and an assistant turn each
    [finding] = semantic_signals(store, org, "r2")
    assert finding.failure_type == "USER_FRUSTRATION"
    assert finding.evidence["conversation_id"] == "c1"
    assert finding.evidence["run_ids_considered"] == ["r0", "r1", "r2"]
    semantic.drain()
    assert turns == [6]  # nothing new, nothing judged
    for i in range(3, 7):
        add_run(store, org, f"r{i}", conversation="c1", at=t + i * 10)
    semantic.drain()
    assert turns[-1] == 10  # the last five runs only
    usage = store.usage(org, month_of(time.time()))
    assert usage.conversation_used == len(turns)  # each evaluation charged once
    # Conversation findings join recurring issues too.
    [issue] = [i for i in store.recurring_issues(org) if i["evaluator"] == "USER_FRUSTRATION"]
    assert issue["run_count"] == len(turns)


def test_conversation_sampling_and_quota(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, count_local_evaluations=True, conversation_quota=1)
    turns: list[int] = []
    semantic = worker(store, _turns(turns), evaluators=FRUSTRATION)
    t = time.time() - 500
    for conversation in ("a", "b"):
        for i in range(3):
            add_run(store, org, f"{conversation}{i}", conversation=conversation, at=t + i)
    semantic.drain()
    assert len(turns) == 1  # the quota held the second conversation back
    assert store.usage(org, month_of(time.time())).conversation_used == 1
    never = worker(store, _turns(turns), evaluators=FRUSTRATION,
                   sampling=SamplingConfig(conversation_evaluation_rate=0.0))
    for i in range(3):
        add_run(store, org, f"z{i}", conversation="z", at=t + i)
    never.drain()
    assert store.conversation_state(org, "z") == (False, "not_sampled", 0)
