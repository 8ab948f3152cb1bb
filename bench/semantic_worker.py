"""The semantic worker's throughput and run-end-to-finding latency, one process.

Every run-level evaluator (HALLUCINATION, TASK_COMPLETION, TASK_UNDERSTANDING_FAILURE,
OFF_TOPIC_DRIFT, AGENT_LOOP) on 10-step runs, with the embedded judge, every run sampled,
on a SQLite file (or ``--database-url``). Two measurements:

- throughput: a backlog of ``--runs`` runs drained by one ``SemanticWorker``; runs/s wall
  clock including all its database work (claims, sampling decisions, quota, the evaluation
  log, findings, recurring issues), and the worker's own time (wall minus the time it
  waited for verdicts; a run's evaluators, and the next runs', are judged side by side,
  so the judge's latency summed from the evaluation log is more than that wait) beside
  the judge's; the model's forward passes and texts embedded per run; and the process's
  CPU time per run (steadier than the wall clock on a shared machine);
- latency: runs arriving one at a time while the worker polls every ``--poll`` seconds;
  p50/p95 of the time a run's evaluation was written (its findings and its evaluation-log
  rows share one transaction and its time) minus the run's end (its terminal event's
  arrival). Target: p50 within one poll interval plus the judge's time.

Target: >= 50 runs/s. Usage:
  .venv/bin/python bench/semantic_worker.py [--runs 200] [--poll 1.0] [--json]
      [--judge-threads N] [--judge-ahead N]   # the worker's defaults: 8 and 4
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from typing import Any

from semloop.evaluate import EvaluatorsConfig
from semloop.evaluate.findings import default_similarity
from semloop.evaluate.sampling import SamplingConfig
from semloop.events import Event
from semloop.store import Store
from semloop.worker import SemanticWorker, semantic_judge

TARGET = 50.0
EVERY_RUN = SamplingConfig(baseline_rate=1.0, retrieval_rate=1.0)
QUESTIONS = ["Refund order {i}, it arrived broken.", "Where is parcel {i}?",
             "Change the address on order {i}.", "Cancel subscription {i} today."]


def run_events(i: int, t: float) -> list[Event]:
    """A 10-step run: lookups, a retrieval, LLM steps and a final answer."""
    run_id = f"run-{i}"
    events = [Event("run.started", run_id, "bench", 0, t,
                    {"input_text": QUESTIONS[i % 4].format(i=i)})]
    for step in range(1, 10):
        if step % 3 == 0:
            events.append(Event("tool.called", run_id, "bench", step, t + step,
                                {"tool_name": "lookup", "args": json.dumps({"id": i + step})}))
            events.append(Event("tool.responded", run_id, "bench", step, t + step + 0.1,
                                {"tool_name": "lookup", "success": True,
                                 "output": f"order {i}: status shipped, step {step}"}))
        else:
            events.append(Event("llm.called", run_id, "bench", step, t + step, {"model": "m"}))
            events.append(Event("llm.responded", run_id, "bench", step, t + step + 0.2,
                                {"output": f"Checking order {i}, step {step}."}))
    events.append(Event("llm.responded", run_id, "bench", 10, t + 10,
                        {"output": f"Order {i} has shipped and arrives on Friday."}))
    events.append(Event("run.completed", run_id, "bench", 10, t + 10.5, {}))
    return events


def _worker(store: Store, poll: float, **options: Any) -> SemanticWorker:
    return SemanticWorker(store, semantic_judge("local"), sampling=EVERY_RUN,
                          evaluators=EvaluatorsConfig(), similarity=default_similarity(),
                          poll_interval=poll, batch_size=50, after=None, **options)


def throughput(url: str, runs: int, **options: Any) -> dict[str, Any]:
    with Store(url) as store:
        org = store.create_org("bench")
        worker = _worker(store, 1.0, **options)
        embedder = worker.judge.embedder  # type: ignore[attr-defined]
        # Warm on other runs (the model loaded), so the timed runs' texts are all new to
        # the embedder's cache: the judge's time is a cold judge's.
        for i in range(20):
            store.add_events(org, run_events(50_000 + i, 1_600_000_000.0 + i * 20))
        worker.drain()
        for i in range(runs):
            store.add_events(org, run_events(i, 1_700_000_000.0 + i * 20))
        judging_before = worker.stats.judging_s
        passes, texts = embedder.passes, embedder.texts
        start, cpu = time.perf_counter(), time.process_time()
        handled = worker.drain()
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        judging = worker.stats.judging_s - judging_before
        passes, texts = embedder.passes - passes, embedder.texts - texts
        log = [e for e in store.evaluations(org) if int(e["run_id"].split("-")[1]) < 50_000]
    judge_s = sum(e["latency_ms"] for e in log) / 1000.0
    # The calls of a run are judged side by side: their summed latency exceeds the wall
    # time spent waiting for them, which is what the worker's own time is measured against.
    return {"runs": handled, "wall_s": round(wall, 3), "runs_per_s": round(handled / wall, 1),
            "judge_calls": len(log), "judge_s": round(judge_s, 3),
            "judging_wall_s": round(judging, 3),
            "worker_overhead_s": round(wall - judging, 3),
            "worker_overhead_ms_per_run": round((wall - judging) / handled * 1000, 2),
            "cpu_ms_per_run": round(cpu / handled * 1000, 1),
            "passes_per_run": round(passes / handled, 2),
            "texts_per_run": round(texts / handled, 2),
            "judge_threads": worker.judge_threads,
            "judge_ahead": worker.judge_ahead,
            "target_runs_per_s": TARGET}


def latency(url: str, runs: int, poll: float) -> dict[str, Any]:
    with Store(url) as store:
        org = store.create_org("latency")
        worker = _worker(store, poll)
        worker.drain()
        thread = threading.Thread(target=worker.run_forever, daemon=True)
        thread.start()
        ended: dict[str, float] = {}
        for i in range(runs):
            store.add_events(org, run_events(10_000 + i, time.time()))
            ended[f"run-{10_000 + i}"] = time.time()
            time.sleep(poll / 3)
        # Watched cheaply (one query a quarter second): a watcher querying every run in a
        # loop competes with the worker for the CPU and the database and delays it.
        deadline = time.time() + 60
        while len(store.evaluations(org)) < 5 * runs and time.time() < deadline:
            time.sleep(0.25)
        worker.request_stop()
        thread.join(10)
        # A run's findings, tasks and log rows are written in one transaction, stamped
        # with its time: the newest log row of a run is when it was evaluated.
        found: dict[str, float] = {}
        judged: dict[str, float] = {}
        for entry in store.evaluations(org):
            run_id = entry["run_id"]
            found[run_id] = max(found.get(run_id, 0.0), entry["evaluated_at"])
            judged[run_id] = judged.get(run_id, 0.0) + entry["latency_ms"] / 1000.0
    delays = sorted(found[r] - ended[r] for r in found)
    return {"runs": len(delays), "poll_s": poll,
            "judge_s_per_run": round(statistics.median(judged.values()), 3) if judged else None,
            "p50_s": round(statistics.median(delays), 3) if delays else None,
            "p95_s": round(delays[int(len(delays) * 0.95) - 1], 3) if delays else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--poll", type=float, default=1.0)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--judge-threads", type=int, default=None)
    parser.add_argument("--judge-ahead", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = args.database_url or f"sqlite:///{tmp}/bench.db"
        result = {"throughput": throughput(base, args.runs, judge_threads=args.judge_threads,
                                           judge_ahead=args.judge_ahead),
                  "latency": latency(args.database_url or f"sqlite:///{tmp}/lat.db", 20,
                                     args.poll)}
    if args.json:
        print(json.dumps(result))
        return
    t, lat = result["throughput"], result["latency"]
    print("semantic worker, embedded judge, 5 run-level evaluators, 10-step runs:")
    print(f"  {t['runs']} runs in {t['wall_s']} s = {t['runs_per_s']} runs/s "
          f"(target >= {TARGET:g}); judge {t['judge_s']} s over {t['judge_calls']} calls "
          f"({t['judging_wall_s']} s waited for, judged side by side), "
          f"worker's own {t['worker_overhead_s']} s ({t['worker_overhead_ms_per_run']} ms/run)")
    print(f"  judged {t['judge_threads']} calls at a time, up to {t['judge_ahead']} runs ahead: "
          f"{t['passes_per_run']} model passes and {t['texts_per_run']} texts embedded a run; "
          f"CPU {t['cpu_ms_per_run']} ms a run")
    print(f"  run end -> evaluated, polling every {lat['poll_s']} s: p50 {lat['p50_s']} s, "
          f"p95 {lat['p95_s']} s over {lat['runs']} runs (judge {lat['judge_s_per_run']} s a run; "
          f"target p50 <= {lat['poll_s']} s + that)")


if __name__ == "__main__":
    main()
