"""Judging the next runs while one is recorded changes nothing the worker writes, and the
embedded judge embeds each text once however many evaluators and runs ask for it."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from semloop import JudgeError
from semloop.evaluate import EVALUATORS, EvaluatorsConfig, run_case, trace_case
from semloop.events import Event, Run
from semloop.judge.local import LocalBackend
from semloop.store import Store
from semloop.worker import semantic_judge

from .helpers import NO_LOOP, Judge, add_run, semantic_signals, worker


def _written(store: Store, org: str) -> list[tuple[Any, ...]]:
    """Everything the worker wrote that a judge-ahead could reorder or change."""
    with store.engine.connect() as conn:
        tasks = conn.execute(sa.text(
            "SELECT run_id, evaluator, state, attempts FROM semantic_tasks WHERE org_id = :org"),
            {"org": org}).all()
    log = [(e["run_id"], e["evaluator"], e["fired"], e["confidence"], e["attempt"])
           for e in store.evaluations(org)]
    signals = [(s.run_id, s.failure_type, s.severity, s.confidence)
               for i in range(12) for s in semantic_signals(store, org, f"r{i}")]
    return sorted(tuple(t) for t in tasks) + sorted(log) + sorted(signals)


def _verdict(state: Any, kind: str) -> tuple[float, str] | Exception:
    number = int(state["input"].split()[-1])
    if number == 5 and kind == "hallucination":
        return JudgeError("the judge host is down")
    return (number * 7 % 10) / 10 + len(kind) / 100, f"{kind} on {number}"


def test_judging_ahead_writes_what_judging_one_run_at_a_time_writes(store: Store) -> None:
    written = []
    for ahead, threads in ((1, 1), (4, 8)):  # one org each, the first done before the next
        org = store.create_org(f"acme-{ahead}")
        for i in range(12):
            add_run(store, org, f"r{i}", question=f"Refund order {i}")
        semantic = worker(store, Judge(_verdict), evaluators=NO_LOOP, batch_size=5,
                          judge_ahead=ahead, judge_threads=threads, max_attempts=2)
        for _ in range(3):  # the failed evaluator's retry too
            semantic.drain()
        written.append(_written(store, org))
    assert written[0] == written[1]
    assert any(row[2] == "failed" for row in written[0] if len(row) == 4)


def test_a_cost_ceiling_sees_the_spend_of_the_runs_before_it(store: Store) -> None:
    org = store.create_org("acme")
    for i in range(5):
        add_run(store, org, f"r{i}")
    judge = Judge(lambda _s, _k: (0.9, "Did not refund."))  # $0.001 a call
    semantic = worker(store, judge, judge_ahead=4, judge_threads=4,
                      cost_ceilings={"TASK_COMPLETION": 0.0025})
    assert semantic.drain() == 5
    # Judged while the month's spend was 0, 0.001, 0.002; then over the ceiling.
    assert judge.calls == 3
    assert (worker(store, judge).judge_threads, worker(store, judge).judge_ahead) == (2, 1)


def _run_events(i: int) -> list[Event]:
    """A run whose texts differ from the other runs' (and repeat within it)."""
    run_id, t = f"r{i}", 1_700_000_000.0 + i * 20
    item = ["order", "parcel", "invoice", "booking"][i % 4]
    events = [Event("run.started", run_id, "bench", 0, t,
                    {"input_text": f"Where is {item} {i}? It was due on Monday."})]
    for step in range(1, 6):
        if step % 2:
            events.append(Event("tool.called", run_id, "bench", step, t + step,
                                {"tool_name": "lookup", "args": json.dumps({"id": i})}))
            events.append(Event("tool.responded", run_id, "bench", step, t + step + 0.1,
                                {"tool_name": "lookup", "success": True,
                                 "output": f"{item} {i}: status shipped, carrier DHL"}))
        else:
            events.append(Event("llm.responded", run_id, "bench", step, t + step,
                                {"output": f"Checking {item} {i} with the carrier."}))
    answer = (f"Your {item} {i} shipped with DHL and arrives on Friday." if i % 3 else
              f"Your {item} {i} was cancelled and refunded.")
    events.append(Event("llm.responded", run_id, "bench", 6, t + 6, {"output": answer}))
    events.append(Event("run.completed", run_id, "bench", 6, t + 7, {}))
    return events


def test_the_embedded_judge_embeds_each_text_once_and_answers_as_one_at_a_time(
        store: Store) -> None:
    org = store.create_org("acme")
    runs = [_run_events(i) for i in range(8)]
    for events in runs:
        store.add_events(org, events)
    judge = semantic_judge("local")  # as `semloop worker semantic` builds it
    assert isinstance(judge, LocalBackend)
    embedder = judge.embedder
    assert embedder.passes_at_once == 2
    asked: list[str] = []
    embed = embedder.embed

    def counted(texts: Any) -> Any:
        asked.extend(texts)
        return embed(texts)

    embedder.embed = counted  # type: ignore[method-assign]
    semantic = worker(store, judge, evaluators=EvaluatorsConfig(), batch_size=8)
    # The embedded judge is free: judged ahead by default (a paid one is not, below).
    assert (semantic.judge_threads, semantic.judge_ahead) == (8, 4)
    assert semantic.drain() == 8
    # Every text any evaluator of any run asked for went through the model once.
    assert len(asked) > len(set(asked)) and embedder.texts == len(set(asked))
    # The same verdicts as each evaluator alone, one run at a time, with no cache.
    alone = LocalBackend(cache_size=0)
    expected = []
    for events in runs:
        run = Run.from_events(events)
        for name in ("HALLUCINATION", "TASK_COMPLETION", "TASK_UNDERSTANDING_FAILURE",
                     "OFF_TOPIC_DRIFT", "AGENT_LOOP"):
            evaluator = EVALUATORS[name]
            case = trace_case(run) if evaluator.level == "trace" else run_case(run)
            result = evaluator(case, alone)
            expected.append((run.run_id, name, result.fired, result.confidence))
    got = [(e["run_id"], e["evaluator"], e["fired"], e["confidence"])
           for e in store.evaluations(org)]
    assert sorted(got) == sorted(expected)
    assert len({confidence for *_, confidence in got}) > 10  # not one answer for all
