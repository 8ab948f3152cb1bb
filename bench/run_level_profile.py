"""Where the run-level evaluators' time goes on real runs: the model or the rules.

    python bench/run_level_profile.py --labels bench/real_runs/evaluator_tune.jsonl \
        --repo sierra-research/tau2-bench=PATH [--sample N] [--top N]

Runs HALLUCINATION, TASK_COMPLETION, TASK_UNDERSTANDING_FAILURE and OFF_TOPIC_DRIFT on each
run in that order, on one embedded judge (its vector cache shared by the four, as the
semantic worker shares it), the runs read as ``bench/real_run_evaluators.py`` reads them
(same ``--repo``, ``--source`` and ``--sample`` arguments). Per evaluator it prints the
median and total wall ms, the share spent inside the embedder (forward passes, tokenizer,
pooling), the texts asked for, those found in the cache (asked by an earlier evaluator or
an earlier run), those embedded, their tokens and the forward passes; with ``--top N``, the
N functions of the rules that cost the most time of their own (cProfile), the model excluded.
Nothing here changes an answer; it only counts.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_real_runs import labelled_runs, repos_of
from real_run_evaluators import RUN_LEVEL, chosen_labels
from semloop.evaluate import get_evaluator, load_evaluators_config, run_case
from semloop.evaluate.config import DEFAULT_CONFIG
from semloop.judge.registry import make_backend


class _Meter:
    """Counts what one embedder does while an evaluator runs."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self.embed = embedder.embed
        self.compute = embedder._compute
        self.now: dict[str, float] = defaultdict(float)
        embedder.embed = self._embed
        embedder._compute = self._compute

    def _embed(self, texts: Sequence[str]) -> Any:
        self.now["asked"] += len(texts)
        self.now["cached"] += sum(t in self.embedder._cache for t in texts)
        t0 = time.perf_counter()
        try:
            return self.embed(texts)
        finally:
            self.now["embed_ms"] += (time.perf_counter() - t0) * 1000

    def _compute(self, texts: Sequence[str]) -> tuple[list[Any], int]:
        vectors, passes = self.compute(texts)
        self.now["embedded"] += len(texts)
        t0 = time.perf_counter()  # counting tokens is the meter's cost, not the embedder's
        self.now["tokens"] += sum(len(self.embedder.tokenizer.encode(t)) for t in texts)
        self.now["embed_ms"] -= (time.perf_counter() - t0) * 1000
        self.now["passes"] += passes
        return vectors, passes

    def take(self) -> dict[str, float]:
        now, self.now = self.now, defaultdict(float)
        return now


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, required=True)
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=PATH")
    ap.add_argument("--source", action="append", default=[], metavar="OWNER/NAME")
    ap.add_argument("--sample", type=int, default=0, metavar="N")
    ap.add_argument("--top", type=int, default=0, metavar="N",
                    help="also list the rules' N costliest functions (cProfile, which slows "
                    "the Python half about 1.5x: the table's shares then lean to the rules)")
    args = ap.parse_args()
    runs, problems = labelled_runs(chosen_labels(args.labels, args.source),
                                   repos_of(args.repo), "all")
    for p in problems:
        print("skipped:", p, file=sys.stderr)
    if args.sample and args.sample < len(runs):
        runs = random.Random(9).sample(runs, args.sample)
    judge = make_backend("local")
    meter = _Meter(judge.embedder)  # type: ignore[attr-defined]
    config = load_evaluators_config(DEFAULT_CONFIG)
    rows: dict[str, list[dict[str, float]]] = defaultdict(list)
    profile = cProfile.Profile()
    for label, run in runs:
        case = run_case(run)
        for name in RUN_LEVEL if case is not None else ():
            if args.top:
                profile.enable()
            result = get_evaluator(name)(case, judge, config.for_evaluator(name))
            profile.disable()
            rows[name].append({**meter.take(), "ms": result.latency_ms})
    print(f"{len(runs)} runs of {args.labels.name}; cache shared by the four, in this order")
    print("| evaluator | median ms | total s | in embedder | texts asked | cached | embedded "
          "| tokens | passes |\n|---|---|---|---|---|---|---|---|---|")
    for name, each in rows.items():
        total = sum(r["ms"] for r in each)

        def sum_of(key: str, each: list[dict[str, float]] = each) -> int:
            return round(sum(r.get(key, 0.0) for r in each))

        print(f"| {name} | {statistics.median(r['ms'] for r in each):.1f} | {total / 1000:.2f} "
              f"| {sum_of('embed_ms') / max(total, 1e-9):.0%} | {sum_of('asked')} "
              f"| {sum_of('cached')} | {sum_of('embedded')} | {sum_of('tokens')} "
              f"| {sum_of('passes')} |")
    if args.top:
        print(f"\nthe rules' costliest functions, own time (cProfile; top {args.top}):")
        stats = pstats.Stats(profile).sort_stats("tottime")
        shown = 0
        for func in stats.fcn_list or []:  # type: ignore[attr-defined]
            _, _, tottime, cumtime, _ = stats.stats[func]  # type: ignore[attr-defined]
            where = f"{Path(func[0]).name}:{func[1]}({func[2]})"
            if "onnxruntime" in where or "run_level_profile" in func[0]:
                continue
            print(f"  {tottime:7.3f} s own  {cumtime:7.3f} s with callees  {where}")
            shown += 1
            if shown >= args.top:
                break
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
