"""Every verdict of the embedded judge on the calibration sets, to prove a speed change
changed no answer.

Runs each evaluator that can read a case (a run case: the four run-level rules; a trace:
AGENT_LOOP and, read as its run case, the four rules; a conversation: the three
conversation evaluators) on every row of ``calibration/*.jsonl`` and
``calibration/holdout/*.jsonl``, judged ``--threads`` at a time the way the semantic
worker judges, and writes or compares fired, confidence and reasoning per case. Usage:

  PYTHONHASHSEED=0 .venv/bin/python bench/judge_identity.py --write before.json   # old code
  PYTHONHASHSEED=0 .venv/bin/python bench/judge_identity.py --compare before.json --threads 8 \
      [--worker-judge]   # the judge the semantic worker builds (two passes at once)

Exit status 1 when a verdict (fired, confidence, error) differs, or with ``--reasoning``
when a reasoning text does. A reasoning text may name one of several equally good words
picked from a set, so it can differ between processes: compare it with one
``PYTHONHASHSEED`` for both runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from semloop.evaluate import EVALUATORS, Evaluator
from semloop.evaluate.cases import as_level, parse_case
from semloop.judge.registry import make_backend
from semloop.worker import semantic_judge

ROOT = Path(__file__).resolve().parents[1]


def jobs() -> list[tuple[str, Evaluator, Any]]:
    """(key, evaluator, case) for every evaluator that reads each calibration case."""
    out = []
    for path in sorted([*ROOT.glob("calibration/*.jsonl"), *ROOT.glob("calibration/holdout/*.jsonl")]):
        where = path.relative_to(ROOT / "calibration")
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = parse_case(json.loads(line))
            for evaluator in EVALUATORS.values():
                try:
                    read = as_level(case, evaluator.level)
                except ValueError:  # TraceFormatError: this evaluator does not read it
                    continue
                out.append((f"{where}:{case.id}:{evaluator.name}", evaluator, read))
    return out


def verdicts(threads: int, worker_judge: bool) -> dict[str, list[Any]]:
    judge = semantic_judge("local") if worker_judge else make_backend("local")
    todo = jobs()
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(lambda job: job[1](job[2], judge), todo))
    return {key: [r.fired, r.confidence, r.reasoning, r.error]
            for (key, _, _), r in zip(todo, results)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", type=Path)
    what.add_argument("--compare", type=Path)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--worker-judge", action="store_true",
                        help="the embedded judge as the semantic worker builds it")
    parser.add_argument("--reasoning", action="store_true",
                        help="a reasoning text that differs fails the check too")
    args = parser.parse_args()
    start = time.perf_counter()
    now = verdicts(args.threads, args.worker_judge)
    took = time.perf_counter() - start
    if args.write:
        args.write.write_text(json.dumps(now, sort_keys=True, indent=0))
        print(f"{len(now)} verdicts written to {args.write} ({took:.1f} s)")
        return 0
    before = json.loads(args.compare.read_text())
    keys = sorted(before.keys() | now.keys())
    differ = [k for k in keys if _verdict(before.get(k)) != _verdict(now.get(k))]
    worded = [k for k in keys if before.get(k) != now.get(k) and k not in differ]
    for key in [*differ, *(worded if args.reasoning else [])][:20]:
        print(f"DIFFERS {key}: before {before.get(key)} now {now.get(key)}")
    fired = sum(1 for v in now.values() if v[0])
    print(f"{len(now)} verdicts ({fired} fired) with {args.threads} thread(s) in {took:.1f} s: "
          f"{len(differ)} differ from {args.compare}, {len(worded)} more in reasoning only")
    return 1 if differ or (args.reasoning and worded) else 0


def _verdict(row: list[Any] | None) -> tuple[Any, ...] | None:
    return None if row is None else (row[0], row[1], row[3])


if __name__ == "__main__":
    sys.exit(main())
