"""Speed and memory of the local judge, measured in one run, side by side with the lexical check.

    python bench/local_judge_speed.py [--threads 2] [--dataset bench/dataset.jsonl] [--reps 3]

Prints, against issue 3's targets:
- model load: import of the judge + building ``LocalBackend()`` (sha256 check, onnxruntime
  session), then the first answered trace;
- judge latency for 10-step traces: median and p95 of ``backend.ask`` over 20 seeded
  10-step traces whose steps are all different (every step needs its own embedding: the
  slow case), cold (the vector cache cleared before each trace) and warm, plus the
  dataset's own traces;
- the whole 60-trace bench with ``SemanticLoopDetection(LocalBackend())``: wall time from
  before the import to the last trace, and the lexical detector on the same traces;
- peak RSS of this process (``resource.getrusage``).

The peer figure for Jev (779 ms mean per trace through its API) is the seed's published
measurement, quoted, not measured here: this machine has no network.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
JEV_MEAN_MS = 779.0  # the seed's real Jev run, per trace (quoted)


def _rows(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _ten_step_traces(
    rows: list[dict[str, Any]], count: int, seed: int, *, with_tools: bool = True
) -> list[dict[str, Any]]:
    """10-step traces made of distinct steps (an LLM step and the tool calls after it, or
    the LLM step alone: then every pair is judged on words, the slowest case)."""
    units = []
    for row in rows:
        children = row["root"]["children"]
        for k, child in enumerate(children):
            if child["type"] != "llm":
                continue
            unit = [child]
            for nxt in children[k + 1 :]:
                if nxt["type"] == "llm" or not with_tools:
                    break
                unit.append(nxt)
            units.append(unit)
    unique = list({json.dumps(u, sort_keys=True): u for u in units}.values())
    rng = random.Random(seed)
    traces = []
    for n in range(count):
        picked = rng.sample(unique, 10)
        children = [span for unit in picked for span in unit]
        traces.append(
            {
                "trace_id": f"ten-{n:02d}",
                "goal": "mixed ten-step trace",
                "root": {"type": "agent", "name": "agent", "input": "", "children": children},
            }
        )
    return traces


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--dataset", default=str(ROOT / "bench" / "dataset.jsonl"))
    parser.add_argument("--reps", type=int, default=3, help="passes over the 10-step traces")
    args = parser.parse_args()

    wall_start = time.perf_counter()
    from semloop.judge.local import LocalBackend  # timed: the import is part of loading

    backend = LocalBackend(threads=args.threads)
    load_s = time.perf_counter() - wall_start

    from semloop.lexical import LexicalLoopDetection
    from semloop.semantic import SemanticLoopDetection
    from semloop.trace import Trace

    rows = _rows(Path(args.dataset))
    detector = SemanticLoopDetection(backend)
    first_start = time.perf_counter()
    detector.measure(Trace.from_dict(rows[0]))
    first_ms = (time.perf_counter() - first_start) * 1000
    for row in rows[1:]:
        detector.measure(Trace.from_dict(row))
    bench_wall_s = time.perf_counter() - wall_start

    lexical = LexicalLoopDetection()
    lex_start = time.perf_counter()
    for row in rows:
        lexical.measure(Trace.from_dict(row))
    lexical_wall_s = time.perf_counter() - lex_start

    # Per-trace judge latency: the backend's own ask, as the detector calls it.
    def ask_latencies(
        traces: list[dict[str, Any]], reps: int, *, cold: bool
    ) -> tuple[list[float], list[int]]:
        latencies, steps = [], []
        for _ in range(reps):
            for raw in traces:
                trace = Trace.from_dict(raw)
                state, questions, _ = detector.questions_for(trace)
                if cold:
                    backend.clear_cache()  # no vector remembered from an earlier trace
                start, cpu_start = time.perf_counter(), time.process_time()
                backend.ask(state, questions)
                latencies.append((time.perf_counter() - start) * 1000)
                cpu_ms.setdefault(id(traces), []).append((time.process_time() - cpu_start) * 1000)
                steps.append(len(state["steps"]))
        return latencies, steps

    # CPU time of this process (all its threads) per ask: less sensitive than wall time to
    # other work on a shared machine, so two versions can be compared across runs.
    cpu_ms: dict[int, list[float]] = {}

    ten = _ten_step_traces(rows, 20, seed=7)
    ten_ms, ten_steps = ask_latencies(ten, args.reps, cold=True)
    ten_cpu = cpu_ms.pop(id(ten))
    warm_ms, _ = ask_latencies(ten, 1, cold=False)
    words_only = _ten_step_traces(rows, 20, seed=7, with_tools=False)
    words_ms, _ = ask_latencies(words_only, args.reps, cold=True)
    words_cpu = cpu_ms[id(words_only)]
    own_ms, _ = ask_latencies(rows, 1, cold=True)
    lex_ten_ms = []
    for raw in ten:
        start = time.perf_counter()
        lexical.measure(Trace.from_dict(raw))
        lex_ten_ms.append((time.perf_counter() - start) * 1000)

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    med = statistics.median(ten_ms)
    load1, load5, _ = os.getloadavg()
    print(
        f"local judge speed (threads={args.threads}, python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores, load average {load1:.1f} / {load5:.1f} during the run)"
    )
    print(f"  dataset: {args.dataset} ({len(rows)} traces)")
    print(f"  model load (import + sha256 + session): {load_s:.3f} s   target <= 1 s")
    print(f"  first trace after load: {first_ms:.1f} ms")
    print(
        f"  10-step traces with their tool calls ({len(ten)} x {args.reps}, {min(ten_steps)}-"
        f"{max(ten_steps)} steps, all distinct, cold): median {med:.1f} ms, p95 {_pct(ten_ms, 0.95):.1f} ms   target median <= 50 ms"
    )
    print(
        f"  10-step traces of reasoning only (no tool calls, all distinct): median "
        f"{statistics.median(words_ms):.1f} ms, p95 {_pct(words_ms, 0.95):.1f} ms (cold)"
    )
    print(
        f"  the same two sets in CPU time (process, all threads, cold): with tool calls median "
        f"{statistics.median(ten_cpu):.1f} ms, reasoning only median "
        f"{statistics.median(words_cpu):.1f} ms"
    )
    print(
        f"  the same 10-step traces with sentence vectors cached from a previous pass: "
        f"median {statistics.median(warm_ms):.1f} ms"
    )
    print(
        f"  dataset traces (cold): median {statistics.median(own_ms):.1f} ms, "
        f"p95 {_pct(own_ms, 0.95):.1f} ms, max {max(own_ms):.1f} ms"
    )
    print(
        f"  whole {len(rows)}-trace bench incl. import and load: {bench_wall_s:.2f} s wall   "
        "target <= 10 s"
    )
    print(f"  peak RSS: {peak_mb:.0f} MB   target <= 400 MB")
    print("side by side (same run):")
    print(
        f"  lexical on the same {len(rows)} traces: {lexical_wall_s * 1000:.1f} ms total; "
        f"on the 10-step traces median {statistics.median(lex_ten_ms):.2f} ms "
        f"(local/lexical = {med / max(statistics.median(lex_ten_ms), 1e-6):.0f}x)"
    )
    print(
        f"  jev (seed's published API mean, quoted): {JEV_MEAN_MS:.0f} ms per trace "
        f"(jev/local = {JEV_MEAN_MS / med:.0f}x)"
    )


if __name__ == "__main__":
    main()
