"""Speed and memory of the embedded judge's run-level answers on the calibration sets.

    python bench/evaluator_speed.py [--dir calibration] [--threads 2]

Prints, against issue 9's targets:
- model load: building the embedder (import, sha256 check, onnxruntime session);
- per evaluator, the median and p95 wall time of one answer over its calibration set,
  cold (the vector cache cleared before every case: nothing from an earlier case helps),
  and the median in CPU time (``time.process_time``, all threads), which moves much less
  than wall time on a shared machine;
- all four answers on one case, cold, the way an evaluator run over a finished run asks;
- peak RSS of this process (``resource.getrusage``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from evaluator_accuracy import ANSWERS, read_cases


def _p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "calibration")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    from semloop.judge.local._model import Embedder

    embedder = Embedder(threads=args.threads)
    load_s = time.perf_counter() - start
    load = os.getloadavg()
    print(f"embedded judge, run-level answers (threads={args.threads}, "
          f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{load[0]:.1f} at start)")
    print(f"  model load (import + sha256 + session): {load_s:.3f} s   target <= 1 s")
    every: list[float] = []
    for name, answer in ANSWERS.items():
        path = args.dir / f"{name}.jsonl"
        if not path.is_file():
            print(f"  {name}: {path} not found, skipped")
            continue
        cases = read_cases(path)
        wall: list[float] = []
        cpu: list[float] = []
        for case in cases:
            embedder.clear_cache()
            t0, c0 = time.perf_counter(), time.process_time()
            answer(case, embedder.embed)
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        print(f"  {name} ({len(cases)} cases, cold): median {statistics.median(wall):.1f} ms, "
              f"p95 {_p95(wall):.1f} ms, CPU median {statistics.median(cpu):.1f} ms   "
              "target median <= 30 ms")
        for case in cases:
            embedder.clear_cache()
            t0 = time.perf_counter()
            for each in ANSWERS.values():
                each(case, embedder.embed)
            every.append((time.perf_counter() - t0) * 1000)
    if every:
        print(f"  all four answers on one case (cold, {len(every)} cases): median "
              f"{statistics.median(every):.1f} ms, p95 {_p95(every):.1f} ms")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak RSS: {peak_mb:.0f} MB   target <= 450 MB (every evaluator loaded)")
    print(f"  load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
