"""Per-event cost of recording a tool call: semloop's SDK next to an OpenTelemetry span.

Measured in one process, interleaved round by round, so both see the same machine load:

- semloop: ``run.tool_called(name, args)`` on a ``Client`` with a discarding emitter (the
  sender thread runs and drains for real; only the I/O is skipped).
- semloop with 10 policies registered (every trigger, every action; five of them are
  checked on each ``tool_called``: two tool-call counts, two step counts and a
  ``before_tool_call`` gate). None fires, so this is the price of checking.
- OpenTelemetry: ``tracer.start_span(...)`` with three attributes, then ``span.end()``,
  under a ``BatchSpanProcessor`` with a discarding exporter (its defaults otherwise).
- Dunetrace (the peer whose API we mirror, for context): ``run.tool_called(...)`` with
  its no-op emitter.

Each call is timed alone with ``perf_counter_ns`` (the timer's own cost is printed and
included in every figure). Runs hold 100 calls, like a long agent run; every round
records 2,000 calls per SDK, then flushes all of them outside the timed region so no
buffer overflows. Targets: semloop's median at most 0.2x the OTel span's, and at most
0.3x with the 10 policies.

Usage: .venv/bin/python bench/sdk_overhead.py [--rounds 40] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from semloop.sdk import Client, DiscardEmitter, Policy

CALLS_PER_RUN = 100
RUNS_PER_ROUND = 20
TARGET_RATIO = 0.2
TARGET_RATIO_POLICIES = 0.3
NEVER = 10**9  # thresholds no bench run reaches: checked on every event, never fired
POLICIES = [
    Policy("max-tools", "tool_call_count", "gt", NEVER, "stop", priority=10),
    Policy("tools-advice", "tool_call_count", "gt", NEVER, "switch_model", model="small"),
    Policy("max-steps", "step_count", "gt", NEVER, "stop"),
    Policy("steps-advice", "step_count", "gte", NEVER, "inject_prompt", prompt="Answer now."),
    Policy("deletes", "before_tool_call", "eq", "delete_account", "require_approval"),
    Policy("budget", "cost_usd", "gt", 5.0, "stop"),
    Policy("errors", "error_count", "gte", 5, "stop"),
    Policy("truncated", "finish_reason", "eq", "length", "log"),
    Policy("slow-llm", "llm_latency_ms", "gt", 60_000, "log"),
    Policy("cheap-model", "cost_usd", "gt", 1.0, "switch_model", model="gpt-4o-mini"),
]
ARGS = {"query": "shipping times to Oslo", "top_k": 5}
ARGS_JSON = json.dumps(ARGS)

_clock = time.perf_counter_ns


def _timer_cost() -> list[int]:
    samples = []
    for _ in range(20_000):
        start = _clock()
        samples.append(_clock() - start)
    return samples


class _Semloop:
    name = "semloop run.tool_called"

    def __init__(self) -> None:
        self.emitter = DiscardEmitter()
        self.client = Client(emitter=self.emitter)

    def round(self, out: list[int]) -> None:
        client = self.client
        for _ in range(RUNS_PER_ROUND):
            with client.run("bench", user_input="q", model="m", tools=["search"]) as run:
                call = run.tool_called
                for _ in range(CALLS_PER_RUN):
                    start = _clock()
                    call("search", ARGS)
                    out.append(_clock() - start)
        client.flush(30)

    def close(self) -> dict[str, Any]:
        self.client.shutdown(30)
        return self.client.stats.as_dict()


class _SemloopPolicies(_Semloop):
    name = "semloop run.tool_called, 10 policies"

    def __init__(self) -> None:
        self.emitter = DiscardEmitter()
        self.client = Client(emitter=self.emitter, policies=POLICIES)


class _OTel:
    name = "OpenTelemetry span + BatchSpanProcessor"

    def __init__(self) -> None:
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import (
            BatchSpanProcessor,
            SpanExporter,
            SpanExportResult,
        )

        class Discard(SpanExporter):
            spans = 0

            def export(self, spans: Sequence[Any]) -> SpanExportResult:
                Discard.spans += len(spans)
                return SpanExportResult.SUCCESS

        self.exporter = Discard
        self.provider = TracerProvider()
        self.provider.add_span_processor(BatchSpanProcessor(Discard()))
        self.tracer = self.provider.get_tracer("bench")

    def round(self, out: list[int]) -> None:
        start_span = self.tracer.start_span
        for _ in range(RUNS_PER_ROUND):
            for step in range(CALLS_PER_RUN):
                start = _clock()
                span = start_span("execute_tool search", attributes={
                    "gen_ai.tool.name": "search",
                    "gen_ai.tool.call.arguments": ARGS_JSON,
                    "semloop.step_index": step,
                })
                span.end()
                out.append(_clock() - start)
        self.provider.force_flush(30_000)

    def close(self) -> dict[str, Any]:
        self.provider.shutdown()
        return {"exported": self.exporter.spans}


class _Dunetrace:
    name = "Dunetrace run.tool_called (no-op emitter)"

    def __init__(self) -> None:
        from dunetrace import Dunetrace
        from dunetrace.emitters import NoopBatchingEmitter

        self.client = Dunetrace(emitter=NoopBatchingEmitter())

    def round(self, out: list[int]) -> None:
        for _ in range(RUNS_PER_ROUND):
            with self.client.run("bench", user_input="q", model="m", tools=["search"]) as run:
                call = run.tool_called
                for _ in range(CALLS_PER_RUN):
                    start = _clock()
                    call("search", ARGS)
                    out.append(_clock() - start)

    def close(self) -> dict[str, Any]:
        self.client.shutdown()
        return {}


def _summary(samples: list[int]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "calls": len(ordered),
        "median_us": statistics.median(ordered) / 1000,
        "p99_us": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] / 1000,
        "mean_us": statistics.fmean(ordered) / 1000,
    }


def _background_cost(n: int = 20_000) -> float:
    """µs of sender-thread work per event (build, JSON-safe, redact, discard), timed
    alone: what the agent's process pays off the hot path."""
    emitter = DiscardEmitter()
    client = Client(emitter=emitter, buffer_size=n + 10, flush_interval=3600, batch_size=n + 10)
    with client.run("bench") as run:
        for _ in range(n):
            run.tool_called("search", ARGS)
    start = _clock()
    client.flush(60)
    elapsed = _clock() - start
    client.shutdown()
    return elapsed / emitter.events / 1000


def _signal_cost(turns: int = 12) -> float:
    """Median µs per recorded event of a run with one ``signal`` policy: the single-run
    detectors over the events so far, once per checked event (opt-in, so not in the
    ratio). Runs of ``turns`` LLM+tool turns (4 events each, ~50 events)."""
    client = Client(emitter=DiscardEmitter(), policies=[
        Policy("loop", "signal", "contains", "TOOL_LOOP", "log")])
    per_event = []
    for _ in range(20):
        with client.run("bench", user_input="q", model="gpt-4o", tools=["search"]) as run:
            start = _clock()
            for i in range(turns):
                run.llm_called("gpt-4o", prompt_tokens=500)
                run.llm_responded(completion_tokens=50, output=f"searching page {i}")
                run.tool_called("search", {"query": "shipping", "page": i})
                run.tool_responded("search", output=f"results {i}")
            per_event.append((_clock() - start) / (4 * turns) / 1000)
    client.shutdown(30)
    return statistics.median(per_event)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args(argv)

    contenders: list[Any] = [_Semloop(), _SemloopPolicies(), _OTel()]
    try:
        contenders.append(_Dunetrace())
    except ImportError:
        print("(dunetrace not installed: its column is left out)", file=sys.stderr)
    samples: dict[str, list[int]] = {c.name: [] for c in contenders}
    for c in contenders:  # warm-up: first-span lazy init must not count
        c.round([])
    began = time.perf_counter()
    for r in range(options.rounds):
        order = contenders if r % 2 == 0 else contenders[::-1]
        for c in order:
            c.round(samples[c.name])
    wall = time.perf_counter() - began
    extra = {c.name: c.close() for c in contenders}

    timer = _summary(_timer_cost())
    results = {name: _summary(s) for name, s in samples.items()}
    ours, otel = results[_Semloop.name], results[_OTel.name]
    ratio_median = ours["median_us"] / otel["median_us"]
    ratio_p99 = ours["p99_us"] / otel["p99_us"]
    with_policies = results[_SemloopPolicies.name]
    ratio_policies = with_policies["median_us"] / otel["median_us"]
    ratio_policies_p99 = with_policies["p99_us"] / otel["p99_us"]
    met = ratio_median <= TARGET_RATIO and ratio_policies <= TARGET_RATIO_POLICIES
    report = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rounds": options.rounds,
        "wall_s": round(wall, 2),
        "timer_median_us": timer["median_us"],
        "results": results,
        "ratio_median": ratio_median,
        "ratio_p99": ratio_p99,
        "target_ratio": TARGET_RATIO,
        "ratio_policies_median": ratio_policies,
        "ratio_policies_p99": ratio_policies_p99,
        "target_ratio_policies": TARGET_RATIO_POLICIES,
        "background_us_per_event": _background_cost(),
        "signal_policy_us_per_event": _signal_cost(),
        "counters": extra,
    }
    if options.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"Python {report['python']} on {report['machine']}, {options.rounds} rounds "
              f"x {RUNS_PER_ROUND * CALLS_PER_RUN} calls each, {wall:.1f}s; "
              f"timer cost {timer['median_us']:.3f} µs (included)")
        print(f"{'':44} {'median µs':>10} {'p99 µs':>10} {'mean µs':>10}")
        for name, row in results.items():
            print(f"{name:44} {row['median_us']:10.2f} {row['p99_us']:10.2f} "
                  f"{row['mean_us']:10.2f}")
        print(f"semloop / OTel: median {ratio_median:.3f}x, p99 {ratio_p99:.3f}x "
              f"(target ≤ {TARGET_RATIO}x: {'met' if ratio_median <= TARGET_RATIO else 'MISSED'})")
        ok = ratio_policies <= TARGET_RATIO_POLICIES
        print(f"semloop + 10 policies / OTel: median {ratio_policies:.3f}x, p99 "
              f"{ratio_policies_p99:.3f}x (target ≤ {TARGET_RATIO_POLICIES}x: "
              f"{'met' if ok else 'MISSED'}); the policies add "
              f"{with_policies['median_us'] - ours['median_us']:.2f} µs at the median")
        print(f"sender thread, off the hot path: {report['background_us_per_event']:.2f} µs "
              "per event (build, JSON-safe, redact; discarding emitter)")
        print(f"one signal policy (detectors over the run so far, opt-in): "
              f"{report['signal_policy_us_per_event']:.0f} µs per event on ~50-event runs")
        semloop_counters = extra[_Semloop.name]
        print(f"semloop counters: emitted {semloop_counters['emitted']}, "
              f"sent {semloop_counters['sent']}, "
              f"dropped_overflow {semloop_counters['dropped_overflow']}")
        policy_counters = extra[_SemloopPolicies.name]
        print(f"with policies: emitted {policy_counters['emitted']}, policies_triggered "
              f"{policy_counters['policies_triggered']}, policy_errors "
              f"{policy_counters['policy_errors']}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
