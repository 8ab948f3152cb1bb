"""The embedder's passes cut by length, against fixed passes of 16 texts, on the texts the
run-level evaluators really embed.

    python bench/embedder_passes.py [--dir calibration]
    python bench/embedder_passes.py --labels bench/real_runs/evaluator_tune.jsonl \
        --repo sierra-research/tau2-bench=PATH [--sample 40]

Collects every ``embed`` call that HALLUCINATION, TASK_COMPLETION,
TASK_UNDERSTANDING_FAILURE and OFF_TOPIC_DRIFT make on the calibration sets (or on real
runs read as ``bench/real_run_evaluators.py`` reads them), then runs each call's texts
through the model both ways, alternating which goes first, and prints the CPU time
(``time.process_time``, every thread: it moves much less than wall time on a shared
machine), the padded tokens, and the ratio. The vectors must be the same bits either way;
the script exits 1 if they are not.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from evaluator_accuracy import ANSWERS, read_cases
from semloop.judge.local import _model


def _fixed_ends(lengths: Sequence[int]) -> list[int]:
    """The passes before: 16 texts at a time, whatever their lengths."""
    return [min(start + 16, len(lengths)) for start in range(0, len(lengths), 16)]


def _record(args: argparse.Namespace, embedder: Any) -> list[list[str]]:
    """The texts of every ``embed`` call the four run-level evaluators make."""
    calls: list[list[str]] = []
    real = embedder.embed

    def recording(texts: Sequence[str]) -> Any:
        calls.append(list(texts))
        return real(texts)

    if not args.labels:
        for name in ANSWERS:
            for case in read_cases(args.dir / f"{name}.jsonl"):
                for each in ANSWERS.values():
                    each(case, recording)
        return calls
    from make_real_runs import labelled_runs, read_labels, repos_of
    from real_run_evaluators import RUN_LEVEL
    from semloop.evaluate import get_evaluator, run_case_from_trace
    from semloop.evaluate.cases import records_chat
    from semloop.evaluate.config import DEFAULT_CONFIG, load_evaluators_config
    from semloop.judge.registry import make_backend

    runs, problems = labelled_runs(read_labels(args.labels), repos_of(args.repo), "all")
    for p in problems:
        print("skipped:", p, file=sys.stderr)
    if args.sample and args.sample < len(runs):
        runs = random.Random(9).sample(runs, args.sample)
    judge = make_backend("local")
    judge.embedder.embed = recording  # type: ignore[attr-defined]
    config = load_evaluators_config(DEFAULT_CONFIG)
    for label, run in runs:
        trace = run.to_trace()
        real = run_case_from_trace(trace, id=label["id"], chat=records_chat(run))
        if real is None:
            continue
        for name in RUN_LEVEL:
            get_evaluator(name)(real, judge, config.for_evaluator(name))
    return calls


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=ROOT / "calibration")
    ap.add_argument("--labels", type=Path, help="real runs, as bench/real_run_evaluators.py")
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=PATH")
    ap.add_argument("--sample", type=int, default=0, metavar="N")
    args = ap.parse_args()
    embedder = _model.Embedder(cache_size=0, threads=1)
    calls = _record(args, embedder)
    cut = _model._pass_ends
    ways = {"fixed 16": _fixed_ends, "cut by length": cut}
    cpu = dict.fromkeys(ways, 0.0)
    padded = dict.fromkeys(ways, 0)
    same = True
    for k, texts in enumerate(calls):
        lengths = sorted(len(embedder.tokenizer.encode(t)) for t in texts)
        out = {}
        for name in sorted(ways, reverse=bool(k % 2)):
            ends = ways[name](lengths)
            padded[name] += sum((end - start) * lengths[end - 1]
                                for start, end in zip([0, *ends], ends))
            _model._pass_ends = ways[name]
            c0 = time.process_time()
            out[name], _ = embedder._compute(texts)
            cpu[name] += time.process_time() - c0
        _model._pass_ends = cut
        same = same and all((a == b).all() for a, b in zip(*out.values()))
    tokens = sum(len(embedder.tokenizer.encode(t)) for texts in calls for t in texts)
    print(f"{len(calls)} embed calls, {sum(map(len, calls))} texts, {tokens} tokens")
    for name in ways:
        print(f"  {name:>13}: CPU {cpu[name]:.2f} s, {padded[name]} tokens with padding")
    print(f"  cut by length / fixed 16: CPU {cpu['cut by length'] / cpu['fixed 16']:.2f}x, "
          f"padded tokens {padded['cut by length'] / padded['fixed 16']:.2f}x; vectors "
          + ("bit-identical" if same else "DIFFER"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
